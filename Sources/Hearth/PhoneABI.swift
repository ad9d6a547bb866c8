#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CHearthHeader
import HearthAuth
import HearthBackend

/// hearth_phone_listener up to user_data: the first version, without `release`.
private let minimumPhoneListenerSize = (MemoryLayout<hearth_phone_listener>.offset(of: \hearth_phone_listener.user_data) ?? 0)
    + MemoryLayout<UnsafeMutableRawPointer?>.size

@_cdecl("hearth_phone_auth_options_init")
public func abi_phone_auth_options_init(_ options: UnsafeMutablePointer<hearth_phone_auth_options>?) {
    guard let options else { return }
    options.initialize(to: hearth_phone_auth_options())
    options.pointee.struct_size = UInt32(MemoryLayout<hearth_phone_auth_options>.size)
}

/// Reads hearth_phone_auth_options, honouring struct_size. A second-factor session of another app's
/// Auth is a foreign handle: it proves another sign-in.
private func verificationRequest(_ options: UnsafePointer<hearth_phone_auth_options>?, for auth: Auth)
    throws(HostString.Problem) -> Auth.PhoneVerificationRequest {
    guard let options else { throw .null("options") }
    let size = Int(UnsafeRawPointer(options).loadUnaligned(as: UInt32.self))
    let reader = VersionedStruct(pointer: options, size: size)
    func field<T>(_ path: KeyPath<hearth_phone_auth_options, T>, _ value: T) -> T {
        reader.field(path, default: value)
    }
    guard size >= MemoryLayout<UInt32>.size + MemoryLayout<UnsafeRawPointer?>.size else {
        throw .structTooSmall("options")
    }
    var request = Auth.PhoneVerificationRequest()
    request.phoneNumber = try HostString.optional(field(\.phone_number, nil), "phone_number")
    let timeout = field(\.timeout_ms, 0)
    if timeout < 0 { throw .invalid("options.timeout_ms is \(timeout); it must be 0 (60000) or positive.") }
    if timeout > 0 { request.freshForMs = timeout }
    request.forceResendingToken = try HostString.optional(field(\.force_resending_token, nil), "force_resending_token")
    if let pointer = field(\.multi_factor_session, nil) {
        guard let session = HandleRegistry.shared.object(UnsafeRawPointer(pointer), as: MultiFactorSessionHandle.self),
              session.auth.map({ $0 === auth }) ?? true
        else { throw .invalidHandle("multi_factor_session") }
        request.session = session.session
    }
    if let pointer = field(\.multi_factor_hint, nil) {
        guard let hint = HandleRegistry.shared.object(UnsafeRawPointer(pointer), as: MultiFactorInfoHandle.self)
        else { throw .invalidHandle("multi_factor_hint") }
        request.hint = hint.info
    }
    return request
}

@_cdecl("hearth_auth_verify_phone_number")
public func abi_phone_verify_number(_ a: OpaquePointer?,
                                    _ options: UnsafePointer<hearth_phone_auth_options>?) -> OpaquePointer? {
    guard let handle = authArgument(a, "hearth_auth_verify_phone_number") else { return nil }
    do {
        return newFutureHandle(handle.auth.verifyPhoneNumber(try verificationRequest(options, for: handle.auth)))
    } catch {
        return newFutureHandle(handle.auth.rejectedOperation(.verifyPhoneNumber, error.authError))
    }
}

@_cdecl("hearth_future_phone_resend_token")
public func abi_future_phone_resend_token(_ f: OpaquePointer?) -> UnsafePointer<CChar>? {
    HandleRegistry.shared.object(UnsafeRawPointer(f), as: FutureHandle.self)?.phoneResendToken()
}

@_cdecl("hearth_auth_verify_phone_number_with_listener")
public func abi_phone_verify_number_with_listener(_ a: OpaquePointer?,
                                                  _ options: UnsafePointer<hearth_phone_auth_options>?,
                                                  _ listener: UnsafePointer<hearth_phone_listener>?) -> Int32 {
    let function: StaticString = "hearth_auth_verify_phone_number_with_listener"
    guard let handle = authArgument(a, function) else { return AuthErrorCode.invalidHandle.rawValue }
    guard let listener else { return LastError.set(.invalidArgument, function, "listener is NULL.") }
    let size = Int(UnsafeRawPointer(listener).loadUnaligned(as: UInt32.self))
    guard size >= minimumPhoneListenerSize else {
        return LastError.set(.invalidArgument, function, "listener.struct_size is \(size), smaller than the first "
                             + "hearth_phone_listener (\(minimumPhoneListenerSize) bytes): set it to sizeof(hearth_phone_listener).")
    }
    let reader = VersionedStruct(pointer: listener, size: size)
    let request: Auth.PhoneVerificationRequest
    do throws(HostString.Problem) {
        request = try verificationRequest(options, for: handle.auth)
    } catch {
        return LastError.set(error, function)
    }
    let context = HostPointer(reader.field(\.user_data, default: nil))
    let codeSent = reader.field(\.on_code_sent, default: nil)
    let failed = reader.field(\.on_verification_failed, default: nil)
    let timedOut = reader.field(\.on_code_auto_retrieval_timeout, default: nil)
    var released: (@Sendable () -> Void)?
    if let release = reader.field(\.release, default: nil) { released = { release(context.pointer) } }
    let refusal = handle.auth.verifyPhoneNumber(request, listener: PhoneVerificationListener(
        codeSent: { id, token in
            id.withCString { idPointer in token.withCString { codeSent?(context.pointer, idPointer, $0) } }
        },
        failed: { error in
            error.message.withCString { failed?(context.pointer, hearth_error(rawValue: error.code.rawValue), $0) }
        },
        autoRetrievalTimeout: { id in id.withCString { timedOut?(context.pointer, $0) } },
        release: released))
    if let refusal { return LastError.set(refusal, function, "the app is being destroyed.") }
    return 0
}

@_cdecl("hearth_credential_create_phone")
public func abi_phone_credential(_ verificationId: CStringArg, _ code: CStringArg) -> OpaquePointer? {
    do throws(HostString.Problem) {
        let value = PhoneCredentialValue.verificationCode(verificationId: try HostString.required(verificationId, "verification_id"),
                                                          code: try HostString.required(code, "code"))
        return OpaquePointer(HandleRegistry.shared.register(CredentialHandle(.phone(value))))
    } catch {
        LastError.set(error, "hearth_credential_create_phone")
        return nil
    }
}

@_cdecl("hearth_user_update_phone_number_credential")
public func abi_user_update_phone_number_credential(_ u: OpaquePointer?, _ c: OpaquePointer?) -> OpaquePointer? {
    userOperation(u, .updatePhoneNumberCredential,
                  "hearth_user_update_phone_number_credential") { auth, uid throws(HostString.Problem) in
        auth.updatePhoneNumber(uid: uid, credential: try credentialArgument(c))
    }
}

@_cdecl("hearth_auth_set_app_verification_disabled_for_testing")
public func abi_auth_set_app_verification_disabled_for_testing(_ a: OpaquePointer?, _ disabled: Int32) -> Int32 {
    guard let handle = authArgument(a, "hearth_auth_set_app_verification_disabled_for_testing") else {
        return AuthErrorCode.invalidHandle.rawValue
    }
    handle.auth.setAppVerificationDisabledForTesting(disabled != 0)
    return 0
}
