#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HearthAuth
import HearthBackend
import HearthCrypto

private func resolver(_ p: OpaquePointer?) -> MultiFactorResolverHandle? {
    HandleRegistry.shared.object(UnsafeRawPointer(p), as: MultiFactorResolverHandle.self)
}

private func info(_ p: OpaquePointer?) -> MultiFactorInfoHandle? {
    HandleRegistry.shared.object(UnsafeRawPointer(p), as: MultiFactorInfoHandle.self)
}

private func secret(_ p: OpaquePointer?) -> TOTPSecretHandle? {
    HandleRegistry.shared.object(UnsafeRawPointer(p), as: TOTPSecretHandle.self)
}

private func future(_ p: OpaquePointer?) -> FutureHandle? {
    HandleRegistry.shared.object(UnsafeRawPointer(p), as: FutureHandle.self)
}

@_cdecl("hearth_future_multi_factor_resolver")
public func abi_future_multi_factor_resolver(_ f: OpaquePointer?) -> OpaquePointer? {
    future(f)?.resolverHandle().map(OpaquePointer.init)
}

@_cdecl("hearth_multi_factor_resolver_hint_count")
public func abi_multi_factor_resolver_hint_count(_ r: OpaquePointer?) -> Int { resolver(r)?.hints.count ?? 0 }

@_cdecl("hearth_multi_factor_resolver_hint_at")
public func abi_multi_factor_resolver_hint_at(_ r: OpaquePointer?, _ index: Int) -> OpaquePointer? {
    guard let hints = resolver(r)?.hints, index >= 0, index < hints.count else { return nil }
    return OpaquePointer(hints[index])
}

@_cdecl("hearth_multi_factor_resolver_session")
public func abi_multi_factor_resolver_session(_ r: OpaquePointer?) -> OpaquePointer? {
    resolver(r).map { OpaquePointer($0.session) }
}

@_cdecl("hearth_multi_factor_resolver_resolve_sign_in")
public func abi_multi_factor_resolver_resolve_sign_in(_ r: OpaquePointer?, _ a: OpaquePointer?) -> OpaquePointer? {
    let function: StaticString = "hearth_multi_factor_resolver_resolve_sign_in"
    guard let handle = resolver(r) else {
        LastError.set(.invalidHandle, function, "resolver is not a live resolver (NULL, or its future was released).")
        return nil
    }
    guard let auth = handle.auth else {
        // The app is gone: nothing can finish the sign-in.
        LastError.set(.appDestroyed, function, "the resolver's app has been destroyed.")
        return nil
    }
    guard let assertion = HandleRegistry.shared.object(UnsafeRawPointer(a), as: MultiFactorAssertionHandle.self) else {
        let problem: HostString.Problem = a == nil ? .null("assertion") : .invalidHandle("assertion")
        return newFutureHandle(auth.rejectedOperation(.resolveSignIn, problem.authError))
    }
    return newFutureHandle(auth.resolveSignIn(handle.pending, assertion: assertion.assertion))
}

@_cdecl("hearth_multi_factor_info_factor_id")
public func abi_multi_factor_info_factor_id(_ i: OpaquePointer?) -> UnsafePointer<CChar>? { info(i)?.factorId.borrowed }

@_cdecl("hearth_multi_factor_info_uid")
public func abi_multi_factor_info_uid(_ i: OpaquePointer?) -> UnsafePointer<CChar>? { info(i)?.uid.borrowed }

@_cdecl("hearth_multi_factor_info_display_name")
public func abi_multi_factor_info_display_name(_ i: OpaquePointer?) -> UnsafePointer<CChar>? {
    info(i)?.displayName.borrowed
}

@_cdecl("hearth_multi_factor_info_phone_number")
public func abi_multi_factor_info_phone_number(_ i: OpaquePointer?) -> UnsafePointer<CChar>? {
    info(i)?.phoneNumber.borrowed
}

@_cdecl("hearth_multi_factor_info_enrollment_timestamp")
public func abi_multi_factor_info_enrollment_timestamp(_ i: OpaquePointer?) -> UInt64 {
    info(i)?.info.enrollmentTimestamp ?? 0
}

@_cdecl("hearth_user_multi_factor_count")
public func abi_user_multi_factor_count(_ u: OpaquePointer?) -> Int {
    HandleRegistry.shared.object(UnsafeRawPointer(u), as: UserHandle.self)?.multiFactor.count ?? 0
}

@_cdecl("hearth_user_multi_factor_at")
public func abi_user_multi_factor_at(_ u: OpaquePointer?, _ index: Int) -> OpaquePointer? {
    guard let list = HandleRegistry.shared.object(UnsafeRawPointer(u), as: UserHandle.self)?.multiFactor,
          index >= 0, index < list.count else { return nil }
    return OpaquePointer(list[index])
}

