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
            let users = scope.existingProject(in: state)?.read { $0.users } ?? [:]
            return ConsoleResponse.json(search(users, query: query["q"] ?? "", offset: offset, limit: limit))
        } catch {
            return ConsoleResponse.error(error)
        }
    }

    /// Sorts keys, not accounts: an account is a large value, and only a page of them is answered.
    static func search(_ users: [String: UserRecord], query: String, offset: Int, limit: Int) -> Page {
        let matcher = Matcher(query)
        var keys: [(createdAt: Int64, localId: String)] = []
        keys.reserveCapacity(matcher.matchesEverything ? users.count : 64)
        for (localId, user) in users where matcher.matchesEverything || matcher.matches(user) {
            keys.append((user.createdAt.flatMap { Int64($0) } ?? 0, localId))
        }
        // Created later first; accounts created in the same millisecond by uid.
        keys.sort { $0.createdAt != $1.createdAt ? $0.createdAt > $1.createdAt : $0.localId < $1.localId }
        let rows = keys.dropFirst(offset).prefix(limit).compactMap { users[$0.localId].map(row) }
        return Page(total: users.count, matched: keys.count, offset: offset, limit: limit, users: rows)
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

    /// Case-insensitive substring search without allocating per account for ASCII text (uids,
    /// emails and phone numbers nearly always are); other text is lowercased first.
    struct Matcher {
        private let text: String
        private let needle: [UInt8]
        private let needleIsASCII: Bool
        /// The query's digits when it reads as (part of) a phone number.
        private let digits: [UInt8]?

        init(_ query: String) {
            text = query.trimmingCharacters(in: .whitespaces).lowercased()
            needle = Array(text.utf8)
            needleIsASCII = needle.allSatisfy { $0 < 0x80 }
            let phoneLike = !text.isEmpty && text.allSatisfy { $0.isASCII && ($0.isNumber || " +-().".contains($0)) }
            let digits = needle.filter { (0x30...0x39).contains($0) }
            self.digits = phoneLike && !digits.isEmpty ? digits : nil
        }

        var matchesEverything: Bool { text.isEmpty }

        func matches(_ user: UserRecord) -> Bool {
            if contains(user.localId) || user.email.map(contains) == true || user.displayName.map(contains) == true {
                return true
            }
            guard let phone = user.phoneNumber else { return false }
            if contains(phone) { return true }
            guard let digits else { return false }
            return Self.find(digits, in: phone.utf8.filter { (0x30...0x39).contains($0) }, foldingCase: false)
        }

        private func contains(_ field: String) -> Bool {
            if needleIsASCII, let found = field.utf8.withContiguousStorageIfAvailable({ bytes -> Bool? in
                bytes.contains { $0 >= 0x80 } ? nil : Self.find(needle, in: bytes, foldingCase: true)
            }), let found {
                return found
            }
            return field.lowercased().contains(text)
        }

        private static func find<Haystack: Collection<UInt8>>(_ needle: [UInt8], in haystack: Haystack, foldingCase: Bool) -> Bool
        where Haystack.Index == Int {
            guard needle.count <= haystack.count else { return false }
            let start = haystack.startIndex
            for offset in 0...(haystack.count - needle.count) {
                var index = 0
                while index < needle.count {
                    var byte = haystack[start + offset + index]
                    if foldingCase && byte >= 0x41 && byte <= 0x5A { byte |= 0x20 }
                    if byte != needle[index] { break }
                    index += 1
                }
                if index == needle.count { return true }
            }
            return false
        }
    }
}
