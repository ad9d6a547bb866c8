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

    func encoded() -> String {
        var record = JSONObject()
        record[Self.marker] = .string("DO NOT MODIFY")
        record["localId"] = .string(localId)
        record["provider"] = .string(provider)
        record["extraClaims"] = .object(extraClaims)
        record["projectId"] = .string(projectId)
        record["secondFactor"] = secondFactor.map { factor in
            .object(JSONObject([("identifier", .string(factor.identifier)), ("provider", .string(factor.provider))]))
        }
        record["tenantId"] = tenantId.map(JSONValue.string)
        return Base64.standardEncoded(JSONCoding.encode(JSONValue.object(record)))
    }

    /// INVALID_REFRESH_TOKEN unless the text decodes to a record carrying the marker.
    static func decode(_ text: String) throws(ApiError) -> RefreshToken {
        guard let bytes = Base64.decodeLenient(Substring(text)),
              let record = (try? JSONCoding.parse(bytes))?.objectValue,
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
