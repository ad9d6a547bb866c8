import HearthWire

/// `{"error":{"code":400,"message":"...","errors":[...],"status":"..."}}`, the shape every Google API and
/// the Firebase Auth Emulator answer failures with.
extension ApiError {
    var envelope: JSONValue {
        var error = JSONObject()
        error["code"] = .number(Double(httpStatus))
        error["message"] = .string(message)
        error["errors"] = .array(items.map(\.json))
        if let status { error["status"] = .string(status) }
        var root = JSONObject()
        root["error"] = .object(error)
        return .object(root)
    }
}

extension ApiError.Item {
    fileprivate var json: JSONValue {
        var item = JSONObject()
        item["message"] = .string(message)
        item["reason"] = .string(reason)
        if let domain { item["domain"] = .string(domain) }
        if let location { item["location"] = .string(location) }
        if let locationType { item["locationType"] = .string(locationType) }
        return .object(item)
    }
}
