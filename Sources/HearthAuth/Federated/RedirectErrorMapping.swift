import HearthBackend
import HearthWire

/// The one table from errors a redirect can carry to Hearth's codes.
///
/// - OAuth 2.0 `error=` (RFC 6749 §4.1.2.1): `access_denied` means the user declined at the IdP, the
///   web flow's equivalent of closing the window → `.webContextCancelled`; any other value is the IdP
///   refusing the request → `.webInternalError`.
/// - Firebase's hosted handler `firebaseError=` (JSON `{"code":"auth/…","message":"…"}`), as the iOS
///   SDK maps it (client-wire-reference §3.2 "Client-side-only codes"): `auth/invalid-oauth-client-id`
///   → `.invalidClientId`, `auth/network-request-failed` → `.networkRequestFailed` (iOS's
///   webNetworkRequestFailed has no C++ counterpart), `auth/internal-error` → `.webInternalError`;
///   every other code → `.webInternalError` with "[code] - message" (iOS's
///   webSignInUserInteractionFailure, which the C++ SDK's public enum lacks).
enum RedirectErrorMapping {
    /// Text from the redirect is shown in messages, so keep it short and printable.
    static let maximumDetailLength = 200

    static func oauthError(code: String, description: String?) -> AuthError {
        // The IdP's own description, when it sent one, says it best; the OAuth code stays in the text.
        let detail = description.map(printable).flatMap { $0.isEmpty ? nil : ": \($0)" } ?? "."
        if code == "access_denied" {
            return AuthError(code: .webContextCancelled,
                             message: "The sign-in was cancelled at the identity provider (access_denied)\(detail)")
        }
        return AuthError(code: .webInternalError,
                         message: "The identity provider refused the sign-in (\(printable(code)))\(detail)")
    }

    static func firebaseError(json: String) -> AuthError {
        guard let value = try? JSONValue.parse(json), let code = value["code"]?.stringValue else {
            return AuthError(code: .webInternalError,
                             message: "The sign-in handler reported an error Hearth could not read.")
        }
        let message = value["message"]?.stringValue.map(printable) ?? ""
        switch code {
        case "auth/invalid-oauth-client-id":
            return AuthError(code: .invalidClientId, message: message)
        case "auth/network-request-failed":
            return AuthError(code: .networkRequestFailed, message: message)
        case "auth/internal-error":
            return AuthError(code: .webInternalError, message: message)
        // The person closed or cancelled the page (JS: auth/user-cancelled, auth/popup-closed-by-user;
        // iOS: webContextCancelled).
        case "auth/user-cancelled", "auth/web-context-cancelled", "auth/popup-closed-by-user",
             "auth/cancelled-popup-request":
            return AuthError(code: .webContextCancelled, message: message.isEmpty ? "The page was cancelled." : message)
        default:
            return AuthError(code: .webInternalError, message: "[\(printable(code))] - \(message)")
        }
    }

    /// Control characters dropped, cut to `maximumDetailLength` characters.
    static func printable(_ text: String) -> String {
        let kept = text.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }
        var result = String(String.UnicodeScalarView(kept))
        if result.count > maximumDetailLength {
            result = String(result.prefix(maximumDetailLength)) + "…"
        }
        return result
    }
}
