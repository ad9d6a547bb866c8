import Foundation

/// The text of a verification SMS in the app's language (`X-Firebase-Locale`, which the SDKs set
/// from their language code), falling back to English as production does for languages it lacks.
enum SmsText {
    static let defaultLanguage = "en"

    private static let codePlaceholder = "{code}"
    private static let templates: [String: String] = [
        "en": "Your verification code is {code}.",
        "fr": "Votre code de validation est {code}.",
        "de": "Ihr Bestätigungscode lautet {code}.",
        "es": "Tu código de verificación es {code}.",
        "it": "Il tuo codice di verifica è {code}.",
        "pt": "Seu código de verificação é {code}.",
    ]

    /// A header value that is a language tag ("fr", "fr-FR", "zh_Hant_TW"), trimmed; nil for anything
    /// else, so nothing odd reaches the log.
    static func languageTag(_ header: String) -> String? {
        let tag = header.trimmingCharacters(in: .whitespaces)
        let parts = tag.split(separator: "-", omittingEmptySubsequences: false)
            .flatMap { $0.split(separator: "_", omittingEmptySubsequences: false) }
        guard let first = parts.first, (1...8).contains(first.count), first.allSatisfy({ $0.isASCII && $0.isLetter }),
              parts.dropFirst().allSatisfy({ (1...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } })
        else { return nil }
        return tag
    }

    /// The language the SMS is written in for a locale tag: its primary language when there is a
    /// translation, else English.
    static func language(for locale: String) -> String {
        let primary = String(locale.prefix { $0 != "-" && $0 != "_" }).lowercased()
        return templates[primary] == nil ? defaultLanguage : primary
    }

    static func message(code: String, language: String) -> String {
        (templates[language] ?? templates[defaultLanguage] ?? codePlaceholder)
            .replacingOccurrences(of: codePlaceholder, with: code)
    }
}
