@testable import HearthAuth
@testable import HearthBackend
import HearthWire
import XCTest

/// The exact URLs the desktop provider flow opens and the requests it ends with.
final class ProviderFlowURLTests: XCTestCase {
    func testTheEmulatorPathOpensTheHandlerPageWithTheJSSDKsParametersAndOurState() {
        var provider = OAuthProvider(providerId: "microsoft.com")
        provider.addScope("mail.read")
        provider.addScope("calendars.read")
        XCTAssertNil(provider.setCustomParameter("tenant", "contoso.onmicrosoft.com"))
        let url = EmulatorHandlerURL.make(emulator: EmulatorAddress(host: "127.0.0.1", port: 9099), apiKey: "k+y",
                                          appName: "[DEFAULT]", authType: "signInViaRedirect",
                                          redirectURL: "http://127.0.0.1:5000/__/auth/callback", eventId: "EVENT12345",
                                          state: "s/t=a", provider: provider)
        XCTAssertEqual(url, "http://127.0.0.1:9099/emulator/auth/handler?apiKey=k%2By&appName=%5BDEFAULT%5D"
            + "&authType=signInViaRedirect&redirectUrl=http%3A%2F%2F127.0.0.1%3A5000%2F__%2Fauth%2Fcallback"
            + "&v=Hearth%2F\(HearthVersion.string)&eventId=EVENT12345&providerId=microsoft.com"
            + "&scopes=mail.read%2Ccalendars.read"
            + "&customParameters=%7B%22tenant%22%3A%22contoso.onmicrosoft.com%22%7D&state=s%2Ft%3Da")
    }

    /// The JS SDK names the Auth's tenant `tid`; the emulator's page then offers that tenant's identities.
    func testATenantGoesToTheHandlerPageAsTid() {
        let url = EmulatorHandlerURL.make(emulator: EmulatorAddress(host: "127.0.0.1", port: 9099), apiKey: "k",
                                          appName: "a", authType: "signInViaRedirect", redirectURL: "http://127.0.0.1:1/",
                                          eventId: "e", state: "s", provider: OAuthProvider(providerId: "github.com"),
                                          tenantId: "tenant a&b")
        XCTAssertTrue(url.hasSuffix("&providerId=github.com&tid=tenant%20a%26b&state=s"), url)
        let projectURL = EmulatorHandlerURL.make(emulator: EmulatorAddress(host: "127.0.0.1", port: 9099), apiKey: "k",
                                                 appName: "a", authType: "signInViaRedirect",
                                                 redirectURL: "http://127.0.0.1:1/", eventId: "e", state: "s",
                                                 provider: OAuthProvider(providerId: "github.com"))
        XCTAssertFalse(projectURL.contains("tid="), projectURL)
    }

    func testAnIPv6EmulatorHostIsBracketed() {
        let url = EmulatorHandlerURL.make(emulator: EmulatorAddress(host: "::1", port: 9099), apiKey: "k", appName: "a",
                                          authType: "signInViaRedirect", redirectURL: "http://127.0.0.1:1/",
                                          eventId: "e", state: "s", provider: OAuthProvider(providerId: "twitter.com"))
        XCTAssertTrue(url.hasPrefix("http://[::1]:9099/emulator/auth/handler?"), url)
    }

    func testTheProductionPathAsksCreateAuthUriWithTheLoopbackAsContinueUri() throws {
        var provider = OAuthProvider(providerId: "apple.com")
        provider.addScope("email")
        provider.addScope("name")
        XCTAssertNil(provider.setCustomParameter("locale", "fr"))
        let rpc = CreateAuthUriForProvider(providerId: provider.providerId, continueUri: "http://127.0.0.1:5000/__/auth/callback",
                                           scopes: provider.scopes, customParameters: provider.customParameters)
        let request = Backend.request(for: rpc, config: BackendConfig(apiKey: "KEY"))
        XCTAssertEqual(request.url, "https://identitytoolkit.googleapis.com/v1/accounts:createAuthUri?key=KEY")
        let body = try JSONValue.parse(request.body)
        XCTAssertEqual(body["providerId"], "apple.com")
        XCTAssertEqual(body["continueUri"], "http://127.0.0.1:5000/__/auth/callback")
        XCTAssertEqual(body["oauthScope"], "email name")
        XCTAssertEqual(body["customParameter"]?["locale"], "fr")
    }

    func testTheRedirectEndsInSignInWithIdpWithTheFullURLTheSessionAndTheRawNonce() throws {
        let context = ProviderFlowContext()
        context.sessionId = "SESSION"
        context.rawNonce = "raw-nonce"
        let credential = FederatedCredential.idpRedirect(IdpRedirect(
            providerId: "apple.com", requestUri: "http://127.0.0.1:5000/__/auth/callback?code=abc&state=xyz",
            sessionId: context.sessionId, postBody: context.postBody(formPost: nil)))
        let request = Backend.request(for: credential.signInWithIdp(.signIn), config: BackendConfig(apiKey: "KEY"))
        XCTAssertEqual(request.url, "https://identitytoolkit.googleapis.com/v1/accounts:signInWithIdp?key=KEY")
        let body = try JSONValue.parse(request.body)
        XCTAssertEqual(body["requestUri"], "http://127.0.0.1:5000/__/auth/callback?code=abc&state=xyz")
        XCTAssertEqual(body["sessionId"], "SESSION")
        XCTAssertEqual(body["postBody"], "nonce=raw-nonce&providerId=apple.com")
        XCTAssertEqual(body["returnSecureToken"], true)
        XCTAssertEqual(body["returnIdpCredential"], true)
    }

    func testAFormPostAnswerIsForwardedWithTheNonce() {
        let context = ProviderFlowContext()
        context.rawNonce = "n"
        XCTAssertEqual(context.postBody(formPost: "code=abc&state=xyz"), "code=abc&state=xyz&nonce=n")
        XCTAssertNil(ProviderFlowContext().postBody(formPost: nil))
    }

    func testProvidersWithoutASignInPageAreRefused() {
        XCTAssertEqual(OAuthProvider(providerId: "MadeUpProvider").validationError?.code, .invalidProviderId)
        XCTAssertEqual(OAuthProvider(providerId: "oidc.").validationError?.code, .invalidProviderId)
        XCTAssertNil(OAuthProvider(providerId: "oidc.corp").validationError)
        XCTAssertNil(OAuthProvider(providerId: "twitter.com").validationError)
        var provider = OAuthProvider(providerId: "google.com")
        XCTAssertEqual(provider.setCustomParameter("redirect_uri", "x")?.code, .invalidArgument)
        XCTAssertTrue(provider.customParameters.isEmpty)
    }
}
