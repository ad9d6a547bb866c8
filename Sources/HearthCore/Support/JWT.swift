/// Why a token could not be read as a JWT.
public enum JWTError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Not three dot-separated segments (header.payload.signature; the signature may be empty).
    case notThreeSegments
    /// The payload segment is not base64url.
    case payloadNotBase64URL
    /// The payload is not a JSON object.
    case payloadNotJSONObject

    public var description: String {
        switch self {
        case .notThreeSegments: return "the token is not a JWT (expected header.payload.signature)"
        case .payloadNotBase64URL: return "the token's payload is not base64url"
        case .payloadNotJSONObject: return "the token's payload is not a JSON object"
        }
    }
}

/// Reads JWT claims without checking the signature: the client only needs what the server told it
/// (expiry, uid, sign-in provider); the server verifies tokens, and emulator tokens are unsigned.
public enum JWT {
    public static func claims(of token: String) throws(JWTError) -> JSONObject {
        var token = token
        let payload = token.withUTF8 { utf8 -> Result<[UInt8], JWTError> in
            // header.payload.signature: exactly two dots, header and payload not empty.
            guard let first = utf8.firstIndex(of: UInt8(ascii: ".")),
                  let second = utf8[(first + 1)...].firstIndex(of: UInt8(ascii: ".")),
                  !utf8[(second + 1)...].contains(UInt8(ascii: ".")),
                  first > 0, second > first + 1
            else { return .failure(.notThreeSegments) }
            guard let payload = Base64URL.decode(bytes: UnsafeBufferPointer(rebasing: utf8[(first + 1)..<second]))
            else { return .failure(.payloadNotBase64URL) }
            return .success(payload)
        }
        let bytes = try payload.get()
        guard let value = try? JSONValue.parse(bytes), case .object(let claims) = value else {
            throw .payloadNotJSONObject
        }
        return claims
    }
}

/// Typed access to the claims Firebase ID tokens carry.
public struct JWTClaims: Sendable, Equatable {
    public let values: JSONObject

    public init(_ values: JSONObject) { self.values = values }

    /// Decodes `token`'s payload (no signature check).
    public init(token: String) throws(JWTError) {
        self.values = try JWT.claims(of: token)
    }

    public subscript(name: String) -> JSONValue? { values[name] }

    /// `exp`: expiry, seconds since the epoch.
    public var expiration: Int64? { values["exp"]?.int64Value }
    /// `iat`: issue time, seconds since the epoch.
    public var issuedAt: Int64? { values["iat"]?.int64Value }
    /// `auth_time`: when the user last signed in, seconds since the epoch.
    public var authTime: Int64? { values["auth_time"]?.int64Value }
    /// `sub`: the user's uid.
    public var subject: String? { values["sub"]?.nonEmptyStringValue }
    /// `user_id` (Firebase's copy of the uid), else `sub`.
    public var userID: String? { values["user_id"]?.nonEmptyStringValue ?? subject }
    /// `firebase.sign_in_provider`: "anonymous", "password", "custom", "google.com", ...
    public var signInProvider: String? { values["firebase"]?["sign_in_provider"]?.nonEmptyStringValue }
    /// `exp - iat`: the token's lifetime in seconds, when both are present.
    public var lifetime: Int64? {
        guard let expiration, let issuedAt else { return nil }
        let (difference, overflow) = expiration.subtractingReportingOverflow(issuedAt)
        return overflow ? nil : difference
    }
}
