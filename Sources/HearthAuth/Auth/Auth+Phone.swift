import HearthBackend
import HearthWire

/// Phone number verification: SMS codes (first factor, second-factor enrollment and sign-in), app
/// verification through reCAPTCHA, and Firebase's re-entrancy rule.
extension Auth {
    package struct PhoneVerificationRequest: Sendable {
        /// Any reasonable spelling of an E.164 number; separators are removed.
        package var phoneNumber: String?
        /// How long a sent code counts as fresh (no second SMS for the same number).
        package var freshForMs: Int64 = 60_000
        package var forceResendingToken: String?
        package var session: MultiFactorSession?
        /// Signing in with a second factor: the enrolled phone to text.
        package var hint: MultiFactorInfoSnapshot?

        package init() {}
    }

    package func setAppVerificationDisabledForTesting(_ disabled: Bool) {
        state.withLock { $0.appVerificationDisabledForTesting = disabled }
    }

    var appVerificationDisabled: Bool {
        let current = state.current
        return current.appVerificationDisabledForTesting ?? (current.emulator != nil)
    }

    /// Result: `.phoneVerification`.
    package func verifyPhoneNumber(_ request: PhoneVerificationRequest) -> FutureState {
        let target: (key: String, number: String?)
        switch resolveTarget(request) {
        case .failure(let error): return rejected(.verifyPhoneNumber, error)
        case .success(let value): target = value
        }
        return perform(.verifyPhoneNumber) { [self] future in
            if request.forceResendingToken == nil,
               let fresh = phoneVerifications.fresh(target.key, nowMs: nowMs(), freshForMs: request.freshForMs) {
                return finish(future, .success(.phoneVerification(verificationId: fresh.verificationId,
                                                                  resendToken: fresh.resendToken)))
            }
            let first = phoneVerifications.join(target.key) { [self] result in
                finish(future, result.map { .phoneVerification(verificationId: $0.verificationId, resendToken: $0.resendToken) })
            }
            guard first else { return }
            withAppVerification(future) { [self] recaptchaToken in
                sendCode(future, request, number: target.number, recaptchaToken: recaptchaToken) { [self] result in
                    let sent = result.flatMap { verificationId -> Result<PhoneVerificationCache.Sent, AuthError> in
                        do throws(AuthError) {
                            let token = try Nonce.random().raw
                            return .success(.init(verificationId: verificationId, resendToken: token, sentAtMs: nowMs()))
                        } catch {
                            return .failure(error)
                        }
                    }
                    phoneVerifications.finish(target.key, sent)
                }
            } onFailure: { [self] error in
                phoneVerifications.finish(target.key, .failure(error))
            }
        }
    }

    private func resolveTarget(_ request: PhoneVerificationRequest) -> Result<(key: String, number: String?), AuthError> {
        // A verification id belongs to what it was asked for: a first-factor sign-in, one user's
        // enrollment, or one pending sign-in; only a repeat of the same request reuses it.
        if case .signIn(let pending)? = request.session {
            guard let hint = request.hint, hint.factorId == MultiFactorHint.FactorID.phone.rawValue else {
                return .failure(AuthError(code: .missingMultiFactorInfo,
                                          message: "Signing in with a phone second factor needs its hint."))
            }
            return .success(("sign-in:\(pending):\(hint.uid)", nil))
        }
        guard let raw = request.phoneNumber else {
            return .failure(AuthError(code: .missingPhoneNumber, message: "A phone number is required."))
        }
        let prefix: String
        if case .enrollment(let uid)? = request.session { prefix = "enroll:\(uid):" } else { prefix = "" }
        return PhoneNumber.e164(from: raw).map { (key: prefix + $0, number: $0) }
    }

