@testable import HearthAuth
import XCTest

/// `LoopbackHTTPRequestParser`: one bounded HTTP/1.x request, fed as the bytes arrive.
final class FederatedLoopbackHTTPRequestParserTests: XCTestCase {
    private func parser(head: Int = 16 * 1024, body: Int = 64 * 1024) -> LoopbackHTTPRequestParser {
        LoopbackHTTPRequestParser(maximumHeadBytes: head, maximumBodyBytes: body)
    }

    private func parse(_ text: String, head: Int = 16 * 1024, body: Int = 64 * 1024) -> LoopbackHTTPRequestParser.Progress {
        var parser = parser(head: head, body: body)
        return parser.consume(Array(text.utf8))
    }

    private func request(_ progress: LoopbackHTTPRequestParser.Progress, file: StaticString = #filePath,
                         line: UInt = #line) -> LoopbackHTTPRequest? {
        guard case .complete(let request) = progress else {
            XCTFail("expected a request, got \(progress)", file: file, line: line)
            return nil
        }
        return request
    }

    private func status(_ progress: LoopbackHTTPRequestParser.Progress) -> Int? {
        if case .invalid(let status, _) = progress { return status }
        return nil
    }

    func testAGetArrivingOneByteAtATimeIsParsedOnceTheEmptyLineArrives() {
        var parser = parser()
        let text = "GET /__/auth/callback?state=s&code=c HTTP/1.1\r\nHost: 127.0.0.1:5000\r\nAccept:  text/html \r\n\r\n"
        let bytes = Array(text.utf8)
        for byte in bytes.dropLast() { XCTAssertEqual(parser.consume([byte]), .needMore) }
        let parsed = request(parser.consume([bytes[bytes.count - 1]]))
        XCTAssertEqual(parsed?.method, "GET")
        XCTAssertEqual(parsed?.target, "/__/auth/callback?state=s&code=c")
        XCTAssertEqual(parsed?.path, "/__/auth/callback")
        XCTAssertEqual(parsed?.header("host"), "127.0.0.1:5000")
        XCTAssertEqual(parsed?.header("accept"), "text/html")
        XCTAssertEqual(parsed?.body, [])
    }

    func testBareLineFeedsAndLeadingEmptyLinesAreAccepted() {
        let parsed = request(parse("\r\n\nGET /x HTTP/1.0\nHost: h\n\n"))
        XCTAssertEqual(parsed?.target, "/x")
        XCTAssertEqual(parsed?.header("host"), "h")
    }

    func testABodyIsReadToItsContentLengthAndNoFurther() {
        var parser = parser()
        XCTAssertEqual(parser.consume(Array("POST /cb HTTP/1.1\r\nContent-Length: 7\r\n\r\nstat".utf8)), .needMore)
        let parsed = request(parser.consume(Array("e=sEXTRA".utf8)))
        XCTAssertEqual(parsed.map { String(decoding: $0.body, as: UTF8.self) }, "state=s")
        // Finished: more input changes nothing.
        if let parsed { XCTAssertEqual(parser.consume(Array("GET / HTTP/1.1\r\n\r\n".utf8)), .complete(parsed)) }
    }

    func testHeadsOverTheLimitAre431WhetherOrNotTheyEnd() {
        let long = "GET / HTTP/1.1\r\nX: \(String(repeating: "a", count: 2000))\r\n"
        XCTAssertEqual(status(parse(long, head: 1024)), 431, "no end yet, already too long")
        XCTAssertEqual(status(parse(long + "\r\n", head: 1024)), 431)
        let exact = "GET / HTTP/1.1\r\nX: \(String(repeating: "a", count: 1001))\r\n\r\n"
        XCTAssertEqual(exact.utf8.count, 1024)
        XCTAssertNotNil(request(parse(exact, head: 1024)))
    }

    func testBodiesOverTheLimitAre413BeforeTheyArrive() {
        XCTAssertEqual(status(parse("POST / HTTP/1.1\r\nContent-Length: 1025\r\n\r\n", body: 1024)), 413)
        XCTAssertEqual(status(parse("POST / HTTP/1.1\r\nContent-Length: 99999999999999999999999\r\n\r\n")), 400)
    }

    func testSmugglingShapesAreRefused() {
        XCTAssertEqual(status(parse("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n")), 501)
        XCTAssertEqual(status(parse("POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n")), 400)
        XCTAssertEqual(status(parse("POST / HTTP/1.1\r\nContent-Length: 1, 1\r\n\r\n")), 400)
        XCTAssertEqual(status(parse("POST / HTTP/1.1\r\nContent-Length: +1\r\n\r\n")), 400)
        XCTAssertEqual(status(parse("GET / HTTP/1.1\r\nHost : h\r\n\r\n")), 400)
        XCTAssertEqual(status(parse("GET / HTTP/1.1\r\nX: a\r\n b\r\n\r\n")), 400)
        XCTAssertEqual(status(parse("GET / HTTP/1.1\r\nX: a\rb\r\n\r\n")), 400)
        XCTAssertEqual(status(parse("GET / HTTP/1.1\r\n: empty name\r\n\r\n")), 400)
    }

    func testRequestLinesMustBeMethodTargetVersion() {
        for line in ["GET /", "GET / HTTP/1.1 extra", "GET  / HTTP/1.1", "G(T / HTTP/1.1", "GET /a\u{7F} HTTP/1.1",
                     "GET /é HTTP/1.1", "GET / http/1.1", "\u{1}"] {
            XCTAssertEqual(status(parse("\(line)\r\n\r\n")), 400, line.debugDescription)
        }
        XCTAssertEqual(status(parse("GET / HTTP/2.0\r\n\r\n")), 505)
        XCTAssertEqual(status(parse("GET / HTTP/1.2\r\n\r\n")), 505)
    }

    func testRandomBytesNeverCrashTheParser() {
        var random = SplitMix64(seed: 0xBADC_0FFE)
        for _ in 0..<2_000 {
            var parser = parser(head: 2048, body: 2048)
            var progress = LoopbackHTTPRequestParser.Progress.needMore
            for _ in 0..<Int(random.next() % 8 + 1) {
                var chunk: [UInt8] = []
                for _ in 0..<Int(random.next() % 600) {
                    // Mostly printable with line ends, so many inputs get past the request line.
                    let roll = random.next() % 10
                    chunk.append(roll == 0 ? UInt8(ascii: "\n") : roll == 1 ? UInt8(ascii: "\r")
                        : roll == 2 ? UInt8(truncatingIfNeeded: random.next()) : UInt8(32 + random.next() % 95))
                }
                progress = parser.consume(chunk)
            }
            if case .invalid(let status, let reason) = progress {
                XCTAssertTrue([400, 413, 431, 501, 505].contains(status))
                XCTAssertFalse(reason.isEmpty)
            }
        }
    }
}
