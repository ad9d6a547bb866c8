/// `accounts:update` (setAccountInfo): profile, email and password changes, unlinking, applying an
/// out-of-band code, replacing second factors (`mfa.enrollments`, see `AdminMfaEnrollments`), and for
/// admins disabling, custom claims and the other privileged fields.
///
/// A password or email change moves `validSince` to now, which revokes earlier ID tokens; the
/// response then carries fresh tokens so the caller stays signed in.
enum UpdateAccount {
    static let deletableAttributes = [
        "USER_ATTRIBUTE_NAME_UNSPECIFIED", "EMAIL", "DISPLAY_NAME", "PROVIDER", "PHOTO_URL", "PASSWORD", "RAW_USER_INFO",
    ]

    static let providerUserInfoSchema = RequestSchema([
        "displayName": .string, "email": .string, "federatedId": .string, "phoneNumber": .string,
        "photoUrl": .string, "providerId": .string, "rawId": .string, "screenName": .string,
    ])

    static let schema = RequestSchema([
        "captchaChallenge": .string, "captchaResponse": .string, "createdAt": .int64,
        "customAttributes": .string, "delegatedProjectNumber": .int64,
        "deleteAttribute": .array(.enumeration(deletableAttributes)), "deletePasskey": .array(.string),
        "deleteProvider": .array(.string), "disableUser": .bool, "displayName": .string, "email": .string,
        "emailVerified": .bool, "idToken": .string, "instanceId": .string, "lastLoginAt": .int64,
        "linkProviderUserInfo": .message(providerUserInfoSchema), "localId": .string,
        "mfa": .message(RequestSchema(["enrollments": .array(.message(AdminMfaEnrollments.schema))])), "oobCode": .string,
        "password": .string, "phoneNumber": .string, "photoUrl": .string, "provider": .array(.string),
        "returnSecureToken": .bool, "targetProjectId": .string, "tenantId": .string,
        "upgradeToFederatedLogin": .bool, "validSince": .int64,
    ])

    struct MfaInfo: Decodable { var enrollments: [AdminMfaEnrollments.Input]? }

    struct Request: Decodable {
        var idToken: String?
        var oobCode: String?
        var localId: String?
        var email: String?
        var password: String?
        var displayName: String?
        var photoUrl: String?
        var deleteAttribute: [String]?
        var deleteProvider: [String]?
        var linkProviderUserInfo: ProviderUserInfoInput?
        var customAttributes: String?
        var disableUser: Bool?
        var emailVerified: Bool?
        var phoneNumber: String?
        var createdAt: String?
        var lastLoginAt: String?
        var validSince: String?
        var mfa: MfaInfo?
        var provider: [String]?
        var upgradeToFederatedLogin: Bool?
        var deletePasskey: [String]?
    }

    struct ProviderUserInfoInput: Decodable {
        var providerId: String?
        var rawId: String?
        var federatedId: String?
        var displayName: String?
        var photoUrl: String?
        var email: String?
        var phoneNumber: String?
        var screenName: String?
    }

    struct Response: Encodable {
        let kind = "identitytoolkit#SetAccountInfoResponse"
        var localId: String
        var emailVerified: Bool?
        var providerUserInfo: [ProviderUserInfo]?
        var email: String?
        var displayName: String?
        var photoUrl: String?
        var newEmail: String?
        var passwordHash: String?
        var idToken: String?
        var refreshToken: String?
        var expiresIn: String?
    }

    static let operation = Operation(
        "identitytoolkit.accounts.update", body: .json(schema), tenantGates: [.enabled], handler: handle)
    static let adminOperation = Operation(
        "identitytoolkit.projects.accounts.update", body: .json(schema), tenantGates: [.enabled], handler: handle)

    static func handle(_ project: inout ProjectState, _ request: OperationRequest) throws(ApiError) -> Reply {
        Reply(try run(
            try request.decodeBody(as: Request.self), privileged: request.isAdmin, in: &project,
            environment: request.environment, request: request))
    }

