#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HearthCore

public typealias ListenerCallback = @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void

private func authHandle(_ pointer: OpaquePointer?) -> AuthHandle? {
    HandleRegistry.shared.object(UnsafeRawPointer(pointer), as: AuthHandle.self)
}

/// Runs an operation whose string arguments have been checked; a bad argument becomes a failed
/// future (with the code of the operation's own pre-checks where the C++ SDK has one).
private func operation(_ a: OpaquePointer?, _ op: Operation,
                       _ body: (Auth) throws(HostString.Problem) -> FutureState) -> OpaquePointer? {
    guard let handle = authHandle(a) else { return nil }
    do {
        return newFutureHandle(try body(handle.auth))
    } catch {
        return newFutureHandle(handle.auth.rejectedOperation(op, error.authError))
    }
}

@_cdecl("hearth_auth_get")
public func abi_auth_get(_ app: OpaquePointer?) -> OpaquePointer? {
    HandleRegistry.shared.object(UnsafeRawPointer(app), as: AppHandle.self)?.authHandle.map(OpaquePointer.init)
}

@_cdecl("hearth_auth_app")
public func abi_auth_app(_ a: OpaquePointer?) -> OpaquePointer? {
    authHandle(a).map { OpaquePointer($0.appPointer) }
}

@_cdecl("hearth_auth_use_emulator")
public func abi_auth_use_emulator(_ a: OpaquePointer?, _ host: UnsafePointer<CChar>?, _ port: UInt16) -> Int32 {
    guard let handle = authHandle(a) else { return AuthErrorCode.invalidHandle.rawValue }
    guard let host = try? HostString.required(host, "host"), !host.isEmpty, port != 0 else {
        return AuthErrorCode.invalidArgument.rawValue
    }
    handle.auth.useEmulator(EmulatorAddress(host: host, port: port))
    return 0
}

@_cdecl("hearth_auth_set_language_code")
public func abi_auth_set_language_code(_ a: OpaquePointer?, _ code: UnsafePointer<CChar>?) -> Int32 {
    guard let handle = authHandle(a) else { return AuthErrorCode.invalidHandle.rawValue }
    do {
        handle.auth.languageCode = try HostString.optional(code, "language_code")
        return 0
    } catch {
        return AuthErrorCode.invalidArgument.rawValue
    }
}

@_cdecl("hearth_auth_language_code")
public func abi_auth_language_code(_ a: OpaquePointer?) -> UnsafeMutablePointer<CChar>? {
    guard let code = authHandle(a)?.auth.languageCode else { return nil }
    return strdup(code)
}

@_cdecl("hearth_auth_current_user")
public func abi_auth_current_user(_ a: OpaquePointer?) -> OpaquePointer? {
    guard let user = authHandle(a)?.auth.currentUser else { return nil }
    return OpaquePointer(HandleRegistry.shared.register(UserHandle(user, borrowed: false)))
}

@_cdecl("hearth_auth_sign_out")
public func abi_auth_sign_out(_ a: OpaquePointer?) -> Int32 {
    guard let handle = authHandle(a) else { return AuthErrorCode.invalidHandle.rawValue }
    return handle.auth.signOut() == nil ? 0 : AuthErrorCode.persistenceFailure.rawValue
}

@_cdecl("hearth_auth_sign_in_anonymously")
public func abi_auth_sign_in_anonymously(_ a: OpaquePointer?) -> OpaquePointer? {
    operation(a, .signInAnonymously) { auth in auth.signInAnonymously() }
}

@_cdecl("hearth_auth_create_user_with_email_and_password")
public func abi_auth_create_user_with_email_and_password(_ a: OpaquePointer?, _ email: UnsafePointer<CChar>?,
                                                         _ password: UnsafePointer<CChar>?) -> OpaquePointer? {
    operation(a, .createUserWithEmailAndPassword) { auth throws(HostString.Problem) in
        auth.createUser(email: try HostString.required(email, "email"),
                        password: try HostString.required(password, "password"))
    }
}

@_cdecl("hearth_auth_sign_in_with_email_and_password")
public func abi_auth_sign_in_with_email_and_password(_ a: OpaquePointer?, _ email: UnsafePointer<CChar>?,
                                                     _ password: UnsafePointer<CChar>?) -> OpaquePointer? {
    operation(a, .signInWithEmailAndPassword) { auth throws(HostString.Problem) in
        auth.signIn(email: try HostString.required(email, "email"),
                    password: try HostString.required(password, "password"))
    }
}

