/// `POST /securetoken.googleapis.com/v1/token`: exchanges a refresh token for a new ID token.
/// The body may be JSON or a form, with snake_case or camelCase names; `code` is ignored.
enum GrantToken {
    static let schema = RequestSchema(["code": .string, "grantType": .string, "refreshToken": .string])

    struct Request: Decodable {
        var grantType: String?
        var refreshToken: String?
    }

    struct Response: Encodable {
        var id_token: String
        var access_token: String
        var expires_in: String
        var refresh_token: String
        var token_type = "Bearer"
        var user_id: String
        var project_id: String
    }

    static let operation = Operation(
        "securetoken.token", access: .apiKey, body: .jsonOrForm(schema), handler: handle)

    static func handle(_ project: inout ProjectState, _ request: OperationRequest) throws(ApiError) -> Reply {
        let body = try request.decodeBody(as: Request.self)
        let grantType = try requiredText(body.grantType, "MISSING_GRANT_TYPE")
        try require(grantType == "refresh_token", "INVALID_GRANT_TYPE")
        let refreshTokenText = try requiredText(body.refreshToken, "MISSING_REFRESH_TOKEN")

        // Decoded already to find its tenant (`ProjectScope`).
        let record = if let decoded = request.scope.refreshToken { decoded } else { try RefreshToken.decode(refreshTokenText) }
        try require(record.projectId == project.projectId, "INVALID_REFRESH_TOKEN")
        if let tenantId = project.tenantId { try require(record.tenantId == tenantId, "TENANT_ID_MISMATCH") }
        let user = try required(project.user(localId: record.localId), "INVALID_REFRESH_TOKEN")
        try require(!user.isDisabled, "USER_DISABLED")

        let tokens = TokenIssuer.issue(
            for: user, signInProvider: record.provider, extraClaims: record.extraClaims,
            secondFactor: record.secondFactor, in: &project, clock: request.environment.clock)
        return Reply(Response(
            id_token: tokens.idToken, access_token: tokens.idToken, expires_in: tokens.expiresIn,
            refresh_token: tokens.refreshToken, user_id: user.localId, project_id: project.projectNumber))
    }
}
