/// Makes a response field value safe to send, as Swift HTTP Types did for Hummingbird: values echo
/// request data (a redirect's `continueUrl`, a reflected `Origin`), and a CR or LF in one must not
/// end the field. Control characters become spaces; leading and trailing whitespace is dropped.
enum HTTPFieldValue {
    static func legalized(_ value: String) -> String {
        if isLegal(value.utf8) { return value }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(value.utf8.count)
        var lastVisible = -1
        for byte in value.utf8 {
            switch byte {
            case 0x21...0x7E, 0x80...0xFF:
                bytes.append(byte)
                lastVisible = bytes.count - 1
            case 0x09, 0x20:
                if !bytes.isEmpty { bytes.append(byte) }
            default:
                if !bytes.isEmpty { bytes.append(0x20) }
            }
        }
        return String(decoding: bytes[..<(lastVisible + 1)], as: UTF8.self)
    }

    private static func isLegal(_ bytes: String.UTF8View) -> Bool {
        guard let first = bytes.first, let last = bytes.last else { return true }
        if first == 0x09 || first == 0x20 || last == 0x09 || last == 0x20 { return false }
        return bytes.allSatisfy { $0 == 0x09 || $0 == 0x20 || $0 >= 0x21 && $0 != 0x7F }
    }
}
