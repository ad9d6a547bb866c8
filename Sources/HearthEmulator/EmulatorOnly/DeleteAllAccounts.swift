/// `DELETE /emulator/v1/projects/{p}/accounts`: wipes the project's accounts (tests call it between
/// cases). Out-of-band codes survive, as in the reference.
enum DeleteAllAccounts {
    struct Response: Encodable {}

    static let operation = Operation("emulator.projects.accounts.delete", access: .open) { project, _ throws(ApiError) in
        project.deleteAllUsers()
        return Reply(Response())
    }
}
