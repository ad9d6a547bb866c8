/// `GET /emulator/v1/projects/{p}/verificationCodes`: the SMS codes the emulator would have sent and
/// that are not used yet (expired ones stay an hour), oldest first, with the language the app asked
/// for (`locale`, hearth-emulator only). Test phone numbers' codes are listed too, as are second-factor
/// codes.
enum ListVerificationCodes {
    struct Response: Encodable {
        var verificationCodes: [VerificationCodeListing]
    }

    static let operation = Operation("emulator.projects.verificationCodes.list", access: .open) { project, _ throws(ApiError) in
        Reply(Response(verificationCodes: project.verificationSessions.all.map { VerificationCodeListing($0.record) }))
    }
}
