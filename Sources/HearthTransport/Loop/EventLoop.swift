import CHearthShims
import CLibUV
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The one `uv_loop_t` an app lives on, and the only way other threads reach it.
///
/// All mutable Hearth state of an app is confined to the loop thread; other threads hand work over
/// with `execute`. Two modes:
///
/// - **Owned** (`makeOwned`): Hearth runs the loop on a thread of its own until `shutdown`.
/// - **Borrowed** (`borrowing`): the host runs its loop (`uv_run(loop, UV_RUN_NOWAIT)` once per frame
///   is enough) and Hearth creates no threads. Hearth's handles are unref'd while idle, so an idle
///   Hearth never keeps `uv_run(UV_RUN_DEFAULT)` alive.
///
///   libuv's rule behind the consequences: `uv_run`, in every mode including `UV_RUN_NOWAIT`,
///   returns at once without doing anything when the loop has no ref'd active handle.
///   - Work posted *on the loop thread* refs Hearth's idle handle until it has run, so the host's
///     next `uv_run` (even `UV_RUN_DEFAULT`) runs it. Requests in flight ref the transport's handles.
///   - Work posted *from another thread* wakes the loop but cannot ref it (`uv_ref` is not
///     thread-safe); the same holds for `shutdown` called off the loop thread, and for Hearth's
///     unref'd timers (e.g. a proactive token refresh). They run during the host's next `uv_run`
///     while the loop is alive for any reason: the host's own handles, or Hearth's while requests
///     are in flight or loop-thread work is queued.
///   - A host whose loop holds nothing else and that runs it with `UV_RUN_NOWAIT` per frame should
///     borrow with `idleHandlesKeepLoopAlive: true` (then `uv_run(UV_RUN_DEFAULT)` no longer
///     returns while Hearth lives), or call Hearth only on its loop thread.
///
/// Lifetime: the loop (and, in owned mode, its thread) lives until `shutdown`; call it exactly when
/// the app goes away. The object itself stays valid afterwards (calls are refused or ignored).
package final class EventLoop: @unchecked Sendable {
    package let isOwned: Bool
    /// Whether Hearth's wake handle and timers stay ref'd while idle: always in owned mode; in
    /// borrowed mode only if the host asked for it.
    package let idleHandlesKeepLoopAlive: Bool
    package let uvLoop: UnsafeMutablePointer<uv_loop_t>

    /// Wakes the loop for work queued by other threads: they write `wakeChannel`, which this poll
    /// watches (`hearth_wake.h` says why not a uv_async_t). The channel stays open as long as this
    /// object, so a thread that signals never meets a closed descriptor; the poll is closed at
    /// shutdown like every Hearth handle.
    private let wakePoll: UnsafeMutablePointer<uv_poll_t>
    private let wakeChannel: WakeChannel
    /// Wakes the loop for work queued on the loop thread itself: an idle handle costs no system
    /// call, where a wake from another thread is a write that the loop must then read back (two of
    /// the seven system calls a request cost before).
    private let localWake: UnsafeMutablePointer<uv_idle_t>
    private let lock = ConditionLock()

    // Guarded by `lock`.
    private var queue: [() -> Void] = []
    /// Another thread has signalled the wake channel and the loop has not taken the queue since:
    /// further posts need not signal again.
    private var crossThreadWakePending = false
    private var phase: Phase = .running
    /// A shutdown asked for off the loop thread, performed by the next wake callback.
    private var requestedShutdown: ShutdownRequest?
    private var loopThread: uv_thread_t?
    /// Owned mode: the loop thread has left `uv_run` for good (set just before it exits).
    private var threadFinished = false
    /// Borrowed loops: the thread that ran the last of Hearth's callbacks. Touched only by that thread.
    private var lastCallbackThread: uv_thread_t?
    /// Owned mode: someone has joined the loop thread or handed it to `LoopThreadsAtExit` (exactly
    /// one may).
    private var threadReleased = false
    /// Owned mode: `uv_loop_close` succeeded, so `deinit` may free the loop's memory.
    private var loopClosed = false

    // Loop thread only.
    /// Items of the batch `runPostedWork` is running that come after the one running now.
    private var laterInBatch = 0
    private var handles: [ObjectIdentifier: any LoopOwnedHandle] = [:]
    private var localWakeArmed = false
    private var handlesClosed = false
    /// Set when shutdown starts; `afterShutdown` defers work only from then on.
    private var shuttingDown = false
    private var deferredReleases: [() -> Void] = []
    /// `shutdown`'s `last`, run when the close of the wake handle is delivered.
    private var lastWork: (() -> Void)?
    /// Owned mode: this thread was handed to `LoopThreadsAtExit`, so it reports when it is done.
    private var threadAdoptedForExit = false

    private enum Phase { case running, stopping, stopped }
    private struct ShutdownRequest {
        let final: (() -> Void)?
        let last: (() -> Void)?
    }

    private init(isOwned: Bool, idleHandlesKeepLoopAlive: Bool, uvLoop: UnsafeMutablePointer<uv_loop_t>,
                 wake: (poll: UnsafeMutablePointer<uv_poll_t>, channel: WakeChannel)) {
        self.isOwned = isOwned
        self.idleHandlesKeepLoopAlive = idleHandlesKeepLoopAlive
        self.uvLoop = uvLoop
        self.wakePoll = wake.poll
        self.wakeChannel = wake.channel
        localWake = UVHandle.allocate(uv_idle_t.self)
        uv_idle_init(uvLoop, localWake)  // cannot fail: it only links the handle into the loop
        UVHandle.retain(self, in: localWake)
    }

    deinit {
        if isOwned && loopClosed { UVHandle.free(uvLoop) }
    }

    // MARK: Creation

    /// Starts Hearth's own loop thread. Returns once that thread is running and identified.
    package static func makeOwned() throws -> EventLoop {
        let uvLoop = UVHandle.allocate(uv_loop_t.self)
        let rc = uv_loop_init(uvLoop)
        guard rc == 0 else {
            UVHandle.free(uvLoop)
            throw LoopError(operation: "uv_loop_init", code: rc)
        }
        let wake: (poll: UnsafeMutablePointer<uv_poll_t>, channel: WakeChannel)
        do {
            wake = try makeWakeHandle(on: uvLoop)
        } catch {
            uv_loop_close(uvLoop)
            UVHandle.free(uvLoop)
            throw error
        }
        let loop = EventLoop(isOwned: true, idleHandlesKeepLoopAlive: true, uvLoop: uvLoop, wake: wake)
        UVHandle.retain(loop, in: wake.poll)

        var thread = uv_thread_t()
        let context = Unmanaged.passRetained(loop).toOpaque()
        let started = uv_thread_create(&thread, { context in
            guard let context else { return }
            Unmanaged<EventLoop>.fromOpaque(context).takeRetainedValue().runOwnedThread()
        }, context)
        guard started == 0 else {
            Unmanaged<EventLoop>.fromOpaque(context).release()
            // Nobody runs this loop yet: close the handles and let one turn finish the close.
            UVHandle.close(loop.localWake)
            UVHandle.close(wake.poll)
            uv_run(uvLoop, UV_RUN_NOWAIT)
            loop.loopClosed = uv_loop_close(uvLoop) == 0
            throw LoopError(operation: "uv_thread_create", code: started)
        }
        // The thread records its own id; nobody may compare thread ids before it has.
        loop.lock.wait { loop.loopThread != nil }
        return loop
    }

    /// Attaches to a loop the host runs; idle Hearth never keeps it alive. Call on the thread that
    /// runs `uvLoop`; creates no threads.
    package static func borrowing(_ uvLoop: UnsafeMutablePointer<uv_loop_t>) throws -> EventLoop {
        try borrowing(uvLoop, idleHandlesKeepLoopAlive: false)
    }

    /// Attaches to a loop the host runs. Call on the thread that runs `uvLoop`; creates no threads.
    /// - Parameter idleHandlesKeepLoopAlive: false (the design's default): idle Hearth never keeps
    ///   the host's loop alive. true: Hearth's wake handle and timers stay ref'd, for hosts whose
    ///   loop holds nothing else (see the type's notes).
    package static func borrowing(_ uvLoop: UnsafeMutablePointer<uv_loop_t>,
                                 idleHandlesKeepLoopAlive: Bool) throws -> EventLoop {
        let wake = try makeWakeHandle(on: uvLoop)
        let loop = EventLoop(isOwned: false, idleHandlesKeepLoopAlive: idleHandlesKeepLoopAlive,
                             uvLoop: uvLoop, wake: wake)
        UVHandle.retain(loop, in: wake.poll)
        UVHandle.setKeepsLoopAlive(wake.poll, idleHandlesKeepLoopAlive)
        loop.loopThread = uv_thread_self()
        return loop
    }

    /// The wake channel and a started poll on it (ref'd, as a started handle is: `borrowing` unrefs it).
    private static func makeWakeHandle(on uvLoop: UnsafeMutablePointer<uv_loop_t>) throws
        -> (poll: UnsafeMutablePointer<uv_poll_t>, channel: WakeChannel)
    {
        let channel = try WakeChannel()
        let poll = UVHandle.allocate(uv_poll_t.self)
        UVHandle.base(poll).pointee.data = nil
        var rc = uv_poll_init(uvLoop, poll, channel.readDescriptor)
        guard rc == 0 else {
            UVHandle.free(poll)
            throw LoopError(operation: "uv_poll_init", code: rc)
        }
        rc = uv_poll_start(poll, Int32(UV_READABLE.rawValue)) { poll, _, _ in
            guard let loop = UVHandle.owner(EventLoop.self, of: poll) else { return }
            loop.wakeChannel.drain()
            loop.noteCallbackThread()
            loop.runPostedWork()
        }
        guard rc == 0 else {
            // An initialised handle is freed through its close (no owner is stored in it yet), which
            // the loop's next turn delivers.
            UVHandle.close(poll)
            throw LoopError(operation: "uv_poll_start", code: rc)
        }
        return (poll, channel)
    }

    // MARK: Threads

    /// Thread-safe. Owned: whether this is Hearth's loop thread (false once it has exited).
    /// Borrowed: whether this is the thread that last ran one of Hearth's callbacks (initially the
    /// thread that called `borrowing`).
    package var isLoopThread: Bool {
        let current = uv_thread_self()
        return lock.withLock { isLoopThread(current) }
    }

    /// `isLoopThread` for the thread `current`, with `lock` held.
    private func isLoopThread(_ current: uv_thread_t) -> Bool {
        guard var thread = loopThread, !threadFinished else { return false }
        var current = current
        return uv_thread_equal(&thread, &current) != 0
    }

    /// Every Hearth uv callback reports here first, so a host that moves its loop to another
    /// thread is followed.
    package func noteCallbackThread() {
        guard !isOwned else { return }
        var current = uv_thread_self()
        // Only the thread running the callbacks writes this, so it knows without the lock whether it
        // already did: the lock is taken when the host's loop has moved to another thread, not per call.
        if var last = lastCallbackThread, uv_thread_equal(&last, &current) != 0 { return }
        lastCallbackThread = current
        lock.withLock { loopThread = current }
    }

    private func runOwnedThread() {
        let current = uv_thread_self()
        lock.broadcast { loopThread = current }
        // The wake handle is ref'd in owned mode, so uv_run only returns once shutdown has closed
        // every handle (or someone called uv_stop on our loop: then carry on).
        while lock.withLock({ phase != .stopped }) {
            uv_run(uvLoop, UV_RUN_DEFAULT)
        }
        // Finish close callbacks still pending if uv_stop cut the last turn short.
        uv_run(uvLoop, UV_RUN_NOWAIT)
        let closed = uv_loop_close(uvLoop) == 0
        let releasesRemain = !deferredReleases.isEmpty
        // Releases left: the destroy waiting for `threadFinished` must return now, not join. The thread
        // is adopted before that destroy can return: a host that exits right after it would otherwise
        // run the exit handlers before the thread is known to them (TSan's thread-leak report showed it).
        let adoptSelf = lock.withLock { () -> Bool in
            guard releasesRemain && !threadReleased else { return false }
            threadReleased = true
            return true
        }
        if adoptSelf { adoptForExit() }
        lock.broadcast {
            loopClosed = closed
            threadFinished = true
        }
        // Whoever waited for the shutdown has been let go (see `afterShutdown`).
        runDeferredReleases()
        if threadAdoptedForExit { LoopThreadsAtExit.finishing() }
    }

    /// Owned loop thread: nobody will join it; `LoopThreadsAtExit` does, at the latest at exit.
    private func adoptForExit() {
        threadAdoptedForExit = true
        LoopThreadsAtExit.adopt(pthread_self())
    }

    // MARK: Releases deferred past shutdown

    /// Loop thread only: whether a shutdown has started (work runs inside `shutdown`'s `final`).
    var isShuttingDown: Bool { shuttingDown }

    /// Loop thread only. During a shutdown (from `shutdown`'s `final`), runs `release` only after
    /// the caller of `shutdown` has been let go: in owned mode on the loop thread once it has left
    /// `uv_run`; in borrowed mode when the host's next loop turn delivers the close of Hearth's last
    /// handle (the extra turn `hearth_app_destroy` already asks hosts for). Otherwise runs it now.
    ///
    /// Why: freeing curl's state for 1,000 transfers in flight costs ~45M instructions (~20 ms,
    /// more under load), which would otherwise be spent inside `hearth_app_destroy`. `release` must
    /// not touch uv: every Hearth handle is closed by the time it runs.
    func afterShutdown(_ release: @escaping () -> Void) {
        guard shuttingDown else { return release() }
        deferredReleases.append(release)
    }

    private func runDeferredReleases() {
        let releases = deferredReleases
        deferredReleases.removeAll()
        for release in releases { release() }
    }

    // MARK: Work

    /// Whether work may run right now, in the calling code, instead of being queued: true on the loop
    /// thread while the loop still takes work (where `execute` would accept it) and nothing queued
    /// earlier is still waiting, neither in the queue nor later in the batch now running. Running inline
    /// then keeps the queue's order (a host's cancel posted before an operation still runs before it)
    /// and saves its round trip (a closure, the lock twice, a wake and a turn). Only for work that may
    /// run inside the caller's own call: host callbacks never do (they always wait for a later turn,
    /// `CallbackDispatcher`).
    package var acceptsInlineWork: Bool {
        let current = uv_thread_self()
        let onLoopThread = lock.withLock { phase == .running && queue.isEmpty && isLoopThread(current) }
        // Read on the loop thread only, which alone writes it.
        return onLoopThread && laterInBatch == 0
    }

    /// Queues `work` to run on the loop thread, in FIFO order, always on a later loop turn (never
    /// inline, even when called on the loop thread). Any thread.
    /// - Returns: false, and drops `work`, once shutdown has begun.
    @discardableResult
    package func execute(_ work: @escaping () -> Void) -> Bool {
        let current = uv_thread_self()
        // Which thread this is, read under the same lock as the queue, not under a lock of its own.
        let (accepted, signal, onLoopThread) = lock.withLock { () -> (Bool, Bool, Bool) in
            let onLoopThread = isLoopThread(current)
            guard phase == .running else { return (false, false, onLoopThread) }
            queue.append(work)
            guard !onLoopThread, !crossThreadWakePending else { return (true, false, onLoopThread) }
            crossThreadWakePending = true
            return (true, true, onLoopThread)
        }
        // Outside the lock: the woken loop thread takes the lock first thing. The channel outlives any
        // shutdown (it closes with this object), so signalling late is harmless.
        if signal { wakeChannel.signal() }
        // An active idle handle is ref'd, so it also keeps a host's uv_run going until the work
        // has run, and makes the loop poll without blocking.
        if accepted && onLoopThread && !localWakeArmed {
            localWakeArmed = true
            uv_idle_start(localWake) { idle in
                guard let loop = UVHandle.owner(EventLoop.self, of: idle) else { return }
                loop.noteCallbackThread()
                loop.localWakeArmed = false
                uv_idle_stop(idle)
                loop.runPostedWork()
            }
        }
        return accepted
    }

    private func runPostedWork() {
        let (shutdown, batch) = lock.withLock { () -> (ShutdownRequest?, [() -> Void]) in
            crossThreadWakePending = false
            if let request = requestedShutdown {
                requestedShutdown = nil
                return (request, [])
            }
            let batch = queue
            queue = []
            return (nil, batch)
        }
        if let shutdown {
            performShutdown(final: shutdown.final, last: shutdown.last, initiatedOnLoopThread: false)
            return
        }
        // Work queued while this batch runs waits for the next turn (its `execute` re-armed a wake).
        defer { laterInBatch = 0 }
        for (index, work) in batch.enumerated() {
            guard lock.withLock({ phase == .running }) else { return }
            laterInBatch = batch.count - index - 1
            work()
        }
    }

    // MARK: Handles

    /// A new unref'd timer. Loop thread only. After shutdown the timer is inert.
    package func makeTimer() -> LoopTimer {
        guard !handlesClosed else { return LoopTimer(inertOn: self) }
        let timer = LoopTimer(loop: self)
        register(timer)
        return timer
    }

    /// A new unref'd poll for `socket`, or nil after shutdown or if libuv refuses the descriptor.
    /// Loop thread only.
    func makePoll(socket: Int32) -> LoopPoll? {
        guard !handlesClosed, let poll = LoopPoll(loop: self, socket: socket) else { return nil }
        register(poll)
        return poll
    }

    /// Registers a handle whose type lives outside Loop/ (the provider flow's loopback redirect
    /// receiver, which owns TCP handles), so that shutdown closes it like timers and polls; it
    /// unregisters itself (`unregister`) once closed. Loop thread only.
    /// - Returns: false once shutdown has closed Hearth's handles: the caller must then not create
    ///   uv handles on this loop.
    package func adopt(_ handle: any LoopOwnedHandle) -> Bool {
        guard !handlesClosed else { return false }
        register(handle)
        return true
    }

    private func register(_ handle: any LoopOwnedHandle) {
        handles[ObjectIdentifier(handle)] = handle
    }

    package func unregister(_ handle: any LoopOwnedHandle) {
        handles[ObjectIdentifier(handle)] = nil
    }

    // MARK: Shutdown

    /// Stops accepting work, drops queued work, runs `final` on the loop thread (if given), then
    /// closes every Hearth uv handle (wake, timers, polls); each handle's owner stays alive until
    /// its close callback. Any thread; idempotent: only the first call's `final` runs.
    ///
    /// - Owned loop, called off the loop thread: runs `final` and the closes on the loop thread,
    ///   stops the loop, joins the thread, then returns.
    /// - Owned loop, called on the loop thread (inside a callback): runs `final` and the closes
    ///   inline; the thread exits once the current callback returns, and is joined later (`LoopThreadsAtExit`).
    /// - Borrowed loop, called on the loop thread: runs `final` and the closes inline. The host must
    ///   run its loop once more (to deliver the close callbacks) before `uv_loop_close`.
    /// - Borrowed loop, called off the loop thread: posts the request and returns at once; it is
    ///   carried out during the host's next `uv_run` that polls (see the type's notes).
    ///
    /// `last` runs on the loop thread when libuv delivers the close of Hearth's wake handle: in the
    /// same loop iteration, after the callback that is running returns (owned loop: before the thread
    /// leaves `uv_run`, so before `shutdown` returns when called off the loop thread; borrowed loop:
    /// during the host's next `uv_run` when called outside one). The app ends its registrations there.
    ///
    /// Never waits on the network. After `last` ran no Hearth work or callback runs on this loop again.
    package func shutdown(final: (() -> Void)? = nil, last: (() -> Void)? = nil) {
        if isLoopThread {
            shutdownOnLoopThread(final: final, last: last)
        } else {
            shutdownOffLoopThread(final: final, last: last)
        }
    }

    private func shutdownOnLoopThread(final: (() -> Void)?, last: (() -> Void)?) {
        var dropped: [() -> Void] = []
        let (initiated, pending) = lock.withLock { () -> (Bool, ShutdownRequest?) in
            switch phase {
            case .running:
                phase = .stopping
                swap(&dropped, &queue)
                return (true, nil)
            case .stopping:
                // Requested off-loop but not yet carried out: do it now, with that call's `final`.
                let pending = requestedShutdown
                requestedShutdown = nil
                return (false, pending)
            case .stopped:
                return (false, nil)
            }
        }
        dropped.removeAll()
        if initiated {
            performShutdown(final: final, last: last, initiatedOnLoopThread: true)
        } else if let pending {
            performShutdown(final: pending.final, last: pending.last, initiatedOnLoopThread: false)
        }
    }

    private func shutdownOffLoopThread(final: (() -> Void)?, last: (() -> Void)?) {
        var dropped: [() -> Void] = []
        let requested = lock.withLock { () -> Bool in
            guard phase == .running else { return false }
            phase = .stopping
            requestedShutdown = ShutdownRequest(final: final, last: last)
            swap(&dropped, &queue)
            return true
        }
        if requested { wakeChannel.signal() }
        dropped.removeAll()
        guard isOwned else { return }
        lock.wait { threadFinished }
        // Joined, unless the thread still has releases `afterShutdown` deferred: then it has handed
        // itself to `LoopThreadsAtExit`, frees those (no callback, no uv) and exits, and waiting for
        // that would put it back inside destroy.
        let mustJoin = lock.withLock { () -> Bool in
            defer { threadReleased = true }
            return !threadReleased
        }
        if mustJoin, var thread = lock.withLock({ loopThread }) {
            uv_thread_join(&thread)
        }
    }

    /// Loop thread only, once.
    private func performShutdown(final: (() -> Void)?, last: (() -> Void)?, initiatedOnLoopThread: Bool) {
        shuttingDown = true
        lastWork = last
        final?()
        closeAllHandles()
        lock.broadcast { phase = .stopped }
        guard isOwned else { return }
        uv_stop(uvLoop)
        if initiatedOnLoopThread {
            // Nobody off-loop is waiting to join.
            let adopt = lock.withLock { () -> Bool in
                defer { threadReleased = true }
                return !threadReleased
            }
            if adopt { adoptForExit() }
        }
    }

    private func closeAllHandles() {
        handlesClosed = true
        // Closing unregisters, so iterate over a copy.
        for handle in Array(handles.values) { handle.close() }
        handles.removeAll()
        UVHandle.close(localWake)
        // `shutdown`'s `last` runs when the loop delivers this close, and in borrowed mode the deferred
        // releases after it.
        uv_close(UVHandle.base(wakePoll)) { handle in
            guard let handle else { return }
            if let data = handle.pointee.data {
                handle.pointee.data = nil
                let loop = Unmanaged<EventLoop>.fromOpaque(data).takeRetainedValue()
                loop.noteCallbackThread()
                let last = loop.lastWork
                loop.lastWork = nil
                last?()
                if !loop.isOwned { loop.runDeferredReleases() }
            }
            UnsafeMutableRawPointer(handle).deallocate()
        }
    }
}

/// The descriptors behind `EventLoop`'s cross-thread wake (`hearth_wake.h`): open for the lifetime of
/// this object, which the loop holds for its own.
private final class WakeChannel: @unchecked Sendable {
    private var descriptors: [Int32] = [-1, -1]

    init() throws {
        let rc = descriptors.withUnsafeMutableBufferPointer { hearth_wake_open($0.baseAddress) }
        guard rc == 0 else { throw LoopError(operation: "hearth_wake_open", code: rc) }
    }

    deinit {
        descriptors.withUnsafeMutableBufferPointer { hearth_wake_close($0.baseAddress) }
    }

    var readDescriptor: Int32 { descriptors[0] }

    /// Any thread.
    func signal() { hearth_wake_signal(descriptors[1]) }

    /// The loop thread.
    func drain() { hearth_wake_drain(descriptors[0]) }
}
