/// Everything the emulator knows about one project: accounts with their lookup indexes, pending
/// out-of-band codes and settings. A value type; `EmulatorState` serializes access to it.
struct ProjectState: Sendable {
    let projectId: String
    var config: ProjectConfig
    /// The tenant's settings when this is one of the project's tenants; nil for the project itself.
    var tenant: TenantConfig?
    var oobCodes = OobCodeBook()
    /// Provider sign-in flows started by createAuthUri, awaiting their signInWithIdp.
    var providerSessions = ProviderSessionBook()
    /// SMS codes "sent", by sessionInfo. Expired sessions are kept an hour to answer SESSION_EXPIRED.
    var verificationSessions = ExpiringBook<VerificationSession>(retentionMilliseconds: 3_600_000)
    var smsRateLimiter = SmsRateLimiter()
    /// signInWithPhoneNumber's temporaryProof → the phone number it proves.
    var temporaryProofs = ExpiringBook<String>()
    /// Tokens of the fake reCAPTCHA page, each good for one sendVerificationCode.
    var recaptchaTokens = ExpiringBook<Bool>()
    /// TOTP enrollments started by mfaEnrollment:start, by sessionInfo.
    var totpEnrollmentSessions = ExpiringBook<TotpEnrollmentSession>(retentionMilliseconds: 3_600_000)

    private(set) var users: [String: UserRecord] = [:]
    private var localIdByEmail: [String: String] = [:]
    private var localIdByInitialEmail: [String: String] = [:]
    private var localIdByPhoneNumber: [String: String] = [:]
    private var localIdsByProviderEmail: [String: Set<String>] = [:]
    /// providerId → rawId → localId
    private var localIdByProviderRawId: [String: [String: String]] = [:]
    private var localIdByPasskeyCredentialId: [String: String] = [:]

    init(projectId: String, config: ProjectConfig = ProjectConfig(), tenant: TenantConfig? = nil) {
        self.projectId = projectId
        self.config = config
        self.tenant = tenant
    }

    var tenantId: String? { tenant?.tenantId }

    /// What sign-in methods and second factors the project (or tenant) allows.
    var features: ProjectFeatures { tenant?.features ?? .project }

    /// Google's project number, which the reference fixes to an obviously fake value.
    var projectNumber: String { "12345" }

    // MARK: Reading

    var userCount: Int { users.count }

    func user(localId: String) -> UserRecord? { users[localId] }

    func user(email: String) -> UserRecord? { localIdByEmail[email].flatMap { users[$0] } }

    func user(initialEmail: String) -> UserRecord? { localIdByInitialEmail[initialEmail].flatMap { users[$0] } }

    func user(phoneNumber: String) -> UserRecord? { localIdByPhoneNumber[phoneNumber].flatMap { users[$0] } }

    func user(providerId: String, rawId: String) -> UserRecord? {
        localIdByProviderRawId[providerId]?[rawId].flatMap { users[$0] }
    }

    /// EXPIRED_OOB_CODE when `record` is older than the project lets codes live (`oobCodeTtlSeconds`).
    func requireUnexpired(_ record: OobCodeRecord, now: Int64) throws(ApiError) {
        let ttl = config.oobCodeTtlSeconds
        try require(ttl <= 0 || now - record.issuedAtMilliseconds <= ttl * 1000, "EXPIRED_OOB_CODE")
    }

    func user(passkeyCredentialId: String) -> UserRecord? {
        localIdByPasskeyCredentialId[passkeyCredentialId].flatMap { users[$0] }
    }

    /// Every identity linked at `providerId`, ordered by raw id (what the fake provider pages list).
    func identities(providerId: String) -> [ProviderUserInfo] {
        (localIdByProviderRawId[providerId] ?? [:]).sorted { $0.key < $1.key }.compactMap { rawId, localId in
            users[localId]?.providerUserInfo?.first { $0.providerId == providerId && $0.rawId == rawId }
        }
    }

    /// The account whose email this is first, then accounts with a linked identity using it.
    func users(emailOrProviderEmail email: String) -> [UserRecord] {
        var result: [UserRecord] = []
        var seen = Set<String>()
        if let owner = user(email: email) {
            result.append(owner)
            seen.insert(owner.localId)
        }
        for localId in (localIdsByProviderEmail[email] ?? []).sorted() where !seen.contains(localId) {
            if let user = users[localId] {
                result.append(user)
                seen.insert(localId)
            }
        }
        return result
    }

    /// Accounts ordered by localId, starting after `startAfter` (a page token).
    func usersSortedByLocalId(after startAfter: String? = nil, descending: Bool = false) -> [UserRecord] {
        let sorted = users.values
            .filter { user in startAfter.map { user.localId > $0 } ?? true }
            .sorted { $0.localId < $1.localId }
        return descending ? sorted.reversed() : sorted
    }

    // MARK: Writing

    func generateLocalId() -> String {
        var localId = RandomID.alphanumeric(28)
        while users[localId] != nil { localId = RandomID.alphanumeric(28) }
        return localId
    }

    /// Creates an account; nil when `localId` is taken.
    mutating func createUser(
        localId: String, providers: [ProviderUserInfo] = [], _ configure: (inout UserRecord) -> Void
    ) -> UserRecord? {
        guard users[localId] == nil else { return nil }
        let user = UserRecord(localId: localId)
        users[localId] = user
        return updateUser(user, upsertProviders: providers, configure)
    }

