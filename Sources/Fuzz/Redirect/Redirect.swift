import FuzzSupport
@testable import HearthAuth

// What a browser or another local process can hand the provider flow: a URL (and form body) for
// `RedirectURLMatcher` (and the same URL read as an email action link), or raw bytes on the loopback receiver's socket for its HTTP request parser.
// Selector byte: 0 → URL (NUL, then form body) against an http loopback target; 1 → the same
// against a custom-scheme target; otherwise → request bytes, fed whole and in chunks of
// (selector % 16 + 1) bytes, then matched as the receiver does.
// Properties: the parser's verdict does not depend on how the bytes arrive, and one answer never
// matches two different states.

private let loopbackTarget = "http://127.0.0.1:4000/__/auth/callback"
private let customTarget = "com.example.app:/oauth2redirect"
private let state = "3q2-7wE_state"

private func match(target: String, url: String, postBody: String?) {
    guard let ours = try? RedirectURLMatcher(redirectTarget: target, expectedState: state),
          let other = try? RedirectURLMatcher(redirectTarget: target, expectedState: state + "x")
    else { return fuzzCheck(false, "fixed redirect target rejected") }
    switch ours.match(url: url, postBody: postBody) {
    case .consumed(let response):
        _ = response.url
        fuzzCheck(isRejected(other.match(url: url, postBody: postBody)), "an answer matched two states")
    case .failed(let error):
        _ = error.description
        fuzzCheck(isRejected(other.match(url: url, postBody: postBody)), "an answer matched two states")
    case .rejected, .notOurs:
        break
    }
}

private func isRejected(_ match: RedirectMatch) -> Bool {
    switch match {
    case .rejected, .notOurs: return true
    case .consumed, .failed: return false
    }
}

/// The same text read as an email action link, as hearth_auth_handle_url and
/// hearth_auth_is_sign_in_with_email_link read it: whitespace around a paste never changes the reading.
private func readAsActionLink(_ text: String) {
    let parsed = ActionCodeURL(link: text)
    fuzzCheck(ActionCodeURL(link: " \(text)\r\n") == parsed, "whitespace around a link changed its reading")
    fuzzCheck(Auth.isSignInWithEmailLink(text) == (parsed?.operation == .emailSignIn), "two readings of one link")
}

func fuzzOne(_ data: [UInt8]) {
    var input = FuzzInput(data)
    let selector = input.byte()
    switch selector {
    case 0, 1:
        let url = String(decoding: input.field(separatedBy: 0), as: UTF8.self)
        let body = input.isEmpty ? nil : String(decoding: input.rest(), as: UTF8.self)
        match(target: selector == 0 ? loopbackTarget : customTarget, url: url, postBody: body)
        readAsActionLink(url)
    default:
        let bytes = input.rest()
        var whole = LoopbackHTTPRequestParser(maximumHeadBytes: 1024, maximumBodyBytes: 512)
        let all = whole.consume(bytes)
        var chunked = LoopbackHTTPRequestParser(maximumHeadBytes: 1024, maximumBodyBytes: 512)
        var progress = LoopbackHTTPRequestParser.Progress.needMore
        var offset = 0
        let step = Int(selector % 16) + 1
        repeat {
            let end = min(bytes.count, offset + step)
            progress = chunked.consume(bytes[offset..<end])
            offset = end
        } while offset < bytes.count && progress == .needMore
        fuzzCheck(progress == all, "the request parser's verdict depends on chunking")
        guard case .complete(let request) = all else { return }
        _ = request.header("host")
        _ = request.path
        guard request.target.hasPrefix("/") else { return }
        let body = request.method == "POST" ? String(validating: request.body, as: UTF8.self) : nil
        match(target: loopbackTarget, url: "http://127.0.0.1:4000\(request.target)", postBody: body)
    }
}

@main enum Main { static func main() { fuzzMain("fuzz-redirect", fuzzOne) } }
