import HearthWire

/// What the identity provider says about the user (the reference's `fakeFetchUserInfoFromIdp`):
/// the response's profile fields and the identity to link. google.com gets Google's federated id
/// and user-info shape; saml.* takes its email from the assertion; every other provider reports
/// its claims as they are.
struct IdpProfile: Sendable {
    var providerId: String
    var rawId: String
    var federatedId: String
    var email: String?
    var emailVerified: Bool
    var displayName: String?
    var photoUrl: String?
    var screenName: String?
    var firstName: String?
    var lastName: String?
    /// A JSON object serialized to a string.
    var rawUserInfo: String?

    init(providerId: String, credential: IdpClaims, saml: SAMLResponse?) {
        let claims = credential.claims
        self.providerId = providerId
        rawId = credential.subject
        federatedId = credential.subject
        email = credential.string("email").flatMap { $0.isEmpty ? nil : EmailAddress.canonical($0) }
        emailVerified = claims["email_verified"]?.isTruthy ?? false
        displayName = credential.string("name")
        photoUrl = credential.string("picture")
        screenName = credential.string("screen_name")

        if providerId == "google.com" {
            federatedId = "https://accounts.google.com/\(rawId)"
            firstName = credential.string("given_name")
            lastName = credential.string("family_name")
            var scopes = "openid https://www.googleapis.com/auth/userinfo.profile"
            if email != nil { scopes += " https://www.googleapis.com/auth/userinfo.email" }
            var info = JSONObject()
            info["granted_scopes"] = .string(scopes)
            info["id"] = .string(rawId)
            info["name"] = displayName.map(JSONValue.string)
            info["given_name"] = firstName.map(JSONValue.string)
            info["family_name"] = lastName.map(JSONValue.string)
            info["verified_email"] = .bool(emailVerified)
            info["locale"] = .string("en")
            info["email"] = email.map(JSONValue.string)
            info["picture"] = photoUrl.map(JSONValue.string)
            rawUserInfo = JSONValue.object(info).jsonText
        } else if providerId.hasPrefix("saml.") {
            if let nameId = saml?.nameId, EmailAddress.isValid(nameId) { email = nameId }
            emailVerified = true
            rawUserInfo = saml?.attributeStatements.map(\.jsonText)
        } else {
            rawUserInfo = JSONValue.object(claims).jsonText
        }
    }

    /// The `providerUserInfo[]` entry. Production reports the raw id as the stored federated id,
    /// not Google's URL form, and so does the reference.
    var providerUserInfo: ProviderUserInfo {
        ProviderUserInfo(
            providerId: providerId, rawId: rawId, federatedId: rawId, displayName: displayName,
            photoUrl: photoUrl, email: email, screenName: screenName)
    }
}

/// The emulator's stand-in for a SAML response: JSON, not XML,
/// `{"assertion":{"subject":{"nameId":…},"attributeStatements":{…}}}`.
struct SAMLResponse: Sendable {
    var nameId: String
    var attributeStatements: JSONValue?

    init(_ text: String) throws(ApiError) {
        guard let root = (try? JSONValue.parse(Array(text.utf8)))?.objectValue else {
            throw .badRequest("INVALID_IDP_RESPONSE ((SAMLResponse must be a JSON object in the Auth Emulator.))")
        }
        guard let assertion = root["assertion"], assertion.isTruthy, let fields = assertion.objectValue else {
            throw .badRequest("INVALID_IDP_RESPONSE ((Missing assertion in SAMLResponse.))")
        }
        guard let subject = fields["subject"], subject.isTruthy else {
            throw .badRequest("INVALID_IDP_RESPONSE ((Missing assertion.subject in SAMLResponse.))")
        }
        guard let nameId = subject.objectValue?["nameId"]?.stringValue, !nameId.isEmpty else {
            throw .badRequest("INVALID_IDP_RESPONSE ((Missing assertion.subject.nameId in SAMLResponse.))")
        }
        self.nameId = nameId
        attributeStatements = fields["attributeStatements"]
    }
}
