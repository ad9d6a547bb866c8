import HearthWire

/// `accounts:signInWithPhoneNumber` (verifyPhoneNumber): signs in with a verified phone number,
/// creating the account on first use, or with `idToken` links the number to that account (and
/// replaces its old number: the SDKs' updatePhoneNumber).
///
/// The number is proven by `sessionInfo` + `code` (the code is used up) or by a `temporaryProof`.
/// When the number belongs to another account and `idToken` was given, nothing changes and the
/// answer is 200 with a `temporaryProof` (good for an hour) instead of tokens: the app can sign in
/// to the number's owner with it, while linking with it again is PHONE_NUMBER_EXISTS.
///
/// `operation: "REAUTH"` (what the SDKs send to reauthenticate) signs in to the account that has the
/// number, whatever `idToken` says, and never creates one (USER_NOT_FOUND); the SDK compares the
/// account with its user. LINK and UPDATE need `idToken`.
enum SignInWithPhoneNumber {
    static let operations = ["VERIFY_OP_UNSPECIFIED", "SIGN_UP_OR_IN", "REAUTH", "UPDATE", "LINK"]
    static let temporaryProofLength = 119
    static let temporaryProofLifetimeSeconds: Int64 = 3600

    static let schema = RequestSchema([
        "code": .string, "idToken": .string, "operation": .enumeration(operations), "phoneNumber": .string,
        "sessionInfo": .string, "temporaryProof": .string, "tenantId": .string, "verificationProof": .string,
    ])

    struct Request: Decodable {
        var code: String?
        var idToken: String?
        var operation: String?
        var phoneNumber: String?
        var sessionInfo: String?
        var temporaryProof: String?
    }

    struct Response: Encodable {
        var isNewUser: Bool
        var phoneNumber: String
        var localId: String
        var idToken: String
        var refreshToken: String
        var expiresIn: String
    }

    /// The number is verified but is another account's.
    struct ConflictResponse: Encodable {
        var temporaryProof: String
        var temporaryProofExpiresIn: String
        var phoneNumber: String
    }

    static let operation = Operation(
        "identitytoolkit.accounts.signInWithPhoneNumber", body: .json(schema), tenantGates: [.enabled, .projectOnly],
        handler: handle)

    static func handle(_ project: inout ProjectState, _ request: OperationRequest) throws(ApiError) -> Reply {
        let body = try request.decodeBody(as: Request.self)
        let env = request.environment
        let now = env.clock.milliseconds

        let phoneNumber: String
        let provedByTemporaryProof = !(body.temporaryProof ?? "").isEmpty
        if let proof = body.temporaryProof, provedByTemporaryProof {
            let number = try requiredText(body.phoneNumber, "MISSING_PHONE_NUMBER")
            guard let entry = project.temporaryProofs.entry(proof), entry.record == number, !entry.isExpired(now: now)
            else { throw .badRequest("INVALID_TEMPORARY_PROOF") }
            phoneNumber = number
        } else {
            let sessionInfo = try requiredText(body.sessionInfo, "MISSING_SESSION_INFO")
            let code = try requiredText(body.code, "MISSING_CODE")
            phoneNumber = try VerificationCodeCheck.consume(
                sessionInfo: sessionInfo, code: code, for: .firstFactor, in: &project, now: now)
        }

        let owner = project.user(phoneNumber: phoneNumber)
        if body.operation == "REAUTH" {
            let user = try required(owner, "USER_NOT_FOUND")
            return Reply(try signIn(user, phoneNumber: phoneNumber, isNewUser: false, in: &project, environment: env))
        }
        var linkTarget: UserRecord?
        if let idToken = body.idToken, !idToken.isEmpty {
            linkTarget = try request.verifyIdToken(idToken, in: project).user
        } else if body.operation == "LINK" || body.operation == "UPDATE" {
            throw .badRequest("MISSING_ID_TOKEN")
        }
        if let owner, let linkTarget, owner.localId != linkTarget.localId {
            try require(!provedByTemporaryProof, "PHONE_NUMBER_EXISTS")
            var proof = RandomID.base64URL(temporaryProofLength)
            while project.temporaryProofs.entry(proof) != nil { proof = RandomID.base64URL(temporaryProofLength) }
            project.temporaryProofs.insert(
                phoneNumber, key: proof, expiresAt: now + temporaryProofLifetimeSeconds * 1000, now: now)
            return Reply(ConflictResponse(
                temporaryProof: proof, temporaryProofExpiresIn: String(temporaryProofLifetimeSeconds),
                phoneNumber: phoneNumber))
        }

        if let existing = linkTarget ?? owner {
            return Reply(try signIn(existing, phoneNumber: phoneNumber, isNewUser: false, in: &project, environment: env))
        }
        let localId = project.generateLocalId()
        let created = String(now)
        let setUp: (inout UserRecord) -> Void = { record in
            record.phoneNumber = phoneNumber
            record.createdAt = created
            record.lastLoginAt = created
        }
        var planned = UserRecord(localId: localId)
        setUp(&planned)
        let beforeCreate = try BlockingFunctionCall.run(
            .beforeCreate, for: planned, context: blockingContext, in: project, environment: env)
        guard let user = project.createUser(localId: localId, { record in
            setUp(&record)
            beforeCreate.apply(to: &record)
        }) else { throw .internalError("INTERNAL_ERROR : a new account's id was taken") }
        return Reply(try signIn(user, phoneNumber: phoneNumber, isNewUser: true, in: &project, environment: env))
    }

    private static let blockingContext = BlockingFunctionCall.Context(signInMethod: ProviderID.phone)

    private static func signIn(
        _ user: UserRecord, phoneNumber: String, isNewUser: Bool, in project: inout ProjectState,
        environment env: EmulatorEnvironment
    ) throws(ApiError) -> Response {
        try require(!user.isDisabled, "USER_DISABLED")
        try require(
            user.secondFactors.isEmpty,
            "UNSUPPORTED_FIRST_FACTOR : A phone number cannot be set as a first factor on an SMS based MFA user.")
        let clock = env.clock
        let signedInAt = String(clock.milliseconds)
        let setUp: (inout UserRecord) -> Void = { record in
            record.phoneNumber = phoneNumber
            record.lastLoginAt = signedInAt
        }
        var planned = user
        setUp(&planned)
        let beforeSignIn = try BlockingFunctionCall.run(
            .beforeSignIn, for: planned, context: blockingContext, in: project, environment: env)
        let updated = project.updateUser(user) { record in
            setUp(&record)
            beforeSignIn.apply(to: &record)
        }
        // Disabled by a blocking function: the changes stay, the sign-in is refused.
        try require(!updated.isDisabled, "USER_DISABLED")
        let tokens = TokenIssuer.issue(
            for: updated, signInProvider: ProviderID.phone, extraClaims: beforeSignIn.extraClaims ?? JSONObject(),
            in: &project, clock: clock)
        return Response(
            isNewUser: isNewUser, phoneNumber: phoneNumber, localId: updated.localId, idToken: tokens.idToken,
            refreshToken: tokens.refreshToken, expiresIn: tokens.expiresIn)
    }
}
