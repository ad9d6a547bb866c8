import HearthBackend
import HearthTransport
import HearthWire

/// Provider sign-in on a desktop: the provider's page in the host's browser, the redirect back on
/// a loopback receiver or a custom URL scheme, then signInWithIdp with what came back — or, for the
/// credential-only flow (the Apple SDK's getCredentialWith), a credential made of what came back, which
/// the host signs in, links or reauthenticates with itself.
extension Auth {
    package enum ProviderFlowPurpose: Sendable {
        case signIn
        case link(uid: String)
        case reauthenticate(uid: String)
        /// Only the credential: nobody is signed in, linked or reauthenticated.
        case credential

        var operation: Operation {
            switch self {
            case .signIn: return .signInWithProvider
            case .link: return .linkWithProvider
            case .reauthenticate: return .reauthenticateWithProvider
            case .credential: return .getCredentialWithProvider
            }
        }

        /// The JS SDK's authType names, which the emulator's handler page understands; the Apple SDK's
        /// getCredentialWith opens its page as a redirect sign-in.
        var authType: String {
            switch self {
            case .signIn: return "signInViaRedirect"
            case .link: return "linkViaRedirect"
            case .reauthenticate: return "reauthViaRedirect"
            case .credential: return "signInWithRedirect"
            }
        }
    }

    package func setProviderFlowSettings(_ settings: ProviderFlowSettings) {
        state.withLock { $0.providerFlowSettings = settings }
    }

    /// Result: an auth result.
    package func startProviderFlow(_ provider: OAuthProvider, purpose: ProviderFlowPurpose) -> FutureState {
        let operation = purpose.operation
        if let error = provider.validationError { return rejected(operation, error) }
        guard let settings = state.current.providerFlowSettings else {
            return rejected(operation, AuthError(code: .invalidArgument,
                                                 message: "Set the provider flow options (a UI delegate) first."))
        }
        return perform(operation) { [self] future in runProviderFlow(future, provider, purpose, settings) }
    }

    /// Offers a URL the host was opened with to the pending flow; true when Hearth consumed it. An
    /// email sign-in link is never a provider's redirect, even on the flow's scheme and path: a flow
    /// must not end (as failed or cancelled) because the app was handed the link the user clicked in
    /// a mail; the app completes it with signInWithEmailLink.
    package func handleURL(_ url: String) -> Bool {
        if Self.isSignInWithEmailLink(url) { return false }
        guard let matcher = pendingRedirectMatcher.current else { return false }
        switch matcher.match(url: url) {
        case .consumed, .failed:
            loop.execute { [self] in _ = providerFlows.handle(url: url) }
            return true
        case .notOurs, .rejected:
            return false
        }
    }

    package func cancelProviderFlow() {
        loop.execute { [self] in providerFlows.cancel() }
    }

