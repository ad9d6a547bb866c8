import Foundation

/// Turns bytes into JSON values and Encodable values into bytes, the same way everywhere.
enum JSONCoding {
    /// Responses: Foundation's encoder does not keep declaration order, so keys are sorted to make
    /// the output stable. `JSONValue`s (tokens, envelopes) keep their own order. `ResponseEncoder`
    /// writes Foundation's bytes faster and hands anything it does not mirror back to Foundation.
    static func encode<T: Encodable>(_ value: T) -> [UInt8] {
        if let json = value as? JSONValue { return JSONWriter.bytes(json) }
        if let bytes = try? ResponseEncoder.encode(value) { return bytes }
        return foundationEncode(value)
    }

    private static func foundationEncode<T: Encodable>(_ value: T) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        do {
            return Array(try encoder.encode(value))
        } catch {
            // Every value the emulator encodes is a plain struct of strings, numbers and arrays;
            // reaching here is a bug, answered as a 500 rather than a crash.
            return Array(#"{"error":{"code":500,"message":"INTERNAL_ERROR : response encoding failed","status":"INTERNAL"}}"#.utf8)
        }
    }

    static func text(_ value: JSONValue) -> String {
        String(decoding: encode(value), as: UTF8.self)
    }

    enum ParseFailure: Error {
        case invalidUTF8
        case malformed(String)
    }

    /// Parses a request body. Invalid UTF-8 is reported as such rather than as a generic syntax error.
    static func parse(_ bytes: [UInt8]) throws(ParseFailure) -> JSONValue {
        guard isValidUTF8(bytes) else { throw .invalidUTF8 }
        do {
            return try JSONParser.parse(bytes)
        } catch {
            throw .malformed(error.message)
        }
    }

    /// `parse` of an object keeping only some members (`JSONParser.parseObject(_:keeping:)`); nil
    /// for valid JSON that is not an object.
    static func parseObject(_ bytes: [UInt8], keeping keep: [String]) throws(ParseFailure) -> JSONObject? {
        guard isValidUTF8(bytes) else { throw .invalidUTF8 }
        do {
            return try JSONParser.parseObject(bytes, keeping: keep)
        } catch {
            throw .malformed(error.message)
        }
    }

    /// ASCII (nearly every body and token) is checked eight bytes at a time without building a String.
    private static func isValidUTF8(_ bytes: [UInt8]) -> Bool {
        let isASCII = bytes.withUnsafeBufferPointer { buffer -> Bool in
            var index = 0
            var high: UInt64 = 0
            if let base = buffer.baseAddress {
                while index + 8 <= buffer.count {
                    high |= UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                    index += 8
                }
            }
            while index < buffer.count {
                high |= UInt64(buffer[index])
                index += 1
            }
            return high & 0x8080_8080_8080_8080 == 0
        }
        return isASCII || String(validating: bytes, as: UTF8.self) != nil
    }

    /// Decodes a typed request from an already validated JSON object.
    static func decode<T: Decodable>(_ type: T.Type, from object: JSONObject) throws(ApiError) -> T {
        if let value = try? RequestDecoder.decode(type, from: object) { return value }
        // Foundation decides what the fast path declined, with its error wording.
        do {
            return try JSONDecoder().decode(T.self, from: Data(encode(JSONValue.object(object))))
        } catch {
            throw .invalidArgument("Invalid JSON payload received. \(error)")
        }
    }
}
