/// The project's v2 `Config` (`ProjectConfigV2`).
enum ProjectSettingsRoutes {
    static let config = "/identitytoolkit.googleapis.com/v2/projects/{targetProjectId}/config"

    static let routes: [Route] = [
        Route(.get, config, ProjectConfigV2.getOperation),
        Route(.patch, config, ProjectConfigV2.updateOperation),
    ]
}
