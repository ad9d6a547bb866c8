import NIOCore

/// `GET /emulator/ui/api/projects/{p}[/tenants/{t}]/codes?after=VERSION`: the SMS codes and email
/// action links the emulator would have sent, the lists (and entries) of
/// `/emulator/v1/projects/{p}/verificationCodes` and `.../oobCodes`, with a version:
///
/// ```
/// {"version": "9c1f...", "oobCodes": [...], "verificationCodes": [...]}
/// ```
///
/// With `after` equal to the current version the answer waits (a long poll) until the lists change
/// or `timeout` passes, so the page shows a code the moment it is issued without asking again and
/// again. The lists are looked at every `interval` on the connection's event loop, under the
/// project's read lock: nothing on the emulator's paths that issue codes knows the console exists.
struct CodesFeed {
    static let interval = TimeAmount.milliseconds(150)
    static let timeout = TimeAmount.seconds(20)

    let state: EmulatorState

    private struct Lists: Encodable {
        var oobCodes: [OobCodeRecord]
        var verificationCodes: [VerificationCodeListing]
    }

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
        var version: String
        var response: EmulatorResponse
    }

    func snapshot(_ scope: ConsoleScope) -> Snapshot {
        // A tenant that does not exist has no codes, and is not made by looking (`existingProject`).
        let lists = scope.existingProject(in: state)?.read { project in
            Lists(oobCodes: project.oobCodes.all,
                  verificationCodes: project.verificationSessions.all.map { VerificationCodeListing($0.record) })
        } ?? Lists(oobCodes: [], verificationCodes: [])
        let encoded = JSONCoding.encode(lists)
        var hash = FNV1a()
        hash.add(encoded)
        let version = hash.hexDigest
        // {"version":"...", then the lists' members.
        var body = Array(#"{"version":"\#(version)""#.utf8)
        body.append(contentsOf: encoded.count > 2 ? Array(",".utf8) + encoded.dropFirst() : Array("}".utf8))
        return Snapshot(version: version, response: ConsoleResponse.json(body))
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
