/// `accounts:sendOobCode`: password reset, email verification, verify-and-change-email and email
/// sign-in links. The link is logged (not mailed) and listed by `/emulator/v1/projects/{p}/oobCodes`;
/// admins asking `returnOobLink` get it in the response instead.
enum SendOobCode {
    static let requestTypes = [
        "OOB_REQ_TYPE_UNSPECIFIED", "PASSWORD_RESET", "OLD_EMAIL_AGREE", "NEW_EMAIL_ACCEPT", "VERIFY_EMAIL",
        "RECOVER_EMAIL", "EMAIL_SIGNIN", "VERIFY_AND_CHANGE_EMAIL", "REVERT_SECOND_FACTOR_ADDITION",
    ]

    static let schema = RequestSchema([
        "androidInstallApp": .bool, "androidMinimumVersion": .string, "androidPackageName": .string,
        "canHandleCodeInApp": .bool, "captchaResp": .string, "challenge": .string,
        "clientType": .enumeration(ClientType.names), "continueUrl": .string, "dynamicLinkDomain": .string,
        "email": .string, "iOSAppStoreId": .string, "iOSBundleId": .string, "idToken": .string,
        "linkDomain": .string, "newEmail": .string,
        "recaptchaVersion": .enumeration(ClientType.recaptchaVersions),
        "requestType": .enumeration(requestTypes), "returnOobLink": .bool, "targetProjectId": .string,
        "tenantId": .string, "userIp": .string,
        // Sent by the JS SDK's ActionCodeSettings; not in the discovery document.
        "androidMinimumVersionCode": .string,
    ])

    struct Request: Decodable {
        var requestType: String?
        var email: String?
        var newEmail: String?
        var idToken: String?
        var continueUrl: String?
        var returnOobLink: Bool?
        var canHandleCodeInApp: Bool?
    }

    struct Response: Encodable {
        let kind = "identitytoolkit#GetOobConfirmationCodeResponse"
        var email: String
        var oobCode: String?
        var oobLink: String?
    }

    static let operation = Operation(
        "identitytoolkit.accounts.sendOobCode", body: .json(schema), tenantGates: [.enabled], handler: handle)
    static let adminOperation = Operation(
        "identitytoolkit.projects.accounts.sendOobCode", body: .json(schema), tenantGates: [.enabled], handler: handle)

    static func handle(_ project: inout ProjectState, _ request: OperationRequest) throws(ApiError) -> Reply {
        let body = try request.decodeBody(as: Request.self)
        let env = request.environment
        let requestTypeName = body.requestType ?? ""
        try require(!requestTypeName.isEmpty && requestTypeName != "OOB_REQ_TYPE_UNSPECIFIED", "MISSING_REQ_TYPE")
        let returnOobLink = body.returnOobLink == true
        if returnOobLink { try require(request.isAdmin, "INSUFFICIENT_PERMISSION") }
        if let continueUrl = body.continueUrl, !continueUrl.isEmpty {
            try require(AbsoluteURI.isValid(continueUrl),
                        "INVALID_CONTINUE_URI : ((expected an absolute URI with valid scheme and host))")
        }
        guard let type = OobRequestType(rawValue: requestTypeName), type != .recoverEmail else {
            throw .notImplemented(requestTypeName)
        }

        let email: String
        var newEmail: String?
        switch type {
        case .emailSignIn:
            try require(project.features.allowsEmailLinkSignIn, "OPERATION_NOT_ALLOWED")
            email = EmailAddress.canonical(try requiredText(body.email, "MISSING_EMAIL"))
        case .passwordReset:
            email = EmailAddress.canonical(try requiredText(body.email, "MISSING_EMAIL"))
            let owner = project.user(email: email)
            if owner == nil && project.config.enableImprovedEmailPrivacy {
                // Answer as if mailed, so the response does not reveal whether the account exists.
                return Reply(Response(email: email))
            }
            try require(owner != nil, "EMAIL_NOT_FOUND")
        case .verifyEmail:
            email = try addressee(of: body, returnOobLink: returnOobLink, in: project, request: request)
        case .verifyAndChangeEmail:
            newEmail = EmailAddress.canonical(try requiredText(body.newEmail, "MISSING_NEW_EMAIL"))
            if !returnOobLink || !(body.idToken ?? "").isEmpty {
                _ = try requiredText(body.idToken, "MISSING_ID_TOKEN")
            }
            email = try addressee(of: body, returnOobLink: returnOobLink, in: project, request: request)
            try require(project.user(email: newEmail ?? "") == nil, "EMAIL_EXISTS")
        case .recoverEmail:
            throw .notImplemented(requestTypeName)
        }

        if body.canHandleCodeInApp == true {
            env.log.warning("canHandleCodeInApp is unsupported in hearth-emulator. All OOB operations will complete via web.")
        }
        let record = OobCodeIssuer.issue(
            type, email: email, newEmail: newEmail, continueUrl: body.continueUrl.flatMap { $0.isEmpty ? nil : $0 },
            in: &project, environment: env)
        if returnOobLink {
            return Reply(Response(email: email, oobCode: record.oobCode, oobLink: record.oobLink))
        }
        OobCodeIssuer.log(record, to: env.log)
        return Reply(Response(email: email))
    }

    /// The account's email: from `email` for admin link generation, otherwise from the `idToken`.
    private static func addressee(
        of body: Request, returnOobLink: Bool, in project: ProjectState, request: OperationRequest
    ) throws(ApiError) -> String {
        if returnOobLink && (body.idToken ?? "").isEmpty {
            let email = EmailAddress.canonical(try requiredText(body.email, "MISSING_EMAIL"))
            try require(project.user(email: email) != nil, "USER_NOT_FOUND")
            return email
        }
        let user = try request.verifyIdToken(body.idToken ?? "", in: project).user
        return try requiredText(user.email, "MISSING_EMAIL")
    }
}
