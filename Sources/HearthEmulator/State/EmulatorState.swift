/// Every project's state, each behind its own readers–writer lock. An operation holds its project's
/// lock for as long as it reads or changes the project, so it sees and leaves a consistent project
/// (no interleaving between its checks and writes); work that needs no state (decoding the request,
/// minting tokens, encoding the answer) is done outside it (see `Operation.Handler`).
final class EmulatorState: Sendable {
    private let projects = ReadWriteLocked<[String: LockedProject]>([:])
    /// The settings a project starts with (the command line's).
    private let initialConfig: ProjectConfig

    init(initialConfig: ProjectConfig = ProjectConfig()) {
        self.initialConfig = initialConfig
    }

    /// The project, created with the initial settings on first use.
    func project(_ projectId: String) -> LockedProject {
        if let existing = projects.read({ $0[projectId] }) { return existing }
        return projects.write { all in
            if let existing = all[projectId] { return existing }
            let created = LockedProject(ProjectState(projectId: projectId, config: initialConfig))
            all[projectId] = created
            return created
        }
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
