/// Which project a request acts on. API keys map to the default project; admins may name another
/// in the path or in `targetProjectId`. Tenants are not supported yet and say so.
enum ProjectScope {
    static func projectId(
        pathParameters: [String: String], body: JSONObject, caller: Caller, access: AccessPolicy,
        defaultProjectId: String
    ) throws(ApiError) -> String {
        let tenant = pathParameters["tenantId"] ?? body["tenantId"]?.stringValue
        if let tenant, !tenant.isEmpty {
            throw .notImplemented("Tenants (tenantId \(tenant)) are not supported by hearth-emulator yet.")
        }
        let named = pathParameters["targetProjectId"] ?? body["targetProjectId"]?.stringValue
        guard let named, !named.isEmpty else { return defaultProjectId }
        if case .apiKeyOrAdmin = access, !caller.isAdmin {
            throw .badRequest("INSUFFICIENT_PERMISSION : Only authenticated requests can specify target_project_id.")
        }
        return named
    }
}
