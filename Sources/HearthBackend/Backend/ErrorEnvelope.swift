import HearthWire

/// Google's error envelope:
/// `{"error":{"code":400,"message":"CODE : detail","errors":[{"reason":…}],"status":…,"details":[{"reason":…}]}}`.
struct ErrorEnvelope {
    /// `error.message` ("" when absent).
    let message: String
    /// Every `error.errors[].reason`, then every `error.details[].reason`.
    let reasons: [String]

    init?(_ object: JSONObject) {
        guard case .object(let error)? = object["error"] else { return nil }
        message = error["message"]?.stringValue ?? ""
        var reasons: [String] = []
        for list in ["errors", "details"] {
            for entry in error[list]?.arrayValue ?? [] {
                if let reason = entry["reason"]?.stringValue { reasons.append(reason) }
            }
        }
        self.reasons = reasons
    }
}
