import HearthWire

/// Identity Platform multi-tenancy: the v2 tenant resources of a project. Each tenant is a project
/// of its own in the emulator's state (`EmulatorState`), with its own accounts; the v1 account
/// routes under `projects/{p}/tenants/{t}/...` (and any request naming `tenantId`) act on it.
enum TenantRoutes {
    static let tenants = "/identitytoolkit.googleapis.com/v2/projects/{targetProjectId}/tenants"

    static let routes: [Route] = [
        Route(.get, tenants, ListTenants.operation),
        Route(.post, tenants, CreateTenant.operation),
        Route(.get, "\(tenants)/{tenantId}", GetTenant.operation),
        Route(.patch, "\(tenants)/{tenantId}", UpdateTenant.operation),
        Route(.delete, "\(tenants)/{tenantId}", DeleteTenant.operation),
    ]
}

/// `POST v2/projects/{p}/tenants`: a tenant with a new 28-character id. Settings left out of the
/// body are off (`allowPasswordSignup`, `enableEmailLinkSignin`, `enableAnonymousUser`,
/// `disableAuth` false; `mfaConfig` DISABLED with no providers), as in production.
enum CreateTenant {
    static let operation = Operation(
        "identitytoolkit.projects.tenants.create", body: .json(AdminV2Schemas.tenant), handler: .global(create))

    private static func create(_ request: OperationRequest, _ state: EmulatorState) throws(ApiError) -> Reply {
        let tenant = state.family(request.projectId).createTenant(TenantConfig.resource(from: request.body))
        return Reply(JSONValue.object(tenant.resource))
    }
}

/// `GET v2/projects/{p}/tenants?pageSize=&pageToken=`: tenants ordered by id, 20 a page by default
/// (at most 1000; a negative size lists all). A full page always has a `nextPageToken` (the last
/// id), even when nothing follows, as in the reference.
enum ListTenants {
    struct Response: Encodable {
        var nextPageToken: String?
        var tenants: [JSONValue]
    }

    static let operation = Operation("identitytoolkit.projects.tenants.list", handler: .global(list))

    private static func list(_ request: OperationRequest, _ state: EmulatorState) throws(ApiError) -> Reply {
        let pageSize = try pageSize(request.query["pageSize"])
        let pageToken = request.query.nonEmpty("pageToken")
        var tenants = state.family(request.projectId).tenantConfigs(after: pageToken)
        var nextPageToken: String?
        if pageSize > 0 && tenants.count >= pageSize {
            tenants = Array(tenants.prefix(pageSize))
            nextPageToken = tenants.last?.tenantId
        }
        return Reply(Response(nextPageToken: nextPageToken, tenants: tenants.map { .object($0.resource) }))
    }

    private static func pageSize(_ text: String?) throws(ApiError) -> Int {
        guard let text, !text.isEmpty else { return 20 }
        guard let value = Int32(text) else {
            throw .invalidArgument("Invalid value at 'pageSize' (TYPE_INT32), \"\(text)\"")
        }
        // 0 falls back to the default, like `|| 20` in the reference.
        return value == 0 ? 20 : min(Int(value), 1000)
    }
}

/// `GET v2/projects/{p}/tenants/{t}`. A tenant nobody created is created now, everything enabled
/// (see `EmulatorState.tenant`), as Firebase's emulator does.
enum GetTenant {
    static let operation = Operation("identitytoolkit.projects.tenants.get") { project, _ throws(ApiError) in
        let tenant = try required(project.tenant, "((Can only get tenant on tenant projects.))")
        return Reply(JSONValue.object(tenant.resource))
    }
}

/// `PATCH v2/projects/{p}/tenants/{t}?updateMask=`: see `TenantConfig.update`.
enum UpdateTenant {
    static let operation = Operation(
        "identitytoolkit.projects.tenants.patch", body: .json(AdminV2Schemas.tenant)
    ) { project, request throws(ApiError) in
        var tenant = try required(project.tenant, "((Can only update tenant on tenant projects.))")
        tenant.update(with: request.body, mask: request.query["updateMask"])
        project.tenant = tenant
        return Reply(JSONValue.object(tenant.resource))
    }
}

/// `DELETE v2/projects/{p}/tenants/{t}`: the tenant and its accounts. Answers `{}`.
enum DeleteTenant {
    static let operation = Operation("identitytoolkit.projects.tenants.delete", handler: .global(delete))

    private static func delete(_ request: OperationRequest, _ state: EmulatorState) throws(ApiError) -> Reply {
        let tenantId = try required(request.tenantId, "((Can only delete tenant on tenant projects.))")
        state.family(request.projectId).deleteTenant(tenantId)
        return Reply(JSONValue.object(JSONObject()))
    }
}
