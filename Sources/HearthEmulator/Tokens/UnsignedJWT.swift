/// JSON Web Tokens with `alg: none` and an empty signature, which is what the Firebase Auth Emulator
/// issues and what Admin SDKs accept in emulator mode. Decoding never checks signatures.
enum UnsignedJWT {
    struct Decoded: Sendable {
        var header: JSONObject
        /// Usually an object; a payload that is not JSON is kept as its text, as `jsonwebtoken` does.
        var payload: JSONValue
    }

    static func encode(_ claims: JSONObject) -> String {
        let header = JSONObject([("alg", .string("none")), ("typ", .string("JWT"))])
        let h = Base64.urlEncoded(JSONCoding.encode(JSONValue.object(header)))
        let p = Base64.urlEncoded(JSONCoding.encode(JSONValue.object(claims)))
        return "\(h).\(p)."
    }

    /// Three base64url segments (the last may be empty) whose first decodes to a JSON object; nil otherwise.
    static func decode(_ token: String) -> Decoded? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty,
              parts.allSatisfy({ $0.allSatisfy(isBase64URLCharacter) }),
              let headerBytes = Base64.decodeLenient(parts[0]),
              let payloadBytes = Base64.decodeLenient(parts[1]),
              let header = (try? JSONCoding.parse(headerBytes))?.objectValue
        else { return nil }
        let payload: JSONValue
        if let parsed = try? JSONCoding.parse(payloadBytes) {
            payload = parsed
        } else {
            payload = .string(String(decoding: payloadBytes, as: UTF8.self))
        }
        return Decoded(header: header, payload: payload)
    }

    private static func isBase64URLCharacter(_ c: Character) -> Bool {
        c.isASCII && (c.isLetter || c.isNumber || c == "-" || c == "_")
    }
}
