import CHearthHeader
import HearthAuth

private func user(_ pointer: OpaquePointer?) -> UserHandle? {
    HandleRegistry.shared.object(UnsafeRawPointer(pointer), as: UserHandle.self)
}

private func info(_ pointer: OpaquePointer?) -> UserInfoHandle? {
    HandleRegistry.shared.object(UnsafeRawPointer(pointer), as: UserInfoHandle.self)
}

@_cdecl("hearth_user_retain")
public func abi_user_retain(_ u: OpaquePointer?) -> OpaquePointer? {
    guard let handle = user(u) else {
        LastError.set(.invalidHandle, "hearth_user_retain", "user is not a live user snapshot (NULL or released).")
        return nil
    }
    return OpaquePointer(HandleRegistry.shared.register(UserHandle(handle.snapshot, borrowed: false)))
}

@_cdecl("hearth_user_release")
public func abi_user_release(_ u: OpaquePointer?) {
    // Borrowed users (from a future or an auth result) belong to their owner: releasing one is a
    // no-op, not a double free.
    guard let handle = user(u), !handle.isBorrowed else { return }
    HandleRegistry.shared.unregister(UnsafeRawPointer(u), as: UserHandle.self)?.retire()
}

@_cdecl("hearth_user_uid")
public func abi_user_uid(_ u: OpaquePointer?) -> UnsafePointer<CChar>? { user(u)?.uid.borrowed }

@_cdecl("hearth_user_email")
public func abi_user_email(_ u: OpaquePointer?) -> UnsafePointer<CChar>? { user(u)?.email.borrowed }

@_cdecl("hearth_user_display_name")
public func abi_user_display_name(_ u: OpaquePointer?) -> UnsafePointer<CChar>? { user(u)?.displayName.borrowed }

@_cdecl("hearth_user_photo_url")
public func abi_user_photo_url(_ u: OpaquePointer?) -> UnsafePointer<CChar>? { user(u)?.photoURL.borrowed }

@_cdecl("hearth_user_phone_number")
public func abi_user_phone_number(_ u: OpaquePointer?) -> UnsafePointer<CChar>? { user(u)?.phoneNumber.borrowed }

@_cdecl("hearth_user_provider_id")
public func abi_user_provider_id(_ u: OpaquePointer?) -> UnsafePointer<CChar>? { user(u)?.providerId.borrowed }

@_cdecl("hearth_user_is_anonymous")
public func abi_user_is_anonymous(_ u: OpaquePointer?) -> Int32 {
    (user(u)?.snapshot.profile.isAnonymous ?? false) ? 1 : 0
}

@_cdecl("hearth_user_is_email_verified")
public func abi_user_is_email_verified(_ u: OpaquePointer?) -> Int32 {
    (user(u)?.snapshot.profile.isEmailVerified ?? false) ? 1 : 0
}

@_cdecl("hearth_user_creation_timestamp")
public func abi_user_creation_timestamp(_ u: OpaquePointer?) -> UInt64 {
    user(u)?.snapshot.profile.creationTimestamp ?? 0
}

@_cdecl("hearth_user_last_sign_in_timestamp")
public func abi_user_last_sign_in_timestamp(_ u: OpaquePointer?) -> UInt64 {
    user(u)?.snapshot.profile.lastSignInTimestamp ?? 0
}

@_cdecl("hearth_user_provider_data_count")
public func abi_user_provider_data_count(_ u: OpaquePointer?) -> Int {
    user(u)?.providerData.count ?? 0
}

@_cdecl("hearth_user_provider_data_at")
public func abi_user_provider_data_at(_ u: OpaquePointer?, _ index: Int) -> OpaquePointer? {
    guard let list = user(u)?.providerData, index >= 0, index < list.count else { return nil }
    return OpaquePointer(list[index])
}

@_cdecl("hearth_user_info_uid")
public func abi_user_info_uid(_ i: OpaquePointer?) -> UnsafePointer<CChar>? { info(i)?.uid.borrowed }

@_cdecl("hearth_user_info_provider_id")
public func abi_user_info_provider_id(_ i: OpaquePointer?) -> UnsafePointer<CChar>? { info(i)?.providerId.borrowed }

@_cdecl("hearth_user_info_email")
public func abi_user_info_email(_ i: OpaquePointer?) -> UnsafePointer<CChar>? { info(i)?.email.borrowed }

@_cdecl("hearth_user_info_display_name")
public func abi_user_info_display_name(_ i: OpaquePointer?) -> UnsafePointer<CChar>? { info(i)?.displayName.borrowed }

@_cdecl("hearth_user_info_photo_url")
public func abi_user_info_photo_url(_ i: OpaquePointer?) -> UnsafePointer<CChar>? { info(i)?.photoURL.borrowed }

@_cdecl("hearth_user_info_phone_number")
public func abi_user_info_phone_number(_ i: OpaquePointer?) -> UnsafePointer<CChar>? { info(i)?.phoneNumber.borrowed }

/// Runs a user operation with checked arguments; a bad argument becomes a failed future.
func userOperation(_ u: OpaquePointer?, _ op: Operation, _ function: StaticString,
                   _ body: (Auth, String) throws(HostString.Problem) -> FutureState) -> OpaquePointer? {
    guard let handle = user(u) else {
        LastError.set(.invalidHandle, function, "user is not a live user snapshot (NULL or released).")
        return nil
    }
    let auth = handle.snapshot.auth
    do {
        return newFutureHandle(try body(auth, handle.snapshot.uid))
    } catch {
        return newFutureHandle(auth.rejectedOperation(op, error.authError))
    }
}

