import HearthCrypto

/// Accounts loaded from an export (`auth_export/accounts.json`), with the rules of Firebase's
/// `accounts:batchCreate`, which is how Firebase's emulator imports that file.
///
/// Where Firebase's emulator drops data on the way in, hearth-emulator keeps it, so that export →
/// import → export gives the same accounts: `validSince` (present or not), `passwordUpdatedAt`, `lastRefreshAt`,
/// `emailVerified`/`disabled` when absent (not turned into false), the order of `providerUserInfo`,
/// and TOTP second factors (an export carries their secret in `totpInfo.sharedSecretKey`).
/// Firebase's emulator also accepts any `passwordHash`; only the emulator's
/// `fakeHash:salt=…:password=…` can ever match a password, so anything else is refused here.
enum AccountImport {
    static let userSchema = RequestSchema([
        "localId": .string, "email": .string, "emailVerified": .bool, "displayName": .string,
        "photoUrl": .string, "screenName": .string, "phoneNumber": .string,
        "passwordHash": .string, "salt": .string, "rawPassword": .string, "passwordUpdatedAt": .double,
        "providerUserInfo": .array(.message(RequestSchema([
            "providerId": .string, "rawId": .string, "federatedId": .string, "displayName": .string,
            "photoUrl": .string, "email": .string, "phoneNumber": .string, "screenName": .string,
        ]))),
        "mfaInfo": .array(.message(AdminMfaEnrollments.schema.adding([
            "totpInfo": .message(RequestSchema(["sharedSecretKey": .string])),
        ]))),
        "customAttributes": .string, "disabled": .bool, "createdAt": .int64, "lastLoginAt": .int64,
        "lastRefreshAt": .string, "validSince": .int64, "initialEmail": .string, "emailLinkSignin": .bool,
        "customAuth": .bool, "tenantId": .string,
        // UserInfo fields the emulator has no use for, accepted so real files load.
        "dateOfBirth": .string, "language": .string, "timeZone": .string, "version": .int32,
        "passkeyInfo": .array(.any),
    ])

    struct User: Decodable {
        struct Provider: Decodable {
            var providerId: String?
            var rawId: String?
            var federatedId: String?
            var displayName: String?
            var photoUrl: String?
            var email: String?
            var phoneNumber: String?
            var screenName: String?
        }

        struct Enrollment: Decodable {
            struct Totp: Decodable { var sharedSecretKey: String? }
            var mfaEnrollmentId: String?
            var displayName: String?
            var enrolledAt: String?
            var phoneInfo: String?
            var unobfuscatedPhoneInfo: String?
            var totpInfo: Totp?
        }

        var localId: String?
        var email: String?
        var emailVerified: Bool?
        var displayName: String?
        var photoUrl: String?
        var screenName: String?
        var phoneNumber: String?
        var passwordHash: String?
        var salt: String?
        var rawPassword: String?
        var passwordUpdatedAt: Double?
        var providerUserInfo: [Provider]?
        var mfaInfo: [Enrollment]?
        var customAttributes: String?
        var disabled: Bool?
        var createdAt: String?
        var lastLoginAt: String?
        var lastRefreshAt: String?
        var validSince: String?
        var initialEmail: String?
        var emailLinkSignin: Bool?
        var customAuth: Bool?
        var tenantId: String?
    }

    struct Failure: Sendable, Equatable {
        var index: Int
        var localId: String?
        var message: String
    }

    /// Checks that concern the whole list come first (batchCreate answers them as one error); then
    /// each account is created on its own, and the ones that cannot be are reported by index.
    static func load(
        _ users: [User], allowOverwrite: Bool = false, sanityCheck: Bool = false,
        into project: inout ProjectState, clock: EmulatorClock
    ) throws(ApiError) -> [Failure] {
        if sanityCheck {
            var emails = Set<String>()
            var identities = Set<String>()
            for user in users {
                if project.config.oneAccountPerEmail, let email = user.email, !email.isEmpty {
                    try require(emails.insert(email).inserted, "DUPLICATE_EMAIL : \(email)")
                }
                for info in user.providerUserInfo ?? [] {
                    let (providerId, rawId) = (info.providerId ?? "", info.rawId ?? "")
                    try require(identities.insert("\(providerId):\(rawId)").inserted,
                                "DUPLICATE_RAW_ID : Provider id(\(providerId)), Raw id(\(rawId))")
                }
            }
        }
        if !allowOverwrite {
            var localIds = Set<String>()
            for user in users {
                let localId = user.localId ?? ""
                try require(localIds.insert(localId).inserted, "DUPLICATE_LOCAL_ID : \(localId)")
            }
        }

        var failures: [Failure] = []
        for (index, user) in users.enumerated() {
            do throws(ApiError) {
                try create(user, allowOverwrite: allowOverwrite, sanityCheck: sanityCheck, in: &project, clock: clock)
            } catch {
                failures.append(Failure(index: index, localId: user.localId, message: friendlier(error.message)))
            }
        }
        return failures
    }

