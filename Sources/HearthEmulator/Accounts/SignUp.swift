import HearthWire

/// `accounts:signUp` (and the admin `projects/{p}/accounts`): anonymous accounts, email/password
/// accounts, linking email/password to the account of an `idToken`, and admin account creation.
enum SignUp {
    static let schema = RequestSchema([
        "captchaChallenge": .string, "captchaResponse": .string, "clientType": .enumeration(ClientType.names),
        "disabled": .bool, "displayName": .string, "email": .string, "emailVerified": .bool,
        "idToken": .string, "instanceId": .string, "localId": .string,
        // The description has only displayName and phoneInfo here; like Firebase's emulator, the other
        // fields of an enrollment are taken too (and the id ignored).
        "mfaInfo": .array(.message(AdminMfaEnrollments.schema)),
        "password": .string, "phoneNumber": .string, "photoUrl": .string,
        "recaptchaVersion": .enumeration(ClientType.recaptchaVersions), "targetProjectId": .string,
        "tenantId": .string, "returnSecureToken": .bool,
    ])

    struct Request: Decodable {
        var email: String?
        var password: String?
        var displayName: String?
        var idToken: String?
        var localId: String?
        var photoUrl: String?
        var phoneNumber: String?
        var emailVerified: Bool?
        var disabled: Bool?
        var mfaInfo: [AdminMfaEnrollments.Input]?
    }

    struct Response: Encodable {
        let kind = "identitytoolkit#SignupNewUserResponse"
        var localId: String
        var displayName: String?
        var email: String?
        var idToken: String?
        var refreshToken: String?
        var expiresIn: String?
    }

    static let operation = Operation("identitytoolkit.accounts.signUp", body: .json(schema), handler: handle)
    static let adminOperation = Operation("identitytoolkit.projects.accounts", body: .json(schema), handler: handle)

    static func handle(_ project: inout ProjectState, _ request: OperationRequest) throws(ApiError) -> Reply {
        let body = try request.decodeBody(as: Request.self)
        let env = request.environment
        let features = project.features
        try features.requireEnabled()
        let now = env.clock.milliseconds
        var provider: String?
        // Fields to apply, as closures over the record so create and link share them.
        var changes: [(inout UserRecord) -> Void] = [{ $0.lastLoginAt = String(now) }]

        if request.isAdmin {
            if body.idToken != nil, body.localId != nil { throw .badRequest("UNEXPECTED_PARAMETER : User ID") }
            if let localId = body.localId { try require(project.user(localId: localId) == nil, "DUPLICATE_LOCAL_ID") }
            let (displayName, photoUrl, verified) = (body.displayName, body.photoUrl, body.emailVerified ?? false)
            changes.append { $0.displayName = displayName; $0.photoUrl = photoUrl; $0.emailVerified = verified }
            if let phone = body.phoneNumber, !phone.isEmpty {
                try require(PhoneNumber.isValid(phone), "INVALID_PHONE_NUMBER : Invalid format.")
                try require(project.user(phoneNumber: phone) == nil, "PHONE_NUMBER_EXISTS")
                changes.append { $0.phoneNumber = phone }
            }
            if body.disabled == true { changes.append { $0.disabled = true } }
        } else {
            try require(body.localId == nil, "UNEXPECTED_PARAMETER : User ID")
            if nonEmpty(body.idToken) || nonEmpty(body.password) || nonEmpty(body.email) {
                try require(nonEmpty(body.email), "MISSING_EMAIL")
                try require(nonEmpty(body.password), "MISSING_PASSWORD")
                provider = ProviderID.password
                try require(features.allowsPasswordSignUp, "OPERATION_NOT_ALLOWED")
                // Linking keeps the profile unless a new display name is given.
                if let displayName = body.displayName { changes.append { $0.displayName = displayName } }
                changes.append { $0.emailVerified = false }
            } else {
                provider = ProviderID.anonymous
                try require(features.allowsAnonymousUsers, "ADMIN_ONLY_OPERATION")
            }
        }

        // An empty email with a provider is an error, not an anonymous sign-up.
        if let email = body.email, !email.isEmpty || provider != nil {
            try require(EmailAddress.isValid(email), "INVALID_EMAIL")
            let canonical = EmailAddress.canonical(email)
            try require(project.user(email: canonical) == nil, "EMAIL_EXISTS")
            changes.append { $0.email = canonical }
        }
        if let password = body.password, !password.isEmpty {
            try PasswordHash.requireStrong(password)
            let clock = env.clock
            let validSince = String(clock.seconds)
            changes.append {
                PasswordHash.set(password, on: &$0, clock: clock)
                $0.validSince = validSince
            }
        }
        // Second factors given with the account, by any caller, as Firebase's emulator takes them.
        if let factors = body.mfaInfo {
            let enrollments = try AdminMfaEnrollments.enrollments(from: factors, generatingIds: true, existing: [])
            changes.append { $0.mfaInfo = enrollments }
        }
        if let tenantId = project.tenantId { changes.append { $0.tenantId = tenantId } }

        var linkTarget: UserRecord?
        if let idToken = body.idToken, !idToken.isEmpty {
            linkTarget = try request.verifyIdToken(idToken, in: project).user
        }
        let apply: (inout UserRecord) -> Void = { record in for change in changes { change(&record) } }

        var user: UserRecord
        var extraClaims: JSONObject?
        if let linkTarget {
            user = project.updateUser(linkTarget, apply)
        } else {
            let localId = body.localId ?? project.generateLocalId()
            // A new password account (not the admin's) passes the blocking functions, if any.
            let blockable = !request.isAdmin && nonEmpty(body.email)
            let context = BlockingFunctionCall.Context(signInMethod: ProviderID.password)
            var creation = apply
            if blockable {
                var planned = UserRecord(localId: localId)
                planned.createdAt = String(now)
                apply(&planned)
                let beforeCreate = try BlockingFunctionCall.run(
                    .beforeCreate, for: planned, context: context, in: project, environment: env)
                creation = { record in apply(&record); beforeCreate.apply(to: &record) }
            }
            guard let created = project.createUser(localId: localId, { record in
                record.createdAt = String(now)
                creation(&record)
            }) else { throw .badRequest("DUPLICATE_LOCAL_ID") }
            user = created
            if blockable {
                if !user.isDisabled {
                    let beforeSignIn = try BlockingFunctionCall.run(
                        .beforeSignIn, for: user, context: context, in: project, environment: env)
                    user = project.updateUser(user) { beforeSignIn.apply(to: &$0) }
                    extraClaims = beforeSignIn.extraClaims
                }
                // Disabled by a function: the account stays, as in the reference.
                try require(!user.isDisabled, "USER_DISABLED")
            }
        }

        var response = Response(localId: user.localId, displayName: user.displayName, email: user.email)
        if let provider {
            let tokens = TokenIssuer.issue(
                for: user, signInProvider: provider, extraClaims: extraClaims ?? JSONObject(), in: &project,
                clock: env.clock)
            response.idToken = tokens.idToken
            response.refreshToken = tokens.refreshToken
            response.expiresIn = tokens.expiresIn
        }
        return Reply(response)
    }

    private static func nonEmpty(_ text: String?) -> Bool { !(text ?? "").isEmpty }
}

/// Enum values shared by several request messages.
enum ClientType {
    static let names = ["CLIENT_TYPE_UNSPECIFIED", "CLIENT_TYPE_WEB", "CLIENT_TYPE_ANDROID", "CLIENT_TYPE_IOS"]
    static let recaptchaVersions = ["RECAPTCHA_VERSION_UNSPECIFIED", "RECAPTCHA_ENTERPRISE"]
}