@_cdecl("hearth_user_get_token")
public func abi_user_get_token(_ u: OpaquePointer?, _ force: Int32) -> OpaquePointer? {
    userOperation(u, .getToken,
                  "hearth_user_get_token") { auth, uid in auth.getToken(uid: uid, forceRefresh: force != 0) }
}

@_cdecl("hearth_user_reload")
public func abi_user_reload(_ u: OpaquePointer?) -> OpaquePointer? {
    userOperation(u, .reload, "hearth_user_reload") { auth, uid in auth.reload(uid: uid) }
}

@_cdecl("hearth_user_update_user_profile")
public func abi_user_update_user_profile(_ u: OpaquePointer?, _ displayName: UnsafePointer<CChar>?,
                                         _ photoURL: UnsafePointer<CChar>?) -> OpaquePointer? {
    userOperation(u, .updateUserProfile, "hearth_user_update_user_profile") { auth, uid throws(HostString.Problem) in
        auth.updateProfile(uid: uid, displayName: try HostString.optional(displayName, "display_name"),
                           photoURL: try HostString.optional(photoURL, "photo_url"))
    }
}

@_cdecl("hearth_user_update_password")
public func abi_user_update_password(_ u: OpaquePointer?, _ password: UnsafePointer<CChar>?) -> OpaquePointer? {
    userOperation(u, .updatePassword, "hearth_user_update_password") { auth, uid throws(HostString.Problem) in
        auth.updatePassword(uid: uid, password: try HostString.required(password, "password"))
    }
}

@_cdecl("hearth_user_update_email")
public func abi_user_update_email(_ u: OpaquePointer?, _ email: UnsafePointer<CChar>?) -> OpaquePointer? {
    userOperation(u, .updateEmail, "hearth_user_update_email") { auth, uid throws(HostString.Problem) in
        auth.updateEmail(uid: uid, email: try HostString.required(email, "email"))
    }
}

@_cdecl("hearth_user_send_email_verification")
public func abi_user_send_email_verification(_ u: OpaquePointer?,
                                             _ settings: UnsafePointer<hearth_action_code_settings>?) -> OpaquePointer? {
    userOperation(u, .sendEmailVerification, "hearth_user_send_email_verification") { auth, uid throws(HostString.Problem) in
        auth.sendEmailVerification(uid: uid, settings: try actionCodeSettingsArgument(settings))
    }
}

@_cdecl("hearth_user_send_email_verification_before_updating_email")
public func abi_user_send_email_verification_before_updating_email(
    _ u: OpaquePointer?, _ email: UnsafePointer<CChar>?, _ settings: UnsafePointer<hearth_action_code_settings>?
) -> OpaquePointer? {
    userOperation(u, .sendEmailVerificationBeforeUpdatingEmail,
                  "hearth_user_send_email_verification_before_updating_email") { auth, uid throws(HostString.Problem) in
        auth.sendEmailVerificationBeforeUpdatingEmail(uid: uid, newEmail: try HostString.required(email, "new_email"),
                                                      settings: try actionCodeSettingsArgument(settings))
    }
}

@_cdecl("hearth_user_delete")
public func abi_user_delete(_ u: OpaquePointer?) -> OpaquePointer? {
    userOperation(u, .deleteUser, "hearth_user_delete") { auth, uid in auth.deleteUser(uid: uid) }
}

@_cdecl("hearth_user_link_with_credential")
public func abi_user_link_with_credential(_ u: OpaquePointer?, _ c: OpaquePointer?) -> OpaquePointer? {
    userOperation(u, .linkWithCredential, "hearth_user_link_with_credential") { auth, uid throws(HostString.Problem) in
        auth.link(uid: uid, with: try credentialArgument(c))
    }
}

@_cdecl("hearth_user_unlink")
public func abi_user_unlink(_ u: OpaquePointer?, _ providerId: UnsafePointer<CChar>?) -> OpaquePointer? {
    userOperation(u, .unlink, "hearth_user_unlink") { auth, uid throws(HostString.Problem) in
        auth.unlink(uid: uid, providerId: try HostString.required(providerId, "provider_id"))
    }
}

@_cdecl("hearth_user_reauthenticate")
public func abi_user_reauthenticate(_ u: OpaquePointer?, _ c: OpaquePointer?) -> OpaquePointer? {
    userOperation(u, .reauthenticate, "hearth_user_reauthenticate") { auth, uid throws(HostString.Problem) in
        auth.reauthenticate(uid: uid, with: try credentialArgument(c), retrieveData: false)
    }
}

@_cdecl("hearth_user_reauthenticate_and_retrieve_data")
public func abi_user_reauthenticate_and_retrieve_data(_ u: OpaquePointer?, _ c: OpaquePointer?) -> OpaquePointer? {
    userOperation(u, .reauthenticateAndRetrieveData,
                  "hearth_user_reauthenticate_and_retrieve_data") { auth, uid throws(HostString.Problem) in
        auth.reauthenticate(uid: uid, with: try credentialArgument(c), retrieveData: true)
    }
}
