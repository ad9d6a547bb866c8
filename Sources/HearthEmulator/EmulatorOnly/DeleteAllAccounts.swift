/// `DELETE /emulator/v1/projects/{p}/accounts`: wipes the project's accounts (tests call it between
/// cases). Out-of-band and SMS codes survive, as in the reference; the SMS rate limit starts
/// counting afresh, so one test's sends do not count against the next.
enum DeleteAllAccounts {
    struct Response: Encodable {}

    static let operation = Operation("emulator.projects.accounts.delete", access: .open) { project, _ throws(ApiError) in
        project.deleteAllUsers()
        project.smsRateLimiter.reset()
        return Reply(Response())
    }
}