    /// Applies `change` and keeps the indexes and the derived `password` / `phone` identities in step,
    /// as the reference does: an email with a password (or email-link sign-in) is the `password`
    /// identity; a phone number is the `phone` identity.
    @discardableResult
    mutating func updateUser(
        _ existing: UserRecord,
        upsertProviders: [ProviderUserInfo] = [],
        deleteProviders: [String] = [],
        _ change: (inout UserRecord) -> Void = { _ in }
    ) -> UserRecord {
        let localId = existing.localId
        var user = users[localId] ?? existing
        var upserts = upsertProviders
        var deletes = deleteProviders
        let oldEmail = user.email
        let oldPhone = user.phoneNumber
        let oldProviderEmails = Self.providerEmails(user)
        let oldPasskeys = user.passkeyInfo

        change(&user)

        if user.passkeyInfo != oldPasskeys {
            for passkey in oldPasskeys ?? [] { localIdByPasskeyCredentialId[passkey.credentialId] = nil }
            for passkey in user.passkeyInfo ?? [] { localIdByPasskeyCredentialId[passkey.credentialId] = localId }
        }

        if let oldEmail, oldEmail != user.email { localIdByEmail[oldEmail] = nil }
        if let email = user.email { localIdByEmail[email] = localId }
        if let email = user.email, user.passwordHash != nil || user.emailLinkSignin == true {
            upserts.append(ProviderUserInfo(
                providerId: ProviderID.password, rawId: email, federatedId: email,
                displayName: user.displayName, photoUrl: user.photoUrl, email: email))
        } else {
            deletes.append(ProviderID.password)
        }
        if let initialEmail = user.initialEmail { localIdByInitialEmail[initialEmail] = localId }
        if let oldPhone, oldPhone != user.phoneNumber { localIdByPhoneNumber[oldPhone] = nil }
        if let phone = user.phoneNumber {
            localIdByPhoneNumber[phone] = localId
            upserts.append(ProviderUserInfo(providerId: ProviderID.phone, rawId: phone, phoneNumber: phone))
        } else {
            deletes.append(ProviderID.phone)
        }

        if var infos = user.providerUserInfo {
            for info in infos where deletes.contains(info.providerId) {
                localIdByProviderRawId[info.providerId]?[info.rawId] = nil
            }
            infos.removeAll { deletes.contains($0.providerId) }
            user.providerUserInfo = infos
        }
        if !upserts.isEmpty {
            var infos = user.providerUserInfo ?? []
            for upsert in upserts {
                if let index = infos.firstIndex(where: { $0.providerId == upsert.providerId }) {
                    // One identity per provider: a new raw id replaces the old one everywhere.
                    let old = infos[index].rawId
                    if old != upsert.rawId, localIdByProviderRawId[upsert.providerId]?[old] == localId {
                        localIdByProviderRawId[upsert.providerId]?[old] = nil
                    }
                    infos[index] = upsert
                } else {
                    infos.append(upsert)
                }
                localIdByProviderRawId[upsert.providerId, default: [:]][upsert.rawId] = localId
            }
            user.providerUserInfo = infos
        }

        let newProviderEmails = Self.providerEmails(user)
        for email in newProviderEmails { localIdsByProviderEmail[email, default: []].insert(localId) }
        for email in oldProviderEmails where !newProviderEmails.contains(email) { removeProviderEmail(email, of: localId) }

        users[localId] = user
        return user
    }

    mutating func deleteUser(localId: String) {
        guard let user = users.removeValue(forKey: localId) else { return }
        removeFromIndexes(user)
    }

    /// Wipes accounts but keeps out-of-band codes, as the reference does (a code may still create an account).
    mutating func deleteAllUsers() {
        users = [:]
        localIdByEmail = [:]
        localIdByInitialEmail = [:]
        localIdByPhoneNumber = [:]
        localIdsByProviderEmail = [:]
        localIdByProviderRawId = [:]
        localIdByPasskeyCredentialId = [:]
    }

    // MARK: Indexes

    /// An account has a handful of identities: a list (duplicates do no harm to the updates above)
    /// costs less than hashing every email into a set on every update.
    private static func providerEmails(_ user: UserRecord) -> [String] {
        (user.providerUserInfo ?? []).compactMap(\.email)
    }

    private mutating func removeProviderEmail(_ email: String, of localId: String) {
        localIdsByProviderEmail[email]?.remove(localId)
        if localIdsByProviderEmail[email]?.isEmpty == true { localIdsByProviderEmail[email] = nil }
    }

    private mutating func removeFromIndexes(_ user: UserRecord) {
        if let email = user.email, localIdByEmail[email] == user.localId { localIdByEmail[email] = nil }
        if let initial = user.initialEmail, localIdByInitialEmail[initial] == user.localId {
            localIdByInitialEmail[initial] = nil
        }
        if let phone = user.phoneNumber, localIdByPhoneNumber[phone] == user.localId {
            localIdByPhoneNumber[phone] = nil
        }
        for info in user.providerUserInfo ?? [] {
            if localIdByProviderRawId[info.providerId]?[info.rawId] == user.localId {
                localIdByProviderRawId[info.providerId]?[info.rawId] = nil
            }
            if let email = info.email { removeProviderEmail(email, of: user.localId) }
        }
        for passkey in user.passkeyInfo ?? [] where localIdByPasskeyCredentialId[passkey.credentialId] == user.localId {
            localIdByPasskeyCredentialId[passkey.credentialId] = nil
        }
    }
}
