/// Runs host code (completion callbacks, listeners) the way the threading contract promises: on the
/// loop thread, on a later loop turn (never inside the call that registered it), and never after the
/// app is destroyed.
///
/// `gate` is held while host code runs. A thread that must be sure a callback is not running and
/// will not start (destroying the app, releasing a future, removing a listener) takes the gate too:
/// it waits for a running callback to end. The loop thread takes it recursively, so a callback can
/// do any of those things itself.
public final class CallbackDispatcher: @unchecked Sendable {
    public let loop: EventLoop
    let gate = RecursiveLock()
    private let destroyedFlag = Locked(false)

    public init(loop: EventLoop) {
        self.loop = loop
    }

    public var isDestroyed: Bool { destroyedFlag.current }

    /// Schedules host code for a later loop turn. Returns false when the app is gone.
    @discardableResult
    public func schedule(_ hostCode: @escaping () -> Void) -> Bool {
        if isDestroyed { return false }
        return loop.execute { [self] in
            gate.withLock {
                if destroyedFlag.current { return }
                hostCode()
            }
        }
    }

    /// Runs `body` once no host callback is running on another thread (immediately on the loop
    /// thread or when none runs).
    public func excludingCallbacks<T>(_ body: () throws -> T) rethrows -> T {
        try gate.withLock(body)
    }

    /// After this returns no host callback of this app starts, and none is running on another thread.
    public func markDestroyed() {
        gate.withLock { destroyedFlag.withLock { $0 = true } }
    }
}
