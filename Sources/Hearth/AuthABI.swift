#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CHearthHeader
import HearthAuth
import HearthBackend

public typealias ListenerCallback = @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void

private func authHandle(_ pointer: OpaquePointer?) -> AuthHandle? {
    HandleRegistry.shared.object(UnsafeRawPointer(pointer), as: AuthHandle.self)
}

/// The Auth behind `pointer`, or nil after recording `function`'s failure on an invalid handle.
func authArgument(_ pointer: OpaquePointer?, _ function: StaticString) -> AuthHandle? {
    if let handle = authHandle(pointer) { return handle }
    LastError.set(.invalidHandle, function, "auth is not a live Auth (NULL, or its app was destroyed).")
    return nil
}

/// Runs an operation whose string arguments have been checked; a bad argument becomes a failed
/// future (with the code of the operation's own pre-checks where the C++ SDK has one).
private func operation(_ a: OpaquePointer?, _ op: Operation, _ function: StaticString,
                       _ body: (Auth) throws(HostString.Problem) -> FutureState) -> OpaquePointer? {
    guard let handle = authArgument(a, function) else { return nil }
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
    guard let handle = authArgument(a, "hearth_auth_use_emulator") else { return AuthErrorCode.invalidHandle.rawValue }
    let name: String
    do throws(HostString.Problem) {
        name = try HostString.required(host, "host")
    } catch {
        return LastError.set(error, "hearth_auth_use_emulator")
    }
    guard !name.isEmpty else { return LastError.set(.invalidArgument, "hearth_auth_use_emulator", "host is empty.") }
    guard port != 0 else { return LastError.set(.invalidArgument, "hearth_auth_use_emulator", "port is 0.") }
    handle.auth.useEmulator(EmulatorAddress(host: name, port: port))
    return 0
}

