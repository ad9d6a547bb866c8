import HearthWire

/// JSON Web Tokens with `alg: none` and an empty signature, which is what the Firebase Auth Emulator
/// issues and what Admin SDKs accept in emulator mode. Decoding never checks signatures.
enum UnsignedJWT {
    struct Decoded: Sendable {
        var header: JSONObject
        /// Usually an object; a payload that is not JSON is kept as its text, as `jsonwebtoken` does.
        var payload: JSONValue
    }

    static func encode(_ claims: JSONObject) -> String {
        encode(claimsJSON: JSONValue.object(claims).serialized())
    }

    /// `header.payload.` around claims already written as JSON text.
    static func encode(claimsJSON: [UInt8]) -> String {
        let payloadLength = Base64.unpaddedLength(of: claimsJSON.count)
        let length = encodedHeader.count + payloadLength + 2
        return String(unsafeUninitializedCapacity: length) { out in
            var position = out.initialize(fromContentsOf: encodedHeader)
            out[position] = UInt8(ascii: ".")
            position += 1
            position += Base64.urlEncode(claimsJSON, into: UnsafeMutableBufferPointer(rebasing: out[position...]))
            out[position] = UInt8(ascii: ".")
            return position + 1
        }
    }

    /// `{"alg":"none","typ":"JWT"}` in base64url: the same for every token.
    private static let encodedHeader: [UInt8] = Array(Base64.urlEncoded(
        JSONValue.object(["alg": "none", "typ": "JWT"]).serialized()).utf8)

    /// Three base64url segments (the last may be empty) whose first decodes to a JSON object; nil otherwise.
    static func decode(_ token: String) -> Decoded? {
        guard let (headerBytes, payloadBytes) = segments(of: token),
              let header = (try? JSONValue.parse(headerBytes))?.objectValue
        else { return nil }
        let payload: JSONValue
        if let parsed = try? JSONValue.parse(payloadBytes) {
            payload = parsed
        } else {
            payload = .string(String(decoding: payloadBytes, as: UTF8.self))
        }
        return Decoded(header: header, payload: payload)
    }

    /// The header and the claims named in `keep` of a token that `decode` reads with an object
    /// payload; nil for any other. Claims not kept are checked but never built.
    static func decodeClaims(_ token: String, keeping keep: [String]) -> (header: JSONObject, claims: JSONObject)? {
        guard let (headerBytes, payloadBytes) = segments(of: token),
              let header = (try? JSONValue.parse(headerBytes))?.objectValue,
              let claims = (try? JSONObject.parse(payloadBytes, keeping: keep)) ?? nil
        else { return nil }
        return (header, claims)
    }

    /// The decoded header and payload segments.
    private static func segments(of token: String) -> (header: [UInt8], payload: [UInt8])? {
        // Bytes, not Characters: every token check of every request comes through here. Any
        // non-ASCII byte is outside the alphabet, so the answer is the same as per Character.
        var token = token
        return token.withUTF8 { bytes in
            var first: Int?
            var second: Int?
            for (index, byte) in bytes.enumerated() {
                if byte == UInt8(ascii: ".") {
                    if first == nil { first = index } else if second == nil { second = index } else { return nil }
                } else if !isBase64URLCharacter(byte) {
                    return nil
                }
            }
            guard let first, let second, first > 0, second > first + 1,
                  let header = Base64.decode(bytes: UnsafeBufferPointer(rebasing: bytes[..<first])),
                  let payload = Base64.decode(bytes: UnsafeBufferPointer(rebasing: bytes[(first + 1)..<second]))
            else { return nil }
            return (header, payload)
        }
    }

    private static func isBase64URLCharacter(_ c: UInt8) -> Bool {
        switch c {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"): true
        default: false
        }
    }
}
