@testable import HearthAuth
@testable import HearthBackend
import HearthWire
import XCTest

/// The phone credential's two forms: the requests they make, their checks, and the credential a phone
/// conflict hands back.
final class PhoneCredentialValueTests: XCTestCase {
    func testAVerificationCodeCredentialSignsInWithSessionInfoAndCode() {
        let rpc = PhoneCredentialValue.verificationCode(verificationId: "VERIFICATION_ID", code: "123456")
            .signInWithPhoneNumber()
        XCTAssertEqual(rpc.proof, .code(sessionInfo: "VERIFICATION_ID", code: "123456"))
        XCTAssertEqual(rpc.purpose, .signIn)
    }

    func testATemporaryProofCredentialLinksWithPhoneNumberAndProof() {
        let rpc = PhoneCredentialValue.temporaryProof(phoneNumber: "+16505554567", temporaryProof: "PROOF")
            .signInWithPhoneNumber(.link(idToken: "ID_TOKEN"))
        XCTAssertEqual(rpc.proof, .temporaryProof(phoneNumber: "+16505554567", temporaryProof: "PROOF"))
        XCTAssertEqual(rpc.purpose, .link(idToken: "ID_TOKEN"))
    }

    func testMissingPartsAreReportedWithTheirOwnCodes() {
        XCTAssertNil(PhoneCredentialValue.verificationCode(verificationId: "V", code: "1").validate())
        XCTAssertEqual(PhoneCredentialValue.verificationCode(verificationId: "", code: "1").validate()?.code,
                       .missingVerificationId)
        XCTAssertEqual(PhoneCredentialValue.verificationCode(verificationId: "V", code: "").validate()?.code,
                       .missingVerificationCode)
        XCTAssertNil(PhoneCredentialValue.temporaryProof(phoneNumber: "+1", temporaryProof: "P").validate())
        XCTAssertEqual(PhoneCredentialValue.temporaryProof(phoneNumber: "", temporaryProof: "P").validate()?.code,
                       .missingPhoneNumber)
        XCTAssertEqual(PhoneCredentialValue.temporaryProof(phoneNumber: "+1", temporaryProof: "").validate()?.code,
                       .invalidCredential)
    }

    func testTheConflictAnswerBecomesATemporaryProofCredential() {
        let error = AuthError(code: .credentialAlreadyInUse,
                              body: ["temporaryProof": "PROOF", "phoneNumber": "+16505554567",
                                     "temporaryProofExpiresIn": "3600"])
        XCTAssertEqual(PhoneCredentialValue(updatedCredentialFrom: error),
                       .temporaryProof(phoneNumber: "+16505554567", temporaryProof: "PROOF"))
    }

    func testOtherErrorsCarryNoUpdatedCredential() {
        let body: JSONValue = ["temporaryProof": "PROOF", "phoneNumber": "+16505554567"]
        XCTAssertNil(PhoneCredentialValue(updatedCredentialFrom: AuthError(code: .invalidCredential, body: body)))
        XCTAssertNil(PhoneCredentialValue(updatedCredentialFrom: AuthError(code: .credentialAlreadyInUse)))
        XCTAssertNil(PhoneCredentialValue(updatedCredentialFrom: AuthError(
            code: .credentialAlreadyInUse, body: ["error": ["message": "PHONE_NUMBER_EXISTS"]])))
        XCTAssertNil(PhoneCredentialValue(updatedCredentialFrom: AuthError(
            code: .credentialAlreadyInUse, body: ["temporaryProof": "PROOF"])))
        XCTAssertNil(PhoneCredentialValue(updatedCredentialFrom: AuthError(
            code: .credentialAlreadyInUse, body: ["temporaryProof": "", "phoneNumber": "+16505554567"])))
    }

    func testACredentialPrintsWithoutItsSecrets() {
        let credentials: [PhoneCredentialValue] = [
            .verificationCode(verificationId: "VERIFICATION_ID", code: "654321"),
            .temporaryProof(phoneNumber: "+16505554567", temporaryProof: "PROOF"),
        ]
        for credential in credentials {
            var dumped = ""
            dump(credential, to: &dumped)
            for text in [String(describing: credential), String(reflecting: credential), dumped] {
                for secret in ["VERIFICATION_ID", "654321", "PROOF", "6505554567"] {
                    XCTAssertFalse(text.contains(secret), text)
                }
            }
            XCTAssertEqual(String(describing: credential), "PhoneCredentialValue(phone)")
            XCTAssertEqual(credential.providerId, "phone")
        }
    }
}
