/// Every project's state, each behind its own readers–writer lock. An operation holds its project's
/// lock for as long as it reads or changes the project, so it sees and leaves a consistent project
/// (no interleaving between its checks and writes); work that needs no state (decoding the request,
/// minting tokens, encoding the answer) is done outside it (see `Operation.Handler`).
///
/// A project's tenants (Identity Platform multi-tenancy) are projects of their own, as in the
/// reference: their own accounts, codes and settings, each behind its own lock, kept beside the
/// project. Locks are only ever taken one at a time, or a tenant's before nothing else, so no two
/// requests can wait on each other.
final class EmulatorState: Sendable {
    private let projects = ReadWriteLocked<[String: ProjectFamily]>([:])
    /// The settings a project starts with (the command line's).
    private let initialConfig: ProjectConfig

    init(initialConfig: ProjectConfig = ProjectConfig()) {
        self.initialConfig = initialConfig
    }

    /// The project, created with the initial settings on first use.
    func project(_ projectId: String) -> LockedProject {
        family(projectId).project
    }

    /// The project and its tenants.
    func family(_ projectId: String) -> ProjectFamily {
        if let existing = projects.read({ $0[projectId] }) { return existing }
        return projects.write { all in
            if let existing = all[projectId] { return existing }
            let created = ProjectFamily(LockedProject(ProjectState(projectId: projectId, config: initialConfig)))
            all[projectId] = created
            return created
        }
    }

    /// The tenant `tenantId` of the project. A tenant nobody created is created on first use with
    /// everything enabled, as Firebase's emulator does (production would answer TENANT_NOT_FOUND).
    func tenant(_ tenantId: String, of projectId: String) -> LockedProject {
        let family = family(projectId)
        if let existing = family.tenants.read({ $0[tenantId] }) { return existing }
        let config = family.project.read { $0.config }
        return family.tenants.write { tenants in
            if let existing = tenants[tenantId] { return existing }
            let created = LockedProject(ProjectState(
                projectId: projectId, config: config, tenant: .enabledOnFirstUse(tenantId: tenantId, projectId: projectId)))
            tenants[tenantId] = created
            return created
        }
    }

    /// The project itself, or one of its tenants.
    func project(_ projectId: String, tenantId: String?) -> LockedProject {
        guard let tenantId else { return project(projectId) }
        return tenant(tenantId, of: projectId)
    }

    /// Runs `body` with the project exclusively.
    func withProject<Result: Sendable>(
        _ projectId: String, _ body: (inout ProjectState) throws(ApiError) -> Result
    ) throws(ApiError) -> Result {
        try project(projectId).write(body)
    }
}

/// One project's state and its lock.
typealias LockedProject = ReadWriteLocked<ProjectState>

/// A project and its tenants. Tenants take their project's settings (`ProjectConfig`): a change to
/// the project's is copied to each tenant (`shareConfig`).
final class ProjectFamily: Sendable {
    let project: LockedProject
    let tenants = ReadWriteLocked<[String: LockedProject]>([:])

    init(_ project: LockedProject) {
        self.project = project
    }

    /// A new tenant with a fresh id (28 alphanumerics), holding `resource`'s settings.
    func createTenant(_ resource: TenantConfig.Resource) -> TenantConfig {
        let config = project.read { $0.config }
        let projectId = project.read { $0.projectId }
        return tenants.write { tenants in
            var tenantId = RandomID.alphanumeric(28)
            while tenants[tenantId] != nil { tenantId = RandomID.alphanumeric(28) }
            let tenant = TenantConfig(tenantId: tenantId, projectId: projectId, resource: resource)
            tenants[tenantId] = LockedProject(ProjectState(projectId: projectId, config: config, tenant: tenant))
            return tenant
        }
    }

    func deleteTenant(_ tenantId: String) {
        tenants.write { _ = $0.removeValue(forKey: tenantId) }
    }

    /// Every tenant's settings with an id after `startAfter` (a page token), ordered by id.
    func tenantConfigs(after startAfter: String?) -> [TenantConfig] {
        let locked = tenants.read { tenants in
            tenants.filter { entry in startAfter.map { entry.key > $0 } ?? true }.sorted { $0.key < $1.key }.map(\.value)
        }
        return locked.compactMap { $0.read { $0.tenant } }
    }

    /// Copies the project's settings to every tenant, after they changed.
    func shareConfig() {
        let config = project.read { $0.config }
        for tenant in tenants.read({ Array($0.values) }) {
            tenant.write { state in
                if state.config.smsRateLimit != config.smsRateLimit { state.smsRateLimiter.reset() }
                state.config = config
            }
        }
    }
}
