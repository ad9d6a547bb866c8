@testable import HearthTransport
import XCTest

/// The proxy variables, read with libcurl's rules.
final class TransportProxyEnvironmentTests: XCTestCase {
    private func read(_ variables: [String: String]) -> ProxyEnvironment {
        ProxyEnvironment.current { variables[$0] }
    }

    func testEachSchemeHasItsOwnVariable() {
        let proxies = read(["http_proxy": "http://plain:1", "https_proxy": "http://secure:2"])
        XCTAssertEqual(proxies, ProxyEnvironment(http: "http://plain:1", https: "http://secure:2"))
        XCTAssertEqual(proxies.proxy(forScheme: "http"), "http://plain:1")
        XCTAssertEqual(proxies.proxy(forScheme: "https"), "http://secure:2")
    }

    func testUpperCaseIsReadForHTTPSButNeverForHTTP() {
        let proxies = read(["HTTP_PROXY": "http://from-a-cgi-header:1", "HTTPS_PROXY": "http://secure:2"])
        XCTAssertNil(proxies.http, "curl refuses HTTP_PROXY")
        XCTAssertEqual(proxies.https, "http://secure:2")
    }

    func testLowerCaseWinsOverUpperCase() {
        let proxies = read(["https_proxy": "http://lower:1", "HTTPS_PROXY": "http://upper:2",
                            "no_proxy": "lower.example", "NO_PROXY": "upper.example"])
        XCTAssertEqual(proxies.https, "http://lower:1")
        XCTAssertEqual(proxies.noProxy, "lower.example")
    }

    func testAllProxyServesSchemesWithoutTheirOwn() {
        XCTAssertEqual(read(["all_proxy": "socks5://any:3", "https_proxy": "http://secure:2"]),
                       ProxyEnvironment(http: "socks5://any:3", https: "http://secure:2"))
        XCTAssertEqual(read(["ALL_PROXY": "socks5://any:3"]), ProxyEnvironment(http: "socks5://any:3", https: "socks5://any:3"))
    }

    func testEmptyValuesCountAsUnset() {
        let proxies = read(["https_proxy": "", "HTTPS_PROXY": "http://upper:2", "http_proxy": "", "no_proxy": "",
                            "NO_PROXY": "*"])
        XCTAssertEqual(proxies, ProxyEnvironment(http: nil, https: "http://upper:2", noProxy: "*"))
    }

    func testNoVariablesMeansNoProxy() {
        let proxies = read([:])
        XCTAssertEqual(proxies, ProxyEnvironment())
        XCTAssertEqual(proxies.proxy(forScheme: "https"), "", "empty: curl must not look for itself")
    }
}
