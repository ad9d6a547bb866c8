import HearthCore

private func credential(_ pointer: OpaquePointer?) -> CredentialHandle? {
    HandleRegistry.shared.object(UnsafeRawPointer(pointer), as: CredentialHandle.self)
}

@_cdecl("hearth_email_credential")
public func abi_email_credential(_ email: UnsafePointer<CChar>?, _ password: UnsafePointer<CChar>?) -> OpaquePointer? {
    guard let email = try? HostString.required(email, "email"),
          let password = try? HostString.required(password, "password") else { return nil }
    return OpaquePointer(HandleRegistry.shared.register(CredentialHandle(.emailPassword(email: email, password: password))))
}

@_cdecl("hearth_credential_provider")
public func abi_credential_provider(_ c: OpaquePointer?) -> UnsafePointer<CChar>? {
    credential(c)?.provider.borrowed
}

@_cdecl("hearth_credential_is_valid")
public func abi_credential_is_valid(_ c: OpaquePointer?) -> Int32 {
    credential(c) == nil ? 0 : 1
}

@_cdecl("hearth_credential_retain")
public func abi_credential_retain(_ c: OpaquePointer?) -> OpaquePointer? {
    guard let handle = credential(c) else { return nil }
    return OpaquePointer(HandleRegistry.shared.register(CredentialHandle(handle.credential)))
}

@_cdecl("hearth_credential_release")
public func abi_credential_release(_ c: OpaquePointer?) {
    HandleRegistry.shared.unregister(UnsafeRawPointer(c), as: CredentialHandle.self)
}
