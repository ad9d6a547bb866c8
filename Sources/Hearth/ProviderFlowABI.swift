import CHearthHeader
import HearthAuth
import HearthBackend
import HearthTransport

/// hearth_oauth_provider: mutable until used (each flow copies it).
final class OAuthProviderHandle: @unchecked Sendable {
    private let lock = RecursiveLock()
    private var value: OAuthProvider
    let providerId: CString

    init(_ provider: OAuthProvider) {
        value = provider
        providerId = CString(provider.providerId)
    }

    var provider: OAuthProvider { lock.withLock { value } }

    func update<T>(_ change: (inout OAuthProvider) -> T) -> T { lock.withLock { change(&value) } }
}

private func provider(_ pointer: OpaquePointer?) -> OAuthProviderHandle? {
    HandleRegistry.shared.object(UnsafeRawPointer(pointer), as: OAuthProviderHandle.self)
}

func providerArgument(_ p: OpaquePointer?) throws(HostString.Problem) -> OAuthProvider {
    guard let p else { throw .null("provider") }
    guard let handle = provider(p) else { throw .invalidHandle("provider") }
    return handle.provider
}

@_cdecl("hearth_oauth_provider_create")
public func abi_oauth_provider_create(_ providerId: CStringArg) -> OpaquePointer? {
    do throws(HostString.Problem) {
        let id = try HostString.required(providerId, "provider_id")
        return OpaquePointer(HandleRegistry.shared.register(OAuthProviderHandle(OAuthProvider(providerId: id))))
    } catch {
        LastError.set(error, "hearth_oauth_provider_create")
        return nil
    }
}

@_cdecl("hearth_oauth_provider_release")
public func abi_oauth_provider_release(_ p: OpaquePointer?) {
    HandleRegistry.shared.unregister(UnsafeRawPointer(p), as: OAuthProviderHandle.self)
}

@_cdecl("hearth_oauth_provider_id")
public func abi_oauth_provider_id(_ p: OpaquePointer?) -> UnsafePointer<CChar>? {
    provider(p)?.providerId.borrowed
}

@_cdecl("hearth_oauth_provider_add_scope")
public func abi_oauth_provider_add_scope(_ p: OpaquePointer?, _ scope: CStringArg) -> Int32 {
    let function: StaticString = "hearth_oauth_provider_add_scope"
    guard let handle = provider(p) else {
        return LastError.set(.invalidHandle, function, "provider is not a live provider (NULL or released).")
    }
    do throws(HostString.Problem) {
        let text = try HostString.required(scope, "scope")
        guard !text.isEmpty else { return LastError.set(.invalidArgument, function, "scope is empty.") }
        handle.update { $0.addScope(text) }
        return 0
    } catch {
        return LastError.set(error, function)
    }
}

@_cdecl("hearth_oauth_provider_set_custom_parameter")
public func abi_oauth_provider_set_custom_parameter(_ p: OpaquePointer?, _ key: CStringArg, _ value: CStringArg) -> Int32 {
    let function: StaticString = "hearth_oauth_provider_set_custom_parameter"
    guard let handle = provider(p) else {
        return LastError.set(.invalidHandle, function, "provider is not a live provider (NULL or released).")
    }
    do throws(HostString.Problem) {
        let name = try HostString.required(key, "key")
        let text = try HostString.required(value, "value")
        guard let refusal = handle.update({ $0.setCustomParameter(name, text) }) else { return 0 }
        return LastError.set(refusal, function)
    } catch {
        return LastError.set(error, function)
    }
}

@_cdecl("hearth_provider_flow_options_init")
public func abi_provider_flow_options_init(_ options: UnsafeMutablePointer<hearth_provider_flow_options>?) {
    guard let options else { return }
    options.initialize(to: hearth_provider_flow_options())
    options.pointee.struct_size = UInt32(MemoryLayout<hearth_provider_flow_options>.size)
}

