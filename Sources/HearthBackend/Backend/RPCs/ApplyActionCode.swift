import HearthWire

/// `accounts:update` with an out-of-band code (Firebase's applyActionCode): verifies an email, moves an
/// account to the address a verify-and-change code names, or takes a recovered address back. Needs no
/// signed-in user; the answer's account fields are not read (the SDKs read none).
package struct ApplyActionCode: TenantScopedRPC {
    package var oobCode: String
    package var tenantId: String?

    package init(oobCode: String, tenantId: String? = nil) {
        self.oobCode = oobCode
        self.tenantId = tenantId
    }

    package var endpoint: Endpoint { .identityToolkitV1("accounts:update") }

    package func encodeBody() -> [UInt8] {
        var body: JSONObject = ["oobCode": .string(oobCode)]
        body.setIfPresent("tenantId", tenantId)
        return JSONValue.object(body).serialized()
    }

    package func decode(_ object: JSONObject) throws(AuthError) {}
}