    /// Sends the SMS through the RPC that fits the request; answers the verification id.
    private func sendCode(_ future: FutureState, _ request: PhoneVerificationRequest, number: String?,
                          recaptchaToken: String?, _ done: @escaping (Result<String, AuthError>) -> Void) {
        // Every outcome goes through `done`: other verifications of the same number wait on it.
        switch request.session {
        case nil:
            guard let number else { return done(.failure(AuthError(code: .missingPhoneNumber))) }
            send(SendVerificationCode(phoneNumber: number, recaptchaToken: recaptchaToken)) { result in
                done(result.map(\.sessionInfo))
            }
        case .enrollment(let uid)?:
            guard let number else { return done(.failure(AuthError(code: .missingPhoneNumber))) }
            guard signedInGeneration(uid: uid) != nil else { return done(.failure(Self.noUser)) }
            refresher.token(force: false) { [self] result in
                switch result {
                case .failure(let error):
                    done(.failure(error))
                case .success(let idToken):
                    let factor = StartMfaEnrollment.Factor.phone(phoneNumber: number, recaptchaToken: recaptchaToken)
                    send(StartMfaEnrollment(idToken: idToken, factor: factor)) { result in
                        done(result.flatMap { response in
                            guard case .phone(let info) = response else {
                                return .failure(AuthError.malformedResponse("no phoneSessionInfo"))
                            }
                            return .success(info.sessionInfo)
                        })
                    }
                }
            }
        case .signIn(let pending)?:
            guard let hint = request.hint else { return done(.failure(AuthError(code: .missingMultiFactorInfo))) }
            let rpc = StartMfaSignIn(mfaPendingCredential: pending, mfaEnrollmentId: hint.uid,
                                     phoneNumber: hint.phoneNumber.isEmpty ? nil : hint.phoneNumber,
                                     recaptchaToken: recaptchaToken)
            send(rpc) { result in done(result.map(\.sessionInfo)) }
        }
    }

    /// Runs `body` with a reCAPTCHA token, or nil when app verification is disabled for testing.
    private func withAppVerification(_ future: FutureState, _ body: @escaping (String?) -> Void,
                                     onFailure: @escaping (AuthError) -> Void) {
        if appVerificationDisabled { return body(nil) }
        guard let settings = state.current.providerFlowSettings else {
            return onFailure(AuthError(code: .missingAppCredential,
                                       message: "App verification needs the reCAPTCHA page: set the provider flow options (a UI delegate), or disable app verification for testing."))
        }
        do throws(AuthError) {
            let flowState = try PendingProviderFlow.makeState()
            let completion: PendingProviderFlow.Completion = { [self] result in
                pendingRedirectMatcher.withLock { $0 = nil }
                switch result {
                case .failure(let error):
                    onFailure(error)
                case .success(let redirect):
                    let token = RedirectURL(parsing: redirect.url)?.query
                        .map { FormFields(parsing: Substring($0), plusIsSpace: false) }?.first("recaptchaToken")
                    guard let token, !token.isEmpty else {
                        return onFailure(AuthError(code: .captchaCheckFailed, message: "The reCAPTCHA page returned no token."))
                    }
                    body(token)
                }
            }
            let flow: PendingProviderFlow
            if let redirectURI = settings.redirectURI {
                flow = try providerFlows.beginRedirect(to: redirectURI, state: flowState, timeoutMs: settings.timeoutMs,
                                                       completion: completion)
            } else {
                var options = LoopbackRedirectReceiver.Options()
                options.port = settings.loopbackPort
                flow = try providerFlows.beginLoopback(state: flowState, receiverOptions: options,
                                                       timeoutMs: settings.timeoutMs, completion: completion)
            }
            guard let url = recaptchaPageURL(redirectURL: flow.redirectTarget, state: flowState) else {
                flow.close()
                return onFailure(AuthError(code: .missingAppCredential,
                                           message: "The reCAPTCHA page needs the app's auth domain (hearth_app_options.auth_domain)."))
            }
            presentFlowPage(url, flow: flow, settings: settings)
        } catch {
            onFailure(error)
        }
    }

    /// Firebase's hosted reCAPTCHA page (authType=verifyApp), or the emulator's.
    private func recaptchaPageURL(redirectURL: String, state flowState: String) -> String? {
        let current = state.current
        var query: [(name: String, value: String)] = [("apiKey", configuration.apiKey), ("appName", configuration.appName),
                                         ("authType", "verifyApp"), ("redirectUrl", redirectURL),
                                         ("v", BackendConfig.defaultClientVersion),
                                         ("eventId", String(flowState.prefix(10))), ("state", flowState)]
        if let language = current.languageCode { query.append(("hl", language)) }
        if let tenantId = current.tenantId { query.append(("tid", tenantId)) }
        if let emulator = current.emulator {
            return "http://\(emulator.authority)/emulator/auth/handler?" + FormEncoding.encode(query)
        }
        guard let domain = configuration.authDomain, !domain.isEmpty else { return nil }
        return "https://\(domain)/__/auth/handler?" + FormEncoding.encode(query)
    }

