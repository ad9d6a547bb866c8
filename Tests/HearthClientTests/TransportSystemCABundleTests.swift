@testable import HearthTransport
import XCTest

/// Which CA bundle curl is given when the app names none: curl's own while it exists, else the
/// machine's (a libcurl from one distribution running on another, as in the Python wheel).
final class TransportSystemCABundleTests: XCTestCase {
    private let debian = "/etc/ssl/certs/ca-certificates.crt"
    private let fedora = "/etc/pki/tls/certs/ca-bundle.crt"
    private let rhelExtracted = "/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem"
    private let suse = "/etc/ssl/ca-bundle.pem"

    func testCurlsOwnBundleIsKeptWhereItExists() {
        XCTAssertNil(SystemCABundle.replacement(forBuiltIn: debian) { [debian, fedora].contains($0) })
    }

    func testACurlWithoutBuiltInBundleIsLeftToItsCADirectoryOrTLSLibrary() {
        XCTAssertNil(SystemCABundle.replacement(forBuiltIn: nil) { _ in true })
        XCTAssertNil(SystemCABundle.replacement(forBuiltIn: "") { _ in true })
    }

    func testADebianCurlOnFedoraGetsFedorasBundle() {
        XCTAssertEqual(SystemCABundle.replacement(forBuiltIn: debian) { $0 == self.fedora }, fedora)
    }

    func testAFedoraCurlOnDebianGetsDebiansBundle() {
        XCTAssertEqual(SystemCABundle.replacement(forBuiltIn: fedora) { $0 == self.debian }, debian)
    }

    func testOnRHELWithOnlyTheExtractedBundleThatOneIsUsed() {
        XCTAssertEqual(SystemCABundle.replacement(forBuiltIn: debian) { $0 == self.rhelExtracted }, rhelExtracted)
    }

    func testOnOpenSUSETheSUSEBundleIsUsed() {
        XCTAssertEqual(SystemCABundle.replacement(forBuiltIn: debian) { $0 == self.suse }, suse)
    }

    func testTheMostCommonLayoutWinsWhenSeveralExist() {
        let present: Set = [suse, fedora, rhelExtracted]
        XCTAssertEqual(SystemCABundle.replacement(forBuiltIn: debian) { present.contains($0) }, fedora)
    }

    func testNoBundleAnywhereLeavesCurlsDefaultSoItsErrorNamesThePathItWanted() {
        XCTAssertNil(SystemCABundle.replacement(forBuiltIn: debian) { _ in false })
    }

    func testCurlReportsTheBundleItWasBuiltWith() {
        // This machine's libcurl (Debian's, or the wheel's) names one; an empty answer would mean the
        // replacement could never be worked out.
        let builtIn = SystemCABundle.curlBuiltInBundle()
        XCTAssertNotNil(builtIn)
        XCTAssertEqual(builtIn?.first, "/")
    }

    func testOnADistributionWithItsOwnCurlNothingIsReplaced() throws {
        // The test machine is one (make deps installs Debian's libcurl and ca-certificates).
        let builtIn = try XCTUnwrap(SystemCABundle.curlBuiltInBundle())
        XCTAssertNil(CurlTransport.caBundleProblem(builtIn), "this machine lacks curl's own bundle")
        XCTAssertNil(SystemCABundle.forThisMachine)
    }
}
