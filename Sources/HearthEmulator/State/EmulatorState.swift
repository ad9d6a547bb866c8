import Synchronization

/// All projects' state behind one lock. Handlers run synchronously inside `withProject`, so each
/// operation sees and leaves a consistent project (no interleaving between its checks and writes).
final class EmulatorState: Sendable {
    private let projects = Mutex<[String: ProjectState]>([:])
    /// The settings a project starts with (the command line's).
    private let initialConfig: ProjectConfig

    init(initialConfig: ProjectConfig = ProjectConfig()) {
        self.initialConfig = initialConfig
    }

    func withProject<Result: Sendable>(
        _ projectId: String, _ body: (inout ProjectState) throws(ApiError) -> Result
    ) throws(ApiError) -> Result {
        let outcome: Swift.Result<Result, ApiError> = projects.withLock { all in
            do throws(ApiError) {
                return .success(try body(&all[projectId, default: ProjectState(projectId: projectId, config: initialConfig)]))
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }
}