@_cdecl("hearth_user_multi_factor_get_session")
public func abi_user_multi_factor_session(_ u: OpaquePointer?) -> OpaquePointer? {
    userOperation(u, .multiFactorSession,
                  "hearth_user_multi_factor_get_session") { auth, uid in auth.multiFactorSession(uid: uid) }
}

@_cdecl("hearth_future_multi_factor_session")
public func abi_future_multi_factor_session(_ f: OpaquePointer?) -> OpaquePointer? {
    future(f)?.sessionHandle().map(OpaquePointer.init)
}

private func assertionArgument(_ a: OpaquePointer?) throws(HostString.Problem) -> MultiFactorAssertion {
    guard let a else { throw .null("assertion") }
    guard let handle = HandleRegistry.shared.object(UnsafeRawPointer(a), as: MultiFactorAssertionHandle.self) else {
        throw .invalidHandle("assertion")
    }
    return handle.assertion
}

@_cdecl("hearth_user_multi_factor_enroll")
public func abi_user_multi_factor_enroll(_ u: OpaquePointer?, _ a: OpaquePointer?, _ name: CStringArg) -> OpaquePointer? {
    userOperation(u, .multiFactorEnroll, "hearth_user_multi_factor_enroll") { auth, uid throws(HostString.Problem) in
        auth.enroll(uid: uid, assertion: try assertionArgument(a),
                    displayName: try HostString.optional(name, "display_name"))
    }
}

@_cdecl("hearth_user_multi_factor_unenroll")
public func abi_user_multi_factor_unenroll(_ u: OpaquePointer?, _ enrollmentId: CStringArg) -> OpaquePointer? {
    userOperation(u, .multiFactorUnenroll,
                  "hearth_user_multi_factor_unenroll") { auth, uid throws(HostString.Problem) in
        auth.unenroll(uid: uid, enrollmentId: try HostString.required(enrollmentId, "enrollment_id"))
    }
}

private func newAssertion(_ assertion: MultiFactorAssertion) -> OpaquePointer {
    OpaquePointer(HandleRegistry.shared.register(MultiFactorAssertionHandle(assertion)))
}

@_cdecl("hearth_multi_factor_assertion_create_phone")
public func abi_phone_multi_factor_assertion(_ c: OpaquePointer?) -> OpaquePointer? {
    let function: StaticString = "hearth_multi_factor_assertion_create_phone"
    guard let handle = HandleRegistry.shared.object(UnsafeRawPointer(c), as: CredentialHandle.self) else {
        LastError.set(c == nil ? .invalidArgument : .invalidHandle, function,
                      c == nil ? "credential is NULL." : "credential is not a live credential (released or foreign).")
        return nil
    }
    guard case .phone(let phone) = handle.credential else {
        LastError.set(.invalidArgument, function, "credential is a \(handle.credential.providerId) credential, "
                      + "not a phone credential (hearth_credential_create_phone).")
        return nil
    }
    return newAssertion(.phone(phone))
}

@_cdecl("hearth_multi_factor_assertion_create_totp_enrollment")
public func abi_totp_multi_factor_assertion_for_enrollment(_ s: OpaquePointer?, _ code: CStringArg) -> OpaquePointer? {
    let function: StaticString = "hearth_multi_factor_assertion_create_totp_enrollment"
    guard let handle = secret(s) else {
        LastError.set(s == nil ? .invalidArgument : .invalidHandle, function,
                      s == nil ? "secret is NULL." : "secret is not a live TOTP secret (its future was released?).")
        return nil
    }
    do throws(HostString.Problem) {
        return newAssertion(.totpEnrollment(handle.secret, code: try HostString.required(code, "code")))
    } catch {
        LastError.set(error, function)
        return nil
    }
}

@_cdecl("hearth_multi_factor_assertion_create_totp_sign_in")
public func abi_totp_multi_factor_assertion_for_sign_in(_ enrollmentId: CStringArg, _ code: CStringArg) -> OpaquePointer? {
    do throws(HostString.Problem) {
        return newAssertion(.totpSignIn(enrollmentId: try HostString.required(enrollmentId, "enrollment_id"),
                                        code: try HostString.required(code, "code")))
    } catch {
        LastError.set(error, "hearth_multi_factor_assertion_create_totp_sign_in")
        return nil
    }
}

@_cdecl("hearth_multi_factor_assertion_release")
public func abi_multi_factor_assertion_release(_ a: OpaquePointer?) {
    HandleRegistry.shared.unregister(UnsafeRawPointer(a), as: MultiFactorAssertionHandle.self)
}