    /// Replaces the signed-in user's phone number with the one `credential` proves. Result: the user.
    package func updatePhoneNumber(uid: String, credential: Credential) -> FutureState {
        guard case .phone(let phone) = credential else {
            return rejected(.updatePhoneNumberCredential,
                            AuthError(code: .invalidCredential, message: "A phone credential is required."))
        }
        if let error = phone.validate() { return rejected(.updatePhoneNumberCredential, error) }
        return perform(.updatePhoneNumberCredential) { [self] future in
            withFreshToken(future, uid: uid) { [self] idToken, generation in
                send(phone.signInWithPhoneNumber(.updatePhoneNumber(idToken: idToken)), spending(phone) { [self] result in
                    completeLink(future, result.map(\.tokens), idp: nil, generation: generation,
                                 provider: ProviderID.phone, resultKind: .user)
                })
            }
        }
    }
}

/// The C++ SDK's PhoneAuthProvider::Listener: exactly one of codeSent / failed, then
/// autoRetrievalTimeout once the code is no longer fresh (a desktop never reads SMS itself); then
/// `release`, once, after the last of them — or when the app is destroyed first (a verification still
/// pending then fails with CANCELLED before it; a timeout still to come is dropped).
package struct PhoneVerificationListener: Sendable {
    package var codeSent: @Sendable (_ verificationId: String, _ resendToken: String) -> Void
    package var failed: @Sendable (AuthError) -> Void
    package var autoRetrievalTimeout: @Sendable (_ verificationId: String) -> Void
    package var release: (@Sendable () -> Void)?

    package init(codeSent: @escaping @Sendable (String, String) -> Void, failed: @escaping @Sendable (AuthError) -> Void,
                autoRetrievalTimeout: @escaping @Sendable (String) -> Void, release: (@Sendable () -> Void)? = nil) {
        self.codeSent = codeSent
        self.failed = failed
        self.autoRetrievalTimeout = autoRetrievalTimeout
        self.release = release
    }
}

extension Auth {
    /// The listener form of `verifyPhoneNumber`: callbacks are host code on the loop thread. Returns
    /// `.appDestroyed`, and calls nothing, once the app's destroy has begun.
    @discardableResult
    package func verifyPhoneNumber(_ request: PhoneVerificationRequest,
                                  listener: PhoneVerificationListener) -> AuthErrorCode? {
        // Kept before anything starts: from here on the release runs exactly once, whatever happens.
        let token = listener.release.flatMap { dispatcher.keepRelease($0) }
        if listener.release != nil && token == nil { return .appDestroyed }
        let finished: @Sendable () -> Void = { [dispatcher] in if let token { dispatcher.release(token) } }
        let future = verifyPhoneNumber(request)
        let added = future.addCallback { [self] in
            if let error = future.error {
                listener.failed(error)
                return finished()
            }
            switch future.successValue {
            case .phoneVerification(let verificationId, let resendToken)?:
                listener.codeSent(verificationId, resendToken)
                let delay = UInt64(max(0, request.freshForMs))
                loop.execute { [self] in
                    let timer = loop.makeTimer()
                    timer.start(afterMs: delay) { [self] in
                        dispatcher.schedule {
                            listener.autoRetrievalTimeout(verificationId)
                            finished()
                        }
                        timer.close()
                    }
                }
            default:
                listener.failed(AuthError(code: .failure, message: "Phone verification ended without a result."))
                finished()
            }
        }
        guard let error = added else { return nil }
        // The destroy began meanwhile. Unless the dispatcher has already run the release kept above (then
        // the registration happened, and ended with the app), nothing of this listener runs.
        if let token, !dispatcher.forget(token) { return nil }
        return error
    }
}

extension Auth {
    /// Loop thread: the phone credential's verification id has been used up.
    func spend(_ phone: PhoneCredentialValue) {
        if case .verificationCode(let verificationId, _) = phone {
            phoneVerifications.forget(verificationId: verificationId)
        }
    }

    /// Loop thread: completion wrapper that spends the verification id on success.
    func spending<T>(_ phone: PhoneCredentialValue, _ completion: @escaping (Result<T, AuthError>) -> Void)
        -> (Result<T, AuthError>) -> Void {
        { [self] result in
            if case .success = result { spend(phone) }
            completion(result)
        }
    }
}
