import HearthWire

/// A person's name as Sign in with Apple hands it to the app (only on the first authorization; Apple
/// never sends it again, so the app passes it along with the credential for Firebase to keep).
package struct PersonName: Sendable, Equatable {
    package let givenName: String?
    package let familyName: String?

    /// Empty strings count as absent.
    package init(givenName: String?, familyName: String?) {
        self.givenName = givenName.nonEmpty
        self.familyName = familyName.nonEmpty
    }

    /// Neither part is known.
    package var isEmpty: Bool { givenName == nil && familyName == nil }

    /// The `user` value of an Apple postBody: `{"name":{"firstName":…,"lastName":…}}`, keys sorted, parts
    /// that are absent left out (the iOS SDK's format, pinned by its VerifyAssertionTests). Nil when
    /// empty.
    var appleUserJSON: String? {
        if isEmpty { return nil }
        var name: JSONObject = [:]
        if let givenName { name["firstName"] = .string(givenName) }
        if let familyName { name["lastName"] = .string(familyName) }
        return JSONValue.object(["name": .object(name)]).jsonText
    }
}
