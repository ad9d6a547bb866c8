@testable import HearthBackend
import HearthWire
import XCTest

final class BackendEndpointTests: XCTestCase {
    private let clientVersion = "X-Client-Version: Hearth/\(HearthVersion.string)"
    private let production = BackendConfig(apiKey: "KEY")

    private func emulator(_ host: String, _ port: UInt16 = 9099) -> BackendConfig {
        BackendConfig(apiKey: "KEY", emulator: EmulatorAddress(host: host, port: port))
    }

    func testProductionV1URL() {
        XCTAssertEqual(Endpoint.identityToolkitV1("accounts:signUp").url(for: production),
                       "https://identitytoolkit.googleapis.com/v1/accounts:signUp?key=KEY")
    }

    func testProductionV2URL() {
        XCTAssertEqual(Endpoint.identityToolkitV2("accounts/mfaEnrollment:start").url(for: production),
                       "https://identitytoolkit.googleapis.com/v2/accounts/mfaEnrollment:start?key=KEY")
    }

    func testProductionSecureTokenURL() {
        XCTAssertEqual(Endpoint.secureToken.url(for: production), "https://securetoken.googleapis.com/v1/token?key=KEY")
    }

    func testEmulatorPrefixesTheProductionHostForEveryEndpoint() {
        let config = emulator("127.0.0.1")
        XCTAssertEqual(Endpoint.identityToolkitV1("accounts:lookup").url(for: config),
                       "http://127.0.0.1:9099/identitytoolkit.googleapis.com/v1/accounts:lookup?key=KEY")
        XCTAssertEqual(Endpoint.identityToolkitV2("accounts/mfaSignIn:finalize").url(for: config),
                       "http://127.0.0.1:9099/identitytoolkit.googleapis.com/v2/accounts/mfaSignIn:finalize?key=KEY")
        XCTAssertEqual(Endpoint.secureToken.url(for: config),
                       "http://127.0.0.1:9099/securetoken.googleapis.com/v1/token?key=KEY")
    }

    func testEmulatorHostNameIsUsedAsGiven() {
        XCTAssertEqual(Endpoint.secureToken.url(for: emulator("localhost", 8080)),
                       "http://localhost:8080/securetoken.googleapis.com/v1/token?key=KEY")
    }

    func testEmulatorIPv6HostIsBracketed() {
        XCTAssertEqual(Endpoint.identityToolkitV1("accounts:signUp").url(for: emulator("::1")),
                       "http://[::1]:9099/identitytoolkit.googleapis.com/v1/accounts:signUp?key=KEY")
        XCTAssertEqual(Endpoint.identityToolkitV1("accounts:signUp").url(for: emulator("[::1]")),
                       "http://[::1]:9099/identitytoolkit.googleapis.com/v1/accounts:signUp?key=KEY")
    }

    func testApiKeyIsPercentEncoded() {
        let config = BackendConfig(apiKey: "a b&c=d+é")
        XCTAssertEqual(Endpoint.secureToken.url(for: config),
                       "https://securetoken.googleapis.com/v1/token?key=a%20b%26c%3Dd%2B%C3%A9")
    }

    func testAChangedCopyOfAConfigurationLeavesTheOriginalAsItWas() {
        let original = BackendConfig(apiKey: "KEY", languageCode: "fr")
        var copy = original
        copy.apiKey = "OTHER KEY"
        copy.languageCode = "de"
        copy.emulator = EmulatorAddress(host: "::1", port: 1)
        XCTAssertEqual(original.apiKey, "KEY")
        XCTAssertEqual(original.languageCode, "fr")
        XCTAssertNil(original.emulator)
        XCTAssertEqual(Endpoint.secureToken.url(for: original), "https://securetoken.googleapis.com/v1/token?key=KEY")
        XCTAssertEqual(Endpoint.secureToken.url(for: copy), "http://[::1]:1/securetoken.googleapis.com/v1/token?key=OTHER%20KEY")
        XCTAssertNotEqual(original, copy)
    }

    func testConfigurationsAreEqualWhenEveryFieldIs() {
        var config = BackendConfig(apiKey: "KEY")
        let same = BackendConfig(apiKey: "KEY")
        XCTAssertEqual(config, same)
        config.tenantId = "tenant-1"
        XCTAssertNotEqual(config, same)
        config.tenantId = nil
        XCTAssertEqual(config, same)
        config.timeoutMs = 5
        XCTAssertNotEqual(config, same)
    }

    func testEveryEndpointIsSentToItsOwnURLBeyondTheOnesKept() {
        let harness = BackendHarness()
        // More endpoints than the backend keeps URLs for, each sent twice.
        let paths = (0..<80).map { "v1/accounts:method\($0)" }
        for _ in 0..<2 {
            for path in paths {
                harness.backend.perform(PathRPC(endpoint: Endpoint(host: Endpoint.identityToolkitHost, path: path)),
                                        config: BackendHarness.production) { _ in }
            }
        }
        XCTAssertEqual(harness.transport.requests.map(\.url),
                       (paths + paths).map { "https://identitytoolkit.googleapis.com/\($0)?key=APIKey" })
    }