@_cdecl("hearth_auth_set_language_code")
public func abi_auth_set_language_code(_ a: OpaquePointer?, _ code: UnsafePointer<CChar>?) -> Int32 {
    guard let handle = authArgument(a, "hearth_auth_set_language_code") else { return AuthErrorCode.invalidHandle.rawValue }
    do throws(HostString.Problem) {
        handle.auth.languageCode = try HostString.optional(code, "language_code")
        return 0
    } catch {
        return LastError.set(error, "hearth_auth_set_language_code")
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
    guard let handle = authArgument(a, "hearth_auth_sign_out") else { return AuthErrorCode.invalidHandle.rawValue }
    guard let failure = handle.auth.signOut() else { return 0 }
    return LastError.set(.persistenceFailure, "hearth_auth_sign_out",
                         "signed out, but the saved session could not be erased: \(failure.message)")
}

@_cdecl("hearth_auth_sign_in_anonymously")
public func abi_auth_sign_in_anonymously(_ a: OpaquePointer?) -> OpaquePointer? {
    operation(a, .signInAnonymously, "hearth_auth_sign_in_anonymously") { auth in auth.signInAnonymously() }
}

@_cdecl("hearth_auth_create_user_with_email_and_password")
public func abi_auth_create_user_with_email_and_password(_ a: OpaquePointer?, _ email: UnsafePointer<CChar>?,
                                                         _ password: UnsafePointer<CChar>?) -> OpaquePointer? {
    operation(a, .createUserWithEmailAndPassword, "hearth_auth_create_user_with_email_and_password") { auth throws(HostString.Problem) in
        auth.createUser(email: try HostString.required(email, "email"),
                        password: try HostString.required(password, "password"))
    }
}

@_cdecl("hearth_auth_sign_in_with_email_and_password")
public func abi_auth_sign_in_with_email_and_password(_ a: OpaquePointer?, _ email: UnsafePointer<CChar>?,
                                                     _ password: UnsafePointer<CChar>?) -> OpaquePointer? {
    operation(a, .signInWithEmailAndPassword, "hearth_auth_sign_in_with_email_and_password") { auth throws(HostString.Problem) in
        auth.signIn(email: try HostString.required(email, "email"),
                    password: try HostString.required(password, "password"))
    }
}

@_cdecl("hearth_auth_sign_in_with_custom_token")
public func abi_auth_sign_in_with_custom_token(_ a: OpaquePointer?, _ token: UnsafePointer<CChar>?) -> OpaquePointer? {
    operation(a, .signInWithCustomToken, "hearth_auth_sign_in_with_custom_token") { auth throws(HostString.Problem) in
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
    operation(a, .signInWithCredential, "hearth_auth_sign_in_with_credential") { auth throws(HostString.Problem) in
        auth.signIn(with: try credentialArgument(c))
    }
}

@_cdecl("hearth_auth_sign_in_and_retrieve_data_with_credential")
public func abi_auth_sign_in_and_retrieve_data_with_credential(_ a: OpaquePointer?, _ c: OpaquePointer?) -> OpaquePointer? {
    operation(a, .signInAndRetrieveDataWithCredential, "hearth_auth_sign_in_and_retrieve_data_with_credential") { auth throws(HostString.Problem) in
        auth.signInAndRetrieveData(with: try credentialArgument(c))
    }
}

@_cdecl("hearth_auth_send_password_reset_email")
public func abi_auth_send_password_reset_email(_ a: OpaquePointer?, _ email: UnsafePointer<CChar>?,
                                               _ settings: UnsafePointer<hearth_action_code_settings>?) -> OpaquePointer? {
    operation(a, .sendPasswordResetEmail, "hearth_auth_send_password_reset_email") { auth throws(HostString.Problem) in
        auth.sendPasswordResetEmail(try HostString.required(email, "email"),
                                    settings: try actionCodeSettingsArgument(settings))
    }
}

@_cdecl("hearth_auth_fetch_providers_for_email")
public func abi_auth_fetch_providers_for_email(_ a: OpaquePointer?, _ email: UnsafePointer<CChar>?) -> OpaquePointer? {
    operation(a, .fetchProvidersForEmail, "hearth_auth_fetch_providers_for_email") { auth throws(HostString.Problem) in
        auth.fetchProviders(forEmail: try HostString.required(email, "email"))
    }
}

/// The core's operation behind a hearth_operation value.
private func operation(_ value: hearth_operation) -> Operation? {
    switch value {
    case HEARTH_OP_AUTH_SIGN_IN_ANONYMOUSLY: return .signInAnonymously
    case HEARTH_OP_AUTH_CREATE_USER_WITH_EMAIL_AND_PASSWORD: return .createUserWithEmailAndPassword
    case HEARTH_OP_AUTH_SIGN_IN_WITH_EMAIL_AND_PASSWORD: return .signInWithEmailAndPassword
    case HEARTH_OP_AUTH_SIGN_IN_WITH_CUSTOM_TOKEN: return .signInWithCustomToken
    case HEARTH_OP_AUTH_SIGN_IN_WITH_CREDENTIAL: return .signInWithCredential
    case HEARTH_OP_AUTH_SIGN_IN_AND_RETRIEVE_DATA_WITH_CREDENTIAL: return .signInAndRetrieveDataWithCredential
    case HEARTH_OP_AUTH_SEND_PASSWORD_RESET_EMAIL: return .sendPasswordResetEmail
    case HEARTH_OP_AUTH_FETCH_PROVIDERS_FOR_EMAIL: return .fetchProvidersForEmail
    case HEARTH_OP_USER_GET_TOKEN: return .getToken
    case HEARTH_OP_USER_RELOAD: return .reload
    case HEARTH_OP_USER_UPDATE_USER_PROFILE: return .updateUserProfile
    case HEARTH_OP_USER_UPDATE_PASSWORD: return .updatePassword
    case HEARTH_OP_USER_SEND_EMAIL_VERIFICATION: return .sendEmailVerification
    case HEARTH_OP_USER_SEND_EMAIL_VERIFICATION_BEFORE_UPDATING_EMAIL: return .sendEmailVerificationBeforeUpdatingEmail
    case HEARTH_OP_USER_DELETE: return .deleteUser
    case HEARTH_OP_USER_LINK_WITH_CREDENTIAL: return .linkWithCredential
    case HEARTH_OP_USER_UNLINK: return .unlink
    case HEARTH_OP_USER_REAUTHENTICATE: return .reauthenticate
    case HEARTH_OP_USER_REAUTHENTICATE_AND_RETRIEVE_DATA: return .reauthenticateAndRetrieveData
    case HEARTH_OP_AUTH_SIGN_IN_WITH_PROVIDER: return .signInWithProvider
    case HEARTH_OP_USER_LINK_WITH_PROVIDER: return .linkWithProvider
    case HEARTH_OP_USER_REAUTHENTICATE_WITH_PROVIDER: return .reauthenticateWithProvider
    case HEARTH_OP_AUTH_VERIFY_PHONE_NUMBER: return .verifyPhoneNumber
    case HEARTH_OP_USER_UPDATE_PHONE_NUMBER_CREDENTIAL: return .updatePhoneNumberCredential
    case HEARTH_OP_USER_MULTI_FACTOR_GET_SESSION: return .multiFactorSession
    case HEARTH_OP_USER_MULTI_FACTOR_ENROLL: return .multiFactorEnroll
    case HEARTH_OP_USER_MULTI_FACTOR_UNENROLL: return .multiFactorUnenroll
    case HEARTH_OP_TOTP_SECRET_GENERATE: return .totpGenerateSecret
    case HEARTH_OP_MULTI_FACTOR_RESOLVER_RESOLVE_SIGN_IN: return .resolveSignIn
    case HEARTH_OP_AUTH_GET_CREDENTIAL_WITH_PROVIDER: return .getCredentialWithProvider
    case HEARTH_OP_USER_UPDATE_EMAIL: return .updateEmail
    case HEARTH_OP_AUTH_SEND_SIGN_IN_LINK_TO_EMAIL: return .sendSignInLinkToEmail
    case HEARTH_OP_AUTH_SIGN_IN_WITH_EMAIL_LINK: return .signInWithEmailLink
    case HEARTH_OP_AUTH_APPLY_ACTION_CODE: return .applyActionCode
    case HEARTH_OP_AUTH_CHECK_ACTION_CODE: return .checkActionCode
    case HEARTH_OP_AUTH_VERIFY_PASSWORD_RESET_CODE: return .verifyPasswordResetCode
    case HEARTH_OP_AUTH_CONFIRM_PASSWORD_RESET: return .confirmPasswordReset
    case HEARTH_OP_AUTH_UPDATE_CURRENT_USER: return .updateCurrentUser
    default: return nil
    }
}

@_cdecl("hearth_auth_last_result")
public func abi_auth_last_result(_ a: OpaquePointer?, _ value: hearth_operation) -> OpaquePointer? {
    guard let handle = authArgument(a, "hearth_auth_last_result") else { return nil }
    guard let op = operation(value) else {
        LastError.set(.invalidArgument, "hearth_auth_last_result",
                      "operation \(value.rawValue) is not a hearth_operation value.")
        return nil
    }
    return handle.auth.lastResult(op).map(newFutureHandle)
}

public typealias ReleaseCallback = @convention(c) (UnsafeMutableRawPointer?) -> Void

private func addListener(_ a: OpaquePointer?, _ callback: ListenerCallback?, _ release: ReleaseCallback?,
                         _ userData: UnsafeMutableRawPointer?, _ function: StaticString,
                         _ add: (Auth, @escaping @Sendable () -> Void, (@Sendable () -> Void)?) -> UInt64?) -> UInt64 {
    guard let handle = authArgument(a, function) else { return 0 }
    guard let callback else {
        LastError.set(.invalidArgument, function, "callback is NULL.")
        return 0
    }
    let context = HostPointer(userData)
    let authPointer = HostPointer(UnsafeMutableRawPointer(a))
    var released: (@Sendable () -> Void)?
    if let release { released = { release(context.pointer) } }
    let listener: @Sendable () -> Void = { callback(authPointer.pointer.map(OpaquePointer.init), context.pointer) }
    guard let id = add(handle.auth, listener, released) else {
        LastError.set(.appDestroyed, function, "the app is being destroyed.")
        return 0
    }
    return id
}

@_cdecl("hearth_auth_add_auth_state_listener")
public func abi_auth_add_auth_state_listener(_ a: OpaquePointer?, _ callback: ListenerCallback?,
                                             _ release: ReleaseCallback?, _ userData: UnsafeMutableRawPointer?) -> UInt64 {
    addListener(a, callback, release, userData, "hearth_auth_add_auth_state_listener") {
        $0.addAuthStateListener($1, release: $2)
    }
}

@_cdecl("hearth_auth_remove_auth_state_listener")
public func abi_auth_remove_auth_state_listener(_ a: OpaquePointer?, _ id: UInt64) -> Int32 {
    guard let handle = authArgument(a, "hearth_auth_remove_auth_state_listener") else {
        return AuthErrorCode.invalidHandle.rawValue
    }
    guard handle.auth.removeAuthStateListener(id) else {
        return LastError.set(.invalidArgument, "hearth_auth_remove_auth_state_listener",
                             "listener_id \(id) is not an auth-state listener of this Auth (never added, or removed).")
    }
    return 0
}

@_cdecl("hearth_auth_add_id_token_listener")
public func abi_auth_add_id_token_listener(_ a: OpaquePointer?, _ callback: ListenerCallback?,
                                           _ release: ReleaseCallback?, _ userData: UnsafeMutableRawPointer?) -> UInt64 {
    addListener(a, callback, release, userData, "hearth_auth_add_id_token_listener") {
        $0.addIdTokenListener($1, release: $2)
    }
}

@_cdecl("hearth_auth_remove_id_token_listener")
public func abi_auth_remove_id_token_listener(_ a: OpaquePointer?, _ id: UInt64) -> Int32 {
    guard let handle = authArgument(a, "hearth_auth_remove_id_token_listener") else {
        return AuthErrorCode.invalidHandle.rawValue
    }
    guard handle.auth.removeIdTokenListener(id) else {
        return LastError.set(.invalidArgument, "hearth_auth_remove_id_token_listener",
                             "listener_id \(id) is not an ID-token listener of this Auth (never added, or removed).")
    }
    return 0
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