    private static func create(
        _ input: User, allowOverwrite: Bool, sanityCheck: Bool, in project: inout ProjectState, clock: EmulatorClock
    ) throws(ApiError) {
        let localId = try requiredText(input.localId, "localId is missing")
        var record = UserRecord(localId: localId)
        record.displayName = input.displayName
        record.photoUrl = input.photoUrl
        record.screenName = input.screenName
        record.lastLoginAt = input.lastLoginAt
        record.lastRefreshAt = input.lastRefreshAt
        record.initialEmail = input.initialEmail
        record.emailLinkSignin = input.emailLinkSignin
        record.customAuth = input.customAuth
        if let tenantId = input.tenantId, !tenantId.isEmpty {
            try require(project.tenantId == tenantId, "Tenant id in userInfo does not match the tenant id in request.")
        }
        record.tenantId = project.tenantId
        record.emailVerified = input.emailVerified
        record.disabled = input.disabled

        try setPassword(of: &record, from: input, clock: clock)

        if let claims = input.customAttributes, !claims.isEmpty {
            _ = try CustomClaims.validateSerialized(claims)
            record.customAttributes = claims
        }

        // Every identity in the file's order; `password` and `phone` are re-derived from the
        // account's own fields by `ProjectState.updateUser`, in place.
        var identities: [ProviderUserInfo] = []
        var linked: [ProviderUserInfo] = []
        for info in input.providerUserInfo ?? [] {
            if info.providerId == ProviderID.password || info.providerId == ProviderID.phone {
                if let providerId = info.providerId {
                    identities.append(ProviderUserInfo(providerId: providerId, rawId: info.rawId ?? ""))
                }
                continue
            }
            guard let providerId = info.providerId, !providerId.isEmpty, let rawId = info.rawId, !rawId.isEmpty else {
                if (info.federatedId ?? "").isEmpty {
                    throw .badRequest("federatedId or (providerId & rawId) is required")
                }
                throw .badRequest("((Parsing federatedId is not implemented in Auth Emulator; please specify providerId AND rawId as a workaround.))")
            }
            let owner = project.user(providerId: providerId, rawId: rawId)
            try require(owner == nil || owner?.localId == localId, "raw id exists in other account in database")
            let identity = ProviderUserInfo(
                providerId: providerId, rawId: rawId, federatedId: info.federatedId, displayName: info.displayName,
                photoUrl: info.photoUrl, email: info.email, phoneNumber: info.phoneNumber, screenName: info.screenName)
            identities.append(identity)
            linked.append(identity)
        }

        if let phone = input.phoneNumber, !phone.isEmpty {
            try require(PhoneNumber.isValid(phone), "phone number format is invalid")
            let owner = project.user(phoneNumber: phone)
            // Firebase's emulator lets a second account take the number; its index (and ours) keeps one.
            try require(owner == nil || owner?.localId == localId, "phone number exists in other account in database")
            record.phoneNumber = phone
        }

        // Firebase's emulator sets validSince to the upload time; an account that never had one
        // (its tokens were never revoked) keeps having none, so an export reads back the same.
        record.validSince = input.validSince
        record.createdAt = input.createdAt ?? String(clock.milliseconds)

        if let email = input.email, !email.isEmpty {
            try require(EmailAddress.isValid(email), "email is invalid")
            let canonical = EmailAddress.canonical(email)
            let owner = project.user(email: canonical)
            try require(owner == nil || owner?.localId == localId,
                        sanityCheck && project.config.oneAccountPerEmail
                            ? "email exists in other account in database"
                            : "((Auth Emulator does not support importing duplicate email: \(email)))")
            record.email = canonical
        }

        if let factors = input.mfaInfo {
            try require(record.email != nil, "Second factor account requires email to be presented.")
            try require(record.emailVerified == true, "Second factor account requires email to be verified.")
            record.mfaInfo = try enrollments(factors, now: clock.iso8601)
        }

        if project.user(localId: localId) != nil {
            try require(allowOverwrite, "localId belongs to an existing account - can not overwrite.")
            project.deleteUser(localId: localId)
        }
        let prepared = record
        _ = project.createUser(localId: localId, providers: linked) { user in
            user = prepared
            user.providerUserInfo = identities.isEmpty ? nil : identities
        }
    }

