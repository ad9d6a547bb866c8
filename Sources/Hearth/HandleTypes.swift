#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HearthAuth
import HearthTransport

/// hearth_app
final class AppHandle: @unchecked Sendable {
    let app: App
    let name: CString
    let userData = Locked<UnsafeMutableRawPointer?>(nil)
    /// The borrowed hearth_auth, registered as long as the app handle.
    var authHandle: UnsafeMutableRawPointer?

    init(app: App) {
        self.app = app
        self.name = CString(app.configuration.appName)
    }
}

/// hearth_auth (borrowed from the app).
final class AuthHandle: @unchecked Sendable {
    let auth: Auth
    unowned let appHandle: AppHandle
    let appPointer: UnsafeMutableRawPointer

    init(auth: Auth, appHandle: AppHandle, appPointer: UnsafeMutableRawPointer) {
        self.auth = auth
        self.appHandle = appHandle
        self.appPointer = appPointer
    }
}

/// hearth_credential
final class CredentialHandle: @unchecked Sendable {
    let credential: Credential
    /// Borrowed from an auth result: hearth_credential_release leaves it alone.
    let isBorrowed: Bool
    let provider, idToken, accessToken, secret: CString

    init(_ credential: Credential, borrowed: Bool = false) {
        self.credential = credential
        self.isBorrowed = borrowed
        provider = CString(credential.providerId)
        let tokens = credential.tokens
        idToken = CString(tokens.idToken ?? "")
        accessToken = CString(tokens.accessToken ?? "")
        secret = CString(tokens.secret ?? "")
    }
}

/// C copies of a handle's strings, made on first use and kept as long as the handle: hosts read a
/// few fields of most results, and every copy is an allocation (bench: a sign-in's handles used to copy
/// 20 strings up front).
///
/// One allocation: the mutex is the header and the slots are the elements (it used to be an object, a
/// lock and an array; two of these per sign-in's result, bench, issue 5). `ManagedBuffer` keeps the
/// header's address for the object's lifetime, as a pthread mutex needs.
final class CStringSlots: ManagedBuffer<pthread_mutex_t, CString?> {
    static func make(count: Int) -> CStringSlots {
        let slots = unsafeDowncast(create(minimumCapacity: count) { _ in pthread_mutex_t() }, to: CStringSlots.self)
        let capacity = slots.capacity
        slots.withUnsafeMutablePointers { mutex, elements in
            pthread_mutex_init(mutex, nil)
            elements.initialize(repeating: nil, count: capacity)
        }
        return slots
    }

    deinit {
        withUnsafeMutablePointers { mutex, elements in
            pthread_mutex_destroy(mutex)
            // All of `capacity` (it may exceed the count asked for) was initialized.
            elements.deinitialize(count: capacity)
        }
    }

    /// The copy of `value()` in `slot`, made now if this is the first call for that slot.
    func string(_ slot: Int, _ value: () -> String) -> CString {
        withUnsafeMutablePointers { mutex, elements in
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            if let made = elements[slot] { return made }
            let made = CString(value())
            elements[slot] = made
            return made
        }
    }
}

/// hearth_user_info (borrowed from a user).
final class UserInfoHandle: @unchecked Sendable {
    private let info: UserInfoSnapshot
    private let strings = CStringSlots.make(count: 6)

    init(_ info: UserInfoSnapshot) { self.info = info }

    var uid: CString { strings.string(0) { info.uid } }
    var providerId: CString { strings.string(1) { info.providerId } }
    var email: CString { strings.string(2) { info.email } }
    var displayName: CString { strings.string(3) { info.displayName } }
    var photoURL: CString { strings.string(4) { info.photoURL } }
    var phoneNumber: CString { strings.string(5) { info.phoneNumber } }
}

