import FuzzSupport
@testable import HearthAuth
@testable import HearthBackend
@testable import HearthTransport

// Every RPC's answer as the backend handles it: classified (error envelope, 200-shaped errors)
// and, when it is a success, decoded by that RPC. Input: RPC selector, status selector, body.

private func handle<R: BackendRPC>(_ rpc: R, status: Int, body: [UInt8]) {
    let response = HTTPResponse(status: status, body: body, contentType: "application/json")
    _ = rpc.decode(plainSuccess: body)
    switch ResponseClassifier.classify(response, checks: rpc.successShapedErrors) {
    case .success(let object):
        guard let decoded = try? rpc.decode(object) else { return }
        useTokens(of: decoded)
    case .failure(let error):
        // Messages are shown to people and logged: building them must not trap either.
        _ = error.description
    }
}

/// The RPCs that read 2xx answers straight from the bytes must read every body as the tree path does.
private func compareReadings<R: BackendRPC>(_ rpc: R, body: [UInt8]) where R.Response: Equatable {
    guard let fromBytes = rpc.decode(plainSuccess: body) else { return }
    let response = HTTPResponse(status: 200, body: body, contentType: "application/json")
    let fromTree = ResponseClassifier.classify(response, checks: rpc.successShapedErrors).flatMap { object in
        Result { () throws(AuthError) -> R.Response in try rpc.decode(object) }
    }
    fuzzCheck(fromBytes == fromTree, "reading from bytes and from the tree disagree for \(rpc)")
}

/// What the client computes from a decoded token answer before storing it: the expiry (from
/// expiresIn, else the ID token's claims) and the refresh schedule.
private func useTokens(of response: Any) {
    let issued: (idToken: String, expiresIn: Int64?)
    switch response {
    case let tokens as TokenResponse: issued = (tokens.idToken, tokens.expiresIn)
    case let refreshed as SecureTokenRefresh.Response: issued = (refreshed.idToken, refreshed.expiresIn)
    case let phone as SignInWithPhoneNumber.Response: issued = (phone.tokens.idToken, phone.tokens.expiresIn)
    case let updated as SetAccountInfo.Response:
        guard let idToken = updated.idToken else { return }
        issued = (idToken, updated.expiresIn)
    case let checked as ResetPassword.Response:
        // What checkActionCode and verifyPasswordResetCode make of the answer: never a trap.
        _ = try? checked.actionCodeInfo()
        return
    default: return
    }
    let claims = try? JWTClaims(token: issued.idToken)
    _ = claims?.userID
    _ = claims?.signInProvider
    let expiresAtMs = Auth.expiryMs(expiresIn: issued.expiresIn, claims: claims, nowMs: 1_763_000_000_000)
    let tokens = TokenSet(idToken: issued.idToken, refreshToken: "r", expiresAtMs: expiresAtMs)
    let policy = TokenRefreshPolicy()
    _ = policy.needsRefresh(tokens, nowMs: 1_763_000_000_000)
    fuzzCheck(policy.proactiveDelayMs(tokens, nowMs: 1_763_000_000_000) >= 0, "negative refresh delay")
}

private let rpcs: [@Sendable (Int, [UInt8]) -> Void] = [
    { handle(CreateAuthUri(identifier: "a@example.com"), status: $0, body: $1) },
    { handle(CreateAuthUriForProvider(providerId: "google.com", continueUri: "http://127.0.0.1:1/cb"), status: $0, body: $1) },
    { handle(DeleteAccount(idToken: "t"), status: $0, body: $1) },
    { handle(FinalizeMfaEnrollment(idToken: "t", verification: .phone(sessionInfo: "s", code: "1")), status: $0, body: $1) },
    { handle(FinalizeMfaEnrollment(idToken: "t", verification: .totp(sessionInfo: "s", verificationCode: "1")), status: $0, body: $1) },
    { handle(FinalizeMfaSignIn(mfaPendingCredential: "p", verification: .phone(sessionInfo: "s", code: "1")), status: $0, body: $1) },
    { handle(GetAccountInfo(idToken: "t"), status: $0, body: $1) },
    { handle(SecureTokenRefresh(refreshToken: "r"), status: $0, body: $1) },
    { handle(SendOobCode(.passwordReset(email: "a@example.com")), status: $0, body: $1) },
    { handle(SendVerificationCode(phoneNumber: "+15555550100"), status: $0, body: $1) },
    { handle(SetAccountInfo(idToken: "t", displayName: "d"), status: $0, body: $1) },
    { handle(SignInWithCustomToken(token: "c"), status: $0, body: $1) },
    { handle(SignInWithIdp(postBody: "id_token=x&providerId=google.com"), status: $0, body: $1) },
    { handle(SignInWithIdp(postBody: "id_token=x&providerId=google.com", purpose: .link(idToken: "t")), status: $0, body: $1) },
    { handle(SignInWithPassword(email: "a@example.com", password: "p"), status: $0, body: $1) },
    { handle(SignInWithPhoneNumber(proof: .code(sessionInfo: "s", code: "1")), status: $0, body: $1) },
    { handle(SignInWithPhoneNumber(proof: .temporaryProof(phoneNumber: "+15555550100", temporaryProof: "p"),
                                   purpose: .link(idToken: "t")), status: $0, body: $1) },
    { handle(SignUp(), status: $0, body: $1) },
    { handle(StartMfaEnrollment(idToken: "t", factor: .phone(phoneNumber: "+15555550100", recaptchaToken: nil)), status: $0, body: $1) },
    { handle(StartMfaEnrollment(idToken: "t", factor: .totp), status: $0, body: $1) },
    { handle(StartMfaSignIn(mfaPendingCredential: "p", mfaEnrollmentId: "e"), status: $0, body: $1) },
    { handle(WithdrawMfa(idToken: "t", mfaEnrollmentId: "e"), status: $0, body: $1) },
    { handle(SignInWithEmailLink(email: "a@example.com", oobCode: "c"), status: $0, body: $1) },
    { handle(SignInWithEmailLink(email: "a@example.com", oobCode: "c", idToken: "t"), status: $0, body: $1) },
    { handle(ResetPassword(oobCode: "c"), status: $0, body: $1) },
    { handle(ResetPassword(oobCode: "c", newPassword: "p"), status: $0, body: $1) },
    { handle(ApplyActionCode(oobCode: "c"), status: $0, body: $1) },
    { handle(SendOobCode(.emailSignIn(email: "a@example.com"), settings: ActionCodeSettings(url: "https://a.example")),
             status: $0, body: $1) },
]

/// What the first two bytes select: mostly successes, else the error statuses the backend answers.
private let statuses = [200, 200, 200, 200, 201, 204, 400, 401, 403, 404, 429, 500, 503, 302]

func fuzzOne(_ data: [UInt8]) {
    var input = FuzzInput(data)
    let rpc = rpcs[Int(input.byte()) % rpcs.count]
    let status = statuses[Int(input.byte()) % statuses.count]
    let body = input.rest()
    rpc(status, body)
    compareReadings(SignInWithPassword(email: "a@example.com", password: "p"), body: body)
    compareReadings(SignUp(), body: body)
    compareReadings(GetAccountInfo(idToken: "t"), body: body)
    compareReadings(SecureTokenRefresh(refreshToken: "r"), body: body)
}

@main enum Main { static func main() { fuzzMain("fuzz-rpc-responses", fuzzOne) } }
