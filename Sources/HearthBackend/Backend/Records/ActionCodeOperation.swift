/// What an out-of-band code does. The raw values are hearth_action_code_operation's (the numbering of
/// Firebase's iOS ActionCodeOperation).
package enum ActionCodeOperation: Int32, Sendable, CaseIterable {
    case unknown = 0
    case passwordReset = 1
    case verifyEmail = 2
    case recoverEmail = 3
    case emailSignIn = 4
    case verifyAndChangeEmail = 5
    case revertSecondFactorAddition = 6

    /// From an answer's `requestType` ("PASSWORD_RESET", ...); `.unknown` for anything else.
    package init(requestType: String) {
        switch requestType {
        case "PASSWORD_RESET": self = .passwordReset
        case "VERIFY_EMAIL": self = .verifyEmail
        case "RECOVER_EMAIL": self = .recoverEmail
        case "EMAIL_SIGNIN": self = .emailSignIn
        case "VERIFY_AND_CHANGE_EMAIL": self = .verifyAndChangeEmail
        case "REVERT_SECOND_FACTOR_ADDITION": self = .revertSecondFactorAddition
        default: self = .unknown
        }
    }

    /// From a link's `mode` ("resetPassword", ...); nil for anything else (then it is no action link).
    package init?(linkMode: String) {
        switch linkMode {
        case "resetPassword": self = .passwordReset
        case "verifyEmail": self = .verifyEmail
        case "recoverEmail": self = .recoverEmail
        case "signIn": self = .emailSignIn
        case "verifyAndChangeEmail": self = .verifyAndChangeEmail
        case "revertSecondFactorAddition": self = .revertSecondFactorAddition
        default: return nil
        }
    }
}

/// What checking an out-of-band code tells (Firebase's ActionCodeInfo): the operation, and the email
/// addresses it concerns.
package struct ActionCodeInfo: Sendable, Equatable {
    package var operation: ActionCodeOperation
    /// The account's email, or for a verify-and-change code the address it changes to. "" when the
    /// server does not say (an email sign-in code does not reveal its address).
    package var email: String
    /// For a verify-and-change code the address being replaced; for a recover-email code the address
    /// the account moved to. "" otherwise.
    package var previousEmail: String

    package init(operation: ActionCodeOperation, email: String = "", previousEmail: String = "") {
        self.operation = operation
        self.email = email
        self.previousEmail = previousEmail
    }
}