/// hearth_user: an owned reference (hearth_user_release) or borrowed from a future / auth result.
final class UserHandle: @unchecked Sendable {
    let snapshot: UserSnapshot
    let isBorrowed: Bool
    private let strings = CStringSlots.make(count: 7)
    /// The borrowed user-info and second-factor handles, registered on first use, unregistered by `retire`.
    private let lent = Locked<(providerData: [UnsafeMutableRawPointer]?, multiFactor: [UnsafeMutableRawPointer]?,
                               retired: Bool)>((nil, nil, false))

    init(_ snapshot: UserSnapshot, borrowed: Bool) {
        self.snapshot = snapshot
        self.isBorrowed = borrowed
    }

    var uid: CString { strings.string(0) { snapshot.profile.uid } }
    var email: CString { strings.string(1) { snapshot.profile.email } }
    var displayName: CString { strings.string(2) { snapshot.profile.displayName } }
    var photoURL: CString { strings.string(3) { snapshot.profile.photoURL } }
    var phoneNumber: CString { strings.string(4) { snapshot.profile.phoneNumber } }
    var providerId: CString { strings.string(5) { snapshot.providerId } }
    var tenantId: CString { strings.string(6) { snapshot.profile.tenantId ?? "" } }

    var providerData: [UnsafeMutableRawPointer] {
        lent.withLock { lent in
            if let made = lent.providerData { return made }
            // After retire nothing new is lent out: a late reader sees an empty list.
            guard !lent.retired else { return [] }
            let made = snapshot.profile.providerData.map { HandleRegistry.shared.register(UserInfoHandle($0)) }
            lent.providerData = made
            return made
        }
    }

    var multiFactor: [UnsafeMutableRawPointer] {
        lent.withLock { lent in
            if let made = lent.multiFactor { return made }
            guard !lent.retired else { return [] }
            let made = snapshot.profile.multiFactor.map { HandleRegistry.shared.register(MultiFactorInfoHandle($0)) }
            lent.multiFactor = made
            return made
        }
    }

    /// Unregisters what this handle lent out.
    func retire() {
        let (providerData, multiFactor) = lent.withLock { lent in
            lent.retired = true
            return (lent.providerData ?? [], lent.multiFactor ?? [])
        }
        for info in providerData { HandleRegistry.shared.unregister(info, as: UserInfoHandle.self) }
        for info in multiFactor { HandleRegistry.shared.unregister(info, as: MultiFactorInfoHandle.self) }
    }
}

/// hearth_auth_result (borrowed from a future).
final class AuthResultHandle: @unchecked Sendable {
    let result: AuthResultSnapshot
    /// nil for the conflict details of a failed operation (no user signed in).
    let userHandle: UnsafeMutableRawPointer?
    let credential: UnsafeMutableRawPointer?
    let updatedCredential: UnsafeMutableRawPointer?
    private let strings = CStringSlots.make(count: 4)

    init(_ result: AuthResultSnapshot) {
        self.result = result
        userHandle = result.user.map { HandleRegistry.shared.register(UserHandle($0, borrowed: true)) }
        credential = result.credential.map { HandleRegistry.shared.register(CredentialHandle($0, borrowed: true)) }
        updatedCredential = result.updatedCredential.map {
            HandleRegistry.shared.register(CredentialHandle($0, borrowed: true))
        }
    }

    var providerId: CString { strings.string(0) { result.additionalUserInfo.providerId } }
    var userName: CString { strings.string(1) { result.additionalUserInfo.userName } }
    var profileJSON: CString { strings.string(2) { result.additionalUserInfo.profileJSON } }
    var email: CString { strings.string(3) { result.email ?? "" } }

    func retire() {
        if let user = HandleRegistry.shared.unregister(userHandle, as: UserHandle.self) { user.retire() }
        HandleRegistry.shared.unregister(credential, as: CredentialHandle.self)
        HandleRegistry.shared.unregister(updatedCredential, as: CredentialHandle.self)
    }
}

