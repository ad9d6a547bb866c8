import Foundation

/// The page's JavaScript modules (one per view, `ConsoleScripts+*.swift`).
enum ConsoleScripts {}

/// The console's static files, compiled into the binary so it works offline: no CDN, no Node.
/// Each is answered with an `ETag` so a browser revalidates instead of downloading again.
struct ConsoleAsset: Sendable {
    let contentType: String
    let bytes: [UInt8]
    let etag: String

    init(_ contentType: String, _ text: String) {
        self.contentType = contentType
        bytes = Array(text.utf8)
        var hash = FNV1a()
        hash.add(bytes)
        etag = "\"\(hash.hexDigest)\""
    }

    func response(ifNoneMatch: String?) -> EmulatorResponse {
        let fields = ConsoleResponse.fields([("ETag", etag), ("Cache-Control", "no-cache")])
        if let ifNoneMatch, ifNoneMatch.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == etag }) {
            return EmulatorResponse(status: HTTPStatus(code: 304), headers: fields)
        }
        return EmulatorResponse(status: .ok, headers: [("Content-Type", contentType)] + fields, body: bytes)
    }
}

enum ConsoleAssets {
    private static let javascript = "text/javascript; charset=utf-8"

    static let all: [String: ConsoleAsset] = [
        "console.css": ConsoleAsset("text/css; charset=utf-8", ConsoleStyle.css),
        "icon.svg": ConsoleAsset("image/svg+xml", ConsoleStyle.icon),
        "app.js": ConsoleAsset(javascript, ConsoleScripts.app),
        "dom.js": ConsoleAsset(javascript, ConsoleScripts.dom),
        "api.js": ConsoleAsset(javascript, ConsoleScripts.api),
        "accounts.js": ConsoleAsset(javascript, ConsoleScripts.accounts),
        "user.js": ConsoleAsset(javascript, ConsoleScripts.user),
        "feed.js": ConsoleAsset(javascript, ConsoleScripts.feed),
        "codes.js": ConsoleAsset(javascript, ConsoleScripts.codes),
        "settings.js": ConsoleAsset(javascript, ConsoleScripts.settings),
        "tenants.js": ConsoleAsset(javascript, ConsoleScripts.tenants),
        "transfer.js": ConsoleAsset(javascript, ConsoleScripts.transfer),
    ]

    static func named(_ name: String) -> ConsoleAsset? { all[name] }
}
