import HearthWire

/// A user of the fake identity provider: what the provider would say about them in an ID token.
struct FakeIdentity: Sendable, Equatable {
    var subject: String
    var email: String?
    var emailVerified = true
    var displayName: String?
    var screenName: String?
    var photoUrl: String?

    /// An identity already linked in the project, as the reference's widget lists it.
    init(_ info: ProviderUserInfo) {
        subject = info.rawId
        email = info.email
        displayName = info.displayName
        screenName = info.screenName
        photoUrl = info.photoUrl
    }

    init(subject: String, email: String?, emailVerified: Bool = true, displayName: String? = nil,
         screenName: String? = nil, photoUrl: String? = nil) {
        self.subject = subject
        self.email = email
        self.emailVerified = emailVerified
        self.displayName = displayName
        self.screenName = screenName
        self.photoUrl = photoUrl
    }

    /// The fake ID token's claims, in the shape of the reference widget's (empty `iss`/`aud`, zero
    /// times), plus the `nonce` the app asked the provider to bind the token to.
    func claims(nonce: String?) -> JSONObject {
        var claims = JSONObject()
        claims["sub"] = .string(subject)
        claims["iss"] = .string("")
        claims["aud"] = .string("")
        claims["exp"] = .number(0)
        claims["iat"] = .number(0)
        claims["name"] = displayName.map(JSONValue.string)
        claims["screen_name"] = screenName.map(JSONValue.string)
        claims["email"] = email.map(JSONValue.string)
        claims["email_verified"] = .bool(emailVerified)
        claims["picture"] = photoUrl.map(JSONValue.string)
        claims["nonce"] = nonce.map(JSONValue.string)
        return claims
    }

    /// The provider's answer as redirect parameters: `providerId`, `id_token` (the claims as JSON)
    /// and, for SAML providers, the emulator's JSON stand-in for a SAML response.
    func responseParameters(providerId: String, nonce: String?) -> [(name: String, value: String)] {
        var parameters: [(name: String, value: String)] = [
            ("providerId", providerId), ("id_token", JSONValue.object(claims(nonce: nonce)).jsonText),
        ]
        if providerId.hasPrefix("saml.") {
            let subject = JSONObject([("nameId", .string(email ?? subject))])
            let assertion = JSONObject([("subject", .object(subject))])
            parameters.append(("SAMLResponse", JSONValue.object(["assertion": .object(assertion)]).jsonText))
        }
        return parameters
    }
}

/// What the person (or a test) picked on a fake provider page, read from the form or query:
/// `rawId` (an identity already linked in the project), `email` with optional `displayName`,
/// `screenName`, `photoUrl`, `emailVerified` (default true) and `sub`, `generate` (make one up), or
/// `cancel`. An email that an identity of this provider already uses means that identity, so signing
/// in twice with the same email reaches the same account.
enum FakeIdentityChoice: Sendable, Equatable {
    case identity(FakeIdentity)
    case cancel

    /// The parameter names a choice is made of; pages carry every other parameter along.
    static let parameterNames: Set<String> = [
        "rawId", "sub", "email", "displayName", "screenName", "photoUrl", "emailVerified", "generate", "cancel",
    ]

    struct Refusal: Error, Sendable, Equatable {
        var message: String
    }

    /// Nil when the parameters hold no choice (the page should be shown).
    static func read(
        _ parameters: QueryParameters, providerId: String, in project: ProjectState
    ) throws(Refusal) -> FakeIdentityChoice? {
        if parameters.nonEmpty("cancel") != nil { return .cancel }
        let known = project.identities(providerId: providerId)
        if let rawId = parameters.nonEmpty("rawId") {
            guard let info = known.first(where: { $0.rawId == rawId }) else {
                throw Refusal(message: "no \(providerId) account has the id \(rawId)")
            }
            return .identity(FakeIdentity(info))
        }
        let generate = parameters.nonEmpty("generate") != nil
        guard generate || parameters.nonEmpty("email") != nil || parameters.nonEmpty("sub") != nil else { return nil }

        var identity: FakeIdentity
        if let sub = parameters.nonEmpty("sub") {
            identity = known.first { $0.rawId == sub }.map(FakeIdentity.init) ?? FakeIdentity(subject: sub, email: nil)
        } else if let email = parameters.nonEmpty("email").map(EmailAddress.canonical),
                  let info = known.first(where: { $0.email == email }) {
            identity = FakeIdentity(info)
        } else {
            identity = FakeIdentity(subject: RandomID.digits(40), email: nil)
        }
        if let email = parameters.nonEmpty("email") {
            guard EmailAddress.isValid(email) else { throw Refusal(message: "\(email) is not an email address") }
            identity.email = EmailAddress.canonical(email)
        }
        if let value = parameters.nonEmpty("displayName") { identity.displayName = value }
        if let value = parameters.nonEmpty("screenName") { identity.screenName = value }
        if let value = parameters.nonEmpty("photoUrl") { identity.photoUrl = value }
        if let value = parameters["emailVerified"] {
            identity.emailVerified = !["false", "0", "off", "no"].contains(value.lowercased())
        }
        if generate {
            let number = RandomID.digits(6)
            if identity.email == nil { identity.email = "user.\(number)@example.com" }
            if identity.displayName == nil { identity.displayName = "Generated User \(number)" }
            if identity.screenName == nil { identity.screenName = "user_\(number)" }
        }
        return .identity(identity)
    }
}
