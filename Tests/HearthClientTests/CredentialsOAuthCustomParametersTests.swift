@testable import HearthAuth
import XCTest

/// Custom parameters of a provider flow: what passes, what the flow reserves.
final class CredentialsOAuthCustomParametersTests: XCTestCase {
    func testProviderSpecificParametersPass() {
        XCTAssertNil(OAuthCustomParameters.validate([:]))
        XCTAssertNil(OAuthCustomParameters.validate(["tenant": "contoso.onmicrosoft.com", "prompt": "consent",
                                                     "login_hint": "user@contoso.com"]))
        XCTAssertNil(OAuthCustomParameters.validate(["lang": "fr"]))
        XCTAssertNil(OAuthCustomParameters.validate(["locale": "fr_FR", "language": "fr"]))
        XCTAssertNil(OAuthCustomParameters.validate(["hd": "example.com", "x": ""]))
    }

    func testEveryReservedParameterIsRefusedByName() {
        for name in ["client_id", "redirect_uri", "response_type", "scope", "state", "response_mode"] {
            let error = OAuthCustomParameters.validate(["prompt": "consent", name: "x"])
            XCTAssertEqual(error?.code, .invalidArgument, name)
            XCTAssertEqual(error?.message, "The custom parameter \"\(name)\" is reserved: the sign-in flow sets it itself.")
        }
    }

    func testReservedNamesAreRecognisedInAnyCase() {
        XCTAssertEqual(OAuthCustomParameters.validate(["State": "x"])?.code, .invalidArgument)
        XCTAssertEqual(OAuthCustomParameters.validate(["REDIRECT_URI": "x"])?.code, .invalidArgument)
    }

    func testTheFirstOffendingNameInSortedOrderIsReported() {
        XCTAssertEqual(OAuthCustomParameters.validate(["state": "1", "client_id": "2", "scope": "3"])?.message,
                       "The custom parameter \"client_id\" is reserved: the sign-in flow sets it itself.")
    }

    func testEmptyOrControlCharacterNamesAreRefused() {
        XCTAssertEqual(OAuthCustomParameters.validate(["": "x"])?.code, .invalidArgument)
        XCTAssertEqual(OAuthCustomParameters.validate(["a\r\nb": "x"])?.code, .invalidArgument)
    }
}
