import HearthWire

/// 200 responses that are really errors. Which checks apply depends on the RPC (client-wire-reference
/// §0.4, §3.4): an RPC lists its own in `successShapedErrors`.
package struct SuccessShapedErrors: OptionSet, Sendable {
    package let rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }

    /// A body with `errorMessage` (signInWithIdp with returnIdpCredential answers
    /// FEDERATED_USER_ID_ALREADY_LINKED / EMAIL_EXISTS this way): mapped by the server error table.
    /// JS applies it to every response, and no success body carries the field.
    package static let errorMessage = SuccessShapedErrors(rawValue: 1 << 0)
    /// `needConfirmation: true` → account exists with different credentials. JS checks every response.
    static let needConfirmation = SuccessShapedErrors(rawValue: 1 << 1)
    /// A non-empty `mfaPendingCredential` → second factor required (first-factor sign-in RPCs).
    static let secondFactor = SuccessShapedErrors(rawValue: 1 << 2)
    /// `temporaryProof` without `idToken` → credential already in use (phone sign-in/link RPCs).
    static let phoneTemporaryProof = SuccessShapedErrors(rawValue: 1 << 3)

    /// What every RPC checks.
    static let standard: SuccessShapedErrors = [.errorMessage, .needConfirmation]
    /// What first-factor sign-in RPCs check.
    package static let signIn: SuccessShapedErrors = [.errorMessage, .needConfirmation, .secondFactor]
}

/// One REST call: how to encode the request and decode a successful answer. Error answers never reach
/// `decode`; `Backend` turns them into `AuthError`s.
///
/// RPCs carry passwords and tokens, so their printed and dumped forms name the endpoint only.
package protocol BackendRPC: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    associatedtype Response: Sendable

    var endpoint: Endpoint { get }
    /// `Content-Type` of the body; "application/json" unless the RPC says otherwise.
    var contentType: String { get }
    /// Which 200-shaped errors to look for before decoding; `.standard` unless the RPC says otherwise.
    var successShapedErrors: SuccessShapedErrors { get }
    func encodeBody() -> [UInt8]
    /// Reads a 2xx JSON object. Throws (code `.failure`, "malformed response") when a required field is
    /// missing or of the wrong type.
    func decode(_ object: JSONObject) throws(AuthError) -> Response
    /// Reads a 2xx body straight from its bytes, without a `JSONValue` tree; nil when this RPC does not
    /// (then `Backend` parses the body and calls `decode(_:)`), or when the body needs a closer look
    /// (see `PlainSuccess`). Only the answers every sign-in and token refresh get are read this way.
    func decode(plainSuccess body: [UInt8]) -> Result<Response, AuthError>?
    /// Names the Auth's tenant (`Auth.tenantId`) in the request, for the requests Firebase's clients send
    /// it with (`TenantScopedRPC`); the others leave themselves as they are (the server reads a
    /// signed-in user's tenant from the ID token or refresh token those requests carry).
    mutating func scope(toTenant tenantId: String)
}

/// A request Firebase's clients send with the Auth's tenant as `tenantId`: sign-up, every sign-in, the
/// email actions, createAuthUri, the phone codes and the second-factor steps (the JS SDK adds it to
/// exactly these with `_addTidIfNecessary`; accounts:lookup, accounts:update, accounts:delete, linking an
/// email with signUp and the token refresh go without it). `Backend` fills it in from
/// `BackendConfig.tenantId` unless the request names a tenant of its own.
package protocol TenantScopedRPC: BackendRPC {
    var tenantId: String? { get set }
}

extension BackendRPC {
    package var contentType: String { "application/json" }
    package var successShapedErrors: SuccessShapedErrors { .standard }
    package func decode(plainSuccess body: [UInt8]) -> Result<Response, AuthError>? { nil }
    package mutating func scope(toTenant tenantId: String) {}

    package var description: String { "\(Self.self)(\(endpoint.path))" }
    package var debugDescription: String { description }
    package var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}

/// An RPC whose success answer is a sign-in's tokens (`idToken`, `refreshToken`, `expiresIn`, `localId`).
package protocol TokenIssuingRPC: BackendRPC where Response == TokenResponse {}

extension TokenIssuingRPC {
    package func decode(_ object: JSONObject) throws(AuthError) -> TokenResponse {
        try TokenResponse(decoding: object)
    }
}

/// A `TokenIssuingRPC` that every sign-in of its kind sends, so its answer is read straight from the bytes
/// (`decode(plainSuccess:)`). The rarer ones (email link, the second-factor steps) keep the tree path: it is
/// the same result, and the fast path's code stays small.
package protocol FrequentTokenIssuingRPC: TokenIssuingRPC {}

extension FrequentTokenIssuingRPC {
    package func decode(plainSuccess body: [UInt8]) -> Result<TokenResponse, AuthError>? {
        PlainSuccess.decode(body) { (members: TokenResponse.Members) throws(AuthError) in try TokenResponse(members) }
    }
}

extension JSONObject {
    /// Sets `key` to the string when there is one (request bodies omit absent optionals).
    package mutating func setIfPresent(_ key: String, _ value: String?) {
        if let value { self[key] = .string(value) }
    }

    /// Sets `key` to an array of strings when the list is not empty.
    mutating func setIfNotEmpty(_ key: String, _ values: [String]) {
        if !values.isEmpty { self[key] = .array(values.map(JSONValue.string)) }
    }
}

extension TenantScopedRPC {
    /// A tenant the request already names (one the caller chose on purpose) wins, as in the JS SDK.
    package mutating func scope(toTenant tenantId: String) {
        if self.tenantId == nil { self.tenantId = tenantId }
    }
}

/// The top-level members of a 2xx answer read straight from the bytes. Any member a success-shaped
/// error check looks at sends the answer back to the tree path (`ResponseClassifier`), so both paths
/// give the same result; answers that need it are rare (MFA, conflicts), and the check is the same one
/// for every RPC that reads this way.
struct PlainSuccess<Body: JSONMembers>: JSONMembers {
    var body = Body()
    var needsCloserLook = false

    mutating func read<Source: JSONMemberSource>(_ key: JSONKey, _ source: inout Source) throws(JSONParseError) {
        switch key {
        case "needConfirmation", "errorMessage", "mfaPendingCredential", "temporaryProof":
            needsCloserLook = true
            try source.skip()
        default:
            try body.read(key, &source)
        }
    }

    /// `decode` applied to the members of `bytes`; nil when they are not one JSON object (the tree path
    /// then reports it as it always has) or need a closer look.
    static func decode<Response>(_ bytes: [UInt8], _ decode: (Body) throws(AuthError) -> Response)
        -> Result<Response, AuthError>?
    {
        guard let members = try? PlainSuccess(bytes: bytes), !members.needsCloserLook else { return nil }
        do throws(AuthError) {
            return .success(try decode(members.body))
        } catch {
            return .failure(error)
        }
    }
}
