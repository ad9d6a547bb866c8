/// Keeps secrets out of log messages. Call sites never put passwords, tokens or codes into messages;
/// this is the net under them, for text Hearth does not write itself (a server's error detail, a
/// transport's message):
/// - URLs lose their query values (`url`);
/// - the value after a secret's name (`"password":"…"`, `id_token: …`, `access_token=…`) goes whatever
///   its length, so short passwords and six-digit codes go too;
/// - long opaque runs go: URL-safe runs (ID and refresh tokens, OOB codes, session infos, API keys) and
///   standard-base64 runs, whole, so a token whose `+` and `/` cut it into short pieces leaves none.
package enum LogRedaction {
    static let placeholder = "<redacted>"
    /// Shorter runs stay readable: Firebase uids are 28 characters.
    static let longestReadableRun = 31

    /// Names whose values are secrets, lowercased without `_` and `-`: Identity Toolkit's request and
    /// answer fields, OAuth's form fields, and the words servers use when they echo what they got.
    static let secretNames: Set<String> = [
        "password", "newpassword", "oldpassword", "rawpassword", "passwordhash",
        "code", "oobcode", "smscode", "verificationcode", "phoneverificationcode",
        "token", "idtoken", "refreshtoken", "accesstoken", "customtoken", "pendingtoken",
        "oauthtoken", "oauthaccesstoken", "oauthidtoken", "oauthtokensecret", "oauthauthorizationcode",
        "authorizationcode", "serverauthcode", "secret", "sharedsecretkey", "secretkey", "clientsecret",
        "sessioninfo", "temporaryproof", "mfapendingcredential", "pendingcredential", "postbody",
        "sessioncookie", "recaptchatoken", "captcharesponse", "iosreceipt", "iossecret",
        "safetynettoken", "playintegritytoken", "nonce", "key", "apikey",
    ]

    /// `url` with every query value and the fragment replaced: "…/accounts:signUp?key=<redacted>".
    package static func url(_ url: String) -> String {
        var base = Substring(url)
        if let hash = base.firstIndex(of: "#") { base = base[..<hash] }
        guard let mark = base.firstIndex(of: "?") else { return String(base) }
        let names = base[base.index(after: mark)...].split(separator: "&", omittingEmptySubsequences: true).map {
            pair in pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)[0]
        }
        return String(base[...mark]) + names.map { "\($0)=\(placeholder)" }.joined(separator: "&")
    }

    /// `text` with secrets' values and long opaque runs replaced.
    static func scrub(_ text: String) -> String {
        var result = ""
        result.unicodeScalars.append(contentsOf: OpaqueRuns.redact(SecretValues.redact(Array(text.unicodeScalars))))
        return result
    }
}

/// The value after a secret's name: `name` (quoted or not), optional spaces, `:` or `=`, optional
/// spaces, then a quoted string, a bracketed JSON value, or a bare word.
private enum SecretValues {
    /// Values redacted already (a URL's query values) stay as they are, with what follows them.
    static let placeholder = Array(LogRedaction.placeholder.unicodeScalars)

    static func redact(_ input: [Unicode.Scalar]) -> [Unicode.Scalar] {
        var output: [Unicode.Scalar] = []
        output.reserveCapacity(input.count)
        var i = 0
        while i < input.count {
            guard isNameCharacter(input[i]), i == 0 || !isNameCharacter(input[i - 1]) else {
                output.append(input[i])
                i += 1
                continue
            }
            let nameStart = i
            var end = i
            while end < input.count, isNameCharacter(input[end]) { end += 1 }
            output.append(contentsOf: input[nameStart..<end])
            i = end
            guard LogRedaction.secretNames.contains(normalized(input[nameStart..<end])),
                  let valueStart = valueStart(input, afterName: end),
                  !input[valueStart...].starts(with: placeholder) else { continue }
            let valueEnd = endOfValue(input, from: valueStart)
            guard valueEnd > valueStart else { continue }
            output.append(contentsOf: input[end..<valueStart])
            let quoted = input[valueStart] == "\""
            if quoted { output.append("\"") }
            output.append(contentsOf: LogRedaction.placeholder.unicodeScalars)
            if quoted, valueEnd - 1 > valueStart, input[valueEnd - 1] == "\"" { output.append("\"") }
            i = valueEnd
        }
        return output
    }

    /// Where the value begins after a name that ends at `index`, if a `:` or `=` follows it.
    private static func valueStart(_ s: [Unicode.Scalar], afterName index: Int) -> Int? {
        var j = index
        if j < s.count, s[j] == "\"" || s[j] == "'" { j += 1 }
        while j < s.count, s[j] == " " { j += 1 }
        guard j < s.count, s[j] == ":" || s[j] == "=" else { return nil }
        j += 1
        while j < s.count, s[j] == " " { j += 1 }
        return j < s.count ? j : nil
    }

