/// hearth-emulator's web console at `/emulator/ui/`: accounts, codes and links, settings, tenants,
/// import and export, for a person in a browser. It is served from inside the binary (no Node, no
/// CDN) on the emulator's own address and port.
///
/// The page does its work through the emulator's REST surface, reached through `api/rest/...`
/// (`ConsoleForwarding`), which adds the admin credential and the console's protections
/// (`ConsoleAccess`). Only what no REST route offers has an endpoint of its own: searching and
/// paging accounts (`AccountSearch`), codes as they are issued (`CodesFeed`), and export and import
/// as files (`ConsoleTransfer`).
///
/// ```
/// GET  /emulator/ui/                                       the page
/// GET  /emulator/ui/assets/{name}                          its scripts and style
///      /emulator/ui/api/rest/{REST path}                   any method: the REST route, as admin
/// GET  /emulator/ui/api/projects/{p}[/tenants/{t}]/accounts?q=&offset=&limit=
/// GET  /emulator/ui/api/projects/{p}[/tenants/{t}]/codes?after=VERSION
/// GET  /emulator/ui/api/projects/{p}/export               a zip of the export directory
/// POST /emulator/ui/api/projects/{p}/import               {"files": {"path in the export": "text"}}
/// ```
struct Console: Sendable {
    static let root = "/emulator/ui"
    /// Imports carry whole exports (10,000 accounts are about 5 MB).
    static let bodyLimit = 64 << 20

    let responder: EmulatorResponder
    let state: EmulatorState
    let environment: EmulatorEnvironment
    let access: ConsoleAccess

    init(responder: EmulatorResponder, state: EmulatorState, environment: EmulatorEnvironment, access: ConsoleAccess) {
        self.responder = responder
        self.state = state
        self.environment = environment
        self.access = access
    }

    /// Whether a request target is the console's: `/emulator/ui`, optionally followed by `/...` or `?...`.
    static func claims(_ target: String) -> Bool {
        let bytes = target.utf8
        guard bytes.starts(with: root.utf8) else { return false }
        guard let next = bytes.dropFirst(root.utf8.count).first else { return true }
        return next == UInt8(ascii: "/") || next == UInt8(ascii: "?")
    }

    func respond(to request: ConsoleRequest) -> ConsoleAnswer {
        let rest = request.path.dropFirst(Self.root.count)
        let isAPI = rest.hasPrefix("/api/")
        if let refusal = access.refusal(for: request, isAPI: isAPI) {
            return .now(isAPI ? ConsoleResponse.error(refusal) : ConsoleResponse.text(refusal.message, status: 403))
        }
        if isAPI {
            return api(request, path: rest.dropFirst("/api/".count))
        }
        guard request.isRead else { return .now(ConsoleResponse.methodNotAllowed(allowing: "GET, HEAD", api: false)) }
        if rest.isEmpty {
            // The page's relative links need the trailing slash.
            return .now(ConsoleResponse.redirect(to: "\(Self.root)/" + (request.rawQuery.map { "?\($0)" } ?? "")))
        }
        if rest == "/" {
            return .now(ConsolePage.response(token: access.token, defaultProjectId: environment.defaultProjectId))
        }
        if rest.hasPrefix("/assets/"), let asset = ConsoleAssets.named(String(rest.dropFirst("/assets/".count))) {
            return .now(asset.response(ifNoneMatch: request.field("if-none-match")))
        }
        return .now(ConsoleResponse.text("Not found: \(request.path)", status: 404))
    }

    private func api(_ request: ConsoleRequest, path: Substring) -> ConsoleAnswer {
        if path.hasPrefix("rest/") {
            return .now(ConsoleForwarding(responder: responder).forward(request, to: String(path.dropFirst("rest".count))))
        }
        let parts = PathTemplate.components(of: String(path))
        guard parts.count >= 3, parts[0] == "projects", !parts[1].isEmpty, let endpoint = parts.last else {
            return .now(ConsoleResponse.error(.notFound))
        }
        var scope = ConsoleScope(projectId: parts[1])
        switch parts.count {
        case 3: break
        case 5 where parts[2] == "tenants": scope.tenantId = parts[3]
        default: return .now(ConsoleResponse.error(.notFound))
        }
        guard scope.isWellFormed else {
            return .now(ConsoleResponse.error(.invalidArgument("Project and tenant ids are letters, digits, '-', '_', '.' and '~'.")))
        }
        switch endpoint {
        case "accounts":
            guard request.isRead else { return .now(ConsoleResponse.methodNotAllowed(allowing: "GET, HEAD", api: true)) }
            return .now(AccountSearch.respond(to: request.query, in: scope, state: state))
        case "codes":
            guard request.isRead else { return .now(ConsoleResponse.methodNotAllowed(allowing: "GET, HEAD", api: true)) }
            return CodesFeed(state: state).answer(after: request.query.nonEmpty("after"), in: scope)
        case "export":
            guard request.isRead else { return .now(ConsoleResponse.methodNotAllowed(allowing: "GET, HEAD", api: true)) }
            return .now(ConsoleTransfer(state: state, environment: environment).export(scope))
        case "import":
            guard request.method == .post else { return .now(ConsoleResponse.methodNotAllowed(allowing: "POST", api: true)) }
            return .now(ConsoleTransfer(state: state, environment: environment).import(request.body, into: scope))
        default:
            return .now(ConsoleResponse.error(.notFound))
        }
    }
}

/// The project, or one of its tenants, a console endpoint acts on.
struct ConsoleScope: Sendable {
    var projectId: String
    var tenantId: String?

    /// Ids go back into REST paths as they are, so they must need no escaping there.
    var isWellFormed: Bool {
        [projectId, tenantId ?? "t"].allSatisfy { id in
            !id.isEmpty && id.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                     UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"),
                     UInt8(ascii: "."), UInt8(ascii: "~"):
                    true
                default:
                    false
                }
            }
        }
    }

    /// The REST paths of the emulator-only routes for this scope.
    var emulatorPath: String {
        "/emulator/v1/projects/\(projectId)" + (tenantId.map { "/tenants/\($0)" } ?? "")
    }

    /// The scope's state, for a change: a tenant nobody created is created, as the REST routes
    /// create one on first use (`EmulatorState.tenant`).
    func project(in state: EmulatorState) -> LockedProject {
        state.project(projectId, tenantId: tenantId)
    }

    /// The scope's state, for a look: nil for a tenant that does not exist. Looking creates
    /// nothing, or a console left open on a tenant someone deleted would bring it back.
    func existingProject(in state: EmulatorState) -> LockedProject? {
        guard let tenantId else { return state.project(projectId) }
        return state.family(projectId).tenants.read { $0[tenantId] }
    }
}
