import HearthWire

/// `blockingFunctions` of a project's `Config`: the function URLs called before an account is
/// created (`beforeCreate`) and before a sign-in completes (`beforeSignIn`), and which provider
/// credentials they are given (`forwardInboundCredentials`).
struct BlockingFunctionsConfig: Sendable, Equatable {
    enum Event: String, Sendable, CaseIterable {
        case beforeCreate
        case beforeSignIn
    }

    var functionUris: [Event: String] = [:]
    var forwardAccessToken = false
    var forwardIdToken = false
    var forwardRefreshToken = false

    init() {}

    init(_ config: JSONObject) {
        for (name, trigger) in (config["triggers"]?.objectValue ?? JSONObject()) {
            if let event = Event(rawValue: name), let uri = trigger.objectValue?["functionUri"]?.stringValue {
                functionUris[event] = uri
            }
        }
        let forward = config["forwardInboundCredentials"]?.objectValue
        forwardAccessToken = forward?["accessToken"]?.boolValue == true
        forwardIdToken = forward?["idToken"]?.boolValue == true
        forwardRefreshToken = forward?["refreshToken"]?.boolValue == true
    }

    var isEmpty: Bool { functionUris.isEmpty }

    /// What an update may not set: a trigger for another event, or one without an absolute URI.
    static func validate(_ config: JSONObject?) throws(ApiError) {
        for (name, trigger) in (config?["triggers"]?.objectValue ?? JSONObject()) {
            try require(Event(rawValue: name) != nil, "INVALID_BLOCKING_FUNCTION : ((Event type is invalid.))")
            let uri = trigger.objectValue?["functionUri"]?.stringValue ?? ""
            try require(AbsoluteURI.isValid(uri),
                        "INVALID_BLOCKING_FUNCTION : ((Expected an absolute URI with valid scheme and host.))")
        }
    }
}
