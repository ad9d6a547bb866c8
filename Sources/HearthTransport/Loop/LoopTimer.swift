import CLibUV

/// A one-shot or repeating timer on an `EventLoop`. Loop thread only.
///
/// Unref'd (unless the loop's `idleHandlesKeepLoopAlive`): a pending timer never keeps
/// `uv_run(UV_RUN_DEFAULT)` alive on its own, so an idle Hearth (say, waiting for a proactive token
/// refresh) lets the host's loop return. The flip side, from libuv: on a borrowed loop the timer
/// fires only while the host's loop is alive for some other reason (see `EventLoop`).
/// The timer lives until `close()` or the loop's shutdown; a closed timer ignores `start`.
package final class LoopTimer: LoopOwnedHandle {
    private let loop: EventLoop
    /// nil once closed (or if the loop was already shut down when the timer was made).
    private var handle: UnsafeMutablePointer<uv_timer_t>?
    private var callback: (() -> Void)?

    /// Creates the timer on `loop`, unref'd. Loop thread only.
    init(loop: EventLoop) {
        self.loop = loop
        let handle = UVHandle.allocate(uv_timer_t.self)
        guard uv_timer_init(loop.uvLoop, handle) == 0 else {
            UVHandle.free(handle)
            return
        }
        UVHandle.retain(self, in: handle)
        UVHandle.setKeepsLoopAlive(handle, loop.idleHandlesKeepLoopAlive)
        self.handle = handle
    }

    /// A timer that was never opened: the loop had already shut down.
    init(inertOn loop: EventLoop) {
        self.loop = loop
    }

    /// (Re)starts the timer: `callback` runs on the loop thread after `afterMs`, then every
    /// `repeatMs` if that is non-zero. Replaces any previous schedule and callback.
    package func start(afterMs: UInt64, repeatMs: UInt64 = 0, _ callback: @escaping () -> Void) {
        guard let handle else { return }
        self.callback = callback
        uv_timer_start(handle, { handle in
            UVHandle.owner(LoopTimer.self, of: handle)?.fire()
        }, afterMs, repeatMs)
    }

    package func stop() {
        guard let handle else { return }
        uv_timer_stop(handle)
        callback = nil
    }

    package var isActive: Bool {
        guard let handle else { return false }
        return uv_is_active(UVHandle.base(handle)) != 0
    }

    package func close() {
        guard let handle else { return }
        self.handle = nil
        callback = nil
        loop.unregister(self)
        UVHandle.close(handle)
    }

    /// Whether this timer keeps `uv_run(UV_RUN_DEFAULT)` running while it is active even when the
    /// loop's idle policy would not (the transport's curl timer does while requests are in flight).
    package var keepsLoopAlive: Bool = false {
        didSet {
            guard let handle, keepsLoopAlive != oldValue else { return }
            UVHandle.setKeepsLoopAlive(handle, keepsLoopAlive || loop.idleHandlesKeepLoopAlive)
        }
    }

    private func fire() {
        loop.noteCallbackThread()
        guard let handle else { return }
        // Hold the callback locally: it may restart, stop or close this timer.
        let callback = self.callback
        if uv_timer_get_repeat(handle) == 0 { self.callback = nil }
        callback?()
    }
}
