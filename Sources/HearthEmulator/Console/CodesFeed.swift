import NIOCore

/// `GET /emulator/ui/api/projects/{p}[/tenants/{t}]/codes?after=VERSION`: the SMS codes and email
/// action links the emulator would have sent, as its REST routes list them
/// (`/emulator/v1/projects/{p}/verificationCodes` and `.../oobCodes`), with a version:
///
/// ```
/// {"version": "9c1f...", "verificationCodes": [...], "oobCodes": [...]}
/// ```
///
/// With `after` equal to the current version the answer waits (a long poll) until the lists change
/// or `timeout` passes, so the page shows a code the moment it is issued without asking again and
/// again. The lists are looked at every `interval` on the connection's event loop: nothing on the
/// emulator's paths that issue codes knows the console exists.
struct CodesFeed {
    static let interval = TimeAmount.milliseconds(150)
    static let timeout = TimeAmount.seconds(20)

    let responder: EmulatorResponder
    let state: EmulatorState

    func answer(after version: String?, in scope: ConsoleScope) -> ConsoleAnswer {
        let current = snapshot(scope)
        guard let version, current.version == version else { return .now(current.response) }
        return .later(LongPoll(
            interval: Self.interval, timeout: Self.timeout,
            check: { [self] in
                let now = snapshot(scope)
                return now.version == version ? nil : now.response
            },
            timedOut: { [self] in snapshot(scope).response }))
    }

    struct Snapshot {
        /// nil when a list could not be read (the answer is then that error).
        var version: String?
        var response: EmulatorResponse
    }

    func snapshot(_ scope: ConsoleScope) -> Snapshot {
        var lists = JSONObject()
        var hash = FNV1a()
        // The listing routes would create a tenant that does not exist (`ConsoleScope.existingProject`).
        let exists = scope.existingProject(in: state) != nil
        for name in ["verificationCodes", "oobCodes"] {
            guard exists else {
                hash.add(Array(name.utf8))
                lists[name] = .array([])
                continue
            }
            let answer = responder.respond(to: EmulatorRequest(
                method: .get, path: "\(scope.emulatorPath)/\(name)", query: nil, headers: RequestHeaders(), body: .bytes([])))
            guard answer.status == .ok, let list = (try? JSONCoding.parse(answer.body))?.objectValue?[name] else {
                return Snapshot(version: nil, response: ConsoleResponse.json(answer.body, status: answer.status))
            }
            hash.add(answer.body)
            lists[name] = list
        }
        let version = hash.hexDigest
        var body = JSONObject([("version", .string(version))])
        for (name, list) in zip(lists.keys, lists.values) { body[name] = list }
        return Snapshot(version: version, response: ConsoleResponse.json(JSONWriter.bytes(.object(body))))
    }
}

/// 64-bit FNV-1a: a cheap fingerprint of bytes (not a secret, not for hostile input).
struct FNV1a {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func add(_ bytes: [UInt8]) {
        for byte in bytes {
            value ^= UInt64(byte)
            value &*= 0x0000_0100_0000_01b3
        }
    }

    var hexDigest: String {
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
