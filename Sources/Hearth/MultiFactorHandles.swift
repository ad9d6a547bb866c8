import HearthAuth

/// hearth_multi_factor_info (borrowed from a user, a resolver).
final class MultiFactorInfoHandle: @unchecked Sendable {
    let info: MultiFactorInfoSnapshot
    let factorId, uid, displayName, phoneNumber: CString

    init(_ info: MultiFactorInfoSnapshot) {
        self.info = info
        factorId = CString(info.factorId)
        uid = CString(info.uid)
        displayName = CString(info.displayName)
        phoneNumber = CString(info.phoneNumber)
    }
}

/// hearth_multi_factor_session (borrowed from a future or a resolver).
final class MultiFactorSessionHandle: @unchecked Sendable {
    let session: MultiFactorSession
    /// The Auth the session belongs to (phone verification and TOTP need it).
    let auth: Auth?

    init(_ session: MultiFactorSession, auth: Auth?) {
        self.session = session
        self.auth = auth
    }
}

/// hearth_multi_factor_resolver (borrowed from a failed future).
final class MultiFactorResolverHandle: @unchecked Sendable {
    let pending: MultiFactorPending
    weak var auth: Auth?
    let hints: [UnsafeMutableRawPointer]
    let session: UnsafeMutableRawPointer

    init(_ pending: MultiFactorPending, auth: Auth?) {
        self.pending = pending
        self.auth = auth
        hints = pending.hints.map { HandleRegistry.shared.register(MultiFactorInfoHandle(MultiFactorInfoSnapshot($0))) }
        session = HandleRegistry.shared.register(
            MultiFactorSessionHandle(.signIn(pendingCredential: pending.pendingCredential), auth: auth))
    }

    func retire() {
        for hint in hints { HandleRegistry.shared.unregister(hint, as: MultiFactorInfoHandle.self) }
        HandleRegistry.shared.unregister(session, as: MultiFactorSessionHandle.self)
    }
}

/// hearth_multi_factor_assertion (owned).
final class MultiFactorAssertionHandle: @unchecked Sendable {
    let assertion: MultiFactorAssertion
    init(_ assertion: MultiFactorAssertion) { self.assertion = assertion }
}

/// hearth_totp_secret (borrowed from a future).
final class TOTPSecretHandle: @unchecked Sendable {
    let secret: TOTPSecret
    let sharedSecretKey, algorithm: CString

    init(_ secret: TOTPSecret) {
        self.secret = secret
        sharedSecretKey = CString(secret.sharedSecretKey)
        algorithm = CString(secret.generator.algorithm.rawValue)
    }
}
