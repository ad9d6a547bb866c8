import HearthWire

extension Base64 {
    /// A refresh token or MFA pending credential a client handed back, read as Firebase's emulator reads
    /// it (Node's `Buffer.from(text, "base64")`): whitespace anywhere in it is ignored.
    static func decodeCarriedToken(_ text: String) -> [UInt8]? {
        if let bytes = decode(text) { return bytes }
        let compact = text.utf8.filter { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D && $0 != 0x0C }
        guard compact.count < text.utf8.count else { return nil }
        return compact.withUnsafeBufferPointer { decode(bytes: $0) }
    }
}