    /// The end (exclusive) of the value at `start`.
    private static func endOfValue(_ s: [Unicode.Scalar], from start: Int) -> Int {
        switch s[start] {
        case "\"":
            var j = start + 1
            while j < s.count {
                if s[j] == "\\" { j += 2; continue }
                if s[j] == "\"" { return j + 1 }
                j += 1
            }
            return s.count
        case "{", "[":
            var depth = 0
            var j = start
            var inString = false
            while j < s.count {
                let c = s[j]
                if inString {
                    if c == "\\" { j += 2; continue }
                    if c == "\"" { inString = false }
                } else if c == "\"" {
                    inString = true
                } else if c == "{" || c == "[" {
                    depth += 1
                } else if c == "}" || c == "]" {
                    depth -= 1
                    if depth == 0 { return j + 1 }
                }
                j += 1
            }
            return s.count
        default:
            var j = start
            while j < s.count, !isValueTerminator(s[j]) { j += 1 }
            return j
        }
    }

    private static func isValueTerminator(_ c: Unicode.Scalar) -> Bool {
        switch c {
        case " ", "\t", "\n", "\r", "&", ",", ";", "}", "]", ")", "\"", "'": return true
        default: return false
        }
    }

    private static func isNameCharacter(_ c: Unicode.Scalar) -> Bool {
        switch c.value {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x5F, 0x2D: return true
        default: return false
        }
    }

    private static func normalized(_ name: ArraySlice<Unicode.Scalar>) -> String {
        var result = ""
        for c in name where c != "_" && c != "-" {
            result.unicodeScalars.append(c.properties.lowercaseMapping.unicodeScalars.first ?? c)
        }
        return result
    }
}

/// Long runs of token characters. A run may use base64url's alphabet ([A-Za-z0-9_-]) or standard
/// base64's ([A-Za-z0-9+/] with `=` padding); a standard-base64 run that looks like random bytes goes
/// whole, other runs go piece by piece (so a path like "v1/projects/demo-hearth/accounts" stays).
private enum OpaqueRuns {
    static func redact(_ input: [Unicode.Scalar]) -> [Unicode.Scalar] {
        var output: [Unicode.Scalar] = []
        output.reserveCapacity(input.count)
        var i = 0
        while i < input.count {
            guard isRunCharacter(input[i]) else {
                output.append(input[i])
                i += 1
                continue
            }
            var end = i
            while end < input.count, isRunCharacter(input[end]) { end += 1 }
            let run = input[i..<end]
            if run.count > LogRedaction.longestReadableRun, looksLikeStandardBase64(run) {
                output.append(contentsOf: LogRedaction.placeholder.unicodeScalars)
            } else {
                redactPieces(run, into: &output)
            }
            i = end
        }
        return output
    }

    /// Pieces between `+`, `/` and `=`: each one as long as a URL-safe token goes.
    private static func redactPieces(_ run: ArraySlice<Unicode.Scalar>, into output: inout [Unicode.Scalar]) {
        var start = run.startIndex
        for j in run.indices where isBase64Separator(run[j]) {
            appendPiece(run[start..<j], into: &output)
            output.append(run[j])
            start = j + 1
        }
        appendPiece(run[start..<run.endIndex], into: &output)
    }

    private static func appendPiece(_ piece: ArraySlice<Unicode.Scalar>, into output: inout [Unicode.Scalar]) {
        if piece.count > LogRedaction.longestReadableRun, !isSnakeCaseName(piece) {
            output.append(contentsOf: LogRedaction.placeholder.unicodeScalars)
        } else {
            output.append(contentsOf: piece)
        }
    }

    /// Standard base64 of random bytes: a `+` or `/` in it, `=` only as padding at its end, and upper
    /// and lower case and digits all well represented (words and paths are mostly lower case).
    private static func looksLikeStandardBase64(_ run: ArraySlice<Unicode.Scalar>) -> Bool {
        var body = run
        var padding = 0
        while padding < 2, body.last == "=" {
            body = body.dropLast()
            padding += 1
        }
        var upper = 0, lower = 0, digits = 0, separators = 0
        for c in body {
            switch c.value {
            case 0x41...0x5A: upper += 1
            case 0x61...0x7A: lower += 1
            case 0x30...0x39: digits += 1
            case 0x2B, 0x2F: separators += 1
            case 0x3D: return false
            default: break
            }
        }
        guard separators > 0 || padding > 0 else { return false }
        return upper * 8 >= body.count && lower * 8 >= body.count && digits * 32 >= body.count
    }

    /// Names such as HEARTH_ERROR_INVALID_VERIFICATION_CODE: words of one case joined by `_`, no digits
    /// (random tokens mix cases and digits; base32 secrets have no `_`).
    private static func isSnakeCaseName(_ piece: ArraySlice<Unicode.Scalar>) -> Bool {
        var upper = false, lower = false, underscore = false
        for c in piece {
            switch c.value {
            case 0x41...0x5A: upper = true
            case 0x61...0x7A: lower = true
            case 0x5F: underscore = true
            default: return false
            }
        }
        return underscore && upper != lower
    }

    private static func isRunCharacter(_ c: Unicode.Scalar) -> Bool {
        switch c.value {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x2D, 0x5F, 0x2B, 0x2F, 0x3D: return true
        default: return false
        }
    }

    private static func isBase64Separator(_ c: Unicode.Scalar) -> Bool {
        c == "+" || c == "/" || c == "="
    }
}
