@testable import HearthBackend
import XCTest

final class ErrorsAuthErrorCodeTests: XCTestCase {
    /// `HEARTH_ERROR_X = n` lines of include/hearth.h's `hearth_error` enum.
    private func headerCodes() throws -> [(name: String, value: Int32)] {
        let header = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("include/hearth.h")
        let text = try String(contentsOf: header, encoding: .utf8)
        guard let start = text.range(of: "typedef enum hearth_error {"),
              let end = text.range(of: "} hearth_error;", range: start.upperBound..<text.endIndex) else {
            XCTFail("hearth_error enum not found in \(header.path)")
            return []
        }
        var codes: [(String, Int32)] = []
        for line in text[start.upperBound..<end.lowerBound].split(separator: "\n") {
            let code = line.split(separator: "/")[0].trimmingCharacters(in: .whitespaces)
            guard code.hasPrefix("HEARTH_ERROR_") else { continue }
            let parts = code.split(separator: "=").map { $0.trimmingCharacters(in: .whitespaces.union(["," ])) }
            guard parts.count == 2, let value = Int32(parts[1]) else {
                XCTFail("unreadable enum line: \(line)")
                continue
            }
            codes.append((parts[0], value))
        }
        return codes
    }

    func testEveryHeaderCodeExistsWithTheSameNameAndValue() throws {
        let codes = try headerCodes()
        XCTAssertGreaterThan(codes.count, 80)
        for (name, value) in codes {
            guard let code = AuthErrorCode(rawValue: value) else {
                XCTFail("\(name) = \(value) has no AuthErrorCode")
                continue
            }
            XCTAssertEqual(code.name, name)
        }
        XCTAssertEqual(Set(AuthErrorCode.allCases.map(\.rawValue)), Set(codes.map(\.value)),
                       "AuthErrorCode has values the header lacks")
    }

    func testCodesKeepTheCppSDKNumbering() {
        XCTAssertEqual(AuthErrorCode.none.rawValue, 0)
        XCTAssertEqual(AuthErrorCode.unimplemented.rawValue, -1)
        XCTAssertEqual(AuthErrorCode.failure.rawValue, 1)
        XCTAssertEqual(AuthErrorCode.invalidCredential.rawValue, 4)
        XCTAssertEqual(AuthErrorCode.emailAlreadyInUse.rawValue, 8)
        XCTAssertEqual(AuthErrorCode.credentialAlreadyInUse.rawValue, 10)
        XCTAssertEqual(AuthErrorCode.networkRequestFailed.rawValue, 19)
        XCTAssertEqual(AuthErrorCode.cancelled.rawValue, 58)
        XCTAssertEqual(AuthErrorCode.emailChangeNeedsVerification.rawValue, 78)
        XCTAssertEqual(AuthErrorCode.secondFactorRequired.rawValue, 1002)
        XCTAssertEqual(AuthErrorCode.persistenceFailure.rawValue, 1007)
    }

    func testNamesAreTheCNames() {
        XCTAssertEqual(AuthErrorCode.credentialAlreadyInUse.name, "HEARTH_ERROR_CREDENTIAL_ALREADY_IN_USE")
        XCTAssertEqual(AuthErrorCode.webStorageUnsupported.name, "HEARTH_ERROR_WEB_STORAGE_UNSUPPORTED")
        XCTAssertEqual(AuthErrorCode.unimplemented.name, "HEARTH_ERROR_UNIMPLEMENTED")
        XCTAssertEqual(Set(AuthErrorCode.allCases.map(\.name)).count, AuthErrorCode.allCases.count)
    }

    func testEveryCodeHasADistinctSentence() {
        for code in AuthErrorCode.allCases {
            XCTAssertFalse(code.defaultMessage.isEmpty, code.name)
            XCTAssertTrue(code.defaultMessage.hasSuffix("."), code.name)
        }
        XCTAssertEqual(Set(AuthErrorCode.allCases.map(\.defaultMessage)).count, AuthErrorCode.allCases.count)
    }

    func testAuthErrorFallsBackToTheDefaultMessage() {
        XCTAssertEqual(AuthError(code: .weakPassword).message, AuthErrorCode.weakPassword.defaultMessage)
        XCTAssertEqual(AuthError(code: .weakPassword, message: "").message, AuthErrorCode.weakPassword.defaultMessage)
        XCTAssertEqual(AuthError(code: .weakPassword, message: "too short").message, "too short")
    }

    func testAuthErrorPrintsNeitherBodyNorTokens() {
        let error = AuthError(code: .credentialAlreadyInUse, message: "in use", serverCode: "FEDERATED_USER_ID_ALREADY_LINKED",
                              body: ["oauthAccessToken": "ya29.secret-access-token"])
        XCTAssertEqual(String(describing: error), "HEARTH_ERROR_CREDENTIAL_ALREADY_IN_USE: in use")
        XCTAssertFalse(String(reflecting: error).contains("secret-access-token"))
        var dumped = ""
        dump(error, to: &dumped)
        XCTAssertFalse(dumped.contains("secret-access-token"))
        XCTAssertTrue(dumped.contains("FEDERATED_USER_ID_ALREADY_LINKED"))
    }
}