@_cdecl("hearth_auth_sign_in_with_custom_token")
public func abi_auth_sign_in_with_custom_token(_ a: OpaquePointer?, _ token: UnsafePointer<CChar>?) -> OpaquePointer? {
    operation(a, .signInWithCustomToken) { auth throws(HostString.Problem) in
        auth.signInWithCustomToken(try HostString.required(token, "token"))
    }
}

func credentialArgument(_ c: OpaquePointer?) throws(HostString.Problem) -> Credential {
    guard let c else { throw .null("credential") }
    guard let handle = HandleRegistry.shared.object(UnsafeRawPointer(c), as: CredentialHandle.self) else {
        throw .invalidHandle("credential")
    }
    return handle.credential
}

@_cdecl("hearth_auth_sign_in_with_credential")
public func abi_auth_sign_in_with_credential(_ a: OpaquePointer?, _ c: OpaquePointer?) -> OpaquePointer? {
    operation(a, .signInWithCredential) { auth throws(HostString.Problem) in
        auth.signIn(with: try credentialArgument(c))
    }
}

@_cdecl("hearth_auth_sign_in_and_retrieve_data_with_credential")
public func abi_auth_sign_in_and_retrieve_data_with_credential(_ a: OpaquePointer?, _ c: OpaquePointer?) -> OpaquePointer? {
    operation(a, .signInAndRetrieveDataWithCredential) { auth throws(HostString.Problem) in
        auth.signInAndRetrieveData(with: try credentialArgument(c))
    }
}

@_cdecl("hearth_auth_send_password_reset_email")
public func abi_auth_send_password_reset_email(_ a: OpaquePointer?, _ email: UnsafePointer<CChar>?) -> OpaquePointer? {
    operation(a, .sendPasswordResetEmail) { auth throws(HostString.Problem) in
        auth.sendPasswordResetEmail(try HostString.required(email, "email"))
    }
}

@_cdecl("hearth_auth_fetch_providers_for_email")
public func abi_auth_fetch_providers_for_email(_ a: OpaquePointer?, _ email: UnsafePointer<CChar>?) -> OpaquePointer? {
    operation(a, .fetchProvidersForEmail) { auth throws(HostString.Problem) in
        auth.fetchProviders(forEmail: try HostString.required(email, "email"))
    }
}

func lastResult(_ a: OpaquePointer?, _ op: Operation) -> OpaquePointer? {
    authHandle(a)?.auth.lastResult(op).map(newFutureHandle)
}

@_cdecl("hearth_auth_sign_in_anonymously_last_result")
public func abi_auth_sign_in_anonymously_last_result(_ a: OpaquePointer?) -> OpaquePointer? {
    lastResult(a, .signInAnonymously)
}

@_cdecl("hearth_auth_create_user_with_email_and_password_last_result")
public func abi_auth_create_user_with_email_and_password_last_result(_ a: OpaquePointer?) -> OpaquePointer? {
    lastResult(a, .createUserWithEmailAndPassword)
}

@_cdecl("hearth_auth_sign_in_with_email_and_password_last_result")
public func abi_auth_sign_in_with_email_and_password_last_result(_ a: OpaquePointer?) -> OpaquePointer? {
    lastResult(a, .signInWithEmailAndPassword)
}

@_cdecl("hearth_auth_sign_in_with_custom_token_last_result")
public func abi_auth_sign_in_with_custom_token_last_result(_ a: OpaquePointer?) -> OpaquePointer? {
    lastResult(a, .signInWithCustomToken)
}

@_cdecl("hearth_auth_sign_in_with_credential_last_result")
public func abi_auth_sign_in_with_credential_last_result(_ a: OpaquePointer?) -> OpaquePointer? {
    lastResult(a, .signInWithCredential)
}

@_cdecl("hearth_auth_sign_in_and_retrieve_data_with_credential_last_result")
public func abi_auth_sign_in_and_retrieve_data_with_credential_last_result(_ a: OpaquePointer?) -> OpaquePointer? {
    lastResult(a, .signInAndRetrieveDataWithCredential)
}

@_cdecl("hearth_auth_send_password_reset_email_last_result")
public func abi_auth_send_password_reset_email_last_result(_ a: OpaquePointer?) -> OpaquePointer? {
    lastResult(a, .sendPasswordResetEmail)
}

