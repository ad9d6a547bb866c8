import HearthWire

/// A failed operation: the code hosts switch on, a human message, and what the server said.
package struct AuthError: Error, Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    package var code: AuthErrorCode
    /// The server's detail text where there is one, else the code's default message. Never empty.
    package var message: String
    /// The server's error code (`error.message` or `errorMessage` before the first ':'), if the server sent
    /// one.
    package var serverCode: String?
    /// The whole JSON object of the response, when the server answered with one: for 200-shaped errors
    /// it holds what later code needs to build an updated credential (email, phoneNumber, oauth*
    /// fields, temporaryProof, mfaPendingCredential, mfaInfo); for error envelopes, the envelope.
    /// May contain tokens: never log it.
    package var body: JSONValue?

    package init(code: AuthErrorCode, message: String? = nil, serverCode: String? = nil, body: JSONValue? = nil) {
        self.code = code
        if let message, !message.isEmpty {
            self.message = message
        } else {
            self.message = code.defaultMessage
        }
        self.serverCode = serverCode
        self.body = body
    }

    /// Code name and message only: the body may hold tokens.
    package var description: String { "\(code.name): \(message)" }
    package var debugDescription: String { description }
    package var customMirror: Mirror {
        Mirror(self, children: ["code": code, "message": message, "serverCode": serverCode as Any], displayStyle: .struct)
    }
}

extension AuthError {
    /// A 2xx answer the client cannot use (not JSON, or a required field missing or of the wrong type).
    package static func malformedResponse(_ what: String) -> AuthError {
        AuthError(code: .failure, message: "The server sent a malformed response: \(what).")
    }
}
