import HearthWire

/// The session as written to a store: the user's profile and tokens, tagged with the app it belongs
/// to so a file from another app or API key reads as signed out.
///
/// Read and written with Hearth's own JSON reader and writer rather than Foundation's coders, so the
/// library does not load FoundationEssentials (and the runtime libraries it pulls in) at all. The keys
/// are the ones the synthesized `Codable` conformances wrote, so sessions saved by earlier builds load.
///
/// Formats: 1 is a user of the project's own; 2 adds the user's tenant (`user.tenantId`). A session is
/// written in the lowest format that holds it, so a build from before tenants still restores a project
/// user, and reads a tenant's user as signed out (it would send that user's requests to the project)
/// instead of restoring it wrongly. Both load here.
struct PersistedSession: Equatable {
    /// The newest format this build reads and writes.
    static let currentFormat = 2
    /// What a session without a tenant is written as (and all that builds before tenants read).
    static let projectUserFormat = 1

    var appName: String
    var apiKey: String
    var user: UserProfile
    var tokens: TokenSet

    /// The format this session is written in: 2 only when the user belongs to a tenant.
    var format: Int { user.tenantId == nil ? Self.projectUserFormat : Self.currentFormat }

    func encoded() -> [UInt8] {
        let document: JSONValue = [
            "format": .number(Double(format)),
            "appName": .string(appName),
            "apiKey": .string(apiKey),
            "user": Self.json(user),
            "tokens": [
                "idToken": .string(tokens.idToken),
                "refreshToken": .string(tokens.refreshToken),
                "expiresAtMs": .number(Double(tokens.expiresAtMs)),
            ],
        ]
        return document.serialized()
    }

    /// nil for anything that is not a session of this app: corrupt, truncated, foreign or from a
    /// future format.
    static func decode(_ bytes: [UInt8], appName: String, apiKey: String) -> PersistedSession? {
        guard let document = try? JSONValue.parse(bytes), case .object(let fields) = document,
              let format = Field.integer(fields["format"]).flatMap({ Int(exactly: $0) }),
              let storedAppName = Field.string(fields["appName"]), let storedAPIKey = Field.string(fields["apiKey"]),
              case .object(let userFields)? = fields["user"], let user = profile(userFields),
              case .object(let tokenFields)? = fields["tokens"],
              let idToken = Field.string(tokenFields["idToken"]),
              let refreshToken = Field.string(tokenFields["refreshToken"]),
              let expiresAtMs = Field.integer(tokenFields["expiresAtMs"])
        else { return nil }
        let session = PersistedSession(appName: storedAppName, apiKey: storedAPIKey, user: user,
                                       tokens: TokenSet(idToken: idToken, refreshToken: refreshToken,
                                                        expiresAtMs: expiresAtMs))
        guard (projectUserFormat...currentFormat).contains(format), session.appName == appName,
              session.apiKey == apiKey, !session.user.uid.isEmpty, !session.tokens.refreshToken.isEmpty,
              // Format 1 has no tenants: a tenant in it is a damaged or forged file. A tenant is never "".
              format >= currentFormat || session.user.tenantId == nil, session.user.tenantId != ""
        else { return nil }
        return session
    }

    // MARK: - Profile

    private static func json(_ user: UserProfile) -> JSONValue {
        var fields: JSONObject = [
            "uid": .string(user.uid),
            "email": .string(user.email),
            "displayName": .string(user.displayName),
            "photoURL": .string(user.photoURL),
            "phoneNumber": .string(user.phoneNumber),
            "isAnonymous": .bool(user.isAnonymous),
            "isEmailVerified": .bool(user.isEmailVerified),
            "creationTimestamp": .number(Double(user.creationTimestamp)),
            "lastSignInTimestamp": .number(Double(user.lastSignInTimestamp)),
            "providerData": .array(user.providerData.map { info in
                [
                    "uid": .string(info.uid),
                    "providerId": .string(info.providerId),
                    "email": .string(info.email),
                    "displayName": .string(info.displayName),
                    "photoURL": .string(info.photoURL),
                    "phoneNumber": .string(info.phoneNumber),
                ]
            }),
            "multiFactor": .array(user.multiFactor.map { factor in
                [
                    "factorId": .string(factor.factorId),
                    "uid": .string(factor.uid),
                    "displayName": .string(factor.displayName),
                    "phoneNumber": .string(factor.phoneNumber),
                    "enrollmentTimestamp": .number(Double(factor.enrollmentTimestamp)),
                ]
            }),
        ]
        fields.setIfPresent("tenantId", user.tenantId)
        return .object(fields)
    }