    /// `request` decodes the body's ID token once; without one (the action page) it is decoded here.
    static func run(
        _ body: Request, privileged: Bool, in project: inout ProjectState, environment env: EmulatorEnvironment,
        request: OperationRequest? = nil
    ) throws(ApiError) -> Response {
        if body.provider != nil { throw .notImplemented("provider is not implemented yet.") }
        if body.upgradeToFederatedLogin != nil { throw .notImplemented("upgradeToFederatedLogin is not implemented yet.") }

        if privileged {
            _ = try requiredText(body.localId, "MISSING_LOCAL_ID")
        } else {
            try require(!(body.idToken ?? "").isEmpty || !(body.oobCode ?? "").isEmpty,
                        "INVALID_REQ_TYPE : Unsupported request parameters.")
            try require(body.customAttributes == nil, "INSUFFICIENT_PERMISSION")
        }
        if let claims = body.customAttributes, !claims.isEmpty {
            _ = try CustomClaims.validateSerialized(claims)
        }
        let deleteAttributes = body.deleteAttribute ?? []
        for attribute in deleteAttributes where attribute == "PROVIDER" || attribute == "RAW_USER_INFO" {
            throw .notImplemented("deleteAttribute: \(attribute)")
        }

        var change = AccountChange()
        if let oobCode = body.oobCode, !oobCode.isEmpty {
            try applyOobCode(oobCode, to: &change, in: &project, now: env.clock.milliseconds)
        } else {
            try applyFields(body, privileged: privileged, to: &change, in: project, env: env, request: request)
        }
        if let link = body.linkProviderUserInfo {
            let providerId = try requiredText(link.providerId, "MISSING_PROVIDER_ID")
            let rawId = try requiredText(link.rawId, "MISSING_RAW_ID")
            change.upsertProviders.append(ProviderUserInfo(
                providerId: providerId, rawId: rawId, federatedId: link.federatedId,
                displayName: link.displayName, photoUrl: link.photoUrl, email: link.email,
                phoneNumber: link.phoneNumber, screenName: link.screenName))
        }

        guard let target = change.user else { throw .badRequest("USER_NOT_FOUND") }
        let edits = change.edits
        let user = project.updateUser(
            target, upsertProviders: change.upsertProviders, deleteProviders: body.deleteProvider ?? []
        ) { record in for edit in edits { edit(&record) } }

        if change.isEmailUpdate, change.signInProvider != ProviderID.anonymous, let initial = user.initialEmail {
            let record = OobCodeIssuer.issue(.recoverEmail, email: initial, in: &project, environment: env)
            OobCodeIssuer.log(record, to: env.log)
        }

        var response = Response(
            localId: user.localId, emailVerified: user.emailVerified, providerUserInfo: user.providerUserInfo,
            email: user.email, displayName: user.displayName, photoUrl: user.photoUrl,
            newEmail: change.newEmail, passwordHash: user.passwordHash)
        if change.revokesTokens, let provider = change.signInProvider {
            let tokens = TokenIssuer.issue(for: user, signInProvider: provider, in: &project, clock: env.clock)
            response.idToken = tokens.idToken
            response.refreshToken = tokens.refreshToken
            response.expiresIn = tokens.expiresIn
        }
        return response
    }

