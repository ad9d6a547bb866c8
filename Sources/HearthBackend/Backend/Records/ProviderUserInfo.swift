import HearthWire

/// One linked provider of a user (`providerUserInfo[]` of lookup and update).
package struct ProviderUserInfo: Sendable, Equatable {
    /// "password", "phone", "google.com", ...
    package var providerId: String
    /// The user's id at the provider (what JS uses as the provider uid).
    var rawId: String?
    /// A URL-style id on some providers (what iOS uses); prefer `rawId`.
    var federatedId: String?
    package var email: String?
    package var displayName: String?
    package var photoUrl: String?
    package var phoneNumber: String?

    package init(providerId: String, rawId: String? = nil, federatedId: String? = nil, email: String? = nil,
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
    package var uid: String? { rawId ?? federatedId }

    /// Entries without a providerId are not providers; they are skipped.
    init?(decoding object: JSONObject) {
        self.init(Members(object))
    }

    init?(_ members: Members) {
        guard let providerId = members.providerId?.nonEmptyStringValue else { return nil }
        self.init(providerId: providerId, rawId: members.rawId?.nonEmptyStringValue,
                  federatedId: members.federatedId?.nonEmptyStringValue, email: members.email?.stringValue,
                  displayName: members.displayName?.stringValue, photoUrl: members.photoUrl?.stringValue,
                  phoneNumber: members.phoneNumber?.stringValue)
    }

    static func list(_ objects: [JSONObject]) -> [ProviderUserInfo] {
        objects.compactMap { ProviderUserInfo(decoding: $0) }
    }

    struct Members: JSONMembers {
        var providerId, rawId, federatedId, email, displayName, photoUrl, phoneNumber: JSONValue?

        mutating func read<Source: JSONMemberSource>(_ key: JSONKey, _ source: inout Source) throws(JSONParseError) {
            switch key {
            case "providerId": providerId = try source.value()
            case "rawId": rawId = try source.value()
            case "federatedId": federatedId = try source.value()
            case "email": email = try source.value()
            case "displayName": displayName = try source.value()
            case "photoUrl": photoUrl = try source.value()
            case "phoneNumber": phoneNumber = try source.value()
            default: try source.skip()
            }
        }
    }
}
