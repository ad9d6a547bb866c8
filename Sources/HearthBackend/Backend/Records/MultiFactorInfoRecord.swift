import HearthWire

/// One enrolled second factor (`mfaInfo[]` of lookup and of a second-factor-required answer).
package struct MultiFactorInfoRecord: Sendable, Equatable {
    package var mfaEnrollmentId: String
    package var displayName: String?
    /// RFC 3339 text, as sent.
    package var enrolledAt: String?
    /// The (possibly masked) phone number of an SMS factor.
    package var phoneInfo: String?
    /// A `totpInfo` member is present (its content is `{}`).
    package var isTOTP: Bool

    package init(mfaEnrollmentId: String, displayName: String? = nil, enrolledAt: String? = nil,
                phoneInfo: String? = nil, isTOTP: Bool = false) {
        self.mfaEnrollmentId = mfaEnrollmentId
        self.displayName = displayName
        self.enrolledAt = enrolledAt
        self.phoneInfo = phoneInfo
        self.isTOTP = isTOTP
    }

    /// "phone", "totp", or nil for a factor kind this client does not know.
    package var factorId: String? {
        if phoneInfo != nil { return "phone" }
        if isTOTP { return "totp" }
        return nil
    }

    /// Entries without an enrollment id cannot be used; they are skipped.
    package init?(decoding object: JSONObject) {
        self.init(Members(object))
    }

    init?(_ members: Members) {
        guard let id = members.mfaEnrollmentId?.nonEmptyStringValue else { return nil }
        self.init(mfaEnrollmentId: id, displayName: members.displayName?.stringValue,
                  enrolledAt: members.enrolledAt?.stringValue, phoneInfo: members.phoneInfo?.stringValue,
                  isTOTP: members.totpInfo?.objectValue != nil)
    }

    package static func list(_ values: [JSONValue]) -> [MultiFactorInfoRecord] {
        values.compactMap { $0.objectValue.flatMap(MultiFactorInfoRecord.init(decoding:)) }
    }

    struct Members: JSONMembers {
        var mfaEnrollmentId, displayName, enrolledAt, phoneInfo, totpInfo: JSONValue?

        mutating func read<Source: JSONMemberSource>(_ key: JSONKey, _ source: inout Source) throws(JSONParseError) {
            switch key {
            case "mfaEnrollmentId": mfaEnrollmentId = try source.value()
            case "displayName": displayName = try source.value()
            case "enrolledAt": enrolledAt = try source.value()
            case "phoneInfo": phoneInfo = try source.value()
            case "totpInfo": totpInfo = try source.value()
            default: try source.skip()
            }
        }
    }
}
