import HearthWire

/// `accounts:sendOobCode`: asks the server to email an action link.
package struct SendOobCode: TenantScopedRPC {
    package enum Request: Sendable, Equatable {
        /// PASSWORD_RESET to `email`.
        case passwordReset(email: String)
        /// VERIFY_EMAIL for the signed-in user.
        case verifyEmail(idToken: String)
        /// VERIFY_AND_CHANGE_EMAIL: the email changes to `newEmail` once the link is followed.
        case verifyAndChangeEmail(idToken: String, newEmail: String)
        /// EMAIL_SIGNIN: a link that signs in to `email`'s account (creating it if needed).
        case emailSignIn(email: String)
    }

    package var request: Request
    /// Where the link leads and which apps may open it; nil: Firebase's defaults.
    package var settings: ActionCodeSettings?
    package var tenantId: String?

    package init(_ request: Request, settings: ActionCodeSettings? = nil, tenantId: String? = nil) {
        self.request = request
        self.settings = settings
        self.tenantId = tenantId
    }

    package var endpoint: Endpoint { .identityToolkitV1("accounts:sendOobCode") }

    package func encodeBody() -> [UInt8] {
        var body: JSONObject
        switch request {
        case .passwordReset(let email):
            body = ["requestType": "PASSWORD_RESET", "email": .string(email)]
        case .verifyEmail(let idToken):
            body = ["requestType": "VERIFY_EMAIL", "idToken": .string(idToken)]
        case .verifyAndChangeEmail(let idToken, let newEmail):
            body = ["requestType": "VERIFY_AND_CHANGE_EMAIL", "idToken": .string(idToken), "newEmail": .string(newEmail)]
        case .emailSignIn(let email):
            body = ["requestType": "EMAIL_SIGNIN", "email": .string(email)]
        }
        settings?.write(to: &body)
        body.setIfPresent("tenantId", tenantId)
        return JSONValue.object(body).serialized()
    }

    /// The address the email went to, when the server says.
    package func decode(_ object: JSONObject) throws(AuthError) -> String? {
        ResponseReader(object).string("email")
    }
}
