#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CHearthHeader
import HearthCore

private func authHandle(_ pointer: OpaquePointer?) -> AuthHandle? {
    HandleRegistry.shared.object(UnsafeRawPointer(pointer), as: AuthHandle.self)
}

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
    if timeout < 0 { throw .empty("timeout_ms (negative)") }
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

@_cdecl("hearth_phone_verify_number")
public func abi_phone_verify_number(_ a: OpaquePointer?,
                                    _ options: UnsafePointer<hearth_phone_auth_options>?) -> OpaquePointer? {
    guard let handle = authHandle(a) else { return nil }
    do {
        return newFutureHandle(handle.auth.verifyPhoneNumber(try verificationRequest(options, for: handle.auth)))
    } catch {
        return newFutureHandle(handle.auth.rejectedOperation(.verifyPhoneNumber, error.authError))
    }
}

@_cdecl("hearth_phone_verify_number_last_result")
public func abi_phone_verify_number_last_result(_ a: OpaquePointer?) -> OpaquePointer? {
    lastResult(a, .verifyPhoneNumber)
}

@_cdecl("hearth_future_phone_resend_token")
public func abi_future_phone_resend_token(_ f: OpaquePointer?) -> UnsafePointer<CChar>? {
    HandleRegistry.shared.object(UnsafeRawPointer(f), as: FutureHandle.self)?.phoneResendToken()
}

@_cdecl("hearth_phone_verify_number_with_listener")
public func abi_phone_verify_number_with_listener(_ a: OpaquePointer?,
                                                  _ options: UnsafePointer<hearth_phone_auth_options>?,
                                                  _ listener: UnsafePointer<hearth_phone_listener>?) -> Int32 {
    guard let handle = authHandle(a) else { return AuthErrorCode.invalidHandle.rawValue }
    guard let listener, listener.pointee.struct_size >= UInt32(MemoryLayout<hearth_phone_listener>.size) else {
        return AuthErrorCode.invalidArgument.rawValue
    }
    let callbacks = listener.pointee
    let request: Auth.PhoneVerificationRequest
    do {
        request = try verificationRequest(options, for: handle.auth)
    } catch {
        return error.authError.code.rawValue
    }
    let context = HostPointer(callbacks.user_data)
    let codeSent = callbacks.on_code_sent
    let failed = callbacks.on_verification_failed
    let timedOut = callbacks.on_code_auto_retrieval_timeout
    handle.auth.verifyPhoneNumber(request, listener: PhoneVerificationListener(
        codeSent: { id, token in
            id.withCString { idPointer in token.withCString { codeSent?(context.pointer, idPointer, $0) } }
        },
        failed: { error in error.message.withCString { failed?(context.pointer, error.code.rawValue, $0) } },
        autoRetrievalTimeout: { id in id.withCString { timedOut?(context.pointer, $0) } }))
    return 0
}

@_cdecl("hearth_phone_credential")
public func abi_phone_credential(_ verificationId: CStringArg, _ code: CStringArg) -> OpaquePointer? {
    guard let id = try? HostString.required(verificationId, "verification_id"),
          let code = try? HostString.required(code, "code") else { return nil }
    return OpaquePointer(HandleRegistry.shared.register(
        CredentialHandle(.phone(.verificationCode(verificationId: id, code: code)))))
}

@_cdecl("hearth_user_update_phone_number_credential")
public func abi_user_update_phone_number_credential(_ u: OpaquePointer?, _ c: OpaquePointer?) -> OpaquePointer? {
    userOperation(u, .updatePhoneNumberCredential) { auth, uid throws(HostString.Problem) in
        auth.updatePhoneNumber(uid: uid, credential: try credentialArgument(c))
    }
}

@_cdecl("hearth_user_update_phone_number_credential_last_result")
public func abi_user_update_phone_number_credential_last_result(_ a: OpaquePointer?) -> OpaquePointer? {
    lastResult(a, .updatePhoneNumberCredential)
}

@_cdecl("hearth_auth_set_app_verification_disabled_for_testing")
public func abi_auth_set_app_verification_disabled_for_testing(_ a: OpaquePointer?, _ disabled: Int32) -> Int32 {
    guard let handle = authHandle(a) else { return AuthErrorCode.invalidHandle.rawValue }
    handle.auth.setAppVerificationDisabledForTesting(disabled != 0)
    return 0
}
