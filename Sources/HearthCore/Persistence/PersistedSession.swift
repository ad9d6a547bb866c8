#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The session as written to a store: the user's profile and tokens, tagged with the app it belongs
/// to so a file from another app or API key reads as signed out.
struct PersistedSession: Codable, Equatable {
    static let currentFormat = 1

    var format: Int = PersistedSession.currentFormat
    var appName: String
    var apiKey: String
    var user: UserProfile
    var tokens: TokenSet

    func encoded() -> [UInt8] {
        // Encoding plain strings and numbers cannot fail.
        (try? Array(JSONEncoder().encode(self))) ?? []
    }

    /// nil for anything that is not a session of this app: corrupt, truncated, foreign or from a
    /// future format.
    static func decode(_ bytes: [UInt8], appName: String, apiKey: String) -> PersistedSession? {
        guard let session = try? JSONDecoder().decode(PersistedSession.self, from: Data(bytes)),
              session.format == currentFormat, session.appName == appName, session.apiKey == apiKey,
              !session.user.uid.isEmpty, !session.tokens.refreshToken.isEmpty
        else { return nil }
        return session
    }
}
