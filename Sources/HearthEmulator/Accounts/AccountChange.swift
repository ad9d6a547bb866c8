/// What an update will do to one account, gathered before anything is written so a failed check
/// leaves the account untouched.
struct AccountChange {
    var user: UserRecord?
    var edits: [(inout UserRecord) -> Void] = []
    var upsertProviders: [ProviderUserInfo] = []
    var signInProvider: String?
    var newEmail: String?
    var isEmailUpdate = false
    var revokesTokens = false
}
