import CLibUV

/// A uv handle that Hearth owns on an `EventLoop`: the loop closes every one of them at shutdown.
package protocol LoopOwnedHandle: AnyObject {
    /// Idempotent; loop thread only.
    func close()
}

/// Memory and lifetime rules shared by Hearth's uv handles.
///
/// Each handle lives in raw memory of its own and carries in `data` a retained reference to the
/// Swift object that owns it. `uv_close` is asynchronous: libuv may still touch the handle until
/// the close callback, so that callback (not the owner's `deinit`) releases the owner and frees
/// the memory. An owner therefore outlives its handle, and a late callback never meets freed state.
package enum UVHandle {
    package static func allocate<Handle>(_: Handle.Type) -> UnsafeMutablePointer<Handle> {
        UnsafeMutableRawPointer.allocate(byteCount: MemoryLayout<Handle>.size,
                                         alignment: MemoryLayout<Handle>.alignment)
            .bindMemory(to: Handle.self, capacity: 1)
    }

    /// Frees memory of a handle that was never initialised (or whose init failed).
    package static func free<Handle>(_ handle: UnsafeMutablePointer<Handle>) {
        UnsafeMutableRawPointer(handle).deallocate()
    }

    static func base<Handle>(_ handle: UnsafeMutablePointer<Handle>) -> UnsafeMutablePointer<uv_handle_t> {
        UnsafeMutableRawPointer(handle).assumingMemoryBound(to: uv_handle_t.self)
    }

    /// Stores a retained reference to `owner` in the handle's `data`; balanced by `close`.
    package static func retain<Handle>(_ owner: AnyObject, in handle: UnsafeMutablePointer<Handle>) {
        base(handle).pointee.data = Unmanaged.passRetained(owner).toOpaque()
    }

    /// The owner stored by `retain`, unretained: valid while the handle is open.
    package static func owner<Owner: AnyObject, Handle>(_: Owner.Type, of handle: UnsafeMutablePointer<Handle>?) -> Owner? {
        guard let handle, let data = base(handle).pointee.data else { return nil }
        return Unmanaged<Owner>.fromOpaque(data).takeUnretainedValue()
    }

    /// Starts closing; the close callback releases the owner and frees the memory.
    package static func close<Handle>(_ handle: UnsafeMutablePointer<Handle>) {
        uv_close(base(handle)) { handle in
            guard let handle else { return }
            if let data = handle.pointee.data {
                handle.pointee.data = nil
                Unmanaged<AnyObject>.fromOpaque(data).release()
            }
            UnsafeMutableRawPointer(handle).deallocate()
        }
    }

    package static func setKeepsLoopAlive<Handle>(_ handle: UnsafeMutablePointer<Handle>, _ keepAlive: Bool) {
        if keepAlive { uv_ref(base(handle)) } else { uv_unref(base(handle)) }
    }
}

/// A libuv failure while setting up the loop, with libuv's own name and sentence for the code.
package struct LoopError: Error, Equatable, CustomStringConvertible {
    /// What Hearth was doing, e.g. "uv_loop_init".
    package let operation: String
    /// The negative libuv error code.
    package let code: Int32

    package init(operation: String, code: Int32) {
        self.operation = operation
        self.code = code
    }

    package var description: String {
        "\(operation) failed: \(String(cString: uv_err_name(code))) (\(String(cString: uv_strerror(code))))"
    }
}
