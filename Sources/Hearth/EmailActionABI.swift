import CHearthHeader
import HearthAuth
import HearthBackend

// Email actions: action code settings, sign-in links, and the other out-of-band codes.

@_cdecl("hearth_action_code_settings_init")
public func abi_action_code_settings_init(_ settings: UnsafeMutablePointer<hearth_action_code_settings>?) {
    guard let settings else { return }
    settings.initialize(to: hearth_action_code_settings())
    settings.pointee.struct_size = UInt32(MemoryLayout<hearth_action_code_settings>.size)
}

/// The host's settings read up to their struct_size; nil for a NULL pointer. Every version has `url`:
/// a struct too small for it was never initialized with hearth_action_code_settings_init.
func actionCodeSettingsArgument(_ pointer: UnsafePointer<hearth_action_code_settings>?)
    throws(HostString.Problem) -> ActionCodeSettings? {
    guard let pointer else { return nil }
    let size = Int(UnsafeRawPointer(pointer).loadUnaligned(as: UInt32.self))
    let firstVersion = MemoryLayout<hearth_action_code_settings>.offset(of: \.url)! + MemoryLayout<UnsafePointer<CChar>?>.size
    guard size >= firstVersion else { throw .structTooSmall("settings") }
    let reader = VersionedStruct(pointer: pointer, size: size)
    var settings = ActionCodeSettings(url: try HostString.optional(reader.field(\.url, default: nil), "settings.url"))
    settings.handleCodeInApp = reader.field(\.handle_code_in_app, default: 0) != 0
    settings.iOSBundleId = try HostString.optional(reader.field(\.ios_bundle_id, default: nil), "settings.ios_bundle_id")
    settings.androidPackageName = try HostString.optional(reader.field(\.android_package_name, default: nil),
                                                          "settings.android_package_name")
    settings.androidInstallApp = reader.field(\.android_install_app, default: 0) != 0
    settings.androidMinimumVersion = try HostString.optional(reader.field(\.android_minimum_version, default: nil),
                                                             "settings.android_minimum_version")
    settings.linkDomain = try HostString.optional(reader.field(\.link_domain, default: nil), "settings.link_domain")
    settings.dynamicLinkDomain = try HostString.optional(reader.field(\.dynamic_link_domain, default: nil),
                                                         "settings.dynamic_link_domain")
    return settings
}

/// Runs an Auth operation whose arguments have been checked; a bad argument becomes a failed future.
private func emailAction(_ a: OpaquePointer?, _ op: Operation, _ function: StaticString,
                         _ body: (Auth) throws(HostString.Problem) -> FutureState) -> OpaquePointer? {
    guard let handle = authArgument(a, function) else { return nil }
    do {
        return newFutureHandle(try body(handle.auth))
    } catch {
        return newFutureHandle(handle.auth.rejectedOperation(op, error.authError))
    }
}

@_cdecl("hearth_auth_send_sign_in_link_to_email")
public func abi_auth_send_sign_in_link_to_email(_ a: OpaquePointer?, _ email: CStringArg,
                                                _ settings: UnsafePointer<hearth_action_code_settings>?) -> OpaquePointer? {
    emailAction(a, .sendSignInLinkToEmail, "hearth_auth_send_sign_in_link_to_email") { auth throws(HostString.Problem) in
        let address = try HostString.required(email, "email")
        guard let settings else { throw .invalid("settings must not be NULL: sign-in links need action code settings.") }
        return auth.sendSignInLink(toEmail: address, settings: try actionCodeSettingsArgument(settings))
    }
}

@_cdecl("hearth_auth_is_sign_in_with_email_link")
public func abi_auth_is_sign_in_with_email_link(_ a: OpaquePointer?, _ link: CStringArg) -> Int32 {
    guard HandleRegistry.shared.object(UnsafeRawPointer(a), as: AuthHandle.self) != nil,
          let text = try? HostString.required(link, "link") else { return 0 }
    return Auth.isSignInWithEmailLink(text) ? 1 : 0
}

@_cdecl("hearth_auth_sign_in_with_email_link")
public func abi_auth_sign_in_with_email_link(_ a: OpaquePointer?, _ email: CStringArg, _ link: CStringArg) -> OpaquePointer? {
    emailAction(a, .signInWithEmailLink, "hearth_auth_sign_in_with_email_link") { auth throws(HostString.Problem) in
        auth.signInWithEmailLink(email: try HostString.required(email, "email"), link: try HostString.required(link, "link"))
    }
}

