import HearthTransport
import HearthWire

/// Decides whether a transport result is a success (a JSON object to decode) or an `AuthError`.
enum ResponseClassifier {
    static func classify(_ result: Result<HTTPResponse, TransportError>,
                         checks: SuccessShapedErrors) -> Result<JSONObject, AuthError> {
        switch result {
        case .success(let response):
            return classify(response, checks: checks)
        case .failure(let transportError):
            return .failure(error(for: transportError))
        }
    }

    static func error(for transportError: TransportError) -> AuthError {
        switch transportError {
        case .network(let text):
            let detail = text.trimmingASCIIWhitespace()
            return AuthError(code: .networkRequestFailed,
                             message: detail.isEmpty ? nil : "A network error occurred: \(detail)")
        case .timedOut(let text):
            let detail = text.trimmingASCIIWhitespace()
            return AuthError(code: .networkRequestFailed,
                             message: detail.isEmpty ? "The request timed out." : "The request timed out: \(detail)")
        case .cancelled:
            return AuthError(code: .cancelled)
        }
    }

    static func classify(_ response: HTTPResponse, checks: SuccessShapedErrors) -> Result<JSONObject, AuthError> {
        let object: JSONObject?
        if case .object(let parsed)? = try? JSONValue.parse(response.body) {
            object = parsed
        } else {
            object = nil
        }

        if (200..<300).contains(response.status) {
            guard let object else {
                return .failure(.malformedResponse("HTTP \(response.status) without a JSON object"))
            }
            if let error = successShapedError(in: object, checks: checks) {
                return .failure(error)
            }
            return .success(object)
        }

        if let object, let envelope = ErrorEnvelope(object) {
            if !envelope.message.trimmingASCIIWhitespace().isEmpty {
                return .failure(ServerErrorTable.error(serverMessage: envelope.message, reasons: envelope.reasons,
                                                       httpStatus: response.status, body: .object(object)))
            }
            if let code = ServerErrorTable.code(forReasons: envelope.reasons) {
                return .failure(AuthError(code: code, body: .object(object)))
            }
        }
        return .failure(statusError(response.status, body: object.map(JSONValue.object)))
    }

    /// An error answer without a usable error text (HTML from a proxy, an empty 500, a bare 429).
    static func statusError(_ status: Int, body: JSONValue?) -> AuthError {
        let code: AuthErrorCode = status == 429 ? .tooManyRequests : .failure
        return AuthError(code: code, message: "The server answered HTTP \(status) without an error description.",
                         body: body)
    }

    static func successShapedError(in object: JSONObject, checks: SuccessShapedErrors) -> AuthError? {
        let body = JSONValue.object(object)
        if checks.contains(.needConfirmation), object["needConfirmation"]?.flexibleBoolValue == true {
            return AuthError(code: .accountExistsWithDifferentCredentials, body: body)
        }
        if checks.contains(.errorMessage), let text = object["errorMessage"]?.stringValue,
           !text.trimmingASCIIWhitespace().isEmpty {
            return ServerErrorTable.error(serverMessage: text, httpStatus: 200, body: body)
        }
        if checks.contains(.secondFactor), object["mfaPendingCredential"]?.nonEmptyStringValue != nil {
            return AuthError(code: .secondFactorRequired, body: body)
        }
        if checks.contains(.phoneTemporaryProof), object["temporaryProof"]?.nonEmptyStringValue != nil,
           object["idToken"]?.nonEmptyStringValue == nil {
            return AuthError(code: .credentialAlreadyInUse, body: body)
        }
        return nil
    }
}
