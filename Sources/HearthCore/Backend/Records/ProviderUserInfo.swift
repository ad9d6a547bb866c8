/// One linked provider of a user (`providerUserInfo[]` of lookup and update).
public struct ProviderUserInfo: Sendable, Equatable {
    /// "password", "phone", "google.com", ...
    public var providerId: String
    /// The user's id at the provider (what JS uses as the provider uid).
    public var rawId: String?
    /// A URL-style id on some providers (what iOS uses); prefer `rawId`.
    public var federatedId: String?
    public var email: String?
    public var displayName: String?
    public var photoUrl: String?
    public var phoneNumber: String?

    public init(providerId: String, rawId: String? = nil, federatedId: String? = nil, email: String? = nil,
                displayName: String? = nil, photoUrl: String? = nil, phoneNumber: String? = nil) {
        self.providerId = providerId
        self.rawId = rawId
        self.federatedId = federatedId
        self.email = email
        self.displayName = displayName
        self.photoUrl = photoUrl
        self.phoneNumber = phoneNumber
    }

    /// The provider uid: `rawId`, else `federatedId`.
    public var uid: String? { rawId ?? federatedId }

    /// Entries without a providerId are not providers; they are skipped.
    init?(decoding object: JSONObject) {
        let reader = ResponseReader(object)
        guard let providerId = reader.nonEmptyString("providerId") else { return nil }
        self.init(providerId: providerId, rawId: reader.nonEmptyString("rawId"),
                  federatedId: reader.nonEmptyString("federatedId"), email: reader.string("email"),
                  displayName: reader.string("displayName"), photoUrl: reader.string("photoUrl"),
                  phoneNumber: reader.string("phoneNumber"))
    }

    static func list(_ objects: [JSONObject]) -> [ProviderUserInfo] {
        objects.compactMap { ProviderUserInfo(decoding: $0) }
    }
}