@_cdecl("hearth_auth_set_provider_flow_options")
public func abi_auth_set_provider_flow_options(_ a: OpaquePointer?,
                                               _ options: UnsafePointer<hearth_provider_flow_options>?) -> Int32 {
    let function: StaticString = "hearth_auth_set_provider_flow_options"
    guard let handle = authArgument(a, function) else { return AuthErrorCode.invalidHandle.rawValue }
    guard let options else { return LastError.set(.invalidArgument, function, "options is NULL.") }
    let size = Int(UnsafeRawPointer(options).loadUnaligned(as: UInt32.self))
    let reader = VersionedStruct(pointer: options, size: size)
    guard let openURL = reader.field(\.open_url, default: nil) else {
        return LastError.set(.invalidArgument, function, size < MemoryLayout<UInt32>.size * 2
                             ? "options.struct_size is \(size): initialize the options with hearth_provider_flow_options_init."
                             : "options.open_url is NULL: a UI delegate is required.")
    }
    let context = HostPointer(reader.field(\.user_data, default: nil))
    var redirectURI: String?
    do throws(HostString.Problem) {
        if let uri = try HostString.optional(reader.field(\.redirect_uri, default: nil), "options.redirect_uri") {
            guard !uri.isEmpty else {
                return LastError.set(.invalidArgument, function,
                                     "options.redirect_uri is empty: give a custom-scheme URI, or NULL for the loopback receiver.")
            }
            redirectURI = uri
        }
    } catch {
        return LastError.set(error, function)
    }
    let timeout = reader.field(\.timeout_ms, default: 0)
    guard timeout >= 0 else {
        return LastError.set(.invalidArgument, function, "options.timeout_ms is \(timeout); it must be 0 (5 minutes) or positive.")
    }
    // Made last: from here on the delegate's release runs exactly once, after the last flow using it.
    let release = reader.field(\.release, default: nil)
    let registration = release.flatMap { release in
        HostRegistration(dispatcher: handle.auth.dispatcher, release: { release(context.pointer) })
    }
    if release != nil && registration == nil {
        return LastError.set(.appDestroyed, function, "the app is being destroyed.")
    }
    var settings = ProviderFlowSettings { url in
        withExtendedLifetime(registration) { url.withCString { openURL(context.pointer, $0) == 0 } }
    }
    settings.redirectURI = redirectURI
    settings.loopbackPort = reader.field(\.loopback_port, default: 0)
    settings.alwaysUseCreateAuthUri = reader.field(\.use_create_auth_uri, default: 0) != 0
    if timeout > 0 { settings.timeoutMs = UInt64(timeout) }
    handle.auth.setProviderFlowSettings(settings)
    return 0
}

@_cdecl("hearth_auth_sign_in_with_provider")
public func abi_auth_sign_in_with_provider(_ a: OpaquePointer?, _ p: OpaquePointer?) -> OpaquePointer? {
    guard let handle = authArgument(a, "hearth_auth_sign_in_with_provider") else { return nil }
    do {
        return newFutureHandle(handle.auth.startProviderFlow(try providerArgument(p), purpose: .signIn))
    } catch {
        return newFutureHandle(handle.auth.rejectedOperation(.signInWithProvider, error.authError))
    }
}

@_cdecl("hearth_auth_get_credential_with_provider")
public func abi_auth_get_credential_with_provider(_ a: OpaquePointer?, _ p: OpaquePointer?) -> OpaquePointer? {
    guard let handle = authArgument(a, "hearth_auth_get_credential_with_provider") else { return nil }
    do {
        return newFutureHandle(handle.auth.startProviderFlow(try providerArgument(p), purpose: .credential))
    } catch {
        return newFutureHandle(handle.auth.rejectedOperation(.getCredentialWithProvider, error.authError))
    }
}

@_cdecl("hearth_future_credential")
public func abi_future_credential(_ f: OpaquePointer?) -> OpaquePointer? {
    HandleRegistry.shared.object(UnsafeRawPointer(f), as: FutureHandle.self)?.credentialHandle().map(OpaquePointer.init)
}

@_cdecl("hearth_user_link_with_provider")
public func abi_user_link_with_provider(_ u: OpaquePointer?, _ p: OpaquePointer?) -> OpaquePointer? {
    userOperation(u, .linkWithProvider, "hearth_user_link_with_provider") { auth, uid throws(HostString.Problem) in
        auth.startProviderFlow(try providerArgument(p), purpose: .link(uid: uid))
    }
}

@_cdecl("hearth_user_reauthenticate_with_provider")
public func abi_user_reauthenticate_with_provider(_ u: OpaquePointer?, _ p: OpaquePointer?) -> OpaquePointer? {
    userOperation(u, .reauthenticateWithProvider,
                  "hearth_user_reauthenticate_with_provider") { auth, uid throws(HostString.Problem) in
        auth.startProviderFlow(try providerArgument(p), purpose: .reauthenticate(uid: uid))
    }
}

@_cdecl("hearth_auth_handle_url")
public func abi_auth_handle_url(_ a: OpaquePointer?, _ url: CStringArg) -> Int32 {
    guard let handle = HandleRegistry.shared.object(UnsafeRawPointer(a), as: AuthHandle.self),
          let url = try? HostString.required(url, "url") else { return 0 }
    return handle.auth.handleURL(url) ? 1 : 0
}

@_cdecl("hearth_auth_cancel_provider_flow")
public func abi_auth_cancel_provider_flow(_ a: OpaquePointer?) -> Int32 {
    guard let handle = authArgument(a, "hearth_auth_cancel_provider_flow") else { return AuthErrorCode.invalidHandle.rawValue }
    handle.auth.cancelProviderFlow()
    return 0
}