@_cdecl("hearth_auth_fetch_providers_for_email_last_result")
public func abi_auth_fetch_providers_for_email_last_result(_ a: OpaquePointer?) -> OpaquePointer? {
    lastResult(a, .fetchProvidersForEmail)
}

private func addListener(_ a: OpaquePointer?, _ callback: ListenerCallback?, _ userData: UnsafeMutableRawPointer?,
                         _ add: (Auth, @escaping @Sendable () -> Void) -> UInt64) -> UInt64 {
    guard let handle = authHandle(a), let callback else { return 0 }
    let context = HostPointer(userData)
    let authPointer = HostPointer(UnsafeMutableRawPointer(a))
    return add(handle.auth) { callback(authPointer.pointer.map(OpaquePointer.init), context.pointer) }
}

@_cdecl("hearth_auth_add_auth_state_listener")
public func abi_auth_add_auth_state_listener(_ a: OpaquePointer?, _ callback: ListenerCallback?,
                                             _ userData: UnsafeMutableRawPointer?) -> UInt64 {
    addListener(a, callback, userData) { $0.addAuthStateListener($1) }
}

@_cdecl("hearth_auth_remove_auth_state_listener")
public func abi_auth_remove_auth_state_listener(_ a: OpaquePointer?, _ id: UInt64) -> Int32 {
    guard let handle = authHandle(a) else { return AuthErrorCode.invalidHandle.rawValue }
    return handle.auth.removeAuthStateListener(id) ? 0 : AuthErrorCode.invalidArgument.rawValue
}

@_cdecl("hearth_auth_add_id_token_listener")
public func abi_auth_add_id_token_listener(_ a: OpaquePointer?, _ callback: ListenerCallback?,
                                           _ userData: UnsafeMutableRawPointer?) -> UInt64 {
    addListener(a, callback, userData) { $0.addIdTokenListener($1) }
}

@_cdecl("hearth_auth_remove_id_token_listener")
public func abi_auth_remove_id_token_listener(_ a: OpaquePointer?, _ id: UInt64) -> Int32 {
    guard let handle = authHandle(a) else { return AuthErrorCode.invalidHandle.rawValue }
    return handle.auth.removeIdTokenListener(id) ? 0 : AuthErrorCode.invalidArgument.rawValue
}

// MARK: - Auth results

private func result(_ pointer: OpaquePointer?) -> AuthResultHandle? {
    HandleRegistry.shared.object(UnsafeRawPointer(pointer), as: AuthResultHandle.self)
}

@_cdecl("hearth_auth_result_user")
public func abi_auth_result_user(_ r: OpaquePointer?) -> OpaquePointer? {
    result(r)?.userHandle.map(OpaquePointer.init)
}

@_cdecl("hearth_auth_result_provider_id")
public func abi_auth_result_provider_id(_ r: OpaquePointer?) -> UnsafePointer<CChar>? {
    result(r)?.providerId.borrowed
}

@_cdecl("hearth_auth_result_user_name")
public func abi_auth_result_user_name(_ r: OpaquePointer?) -> UnsafePointer<CChar>? {
    result(r)?.userName.borrowed
}

@_cdecl("hearth_auth_result_profile_json")
public func abi_auth_result_profile_json(_ r: OpaquePointer?) -> UnsafePointer<CChar>? {
    result(r)?.profileJSON.borrowed
}

@_cdecl("hearth_auth_result_is_new_user")
public func abi_auth_result_is_new_user(_ r: OpaquePointer?) -> Int32 {
    (result(r)?.result.additionalUserInfo.isNewUser ?? false) ? 1 : 0
}

@_cdecl("hearth_auth_result_credential")
public func abi_auth_result_credential(_ r: OpaquePointer?) -> OpaquePointer? {
    result(r)?.credential.map(OpaquePointer.init)
}

@_cdecl("hearth_auth_result_updated_credential")
public func abi_auth_result_updated_credential(_ r: OpaquePointer?) -> OpaquePointer? {
    result(r)?.updatedCredential.map(OpaquePointer.init)
}

@_cdecl("hearth_auth_result_email")
public func abi_auth_result_email(_ r: OpaquePointer?) -> UnsafePointer<CChar>? {
    result(r)?.email.borrowed
}
