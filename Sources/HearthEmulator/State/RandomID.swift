/// Random identifiers in the reference's alphabets. Not secrets: nothing here needs to be unguessable.
enum RandomID {
    private static let alphanumeric = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
    private static let base64URL = alphanumeric + Array("-_")

    /// [A-Za-z0-9]{length}: localIds (28), sessionIds (27), salts.
    static func alphanumeric(_ length: Int) -> String {
        String((0..<length).map { _ in alphanumeric.randomElement() ?? "A" })
    }

    /// [0-9]{length}: fake identity provider user ids (40), like the reference widget's.
    static func digits(_ length: Int) -> String {
        String((0..<length).map { _ in "0123456789".randomElement() ?? "0" })
    }

    /// [A-Za-z0-9_-]{length}: oobCodes (54).
    static func base64URL(_ length: Int) -> String {
        String((0..<length).map { _ in base64URL.randomElement() ?? "A" })
    }
}
