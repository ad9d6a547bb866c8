#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HearthBackend

// Tenants (Identity Platform multi-tenancy): the Auth's tenant id, the user's, and taking over a user
// signed in to another Auth.

@_cdecl("hearth_auth_set_tenant_id")
public func abi_auth_set_tenant_id(_ a: OpaquePointer?, _ tenantId: UnsafePointer<CChar>?) -> Int32 {
    guard let handle = authArgument(a, "hearth_auth_set_tenant_id") else { return AuthErrorCode.invalidHandle.rawValue }
    do throws(HostString.Problem) {
        let value = try HostString.optional(tenantId, "tenant_id")
        do throws(AuthError) {
            try handle.auth.setTenantId(value)
            return 0
        } catch {
            return LastError.set(error, "hearth_auth_set_tenant_id")
        }
    } catch {
        return LastError.set(error, "hearth_auth_set_tenant_id")
    }
}

@_cdecl("hearth_auth_tenant_id")
public func abi_auth_tenant_id(_ a: OpaquePointer?) -> UnsafeMutablePointer<CChar>? {
    guard let tenantId = HandleRegistry.shared.object(UnsafeRawPointer(a), as: AuthHandle.self)?.auth.tenantId
    else { return nil }
    return strdup(tenantId)
}

@_cdecl("hearth_user_tenant_id")
public func abi_user_tenant_id(_ u: OpaquePointer?) -> UnsafePointer<CChar>? {
    HandleRegistry.shared.object(UnsafeRawPointer(u), as: UserHandle.self)?.tenantId.borrowed
}

@_cdecl("hearth_auth_update_current_user")
public func abi_auth_update_current_user(_ a: OpaquePointer?, _ u: OpaquePointer?) -> OpaquePointer? {
    guard let handle = authArgument(a, "hearth_auth_update_current_user") else { return nil }
    let problem: HostString.Problem
    if let u {
        if let user = HandleRegistry.shared.object(UnsafeRawPointer(u), as: UserHandle.self) {
            return newFutureHandle(handle.auth.updateCurrentUser(user.snapshot))
        }
        problem = .invalidHandle("user")
    } else {
        problem = .null("user")
    }
    return newFutureHandle(handle.auth.rejectedOperation(.updateCurrentUser, problem.authError))
}