    private static func applyFields(
        _ body: Request, privileged: Bool, to change: inout AccountChange, in project: ProjectState,
        env: EmulatorEnvironment, request: OperationRequest?
    ) throws(ApiError) {
        let user: UserRecord
        if let idToken = body.idToken, !idToken.isEmpty {
            let verified = if let request {
                try request.verifyIdToken(idToken, in: project)
            } else {
                try IdTokenVerifier.verify(idToken, in: project, log: env.log)
            }
            user = verified.user
            change.signInProvider = verified.signInProvider
            try require(body.disableUser == nil, "OPERATION_NOT_ALLOWED")
            let changesPassword = !(body.password ?? "").isEmpty
            let replacesEmail = body.email.map { !$0.isEmpty && EmailAddress.canonical($0) != user.email } ?? false
            if !privileged, changesPassword || replacesEmail {
                try RecentLogin.require(verified, in: project, clock: env.clock)
            }
        } else {
            let localId = try requiredText(body.localId, "MISSING_LOCAL_ID")
            user = try required(project.user(localId: localId), "USER_NOT_FOUND")
        }
        change.user = user

        var changesEmail = false
        if let email = body.email, !email.isEmpty {
            try require(EmailAddress.isValid(email), "INVALID_EMAIL")
            let canonical = EmailAddress.canonical(email)
            change.newEmail = canonical
            if canonical != user.email {
                try require(project.user(email: canonical) == nil, "EMAIL_EXISTS")
                changesEmail = true
                change.isEmailUpdate = true
                let keepsInitial = change.signInProvider != ProviderID.anonymous && user.email != nil
                    && user.initialEmail == nil
                let previous = user.email
                change.edits.append { record in
                    record.email = canonical
                    record.emailVerified = false
                    if keepsInitial { record.initialEmail = previous }
                }
            }
        }
        if let password = body.password, !password.isEmpty {
            try PasswordHash.requireStrong(password)
            let clock = env.clock
            change.edits.append { PasswordHash.set(password, on: &$0, clock: clock) }
            change.signInProvider = ProviderID.password
        }
        let movesValidSince = !(body.password ?? "").isEmpty || !(body.validSince ?? "").isEmpty || changesEmail
        if movesValidSince {
            let now = String(env.clock.seconds)
            change.edits.append { $0.validSince = now }
            change.revokesTokens = true
        }

        if let mfa = body.mfa {
            // Factors given replace the account's; none (or an empty list) removes them all.
            let enrollments = try AdminMfaEnrollments.enrollments(
                from: mfa.enrollments ?? [], generatingIds: false, existing: user.secondFactors)
            change.edits.append { $0.mfaInfo = enrollments.isEmpty ? nil : enrollments }
        }
        if let displayName = body.displayName { change.edits.append { $0.displayName = displayName } }
        if let photoUrl = body.photoUrl { change.edits.append { $0.photoUrl = photoUrl } }
        if privileged {
            if let disabled = body.disableUser { change.edits.append { $0.disabled = disabled } }
            if let phone = body.phoneNumber, !phone.isEmpty, phone != user.phoneNumber {
                try require(PhoneNumber.isValid(phone), "INVALID_PHONE_NUMBER : Invalid format.")
                try require(project.user(phoneNumber: phone) == nil, "PHONE_NUMBER_EXISTS")
                change.edits.append { $0.phoneNumber = phone }
            }
            if let verified = body.emailVerified { change.edits.append { $0.emailVerified = verified } }
            if let claims = body.customAttributes { change.edits.append { $0.customAttributes = claims } }
            if let createdAt = body.createdAt { change.edits.append { $0.createdAt = createdAt } }
            if let lastLoginAt = body.lastLoginAt { change.edits.append { $0.lastLoginAt = lastLoginAt } }
            if let validSince = body.validSince { change.edits.append { $0.validSince = validSince } }
        }

        for attribute in body.deleteAttribute ?? [] {
            switch attribute {
            case "DISPLAY_NAME": change.edits.append { $0.displayName = nil }
            case "PHOTO_URL": change.edits.append { $0.photoUrl = nil }
            case "PASSWORD": change.edits.append { $0.passwordHash = nil; $0.salt = nil }
            case "EMAIL": change.edits.append { $0.email = nil; $0.emailVerified = nil; $0.emailLinkSignin = nil }
            default: continue
            }
        }
        let deleteProviders = body.deleteProvider ?? []
        if deleteProviders.contains(ProviderID.password) {
            change.edits.append {
                $0.email = nil; $0.emailVerified = nil; $0.emailLinkSignin = nil; $0.passwordHash = nil; $0.salt = nil
            }
        }
        if deleteProviders.contains(ProviderID.phone) { change.edits.append { $0.phoneNumber = nil } }
        if let deletePasskey = body.deletePasskey {
            // The account's list is written even when nothing matched (an empty one included).
            let kept = (user.passkeyInfo ?? []).filter { !$0.credentialId.isEmpty && !deletePasskey.contains($0.credentialId) }
            change.edits.append { $0.passkeyInfo = kept }
        }
    }
}