/// hearth_future: one host reference to an operation, with the borrowed views of the result it has
/// handed out. It stays registered until the host has released it AND every completion callback added
/// through it has returned: a callback receives this handle even after hearth_future_release.
final class FutureHandle: @unchecked Sendable {
    let state: FutureState
    /// Guards the lifetime counts and the lazily built views below (recursive: userHandle builds the
    /// auth result view). One lock for both: each lock is an allocation, and every operation makes a
    /// future handle.
    private let lock = RecursiveLock()
    /// Completion callbacks added through this handle that have not returned yet, and whether the host
    /// has released it.
    private var pendingCallbacks = 0
    private var released = false
    private var message: CString?
    private var authResult: UnsafeMutableRawPointer?
    private var user: UnsafeMutableRawPointer?
    private var string: CString?
    private var strings: [CString]?
    private var resendToken: CString?
    private var resolver: UnsafeMutableRawPointer?
    private var session: UnsafeMutableRawPointer?
    private var totpSecret: UnsafeMutableRawPointer?
    private var credential: UnsafeMutableRawPointer?
    private var actionCodeInfo: UnsafeMutableRawPointer?

    init(_ state: FutureState) {
        self.state = state
    }

    /// A callback is being added through this handle; false once the host has released it.
    func callbackAdded() -> Bool {
        lock.withLock {
            guard !released else { return false }
            pendingCallbacks += 1
            return true
        }
    }

    /// A callback added through this handle has returned (or was never added after all). True when
    /// that was the last thing keeping a released handle registered: the caller unregisters it.
    func callbackFinished() -> Bool {
        lock.withLock {
            pendingCallbacks -= 1
            return released && pendingCallbacks == 0
        }
    }

    /// The host releases this handle. True when nothing keeps it registered any more (the caller
    /// unregisters it now); false when a callback still has to run, or it was released before.
    func hostReleased() -> Bool {
        lock.withLock {
            guard !released else { return false }
            released = true
            return pendingCallbacks == 0
        }
    }

    func errorMessage() -> UnsafePointer<CChar> {
        lock.withLock {
            if let message { return message.borrowed }
            // Only a final answer is cached: a pending future's "" may become a message later. The error is
            // read first: a future that completes in between is taken for pending, never for a success.
            let made: CString
            if let error = state.error {
                made = CString(error.message)
            } else if state.successValue != nil {
                made = CString.empty
            } else {
                return CString.empty.borrowed
            }
            message = made
            return made.borrowed
        }
    }

    func authResultHandle() -> UnsafeMutableRawPointer? {
        lock.withLock {
            if let authResult { return authResult }
            let snapshot: AuthResultSnapshot
            if case .authResult(let result)? = state.successValue {
                snapshot = result
            } else if let error = state.error {
                // A failed link or sign-in whose answer names another account still tells the host how to
                // sign in to it (the C++ SDK's AuthResult on kAuthErrorCredentialAlreadyInUse).
                guard let conflict = AuthResultSnapshot.conflict(from: error) else { return nil }
                snapshot = conflict
            } else {
                return nil
            }
            let handle = HandleRegistry.shared.register(AuthResultHandle(snapshot))
            authResult = handle
            return handle
        }
    }

    func userHandle() -> UnsafeMutableRawPointer? {
        if let resultHandle = authResultHandle(),
           let result = HandleRegistry.shared.object(resultHandle, as: AuthResultHandle.self) {
            return result.userHandle
        }
        if state.error != nil { return nil }
        return lock.withLock {
            if let user { return user }
            guard case .user(let snapshot)? = state.successValue else { return nil }
            let handle = HandleRegistry.shared.register(UserHandle(snapshot, borrowed: true))
            user = handle
            return handle
        }
    }

    func phoneResendToken() -> UnsafePointer<CChar>? {
        lock.withLock {
            if let resendToken { return resendToken.borrowed }
            guard case .phoneVerification(_, let token)? = state.successValue else { return nil }
            let made = CString(token)
            resendToken = made
            return made.borrowed
        }
    }

