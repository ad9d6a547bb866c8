import CHearthHeader
import HearthAuth
import HearthBackend

public typealias CompletionCallback = @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void

/// Wraps a core future in a new host reference.
func newFutureHandle(_ state: FutureState) -> OpaquePointer {
    OpaquePointer(HandleRegistry.shared.register(FutureHandle(state)))
}

private func future(_ pointer: OpaquePointer?) -> FutureHandle? {
    HandleRegistry.shared.object(UnsafeRawPointer(pointer), as: FutureHandle.self)
}

@_cdecl("hearth_future_status")
public func abi_future_status(_ f: OpaquePointer?) -> Int32 {
    guard let handle = future(f) else { return Int32(HEARTH_FUTURE_INVALID.rawValue) }
    return Int32(handle.state.isComplete ? HEARTH_FUTURE_COMPLETE.rawValue : HEARTH_FUTURE_PENDING.rawValue)
}

@_cdecl("hearth_future_error")
public func abi_future_error(_ f: OpaquePointer?) -> Int32 {
    // INVALID_HANDLE, not the C++ SDK's -1: -1 is HEARTH_ERROR_UNIMPLEMENTED, an answer an operation may give.
    guard let handle = future(f) else { return AuthErrorCode.invalidHandle.rawValue }
    return handle.state.errorCode?.rawValue ?? 0
}

@_cdecl("hearth_future_error_message")
public func abi_future_error_message(_ f: OpaquePointer?) -> UnsafePointer<CChar>? {
    future(f)?.errorMessage()
}

@_cdecl("hearth_future_add_callback")
public func abi_future_add_callback(_ f: OpaquePointer?, _ callback: CompletionCallback?,
                                    _ userData: UnsafeMutableRawPointer?) -> Int32 {
    let function: StaticString = "hearth_future_add_callback"
    guard let handle = future(f), handle.callbackAdded() else {
        return LastError.set(.invalidHandle, function, "future is not a live future (NULL or released).")
    }
    guard let callback else {
        if handle.callbackFinished() { retire(f) }
        return LastError.set(.invalidArgument, function, "callback is NULL.")
    }
    let context = HostPointer(userData)
    let pointer = HostPointer(UnsafeMutableRawPointer(f))
    let error = handle.state.addCallback {
        callback(pointer.pointer.map(OpaquePointer.init), context.pointer)
        // The host may have released the handle meanwhile: it lives until its callbacks have returned.
        if handle.callbackFinished() { retire(OpaquePointer(pointer.pointer)) }
    }
    if let error {
        if handle.callbackFinished() { retire(f) }
        return LastError.set(error, function, "the future's app is being destroyed.")
    }
    return 0
}

/// Ends the registration of a released future handle and of the views it lent.
private func retire(_ f: OpaquePointer?) {
    HandleRegistry.shared.unregister(UnsafeRawPointer(f), as: FutureHandle.self)?.retire()
}

@_cdecl("hearth_future_wait")
public func abi_future_wait(_ f: OpaquePointer?, _ timeoutMs: Int64) -> Int32 {
    guard let handle = future(f) else {
        return LastError.set(.invalidHandle, "hearth_future_wait", "future is not a live future (NULL or released).")
    }
    switch handle.state.wait(timeoutMs: timeoutMs) {
    case .complete: return 0
    case .timedOut:
        return LastError.set(.timedOut, "hearth_future_wait", "the future did not complete within \(timeoutMs) ms.")
    case .wouldDeadlock:
        return LastError.set(.wouldDeadlock, "hearth_future_wait",
                             "called on the app's loop thread, which must run for the future to complete.")
    }
}

@_cdecl("hearth_future_release")
public func abi_future_release(_ f: OpaquePointer?) {
    // With callbacks still to run, the last of them retires the handle.
    guard let handle = future(f), handle.hostReleased() else { return }
    retire(f)
}

@_cdecl("hearth_future_retain")
public func abi_future_retain(_ f: OpaquePointer?) -> OpaquePointer? {
    guard let handle = future(f) else {
        LastError.set(.invalidHandle, "hearth_future_retain", "future is not a live future (NULL or released).")
        return nil
    }
    return newFutureHandle(handle.state)
}

@_cdecl("hearth_future_auth_result")
public func abi_future_auth_result(_ f: OpaquePointer?) -> OpaquePointer? {
    future(f)?.authResultHandle().map(OpaquePointer.init)
}

@_cdecl("hearth_future_user")
public func abi_future_user(_ f: OpaquePointer?) -> OpaquePointer? {
    future(f)?.userHandle().map(OpaquePointer.init)
}

@_cdecl("hearth_future_string")
public func abi_future_string(_ f: OpaquePointer?) -> UnsafePointer<CChar>? {
    future(f)?.stringValue()
}

@_cdecl("hearth_future_string_count")
public func abi_future_string_count(_ f: OpaquePointer?) -> Int {
    future(f)?.stringList().count ?? 0
}

@_cdecl("hearth_future_string_at")
public func abi_future_string_at(_ f: OpaquePointer?, _ index: Int) -> UnsafePointer<CChar>? {
    guard let list = future(f)?.stringList(), index >= 0, index < list.count else { return nil }
    return list[index].borrowed
}