    /// Loop thread.
    private func runProviderFlow(_ future: FutureState, _ provider: OAuthProvider, _ purpose: ProviderFlowPurpose,
                                 _ settings: ProviderFlowSettings) {
        switch purpose {
        case .signIn, .credential: break
        case .link(let uid), .reauthenticate(let uid):
            guard signedInGeneration(uid: uid) != nil else { return finish(future, .failure(Self.noUser)) }
        }
        let context = ProviderFlowContext()
        var provider = provider
        do throws(AuthError) {
            let flowState = try PendingProviderFlow.makeState()
            // Apple and OIDC providers bind their ID token to a nonce: Hearth makes one, sends its hash
            // to the provider and the raw value to Firebase (unless the host chose its own).
            if provider.wantsNonce && provider.customParameters["nonce"] == nil {
                let nonce = try Nonce.random()
                _ = provider.setCustomParameter("nonce", nonce.sha256Hex)
                context.rawNonce = nonce.raw
            }
            let emulator = state.current.emulator
            let usesEmulatorPage = emulator != nil && !settings.alwaysUseCreateAuthUri
            let completion: PendingProviderFlow.Completion = { [self] result in
                pendingRedirectMatcher.withLock { $0 = nil }
                switch result {
                case .failure(let error):
                    finish(future, .failure(error))
                case .success(let redirect):
                    let credential = Credential.federated(.idpRedirect(IdpRedirect(
                        providerId: provider.providerId, requestUri: redirect.url, sessionId: context.sessionId,
                        postBody: context.postBody(formPost: redirect.postBody))))
                    switch purpose {
                    case .credential: finish(future, .success(.credential(credential)))
                    case .signIn: startSignIn(future, with: credential, kind: .authResult)
                    case .link(let uid): startLink(future, uid: uid, with: credential)
                    case .reauthenticate(let uid):
                        startReauthentication(future, uid: uid, with: credential, retrieveData: true)
                    }
                }
            }
            let expectedState: String? = usesEmulatorPage ? flowState : nil
            let flow: PendingProviderFlow
            if let redirectURI = settings.redirectURI {
                flow = try providerFlows.beginRedirect(to: redirectURI, state: expectedState,
                                                       timeoutMs: settings.timeoutMs, completion: completion)
            } else {
                var options = LoopbackRedirectReceiver.Options()
                options.port = settings.loopbackPort
                flow = try providerFlows.beginLoopback(state: expectedState, receiverOptions: options,
                                                       timeoutMs: settings.timeoutMs, completion: completion)
            }
            if let emulator, usesEmulatorPage {
                let eventId = String(flowState.prefix(10))
                let url = EmulatorHandlerURL.make(emulator: emulator, apiKey: configuration.apiKey,
                                                  appName: configuration.appName, authType: purpose.authType,
                                                  redirectURL: flow.redirectTarget, eventId: eventId, state: flowState,
                                                  provider: provider, tenantId: state.current.tenantId)
                presentFlowPage(url, flow: flow, settings: settings)
                return
            }
            // Production: Firebase builds the provider's authorization URL and remembers the session.
            let request = CreateAuthUriForProvider(providerId: provider.providerId, continueUri: flow.redirectTarget,
                                                   scopes: provider.scopes,
                                                   customParameters: provider.customParameters)
            send(request) { [self] result in
                switch result {
                case .failure(let error):
                    flow.close()
                    pendingRedirectMatcher.withLock { $0 = nil }
                    finish(future, .failure(error))
                case .success(let response):
                    context.sessionId = response.sessionId
                    // The authorization URL carries what the provider will send back: its
                    // `state`, or (OAuth 1.0a, Twitter) the request token `oauth_token`.
                    let authorization = RedirectURL(parsing: response.authUri)
                        .flatMap { url in url.query.map { FormFields(parsing: Substring($0), plusIsSpace: false) } }
                    if let state = authorization?.first(RedirectURLMatcher.stateParameter) {
                        flow.expectedState = state
                    } else if let token = authorization?.first(RedirectURLMatcher.oauth1TokenParameter),
                              !token.isEmpty {
                        flow.correlationParameter = RedirectURLMatcher.oauth1TokenParameter
                        flow.expectedState = token
                    } else {
                        flow.expectedState = flowState
                    }
                    presentFlowPage(response.authUri, flow: flow, settings: settings)
                }
            }
        } catch {
            finish(future, .failure(error))
        }
    }

    /// Hands the URL to the host's UI delegate (host code: on a later loop turn, through the gate).
    func presentFlowPage(_ url: String, flow: PendingProviderFlow, settings: ProviderFlowSettings) {
        var matcher = try? RedirectURLMatcher(redirectTarget: flow.redirectTarget, expectedState: flow.expectedState)
        matcher?.correlationParameter = flow.correlationParameter
        pendingRedirectMatcher.withLock { $0 = matcher }
        Log.info("[\(configuration.appName)] provider sign-in: showing \(LogRedaction.url(url))")
        dispatcher.schedule { [self] in
            guard flow.isPending else { return }
            if !settings.openURL(url) {
                providerFlows.cancel()
            }
        }
    }
}

/// What a provider flow learns along the way (loop-confined).
final class ProviderFlowContext {
    var sessionId: String?
    var rawNonce: String?

    /// The signInWithIdp postBody beyond providerId: the IdP's form post, if any, and the raw nonce.
    func postBody(formPost: String?) -> String? {
        var parts: [String] = []
        if let formPost, !formPost.isEmpty { parts.append(formPost) }
        if let rawNonce { parts.append(FormEncoding.encode([("nonce", rawNonce)])) }
        return parts.isEmpty ? nil : parts.joined(separator: "&")
    }
}

extension OAuthProvider {
    /// Providers whose ID tokens carry a nonce claim.
    var wantsNonce: Bool { providerId == ProviderID.apple || providerId.hasPrefix("oidc.") }
}
