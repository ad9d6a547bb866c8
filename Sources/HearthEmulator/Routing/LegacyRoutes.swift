import HearthWire

/// The Identity Toolkit v3 paths older SDKs call (`/www.googleapis.com/identitytoolkit/v3/relyingparty/<name>`),
/// served by the v1 handlers as the reference maps them: the path is rewritten and the request
/// routed again, with its method, query and body unchanged. `downloadAccount` and `uploadAccount`
/// take the project from the body's `targetProjectId` (400 INSUFFICIENT_PERMISSION without one) and
/// become `accounts:batchGet` (a GET, the other fields becoming its query) and `accounts:batchCreate`.
/// `signOutUser` is not implemented by the reference either (501).
enum LegacyRoutes {
    static let prefix = "/www.googleapis.com/identitytoolkit/v3/relyingparty/"
    static let v1 = "/identitytoolkit.googleapis.com/v1/"

    /// v3 name → v1 path (under `v1`).
    static let renamed: [String: String] = [
        "createAuthUri": "accounts:createAuthUri",
        "deleteAccount": "accounts:delete",
        "emailLinkSignin": "accounts:signInWithEmailLink",
        "getAccountInfo": "accounts:lookup",
        "getOobConfirmationCode": "accounts:sendOobCode",
        "getProjectConfig": "projects",
        "getRecaptchaParam": "recaptchaParams",
        "publicKeys": "publicKeys",
        "resetPassword": "accounts:resetPassword",
        "sendVerificationCode": "accounts:sendVerificationCode",
        "setAccountInfo": "accounts:update",
        "setProjectConfig": "setProjectConfig",
        "signupNewUser": "accounts:signUp",
        "verifyAssertion": "accounts:signInWithIdp",
        "verifyCustomToken": "accounts:signInWithCustomToken",
        "verifyPassword": "accounts:signInWithPassword",
        "verifyPhoneNumber": "accounts:signInWithPhoneNumber",
    ]

    enum Rewrite {
        case request(EmulatorRequest)
        case failure(ApiError)
    }

    /// The v1 request a v3 one stands for; nil for any other path.
    static func rewrite(_ request: EmulatorRequest) -> Rewrite? {
        guard request.path.hasPrefix(prefix) else { return nil }
        let name = String(request.path.dropFirst(prefix.count))
        if let path = renamed[name] {
            var rewritten = request
            rewritten.path = v1 + path
            return .request(rewritten)
        }
        guard request.method == .post else { return nil }
        switch name {
        case "signOutUser":
            return .failure(.notImplemented("signOutUser is not implemented in the Auth Emulator."))
        case "downloadAccount", "uploadAccount":
            return accountsTransfer(request, download: name == "downloadAccount")
        default:
            return nil
        }
    }

    private static func accountsTransfer(_ request: EmulatorRequest, download: Bool) -> Rewrite {
        var fields = JSONObject()
        // Like a JSON body parser: a body of another type reads as empty.
        if request.headers.contentType?.lowercased().contains("json") == true, case .bytes(let bytes) = request.body,
           !bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            do throws(JSONParseError) {
                guard let object = try JSONValue.parse(bytes).objectValue else {
                    return .failure(.invalidArgument("Invalid JSON payload received. Root element must be a message.",
                                                     reason: "parseError"))
                }
                for (key, value) in object { fields[KeyCase.camelCase(key)] = value }
            } catch {
                return .failure(.invalidArgument("Invalid JSON payload received. Unexpected token.", reason: "parseError"))
            }
        }
        guard let projectId = fields["targetProjectId"].flatMap(text), !projectId.isEmpty else {
            return .failure(.badRequest("INSUFFICIENT_PERMISSION"))
        }
        fields["targetProjectId"] = nil
        var rewritten = request
        let project = v1 + "projects/" + PercentEncoding.encode(projectId)
        if download {
            rewritten.method = .get
            rewritten.path = project + "/accounts:batchGet"
            let pairs = fields.map { (name: $0.key, value: text($0.value) ?? $0.value.jsonText) }
            let extra = FormEncoding.encodeAsURLSearchParams(pairs)
            if !extra.isEmpty { rewritten.query = [request.query, extra].compactMap { $0 }.joined(separator: "&") }
            rewritten.body = .bytes([])
        } else {
            rewritten.path = project + "/accounts:batchCreate"
            rewritten.headers.contentType = "application/json"
            rewritten.body = .bytes(JSONCoding.encode(JSONValue.object(fields)))
        }
        return .request(rewritten)
    }

    /// A value as a query parameter shows it (what `URLSearchParams` makes of a JSON scalar).
    private static func text(_ value: JSONValue) -> String? {
        switch value {
        case .string(let s): s
        case .bool(let b): b ? "true" : "false"
        case .number: value.integerValue.map(String.init) ?? value.jsonText
        default: nil
        }
    }
}
