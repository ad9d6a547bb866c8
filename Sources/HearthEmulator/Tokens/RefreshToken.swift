import HearthWire

/// The reference's refresh token: standard base64 of a JSON record. Nothing is stored server-side; it
/// never expires and is not revoked by `validSince`, only by the account's deletion or disabling.
struct RefreshToken: Sendable, Equatable {
    static let marker = "_AuthEmulatorRefreshToken"

    var localId: String
    var provider: String
    var extraClaims: JSONObject
    var projectId: String
    var secondFactor: SecondFactor?
    var tenantId: String?

    /// The record's JSON (the member order and bytes `JSONWriter` gives a `JSONObject` built in this
    /// order), written straight: every sign-in mints one.
    func encoded() -> String {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        out.append(contentsOf: #"{"_AuthEmulatorRefreshToken":"DO NOT MODIFY","localId":"#.utf8)
        JSONWriter.writeString(localId, into: &out)
        out.append(contentsOf: #","provider":"#.utf8)
        JSONWriter.writeString(provider, into: &out)
        out.append(contentsOf: #","extraClaims":"#.utf8)
        JSONWriter.write(.object(extraClaims), into: &out)
        out.append(contentsOf: #","projectId":"#.utf8)
        JSONWriter.writeString(projectId, into: &out)
        if let secondFactor {
            out.append(contentsOf: #","secondFactor":{"identifier":"#.utf8)
            JSONWriter.writeString(secondFactor.identifier, into: &out)
            out.append(contentsOf: #","provider":"#.utf8)
            JSONWriter.writeString(secondFactor.provider, into: &out)
            out.append(UInt8(ascii: "}"))
        }
        if let tenantId {
            out.append(contentsOf: #","tenantId":"#.utf8)
            JSONWriter.writeString(tenantId, into: &out)
        }
        out.append(UInt8(ascii: "}"))
        return Base64.standardEncoded(out)
    }

    /// INVALID_REFRESH_TOKEN unless the text decodes to a record carrying the marker.
    static func decode(_ text: String) throws(ApiError) -> RefreshToken {
        guard let bytes = Base64.decodeCarriedToken(text),
              let record = (try? JSONValue.parse(bytes))?.objectValue,
              record[marker] != nil, record[marker] != .null,
              let localId = record["localId"]?.stringValue,
              let provider = record["provider"]?.stringValue,
              let projectId = record["projectId"]?.stringValue
        else { throw .badRequest("INVALID_REFRESH_TOKEN") }
        var secondFactor: SecondFactor?
        if let factor = record["secondFactor"]?.objectValue,
           let identifier = factor["identifier"]?.stringValue, let provider = factor["provider"]?.stringValue {
            secondFactor = SecondFactor(identifier: identifier, provider: provider)
        }
        return RefreshToken(
            localId: localId, provider: provider,
            extraClaims: record["extraClaims"]?.objectValue ?? JSONObject(),
            projectId: projectId, secondFactor: secondFactor, tenantId: record["tenantId"]?.stringValue)
    }
}