    /// `passwordHash` (with `salt`) as exported, or `rawPassword` hashed the emulator's way.
    private static func setPassword(of record: inout UserRecord, from input: User, clock: EmulatorClock) throws(ApiError) {
        var updatedAt = clock.milliseconds
        if let given = input.passwordUpdatedAt {
            // A double on the wire; Int64(_:) would trap on one past its range.
            guard let milliseconds = Int64(exactly: given.rounded(.down)), milliseconds >= 0 else {
                throw .badRequest("((passwordUpdatedAt must be milliseconds since 1970))")
            }
            updatedAt = milliseconds
        }
        if let hash = input.passwordHash, !hash.isEmpty {
            guard let salt = PasswordHash.salt(ofFakeHash: hash) else {
                throw .badRequest("((passwordHash must be the emulator's fakeHash:salt=SALT:password=PASSWORD; hashes from production cannot be checked here, give rawPassword instead))")
            }
            try require(input.salt == nil || input.salt == salt,
                        "((salt does not match the salt inside passwordHash))")
            record.passwordHash = hash
            record.salt = salt
            record.passwordUpdatedAt = updatedAt
        } else if let password = input.rawPassword, !password.isEmpty {
            let salt = input.salt.flatMap { $0.isEmpty ? nil : $0 } ?? PasswordHash.newSalt()
            record.salt = salt
            record.passwordHash = PasswordHash.make(password: password, salt: salt)
            record.passwordUpdatedAt = updatedAt
        }
    }

    private static func enrollments(_ inputs: [User.Enrollment], now: String) throws(ApiError) -> [MfaEnrollment] {
        var ids = Set<String>()
        for input in inputs {
            if let id = input.mfaEnrollmentId, !id.isEmpty {
                try require(ids.insert(id).inserted, "Enrollment id already exists.")
            }
        }
        var result: [MfaEnrollment] = []
        for input in inputs {
            var id = input.mfaEnrollmentId ?? ""
            if id.isEmpty {
                repeat { id = RandomID.alphanumeric(28) } while ids.contains(id)
                ids.insert(id)
            }
            var enrollment = MfaEnrollment(mfaEnrollmentId: id, displayName: input.displayName,
                                           enrolledAt: input.enrolledAt ?? now)
            if let totp = input.totpInfo {
                guard let key = totp.sharedSecretKey, let secret = Base32.decode(key), !secret.isEmpty else {
                    throw .badRequest("((a TOTP second factor needs its totpInfo.sharedSecretKey (base32), as hearth-emulator exports it))")
                }
                enrollment.totpInfo = MfaEnrollment.TotpInfo()
                enrollment.totpSecret = secret
            } else {
                let phone = try requiredText(input.phoneInfo ?? input.unobfuscatedPhoneInfo, "Second factor not supported.")
                try require(PhoneNumber.isValid(phone), "Phone number format is invalid")
                enrollment.phoneInfo = phone
                enrollment.unobfuscatedPhoneInfo = phone
            }
            result.append(enrollment)
        }
        return result
    }

    /// The wording production uses for claims problems in an upload.
    private static func friendlier(_ message: String) -> String {
        if message == "INVALID_CLAIMS" { return "Invalid custom claims provided." }
        if message == "CLAIMS_TOO_LARGE" { return "Custom claims provided are too large." }
        if message.hasPrefix("FORBIDDEN_CLAIM") { return "Custom claims provided include a reserved claim." }
        return message
    }
}
