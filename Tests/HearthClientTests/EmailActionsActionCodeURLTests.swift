@testable import HearthAuth
@testable import HearthBackend
import HearthWire
import XCTest

/// Taking email action links apart as Firebase's SDKs do (the JS SDK's ActionCodeURL.parseLink).
final class EmailActionsActionCodeURLTests: XCTestCase {
    private let link = "https://demo.firebaseapp.com/__/auth/action?apiKey=KEY&mode=signIn&oobCode=CODE-1_x"
        + "&continueUrl=https%3A%2F%2Fapp.example.com%2Ffinish%3Fa%3D1&lang=fr&tenantId=tenant-1"

    private func encoded(_ text: String) -> String { PercentEncoding.encode(text) }

    func testAMailedSignInLinkGivesItsFields() throws {
        let parsed = try XCTUnwrap(ActionCodeURL(link: link))
        XCTAssertEqual(parsed.apiKey, "KEY")
        XCTAssertEqual(parsed.code, "CODE-1_x")
        XCTAssertEqual(parsed.operation, .emailSignIn)
        XCTAssertEqual(parsed.continueURL, "https://app.example.com/finish?a=1")
        XCTAssertEqual(parsed.languageCode, "fr")
        XCTAssertEqual(parsed.tenantId, "tenant-1")
        XCTAssertTrue(ActionCodeURL.isSignInLink(link))
    }

    func testEveryModeFirebaseMailsIsAnActionLinkButOnlySignInIsASignInLink() {
        let modes: [(String, ActionCodeOperation)] = [
            ("resetPassword", .passwordReset), ("verifyEmail", .verifyEmail), ("recoverEmail", .recoverEmail),
            ("signIn", .emailSignIn), ("verifyAndChangeEmail", .verifyAndChangeEmail),
            ("revertSecondFactorAddition", .revertSecondFactorAddition),
        ]
        for (mode, operation) in modes {
            let text = "com.example.app:/finish?mode=\(mode)&oobCode=C&apiKey=K"
            XCTAssertEqual(ActionCodeURL(link: text)?.operation, operation, mode)
            XCTAssertEqual(ActionCodeURL.isSignInLink(text), operation == .emailSignIn, mode)
        }
        XCTAssertNil(ActionCodeURL(link: "com.example.app:/finish?mode=signOut&oobCode=C&apiKey=K"))
        XCTAssertNil(ActionCodeURL(link: "com.example.app:/finish?mode=SIGNIN&oobCode=C&apiKey=K"), "modes are case-sensitive")
    }

    func testALinkNeedsAnApiKeyACodeAndAMode() {
        XCTAssertNil(ActionCodeURL(link: "https://x.example/?mode=signIn&oobCode=C"))
        XCTAssertNil(ActionCodeURL(link: "https://x.example/?mode=signIn&apiKey=K"))
        XCTAssertNil(ActionCodeURL(link: "https://x.example/?oobCode=C&apiKey=K"))
        XCTAssertNil(ActionCodeURL(link: "https://x.example/?mode=signIn&oobCode=&apiKey=K"))
        XCTAssertNil(ActionCodeURL(link: "https://x.example/?mode=signIn&oobCode=C&apiKey="))
        XCTAssertNil(ActionCodeURL(link: "https://x.example/#mode=signIn&oobCode=C&apiKey=K"), "the fragment is not the query")
        XCTAssertNil(ActionCodeURL(link: "mode=signIn&oobCode=C&apiKey=K"), "text without a query")
        XCTAssertNil(ActionCodeURL(link: ""))
        XCTAssertNil(ActionCodeURL(link: " \n\t"))
    }

    func testDynamicLinksHostingLinksAndIOSHandOffsAreUnwrapped() {
        let wrapped = "https://example.page.link/?link=\(encoded(link))&apn=com.example&ibi=com.example.ios"
        XCTAssertEqual(ActionCodeURL(link: wrapped)?.code, "CODE-1_x")
        let iOS = "com.example.ios://google/link/?deep_link_id=\(encoded(link))"
        XCTAssertEqual(ActionCodeURL(link: iOS)?.code, "CODE-1_x")
        let doubleWrapped = "https://example.page.link/?link=\(encoded("https://x.example/?deep_link_id=\(encoded(link))"))"
        XCTAssertEqual(ActionCodeURL(link: doubleWrapped)?.code, "CODE-1_x")
        let iOSDouble = "com.example.ios://google/link/?deep_link_id=\(encoded("https://x.example/?link=\(encoded(link))"))"
        XCTAssertEqual(ActionCodeURL(link: iOSDouble)?.code, "CODE-1_x")
    }

    func testTheWrapperWinsInFirebasesOrder() {
        // deep_link_id before link, as Firebase looks: the iOS hand-off names the action link.
        let a = "https://x.example/?mode=signIn&oobCode=A&apiKey=K"
        let b = "https://x.example/?mode=signIn&oobCode=B&apiKey=K"
        let both = "https://example.page.link/?link=\(encoded(a))&deep_link_id=\(encoded(b))"
        XCTAssertEqual(ActionCodeURL(link: both)?.code, "B")
        // An empty wrapper is no wrapper: the outer link's own query counts.
        XCTAssertEqual(ActionCodeURL(link: "https://x.example/?link=&mode=signIn&oobCode=O&apiKey=K")?.code, "O")
    }

    func testWhitespaceAroundAPasteIsIgnored() {
        XCTAssertEqual(ActionCodeURL(link: "  \(link)\r\n")?.code, "CODE-1_x")
        XCTAssertEqual(ActionCodeURL(link: "\u{00A0}\(link)\u{2003}")?.code, "CODE-1_x")
        XCTAssertEqual(ActionCodeURL(link: "\t\(link)")?.tenantId, "tenant-1", "the last value keeps no trailing space")
    }

    func testQueryValuesAreDecodedOnceAndKeepALiteralPlus() {
        let parsed = ActionCodeURL(link: "app:/x?mode=signIn&apiKey=K&oobCode=a+b%2Bc%3D")
        XCTAssertEqual(parsed?.code, "a+b+c=")
        XCTAssertEqual(ActionCodeURL(link: "app:/x?mode=signIn&apiKey=K&oobCode=first&oobCode=last")?.code, "last",
                       "the last of a repeated name wins, as in Firebase's parser")
    }

    func testAnEmailLinkCredentialCarriesTheLinksCodeAndTenant() throws {
        let credential = try XCTUnwrap(EmailLinkCredential(email: "ada@example.com", link: link))
        XCTAssertEqual(credential.oobCode, "CODE-1_x")
        XCTAssertEqual(credential.tenantId, "tenant-1")
        XCTAssertEqual(Credential.emailLink(credential).providerId, "password")
        XCTAssertNil(Credential.emailLink(credential).validationError)
        XCTAssertNil(EmailLinkCredential(email: "ada@example.com", link: "https://x.example/?oobCode=C"))
        XCTAssertEqual(Credential.emailLink(EmailLinkCredential(email: "", oobCode: "C")).validationError?.code, .missingEmail)
        XCTAssertEqual(String(describing: Credential.emailLink(credential)), "Credential(password)", "never the code")
    }
}