@_cdecl("hearth_credential_create_email_link")
public func abi_credential_create_email_link(_ email: CStringArg, _ link: CStringArg) -> OpaquePointer? {
    let function: StaticString = "hearth_credential_create_email_link"
    do throws(HostString.Problem) {
        let address = try HostString.required(email, "email")
        let text = try HostString.required(link, "link")
        guard let credential = EmailLinkCredential(email: address, link: text) else {
            LastError.set(.invalidArgument, function,
                          "link is not an email action link (its query needs apiKey, oobCode and mode).")
            return nil
        }
        return OpaquePointer(HandleRegistry.shared.register(CredentialHandle(.emailLink(credential))))
    } catch {
        LastError.set(error, function)
        return nil
    }
}

@_cdecl("hearth_auth_apply_action_code")
public func abi_auth_apply_action_code(_ a: OpaquePointer?, _ code: CStringArg) -> OpaquePointer? {
    emailAction(a, .applyActionCode, "hearth_auth_apply_action_code") { auth throws(HostString.Problem) in
        auth.applyActionCode(try HostString.required(code, "code"))
    }
}

@_cdecl("hearth_auth_check_action_code")
public func abi_auth_check_action_code(_ a: OpaquePointer?, _ code: CStringArg) -> OpaquePointer? {
    emailAction(a, .checkActionCode, "hearth_auth_check_action_code") { auth throws(HostString.Problem) in
        auth.checkActionCode(try HostString.required(code, "code"))
    }
}

@_cdecl("hearth_auth_verify_password_reset_code")
public func abi_auth_verify_password_reset_code(_ a: OpaquePointer?, _ code: CStringArg) -> OpaquePointer? {
    emailAction(a, .verifyPasswordResetCode, "hearth_auth_verify_password_reset_code") { auth throws(HostString.Problem) in
        auth.verifyPasswordResetCode(try HostString.required(code, "code"))
    }
}

@_cdecl("hearth_auth_confirm_password_reset")
public func abi_auth_confirm_password_reset(_ a: OpaquePointer?, _ code: CStringArg,
                                            _ newPassword: CStringArg) -> OpaquePointer? {
    emailAction(a, .confirmPasswordReset, "hearth_auth_confirm_password_reset") { auth throws(HostString.Problem) in
        auth.confirmPasswordReset(code: try HostString.required(code, "code"),
                                  newPassword: try HostString.required(newPassword, "new_password"))
    }
}

// MARK: - Action code info

/// hearth_action_code_info (borrowed from a future).
final class ActionCodeInfoHandle: @unchecked Sendable {
    let info: ActionCodeInfo
    let email: CString
    let previousEmail: CString

    init(_ info: ActionCodeInfo) {
        self.info = info
        email = CString(info.email)
        previousEmail = CString(info.previousEmail)
    }
}

private func actionCodeInfo(_ pointer: OpaquePointer?) -> ActionCodeInfoHandle? {
    HandleRegistry.shared.object(UnsafeRawPointer(pointer), as: ActionCodeInfoHandle.self)
}

@_cdecl("hearth_future_action_code_info")
public func abi_future_action_code_info(_ f: OpaquePointer?) -> OpaquePointer? {
    HandleRegistry.shared.object(UnsafeRawPointer(f), as: FutureHandle.self)?.actionCodeInfoHandle().map(OpaquePointer.init)
}

@_cdecl("hearth_action_code_info_operation")
public func abi_action_code_info_operation(_ i: OpaquePointer?) -> hearth_action_code_operation {
    hearth_action_code_operation(rawValue: UInt32(actionCodeInfo(i)?.info.operation.rawValue ?? 0))
}

@_cdecl("hearth_action_code_info_email")
public func abi_action_code_info_email(_ i: OpaquePointer?) -> UnsafePointer<CChar>? {
    actionCodeInfo(i)?.email.borrowed
}

@_cdecl("hearth_action_code_info_previous_email")
public func abi_action_code_info_previous_email(_ i: OpaquePointer?) -> UnsafePointer<CChar>? {
    actionCodeInfo(i)?.previousEmail.borrowed
}
