import HearthWire

/// `accounts:resetPassword`: with only the code, tells what an out-of-band code is for (Firebase's
/// checkActionCode and verifyPasswordResetCode); with `newPassword`, uses a PASSWORD_RESET code to
/// set the password (confirmPasswordReset).
package struct ResetPassword: TenantScopedRPC {
    package var oobCode: String
    package var newPassword: String?
    package var tenantId: String?

    package init(oobCode: String, newPassword: String? = nil, tenantId: String? = nil) {
        self.oobCode = oobCode
        self.newPassword = newPassword
        self.tenantId = tenantId
    }

    package struct Response: Sendable, Equatable {
        /// "PASSWORD_RESET", "VERIFY_AND_CHANGE_EMAIL", ...; nil when the server does not say.
        var requestType: String?
        package var email: String?
        package var newEmail: String?

        package init(requestType: String? = nil, email: String? = nil, newEmail: String? = nil) {
            self.requestType = requestType
            self.email = email
            self.newEmail = newEmail
        }
    }

    package var endpoint: Endpoint { .identityToolkitV1("accounts:resetPassword") }

    package func encodeBody() -> [UInt8] {
        var body: JSONObject = ["oobCode": .string(oobCode)]
        body.setIfPresent("newPassword", newPassword)
        body.setIfPresent("tenantId", tenantId)
        return JSONValue.object(body).serialized()
    }

    package func decode(_ object: JSONObject) throws(AuthError) -> Response {
        let reader = ResponseReader(object)
        return Response(requestType: reader.nonEmptyString("requestType"), email: reader.nonEmptyString("email"),
                        newEmail: reader.nonEmptyString("newEmail"))
    }
}

extension ResetPassword.Response {
    /// Firebase's ActionCodeInfo for this answer (the JS SDK's checkActionCode): for a verify-and-change
    /// code `email` is the new address and `previousEmail` the old one; otherwise `email` is the
    /// account's and `previousEmail` the server's `newEmail` (for a recover-email code, the address
    /// the account had moved to). Throws, as the JS SDK fails with an internal error, when an answer
    /// lacks what its operation needs: a request type always, the new address for verify-and-change,
    /// the email for any code but a sign-in link.
    package func actionCodeInfo() throws(AuthError) -> ActionCodeInfo {
        guard let requestType else { throw .malformedResponse("missing requestType") }
        let operation = ActionCodeOperation(requestType: requestType)
        switch operation {
        case .emailSignIn:
            break
        case .verifyAndChangeEmail:
            guard newEmail != nil else { throw .malformedResponse("missing newEmail") }
        default:
            guard email != nil else { throw .malformedResponse("missing email") }
        }
        if operation == .verifyAndChangeEmail {
            return ActionCodeInfo(operation: operation, email: newEmail ?? "", previousEmail: email ?? "")
        }
        return ActionCodeInfo(operation: operation, email: email ?? "", previousEmail: newEmail ?? "")
    }
}
