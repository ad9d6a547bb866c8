import HearthBackend
import HearthWire

/// An email action link taken apart as Firebase's SDKs do (the JS SDK's `ActionCodeURL.parseLink`): the
/// query must carry `apiKey`, `oobCode` and a known `mode`. Links that arrive wrapped are unwrapped
/// first: a Dynamic Link or Firebase Hosting link carries the action link in `link=`, an iOS
/// custom-scheme hand-off in `deep_link_id=`, and either may wrap the other once more.
///
/// Pasted text is forgiven its surrounding whitespace (a mail client's line break, a trailing space);
/// query values keep a literal '+' (Firebase codes are URL-safe) and the last of a repeated name wins, as
/// in Firebase's parser.
package struct ActionCodeURL: Sendable, Equatable {
    package let apiKey: String
    /// The out-of-band code.
    package let code: String
    package let operation: ActionCodeOperation
    let continueURL: String?
    package let languageCode: String?
    package let tenantId: String?

    /// nil unless `link` is (or wraps) an email action link.
    package init?(link: String) {
        let trimmed = Self.trimmed(link)
        guard !trimmed.isEmpty else { return nil }
        let fields = Self.lastValues(Self.queryFields(of: Self.unwrapped(trimmed)))
        guard let apiKey = fields["apiKey"], !apiKey.isEmpty, let code = fields["oobCode"], !code.isEmpty,
              let operation = fields["mode"].flatMap(ActionCodeOperation.init(linkMode:)) else { return nil }
        self.apiKey = apiKey
        self.code = code
        self.operation = operation
        continueURL = fields["continueUrl"]
        languageCode = fields["lang"]
        tenantId = fields["tenantId"]
    }

    /// Whether `link` is an email sign-in link (Firebase's isSignInWithEmailLink).
    static func isSignInLink(_ link: String) -> Bool {
        ActionCodeURL(link: link)?.operation == .emailSignIn
    }

    /// The action link inside `link`, in the order Firebase looks: `deep_link_id` wrapping a `link`,
    /// `deep_link_id`, `link` wrapping a `deep_link_id`, `link`, else `link` itself.
    static func unwrapped(_ link: Substring) -> Substring {
        let outer = lastValues(queryFields(of: link))
        let wrapped = outer["link"].flatMap { nonEmpty($0) }
        let doubleWrapped = wrapped.flatMap { lastValues(queryFields(of: Substring($0)))["deep_link_id"] }.flatMap { nonEmpty($0) }
        let deepLink = outer["deep_link_id"].flatMap { nonEmpty($0) }
        let deepDoubleWrapped = deepLink.flatMap { lastValues(queryFields(of: Substring($0)))["link"] }.flatMap { nonEmpty($0) }
        guard let chosen = deepDoubleWrapped ?? deepLink ?? doubleWrapped ?? wrapped else { return link }
        return Substring(chosen)
    }

    /// The query of a URL: after the first '?', up to a '#'. Text without '?' has none.
    static func queryFields(of url: Substring) -> FormFields {
        guard let mark = url.firstIndex(of: "?") else { return FormFields([]) }
        var query = url[url.index(after: mark)...]
        if let hash = query.firstIndex(of: "#") { query = query[..<hash] }
        return FormFields(parsing: query, plusIsSpace: false)
    }

    static func lastValues(_ fields: FormFields) -> [String: String] {
        var values: [String: String] = [:]
        for field in fields.fields { values[field.name] = field.value }
        return values
    }

    private static func nonEmpty(_ text: String) -> String? { text.isEmpty ? nil : text }

    /// Without leading and trailing whitespace and control characters (what a paste brings along).
    static func trimmed(_ text: String) -> Substring {
        let isTrimmed: (Unicode.Scalar) -> Bool = { $0.value <= 0x20 || $0.value == 0x7F || $0.properties.isWhitespace }
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !isTrimmed($0) }),
              let last = scalars.lastIndex(where: { !isTrimmed($0) }) else { return "" }
        return Substring(scalars[first...last])
    }
}
