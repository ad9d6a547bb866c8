@testable import HearthAuth
@testable import HearthBackend
import HearthWire
import XCTest

/// The second-factor-required answer read from the error a first-factor sign-in fails with.
final class MultiFactorPendingTests: XCTestCase {
    /// What the emulator answers a password sign-in for an account with SMS MFA (emulator-reference §4).
    private let emulatorAnswer: JSONValue = [
        "localId": "uid-1", "email": "ada@example.com", "mfaPendingCredential": "PENDING",
        "mfaInfo": [
            ["mfaEnrollmentId": "PHONE_ID", "displayName": "Phone", "enrolledAt": "2024-05-01T12:34:56.789Z",
             "phoneInfo": "+*******0100"],
            ["mfaEnrollmentId": "TOTP_ID", "displayName": "App", "enrolledAt": "2024-05-01T12:34:56Z", "totpInfo": [:]],
        ],
    ]

    func testASecondFactorRequiredErrorGivesThePendingCredentialAndHints() {
        let pending = MultiFactorPending(from: AuthError(code: .secondFactorRequired, body: emulatorAnswer))
        XCTAssertEqual(pending, MultiFactorPending(
            pendingCredential: "PENDING",
            hints: [
                MultiFactorHint(factorId: .phone, enrollmentId: "PHONE_ID", displayName: "Phone",
                                phoneNumber: "+*******0100", enrollmentTimeMs: 1_714_566_896_789),
                MultiFactorHint(factorId: .totp, enrollmentId: "TOTP_ID", displayName: "App",
                                enrollmentTimeMs: 1_714_566_896_000),
            ],
            localId: "uid-1", email: "ada@example.com"))
    }

    func testTheErrorFromASignInRPCCarriesTheAnswer() throws {
        let harness = BackendHarness()
        let body = String(decoding: emulatorAnswer.serialized(), as: UTF8.self)
        let error = try XCTUnwrap(harness.error(SignInWithPassword(email: "ada@example.com", password: "pw"),
                                                status: 200, body: body))
        XCTAssertEqual(error.code, .secondFactorRequired)
        let pending = try XCTUnwrap(MultiFactorPending(from: error))
        XCTAssertEqual(pending.pendingCredential, "PENDING")
        XCTAssertEqual(pending.hints.map(\.factorId), [.phone, .totp])
    }

    func testAnAnswerWithoutUsableHintsStillHasThePendingCredential() {
        let pending = MultiFactorPending(from: AuthError(
            code: .secondFactorRequired, body: ["mfaPendingCredential": "PENDING", "mfaInfo": [["mfaEnrollmentId": "X"]]]))
        XCTAssertEqual(pending, MultiFactorPending(pendingCredential: "PENDING", hints: []))
    }

    func testOtherErrorsAndBodiesWithoutAPendingCredentialGiveNothing() {
        XCTAssertNil(MultiFactorPending(from: AuthError(code: .accountExistsWithDifferentCredentials, body: emulatorAnswer)))
        XCTAssertNil(MultiFactorPending(from: AuthError(code: .secondFactorRequired)))
        XCTAssertNil(MultiFactorPending(from: AuthError(code: .secondFactorRequired, body: ["mfaPendingCredential": ""])))
        XCTAssertNil(MultiFactorPending(from: AuthError(code: .secondFactorRequired, body: ["mfaPendingCredential": 7])))
        XCTAssertNil(MultiFactorPending(from: AuthError(code: .secondFactorRequired, body: "PENDING")))
    }

    func testThePendingStatePrintsWithoutTheCredential() {
        let pending = MultiFactorPending(pendingCredential: "PENDING_SECRET", hints: [
            MultiFactorHint(factorId: .phone, enrollmentId: "E", phoneNumber: "+*******0100"),
        ])
        var dumped = ""
        dump(pending, to: &dumped)
        for text in [String(describing: pending), String(reflecting: pending), dumped] {
            XCTAssertFalse(text.contains("PENDING_SECRET"), text)
        }
    }
}