    func testAChangedConfigurationChangesTheURLOfAnEndpointSentBefore() {
        let harness = BackendHarness()
        var config = BackendConfig(apiKey: "KEY")
        harness.backend.perform(SignUp.anonymous, config: config) { _ in }
        config.emulator = EmulatorAddress(host: "127.0.0.1", port: 9099)
        harness.backend.perform(SignUp.anonymous, config: config) { _ in }
        config.apiKey = "KEY2"
        harness.backend.perform(SignUp.anonymous, config: config) { _ in }
        XCTAssertEqual(harness.transport.requests.map(\.url), [
            "https://identitytoolkit.googleapis.com/v1/accounts:signUp?key=KEY",
            "http://127.0.0.1:9099/identitytoolkit.googleapis.com/v1/accounts:signUp?key=KEY",
            "http://127.0.0.1:9099/identitytoolkit.googleapis.com/v1/accounts:signUp?key=KEY2",
        ])
    }

    func testExtraQueryParametersFollowTheKey() {
        let endpoint = Endpoint(host: Endpoint.identityToolkitHost, path: "v2/recaptchaConfig", method: "GET",
                                query: [QueryParameter("clientType", "CLIENT_TYPE_WEB"), QueryParameter("v", "a b")])
        XCTAssertEqual(endpoint.url(for: production),
                       "https://identitytoolkit.googleapis.com/v2/recaptchaConfig?key=KEY&clientType=CLIENT_TYPE_WEB&v=a%20b")
    }

    // MARK: - FIREBASE_AUTH_EMULATOR_HOST

    func testEmulatorHostVariableForms() {
        XCTAssertEqual(EmulatorAddress(parsing: "127.0.0.1:9099"), EmulatorAddress(host: "127.0.0.1", port: 9099))
        XCTAssertEqual(EmulatorAddress(parsing: "localhost:9099"), EmulatorAddress(host: "localhost", port: 9099))
        XCTAssertEqual(EmulatorAddress(parsing: "[::1]:9099"), EmulatorAddress(host: "::1", port: 9099))
        XCTAssertEqual(EmulatorAddress(parsing: "http://127.0.0.1:4000/"), EmulatorAddress(host: "127.0.0.1", port: 4000))
        XCTAssertEqual(EmulatorAddress(parsing: " 127.0.0.1:1 "), EmulatorAddress(host: "127.0.0.1", port: 1))
    }

    func testEmulatorHostVariableRejectsIncompleteOrInvalidValues() {
        for text in ["", "127.0.0.1", ":9099", "127.0.0.1:", "127.0.0.1:0", "127.0.0.1:65536", "127.0.0.1:90a9",
                     "::1:9099", "[::1]9099", "[::1", "host/path:9099", "user@host:9099", "127.0.0.1:-1"] {
            XCTAssertNil(EmulatorAddress(parsing: text), text)
        }
    }

    func testEmulatorAuthority() {
        XCTAssertEqual(EmulatorAddress(host: "127.0.0.1", port: 9099).authority, "127.0.0.1:9099")
        XCTAssertEqual(EmulatorAddress(host: "fe80::1", port: 1).authority, "[fe80::1]:1")
    }

    // MARK: - Headers

    func testJSONRequestHeadersWithoutOptionalValues() {
        let request = BackendHarness.request(SignUp.anonymous)
        XCTAssertEqual(request.method, "POST")
        XCTAssertEqual(headerLines(request), ["Content-Type: application/json", clientVersion])
        XCTAssertNil(request.timeoutMs)
    }

    func testAppIdAndLanguageCodeAddTheirHeaders() {
        let config = BackendConfig(apiKey: "KEY", appId: "1:123:web:abc", languageCode: "fr", timeoutMs: 5000)
        let request = BackendHarness.request(SignUp.anonymous, config: config)
        XCTAssertEqual(headerLines(request), [
            "Content-Type: application/json", clientVersion, "X-Firebase-GMPID: 1:123:web:abc",
            "X-Firebase-Locale: fr",
        ])
        XCTAssertEqual(request.timeoutMs, 5000)
    }

    func testEmptyOrControlCharacterHeaderValuesAreLeftOut() {
        let config = BackendConfig(apiKey: "KEY", appId: "", languageCode: "fr\r\nX-Evil: 1")
        XCTAssertEqual(headerLines(BackendHarness.request(SignUp.anonymous, config: config)),
                       ["Content-Type: application/json", clientVersion])
    }

    func testTokenRefreshIsFormEncodedWithTheSameHeaders() {
        let config = BackendConfig(apiKey: "KEY", appId: "app", languageCode: "de")
        let request = BackendHarness.request(SecureTokenRefresh(refreshToken: "r"), config: config)
        XCTAssertEqual(headerLines(request), [
            "Content-Type: application/x-www-form-urlencoded", clientVersion,
            "X-Firebase-GMPID: app", "X-Firebase-Locale: de",
        ])
    }

    func testClientVersionCanBeOverridden() {
        let config = BackendConfig(apiKey: "KEY", clientVersion: "Hearth/9.9.9-test")
        XCTAssertEqual(BackendHarness.request(SignUp.anonymous, config: config).header("x-client-version"),
                       "Hearth/9.9.9-test")
    }
}

/// An RPC sent to whatever endpoint it is given.
private struct PathRPC: BackendRPC {
    let endpoint: Endpoint

    func encodeBody() -> [UInt8] { Array("{}".utf8) }
    func decode(_ object: JSONObject) throws(AuthError) {}
}
