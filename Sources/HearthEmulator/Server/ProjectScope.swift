import HearthWire

/// Which project, and which of its tenants, a request acts on, decided as the reference decides it
/// before any handler runs:
/// - API keys map to the default project; admins may name another in the path or in
///   `targetProjectId` (others get INSUFFICIENT_PERMISSION);
/// - the tenant is the path's `{tenantId}`, else the body's `tenantId` (both given must agree),
///   else the `firebase.tenant` claim of the body's `idToken`, else the `tenantId` recorded in the
///   body's `refreshToken`; a tenant named explicitly that the token contradicts is
///   TENANT_ID_MISMATCH.
///
/// The body's ID token is decoded here once and handed to the handler (`OperationRequest.idToken`),
/// so the tenant costs no second decoding; a token that does not decode is left for the handler to
/// refuse at its own point.
struct ProjectScope: Sendable {
    var projectId: String
    var tenantId: String?
    /// The tenant came from the query (`Operation.queryTenant`): the operation runs there, but its
    /// tenant checks were the project's (none), as in the reference.
    var tenantFromQuery = false
    var idToken: IdTokenVerifier.Parsed?
    var refreshToken: RefreshToken?

    static func resolve(
        pathParameters: [String: String], body: JSONObject, query: QueryParameters = QueryParameters(nil),
        queryTenant: [String] = [], caller: Caller, access: AccessPolicy, defaultProjectId: String, log: EmulatorLog
    ) throws(ApiError) -> ProjectScope {
        var scope = ProjectScope(projectId: defaultProjectId)
        if let named = pathParameters["targetProjectId"] ?? body["targetProjectId"]?.stringValue, !named.isEmpty {
            if case .apiKeyOrAdmin = access, !caller.isAdmin {
                throw .badRequest("INSUFFICIENT_PERMISSION : Only authenticated requests can specify target_project_id.")
            }
            scope.projectId = named
        }

        let pathTenant = pathParameters["tenantId"].flatMap(nonEmpty)
        let bodyTenant = body["tenantId"]?.stringValue.flatMap(nonEmpty)
        if let pathTenant, let bodyTenant { try require(pathTenant == bodyTenant, "TENANT_ID_MISMATCH") }
        scope.tenantId = pathTenant ?? bodyTenant
        if scope.tenantId == nil, let named = queryTenant.lazy.compactMap({ query.nonEmpty($0) }).first {
            scope.tenantId = named
            scope.tenantFromQuery = true
        }

        if let idToken = body["idToken"]?.stringValue, !idToken.isEmpty,
           let parsed = try? IdTokenVerifier.parse(idToken, log: log) {
            scope.idToken = parsed
            if let tokenTenant = parsed.tenantId {
                if let tenantId = scope.tenantId { try require(tokenTenant == tenantId, "TENANT_ID_MISMATCH") }
                scope.tenantId = tokenTenant
            }
        }
        if let text = body["refreshToken"]?.stringValue, !text.isEmpty {
            let record = try RefreshToken.decode(text)
            scope.refreshToken = record
            if let recordTenant = record.tenantId {
                if let tenantId = scope.tenantId {
                    try require(recordTenant == tenantId,
                                "TENANT_ID_MISMATCH: ((Refresh token tenant ID does not match target tenant ID.))")
                }
                scope.tenantId = recordTenant
            }
        }
        return scope
    }

    private static func nonEmpty(_ text: String) -> String? { text.isEmpty ? nil : text }
}
