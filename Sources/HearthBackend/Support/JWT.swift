#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import HearthWire

/// Why a token could not be read as a JWT.
package enum JWTError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Not three dot-separated segments (header.payload.signature; the signature may be empty).
    case notThreeSegments
    /// The payload segment is not base64url.
    case payloadNotBase64URL
    /// The payload is not a JSON object.
    case payloadNotJSONObject

    package var description: String {
        switch self {
        case .notThreeSegments: return "the token is not a JWT (expected header.payload.signature)"
        case .payloadNotBase64URL: return "the token's payload is not base64url"
        case .payloadNotJSONObject: return "the token's payload is not a JSON object"
        }
    }
}

/// Reads JWT claims without checking the signature: the client only needs what the server told it
/// (expiry, uid, sign-in provider); the server verifies tokens, and emulator tokens are unsigned.
package enum JWT {
    package static func claims(of token: String) throws(JWTError) -> JSONObject {
        let bytes = try payload(of: token)
        guard let value = try? JSONValue.parse(bytes), case .object(let claims) = value else {
            throw .payloadNotJSONObject
        }
        return claims
    }

    /// The decoded payload segment.
    static func payload(of token: String) throws(JWTError) -> [UInt8] {
        var token = token
        let payload = token.withUTF8 { utf8 -> Result<[UInt8], JWTError> in
            // header.payload.signature: exactly two dots, header and payload not empty.
            guard let first = firstDot(in: utf8, from: 0),
                  let second = firstDot(in: utf8, from: first + 1),
                  firstDot(in: utf8, from: second + 1) == nil,
                  first > 0, second > first + 1
            else { return .failure(.notThreeSegments) }
            guard let payload = Base64.decode(bytes: UnsafeBufferPointer(rebasing: utf8[(first + 1)..<second]))
            else { return .failure(.payloadNotBase64URL) }
            return .success(payload)
        }
        return try payload.get()
    }

    /// memchr: a token is ~1 KB, read on every sign-in and refresh.
    private static func firstDot(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard let base = bytes.baseAddress, start < bytes.count,
              let found = memchr(base + start, Int32(UInt8(ascii: ".")), bytes.count - start) else { return nil }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }
}

/// Typed access to the claims Firebase ID tokens carry.
package struct JWTClaims: Sendable, Equatable {
    package let values: JSONObject

    package init(_ values: JSONObject) { self.values = values }

    /// Decodes `token`'s payload (no signature check).
    package init(token: String) throws(JWTError) {
        self.values = try JWT.claims(of: token)
    }

    package subscript(name: String) -> JSONValue? { values[name] }

    /// `exp`: expiry, seconds since the epoch.
    package var expiration: Int64? { values["exp"]?.int64Value }
    /// `iat`: issue time, seconds since the epoch.
    var issuedAt: Int64? { values["iat"]?.int64Value }
    /// `auth_time`: when the user last signed in, seconds since the epoch.
    var authTime: Int64? { values["auth_time"]?.int64Value }
    /// `sub`: the user's uid.
    package var subject: String? { values["sub"]?.nonEmptyStringValue }
    /// `user_id` (Firebase's copy of the uid), else `sub`.
    var userID: String? { values["user_id"]?.nonEmptyStringValue ?? subject }
    /// `firebase.sign_in_provider`: "anonymous", "password", "custom", "google.com", ...
    package var signInProvider: String? { values["firebase"]?["sign_in_provider"]?.nonEmptyStringValue }
    /// `firebase.sign_in_provider` of `token`, read without building the other claims (every sign-in
    /// needs it; nil when absent, empty or the token unreadable, as `signInProvider` reads it).
    package static func signInProvider(of token: String) -> String? {
        guard let payload = try? JWT.payload(of: token),
              let claims = try? SignInProviderClaims(bytes: payload) else { return nil }
        return claims.firebase?.signInProvider?.nonEmptyStringValue
    }

    private struct SignInProviderClaims: JSONMembers {
        var firebase: FirebaseClaims?

        mutating func read<Source: JSONMemberSource>(_ key: JSONKey, _ source: inout Source) throws(JSONParseError) {
            switch key {
            case "firebase": firebase = try source.object(FirebaseClaims.self)
            default: try source.skip()
            }
        }
    }

    private struct FirebaseClaims: JSONMembers {
        var signInProvider: JSONValue?

        mutating func read<Source: JSONMemberSource>(_ key: JSONKey, _ source: inout Source) throws(JSONParseError) {
            switch key {
            case "sign_in_provider": signInProvider = try source.value()
            default: try source.skip()
            }
        }
    }

    /// `exp - iat`: the token's lifetime in seconds, when both are present.
    var lifetime: Int64? {
        guard let expiration, let issuedAt else { return nil }
        let (difference, overflow) = expiration.subtractingReportingOverflow(issuedAt)
        return overflow ? nil : difference
    }
}