    /// Fields added after the first format may be missing (they take their defaults); a field that is
    /// present with the wrong type makes the whole session unreadable, as with the coders before.
    private static func profile(_ fields: JSONObject) -> UserProfile? {
        guard let uid = Field.string(fields["uid"]) else { return nil }
        var user = UserProfile(uid: uid)
        guard Field.optional(fields["email"], Field.string, into: &user.email),
              Field.optional(fields["displayName"], Field.string, into: &user.displayName),
              Field.optional(fields["photoURL"], Field.string, into: &user.photoURL),
              Field.optional(fields["phoneNumber"], Field.string, into: &user.phoneNumber),
              Field.optional(fields["isAnonymous"], Field.bool, into: &user.isAnonymous),
              Field.optional(fields["isEmailVerified"], Field.bool, into: &user.isEmailVerified),
              Field.optional(fields["creationTimestamp"], Field.unsigned, into: &user.creationTimestamp),
              Field.optional(fields["lastSignInTimestamp"], Field.unsigned, into: &user.lastSignInTimestamp),
              Field.optional(fields["providerData"], { Field.list($0, userInfo) }, into: &user.providerData),
              Field.optional(fields["multiFactor"], { Field.list($0, multiFactorInfo) }, into: &user.multiFactor),
              Field.optional(fields["tenantId"], { Field.string($0).map(Optional.some) }, into: &user.tenantId)
        else { return nil }
        return user
    }

    private static func userInfo(_ value: JSONValue) -> UserInfoSnapshot? {
        guard case .object(let fields) = value,
              let uid = Field.string(fields["uid"]), let providerId = Field.string(fields["providerId"]),
              let email = Field.string(fields["email"]), let displayName = Field.string(fields["displayName"]),
              let photoURL = Field.string(fields["photoURL"]), let phoneNumber = Field.string(fields["phoneNumber"])
        else { return nil }
        return UserInfoSnapshot(uid: uid, providerId: providerId, email: email, displayName: displayName,
                                photoURL: photoURL, phoneNumber: phoneNumber)
    }

    private static func multiFactorInfo(_ value: JSONValue) -> MultiFactorInfoSnapshot? {
        guard case .object(let fields) = value,
              let factorId = Field.string(fields["factorId"]), let uid = Field.string(fields["uid"]),
              let displayName = Field.string(fields["displayName"]),
              let phoneNumber = Field.string(fields["phoneNumber"]),
              let enrollmentTimestamp = Field.unsigned(fields["enrollmentTimestamp"])
        else { return nil }
        return MultiFactorInfoSnapshot(factorId: factorId, uid: uid, displayName: displayName,
                                       phoneNumber: phoneNumber, enrollmentTimestamp: enrollmentTimestamp)
    }
}

/// Strict readers for the session file: the exact JSON type, integers only when exact.
private enum Field {
    static func string(_ value: JSONValue?) -> String? {
        if case .string(let text)? = value { return text }
        return nil
    }

    static func bool(_ value: JSONValue?) -> Bool? {
        if case .bool(let flag)? = value { return flag }
        return nil
    }

    static func integer(_ value: JSONValue?) -> Int64? {
        guard case .number(let number)? = value else { return nil }
        return Int64(exactly: number)
    }

    static func unsigned(_ value: JSONValue?) -> UInt64? {
        guard case .number(let number)? = value else { return nil }
        return UInt64(exactly: number)
    }

    static func list<Element>(_ value: JSONValue?, _ element: (JSONValue) -> Element?) -> [Element]? {
        guard case .array(let items)? = value else { return nil }
        var elements: [Element] = []
        elements.reserveCapacity(items.count)
        for item in items {
            guard let parsed = element(item) else { return nil }
            elements.append(parsed)
        }
        return elements
    }

    /// Absent (or null): keeps `target`'s default and succeeds. Present: must read, else fails.
    static func optional<Value>(_ value: JSONValue?, _ read: (JSONValue?) -> Value?, into target: inout Value) -> Bool {
        guard let value, value != .null else { return true }
        guard let parsed = read(value) else { return false }
        target = parsed
        return true
    }
}
