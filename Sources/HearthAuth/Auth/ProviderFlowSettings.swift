import HearthBackend
import HearthWire

/// How a host runs provider flows: its UI delegate and where the redirect comes back.
package struct ProviderFlowSettings: Sendable {
    /// Shows a URL to the user (system browser, web view). Runs on the loop thread; false: refused.
    package var openURL: @Sendable (String) -> Bool
    /// nil: Hearth's loopback receiver on 127.0.0.1. Else a custom-scheme URI the host registered; it
    /// hands incoming URLs to `Auth.handleURL`.
    package var redirectURI: String?
    package var loopbackPort: UInt16 = 0
    package var timeoutMs: UInt64 = 300_000
    /// Go through accounts:createAuthUri (the production path) even against the emulator.
    package var alwaysUseCreateAuthUri = false

    package init(openURL: @escaping @Sendable (String) -> Bool) {
        self.openURL = openURL
    }
}

/// The URL of the emulator's fake identity provider page (the Firebase Auth Emulator's
/// `/emulator/auth/handler`, as the JS SDK builds it), sending the identity back to `redirectURL`. A
/// tenant goes as `tid`, so the page offers (and makes) that tenant's identities.
enum EmulatorHandlerURL {
    static func make(emulator: EmulatorAddress, apiKey: String, appName: String, authType: String,
                     redirectURL: String, eventId: String, state: String, provider: OAuthProvider,
                     tenantId: String? = nil) -> String {
        var query: [(name: String, value: String)] = [("apiKey", apiKey), ("appName", appName), ("authType", authType),
                                         ("redirectUrl", redirectURL), ("v", BackendConfig.defaultClientVersion),
                                         ("eventId", eventId), ("providerId", provider.providerId)]
        if !provider.scopes.isEmpty { query.append(("scopes", provider.scopes.joined(separator: ","))) }
        if !provider.customParameters.isEmpty {
            // Sorted: a dictionary's order changes from run to run, the URL should not.
            let object = JSONValue.object(JSONObject(provider.customParameters.sorted { $0.key < $1.key }
                .map { ($0.key, JSONValue.string($0.value)) }))
            query.append(("customParameters", object.jsonText))
        }
        if let tenantId { query.append(("tid", tenantId)) }
        query.append(("state", state))
        return "http://\(emulator.authority)/emulator/auth/handler?" + FormEncoding.encode(query)
    }
}
