import Foundation

/// `GET /emulator/ui/api/projects/{p}[/tenants/{t}]/accounts?q=&offset=&limit=`: one page of the
/// accounts table, newest first, searched on the server so the page stays fast with tens of
/// thousands of accounts (no REST route searches: `accounts:query` only matches whole values).
///
/// `q` matches, ignoring case, anywhere in the uid, the email, the display name or the phone
/// number; a query of digits also matches phone numbers whatever their punctuation
/// ("650 555" finds +16505553434). `limit` is 1...500 (default 50).
enum AccountSearch {
    struct Row: Encodable {
        var localId: String
        var email: String?
        var emailVerified: Bool
        var phoneNumber: String?
        var displayName: String?
        var disabled: Bool
        /// `providerUserInfo[].providerId`, in order; empty for an anonymous account.
        var providers: [String]
        var secondFactors: Int
        var createdAt: String?
        var lastLoginAt: String?
    }

    struct Page: Encodable {
        /// Accounts in the project (or tenant).
        var total: Int
        /// Accounts the query matches.
        var matched: Int
        var offset: Int
        var limit: Int
        var users: [Row]
    }

    static let defaultLimit = 50
    static let maximumLimit = 500

    static func respond(to query: QueryParameters, in scope: ConsoleScope, state: EmulatorState) -> EmulatorResponse {
        do throws(ApiError) {
            let offset = try number(query["offset"], name: "offset", default: 0, range: 0...Int(Int32.max))
            let limit = try number(query["limit"], name: "limit", default: defaultLimit, range: 1...maximumLimit)
            // The dictionary is copied out (a reference count) and searched after the lock is released.
            let users = try scope.project(in: state).read { $0.users }
            return ConsoleResponse.json(search(Array(users.values), query: query["q"] ?? "", offset: offset, limit: limit))
        } catch {
            return ConsoleResponse.error(error)
        }
    }

    static func search(_ users: [UserRecord], query: String, offset: Int, limit: Int) -> Page {
        let matcher = Matcher(query)
        var matching = matcher.matchesEverything ? users : users.filter(matcher.matches)
        let matched = matching.count
        matching.sort(by: newestFirst)
        let rows = matching.dropFirst(offset).prefix(limit).map(row)
        return Page(total: users.count, matched: matched, offset: offset, limit: limit, users: Array(rows))
    }

    /// Created later first; accounts created in the same millisecond by uid.
    private static func newestFirst(_ a: UserRecord, _ b: UserRecord) -> Bool {
        let (left, right) = (a.createdAt.flatMap { Int64($0) } ?? 0, b.createdAt.flatMap { Int64($0) } ?? 0)
        return left != right ? left > right : a.localId < b.localId
    }

    private static func row(_ user: UserRecord) -> Row {
        Row(localId: user.localId, email: user.email, emailVerified: user.emailVerified == true,
            phoneNumber: user.phoneNumber, displayName: user.displayName, disabled: user.isDisabled,
            providers: (user.providerUserInfo ?? []).map(\.providerId), secondFactors: user.secondFactors.count,
            createdAt: user.createdAt, lastLoginAt: user.lastLoginAt)
    }

    private static func number(_ text: String?, name: String, default value: Int, range: ClosedRange<Int>) throws(ApiError) -> Int {
        guard let text, !text.isEmpty else { return value }
        guard let number = Int(text), range.contains(number) else {
            throw .invalidArgument("\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound), not \"\(text)\".")
        }
        return number
    }

    struct Matcher {
        private let text: String
        /// The query's digits when it reads as (part of) a phone number.
        private let digits: String?

        init(_ query: String) {
            text = query.trimmingCharacters(in: .whitespaces).lowercased()
            let phoneLike = !text.isEmpty && text.allSatisfy { $0.isNumber || " +-().".contains($0) }
            let digits = text.filter(\.isNumber)
            self.digits = phoneLike && !digits.isEmpty ? digits : nil
        }

        var matchesEverything: Bool { text.isEmpty }

        func matches(_ user: UserRecord) -> Bool {
            if user.localId.lowercased().contains(text) { return true }
            if let email = user.email, email.lowercased().contains(text) { return true }
            if let name = user.displayName, name.lowercased().contains(text) { return true }
            if let phone = user.phoneNumber {
                if phone.contains(text) { return true }
                if let digits, phone.filter(\.isNumber).contains(digits) { return true }
            }
            return false
        }
    }
}
