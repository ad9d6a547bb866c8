import HearthWire

/// `accounts:update` with an out-of-band code (Firebase's applyActionCode): verifies an email, moves an
/// account to the address a verify-and-change code names, or takes a recovered address back. Needs no
/// signed-in user; the answer's account fields are not read (the SDKs read none).
public struct ApplyActionCode: TenantScopedRPC {
    public var oobCode: String
    public var tenantId: String?

    public init(oobCode: String, tenantId: String? = nil) {
        self.oobCode = oobCode
        self.tenantId = tenantId
    }

    public var endpoint: Endpoint { .identityToolkitV1("accounts:update") }

    public func encodeBody() -> [UInt8] {
        var body: JSONObject = ["oobCode": .string(oobCode)]
        body.setIfPresent("tenantId", tenantId)
        return JSONValue.object(body).serialized()
    }

    public func decode(_ object: JSONObject) throws(AuthError) {}
}