    func resolverHandle() -> UnsafeMutableRawPointer? {
        lock.withLock {
            if let resolver { return resolver }
            guard let error = state.error, error.code == .secondFactorRequired,
                  let pending = MultiFactorPending(from: error) else { return nil }
            let handle = HandleRegistry.shared.register(MultiFactorResolverHandle(pending, auth: state.auth))
            resolver = handle
            return handle
        }
    }

    func sessionHandle() -> UnsafeMutableRawPointer? {
        lock.withLock {
            if let session { return session }
            guard case .multiFactorSession(let value)? = state.successValue else { return nil }
            let handle = HandleRegistry.shared.register(MultiFactorSessionHandle(value, auth: state.auth))
            session = handle
            return handle
        }
    }

    func totpSecretHandle() -> UnsafeMutableRawPointer? {
        lock.withLock {
            if let totpSecret { return totpSecret }
            guard case .totpSecret(let secret)? = state.successValue else { return nil }
            let handle = HandleRegistry.shared.register(TOTPSecretHandle(secret))
            totpSecret = handle
            return handle
        }
    }

    /// The credential of a finished credential-only provider flow (borrowed from this handle).
    func credentialHandle() -> UnsafeMutableRawPointer? {
        lock.withLock {
            if let credential { return credential }
            guard case .credential(let value)? = state.successValue else { return nil }
            let handle = HandleRegistry.shared.register(CredentialHandle(value, borrowed: true))
            credential = handle
            return handle
        }
    }

    /// What a checked action code is for (borrowed from this handle).
    func actionCodeInfoHandle() -> UnsafeMutableRawPointer? {
        lock.withLock {
            if let actionCodeInfo { return actionCodeInfo }
            guard case .actionCodeInfo(let info)? = state.successValue else { return nil }
            let handle = HandleRegistry.shared.register(ActionCodeInfoHandle(info))
            actionCodeInfo = handle
            return handle
        }
    }

    func stringValue() -> UnsafePointer<CChar>? {
        lock.withLock {
            if let string { return string.borrowed }
            let value: String
            switch state.successValue {
            case .string(let text)?: value = text
            // A phone verification's string is its verification id.
            case .phoneVerification(let verificationId, _)?: value = verificationId
            default: return nil
            }
            let made = CString(value)
            string = made
            return made.borrowed
        }
    }

    func stringList() -> [CString] {
        lock.withLock {
            if let strings { return strings }
            guard case .strings(let values)? = state.successValue else { return [] }
            let made = values.map(CString.init)
            strings = made
            return made
        }
    }

    /// Unregisters the borrowed views (the host's reference is gone).
    func retire() {
        lock.withLock {
            if let authResult, let handle = HandleRegistry.shared.unregister(authResult, as: AuthResultHandle.self) {
                handle.retire()
            }
            if let user, let handle = HandleRegistry.shared.unregister(user, as: UserHandle.self) { handle.retire() }
            if let resolver, let handle = HandleRegistry.shared.unregister(resolver, as: MultiFactorResolverHandle.self) {
                handle.retire()
            }
            HandleRegistry.shared.unregister(session, as: MultiFactorSessionHandle.self)
            HandleRegistry.shared.unregister(totpSecret, as: TOTPSecretHandle.self)
            HandleRegistry.shared.unregister(credential, as: CredentialHandle.self)
            HandleRegistry.shared.unregister(actionCodeInfo, as: ActionCodeInfoHandle.self)
            credential = nil
            actionCodeInfo = nil
            authResult = nil
            user = nil
            resolver = nil
            session = nil
            totpSecret = nil
        }
    }
}

/// hearth_storage_reply: the slot a storage load callback answers into.
final class StorageReplyHandle: @unchecked Sendable {
    var bytes: [UInt8]?
}
