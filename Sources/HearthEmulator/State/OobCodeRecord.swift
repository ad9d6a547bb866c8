/// An out-of-band code ("email link") the emulator would have mailed; listed by `oobCodes`.
struct OobCodeRecord: Codable, Sendable, Equatable {
    var email: String
    var newEmail: String?
    var oobCode: String
    var oobLink: String
    var requestType: OobRequestType
    /// When it was issued (not listed), for `oobCodeTtlSeconds`.
    var issuedAtMilliseconds: Int64 = 0

    enum CodingKeys: String, CodingKey {
        case email, newEmail, oobCode, oobLink, requestType
    }
}

enum OobRequestType: String, Codable, Sendable, CaseIterable {
    case passwordReset = "PASSWORD_RESET"
    case verifyEmail = "VERIFY_EMAIL"
    case verifyAndChangeEmail = "VERIFY_AND_CHANGE_EMAIL"
    case emailSignIn = "EMAIL_SIGNIN"
    case recoverEmail = "RECOVER_EMAIL"

    /// The `mode` of the action link, as the Firebase action handler reads it.
    var linkMode: String {
        switch self {
        case .passwordReset: "resetPassword"
        case .verifyEmail: "verifyEmail"
        case .verifyAndChangeEmail: "verifyAndChangeEmail"
        case .emailSignIn: "signIn"
        case .recoverEmail: "recoverEmail"
        }
    }
}

/// Codes in the order they were issued (the listing keeps that order).
struct OobCodeBook: Sendable {
    private var order: [String] = []
    private var records: [String: OobCodeRecord] = [:]

    mutating func add(_ record: OobCodeRecord) {
        if records.updateValue(record, forKey: record.oobCode) == nil { order.append(record.oobCode) }
    }

    func record(for code: String) -> OobCodeRecord? { records[code] }

    mutating func remove(_ code: String) {
        if records.removeValue(forKey: code) != nil { order.removeAll { $0 == code } }
    }

    var all: [OobCodeRecord] { order.compactMap { records[$0] } }
}
