/// `GET /`: tells tools the emulator is up.
enum Readiness {
    struct Response: Encodable {
        struct Status: Encodable {
            let ready = true
            let docs = "https://firebase.google.com/docs/emulator-suite"
            let apiSpec = OpenAPIDocument.path
        }
        let authEmulator = Status()
    }

    static let operation = Operation("emulator.ready", access: .open) { _, _ throws(ApiError) in
        Reply(Response())
    }
}