@_cdecl("hearth_totp_secret_generate")
public func abi_totp_generate_secret(_ s: OpaquePointer?) -> OpaquePointer? {
    guard let handle = HandleRegistry.shared.object(UnsafeRawPointer(s), as: MultiFactorSessionHandle.self) else {
        LastError.set(.invalidHandle, "hearth_totp_secret_generate",
                      "session is not a live multi-factor session (NULL, or its future was released).")
        return nil
    }
    guard let auth = handle.auth else {
        LastError.set(.appDestroyed, "hearth_totp_secret_generate", "the session's app has been destroyed.")
        return nil
    }
    return newFutureHandle(auth.generateTOTPSecret(session: handle.session))
}

@_cdecl("hearth_future_totp_secret")
public func abi_future_totp_secret(_ f: OpaquePointer?) -> OpaquePointer? {
    future(f)?.totpSecretHandle().map(OpaquePointer.init)
}

@_cdecl("hearth_totp_secret_shared_secret_key")
public func abi_totp_secret_shared_secret_key(_ s: OpaquePointer?) -> UnsafePointer<CChar>? {
    secret(s)?.sharedSecretKey.borrowed
}

@_cdecl("hearth_totp_secret_code_length")
public func abi_totp_secret_code_length(_ s: OpaquePointer?) -> Int32 {
    Int32(secret(s)?.secret.generator.digits ?? 0)
}

@_cdecl("hearth_totp_secret_period_seconds")
public func abi_totp_secret_period_seconds(_ s: OpaquePointer?) -> Int32 {
    Int32(secret(s)?.secret.generator.periodSeconds ?? 0)
}

@_cdecl("hearth_totp_secret_algorithm")
public func abi_totp_secret_algorithm(_ s: OpaquePointer?) -> UnsafePointer<CChar>? { secret(s)?.algorithm.borrowed }

@_cdecl("hearth_totp_secret_qr_code_url")
public func abi_totp_secret_qr_code_url(_ s: OpaquePointer?, _ account: CStringArg, _ issuer: CStringArg)
    -> UnsafeMutablePointer<CChar>? {
    guard let handle = secret(s) else {
        LastError.set(.invalidHandle, "hearth_totp_secret_qr_code_url", "secret is not a live TOTP secret.")
        return nil
    }
    do throws(HostString.Problem) {
        let uri = handle.secret.qrCodeURI(accountName: try HostString.required(account, "account_name"),
                                          issuer: try HostString.required(issuer, "issuer"))
        return strdup(uri)
    } catch {
        LastError.set(error, "hearth_totp_secret_qr_code_url")
        return nil
    }
}

@_cdecl("hearth_totp_code_generate")
public func abi_totp_generate_code(_ base32: CStringArg, _ algorithm: CStringArg, _ digits: Int32, _ period: Int32,
                                   _ unixTime: Int64, _ out: UnsafeMutablePointer<CChar>?, _ outSize: Int) -> Int32 {
    let function: StaticString = "hearth_totp_code_generate"
    func refuse(_ message: String) -> Int32 { LastError.set(.invalidArgument, function, message) }
    let secretText: String
    let name: String?
    do throws(HostString.Problem) {
        secretText = try HostString.required(base32, "base32_secret")
        name = try HostString.optional(algorithm, "algorithm")
    } catch {
        return LastError.set(error, function)
    }
    guard let out else { return refuse("out is NULL.") }
    guard unixTime >= 0 else { return refuse("unix_time is \(unixTime); it must not be negative.") }
    guard digits > 0 else { return refuse("digits is \(digits); it must be positive.") }
    guard outSize > Int(digits) else { return refuse("out_size is \(outSize): it must exceed digits (\(digits)) for the NUL.") }
    guard period > 0 else { return refuse("period_seconds is \(period); it must be positive.") }
    guard let algorithm = TOTPAlgorithm(name: name ?? "SHA1") else {
        return refuse("algorithm \"\(name ?? "")\" is not SHA1, SHA256 or SHA512.")
    }
    do throws(AuthError) {
        let generator = try TOTPGenerator(base32Secret: secretText, algorithm: algorithm, digits: Int(digits),
                                          periodSeconds: Int(period))
        let code = generator.code(atUnixTime: UInt64(unixTime))
        for (index, byte) in code.utf8.enumerated() { out[index] = CChar(bitPattern: byte) }
        out[code.utf8.count] = 0
        return 0
    } catch {
        return LastError.set(.invalidArgument, function, error.message)
    }
}
