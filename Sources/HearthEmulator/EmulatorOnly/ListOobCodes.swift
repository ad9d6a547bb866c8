/// `GET /emulator/v1/projects/{p}/oobCodes`: the links the emulator would have emailed, oldest first.
enum ListOobCodes {
    struct Response: Encodable {
        var oobCodes: [OobCodeRecord]
    }

    static let operation = Operation("emulator.projects.oobCodes.list", access: .open) { project, _ throws(ApiError) in
        Reply(Response(oobCodes: project.oobCodes.all))
    }
}
