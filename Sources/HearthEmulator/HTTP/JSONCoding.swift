import Foundation
import HearthWire

/// Turns bytes into JSON values and Encodable values into bytes, the same way everywhere.
enum JSONCoding {
    /// Responses: Foundation's encoder does not keep declaration order, so keys are sorted to make
    /// the output stable. `JSONValue`s (tokens, envelopes) keep their own order. `ResponseEncoder`
    /// writes Foundation's bytes faster and hands anything it does not mirror back to Foundation.
    static func encode<T: Encodable>(_ value: T) -> [UInt8] {
        if let json = value as? JSONValue { return json.serialized() }
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
