import Foundation
@testable import HearthAuth
@testable import HearthBackend
@testable import HearthTransport
import XCTest

/// `CallbackDispatcher`: host code runs on the loop thread on a later turn, in order, and every
/// registration ends in exactly one final call — also when the app is destroyed.
final class FuturesCallbackDispatcherTests: XCTestCase {
    private var loop: EventLoop!
    private var dispatcher: CallbackDispatcher!

    override func setUpWithError() throws {
        loop = try EventLoop.makeOwned()
        dispatcher = CallbackDispatcher(loop: loop)
    }

    override func tearDown() {
        loop.shutdown()
    }

    /// Destroys the way App.destroy does: mark, then finalize as the loop's last work.
    private func destroy() {
        dispatcher.markDestroyed()
        let dispatcher = self.dispatcher!
        loop.shutdown(final: nil, last: { dispatcher.finalize() })
    }

    func testScheduledHostCodeRunsOnTheLoopThreadInTheOrderScheduled() {
        let seen = Recorder<(Int, Bool)>()
        for index in 0..<50 {
            XCTAssertTrue(dispatcher.schedule(.final { [loop] in seen.append((index, loop!.isLoopThread)) }))
        }
        XCTAssertTrue(eventually(within: 5) { seen.count == 50 })
        XCTAssertEqual(seen.values.map(\.0), Array(0..<50))
        XCTAssertTrue(seen.values.allSatisfy(\.1))
    }

    func testDestroyRunsWhatIsQueuedOncePostsAsCancelledAndDropsEvents() {
        let seen = Recorder<String>()
        let queued = DispatchSemaphore(value: 0)
        // On the loop thread: once the rest is queued, destroys the app from inside this host code, so
        // none of the rest gets its turn (they come right after this returns, from finalize).
        dispatcher.schedule(.final { [self] in
            queued.wait()
            destroy()
            seen.append("destroy returned")
        })
        dispatcher.schedule(.event { seen.append("event") })
        dispatcher.schedule(.cancellable(run: { seen.append("post ran") }, cancelled: { seen.append("post cancelled") }))
        dispatcher.schedule(.final { seen.append("completion") })
        queued.signal()
        XCTAssertTrue(eventually(within: 5) { seen.count == 3 })
        Thread.sleep(forTimeInterval: 0.05)
        XCTAssertEqual(seen.values, ["destroy returned", "post cancelled", "completion"])
        XCTAssertFalse(dispatcher.schedule(.final { seen.append("too late") }))
        Thread.sleep(forTimeInterval: 0.05)
        XCTAssertEqual(seen.count, 3)
    }

    func testReleasesRunOnceAfterWhatIsDueAndTheRestAtDestroyInRegistrationOrder() throws {
        let seen = Recorder<String>()
        let first = try XCTUnwrap(dispatcher.keepRelease { seen.append("release 1") })
        let second = try XCTUnwrap(dispatcher.keepRelease { seen.append("release 2") })
        let third = try XCTUnwrap(dispatcher.keepRelease { seen.append("release 3") })
        _ = third
        dispatcher.schedule(.event { seen.append("last call of 2") })
        dispatcher.release(second)
        dispatcher.release(second)  // a second release of the same registration does nothing
        XCTAssertTrue(eventually(within: 5) { seen.count == 2 })
        XCTAssertEqual(seen.values, ["last call of 2", "release 2"])
        let forgotten = try XCTUnwrap(dispatcher.keepRelease { seen.append("forgotten") })
        XCTAssertTrue(dispatcher.forget(forgotten))
        destroy()
        XCTAssertEqual(seen.values, ["last call of 2", "release 2", "release 1", "release 3"])
        dispatcher.release(first)  // after finalize: already ran
        XCTAssertNil(dispatcher.keepRelease { seen.append("refused") })
        Thread.sleep(forTimeInterval: 0.05)
        XCTAssertEqual(seen.values, ["last call of 2", "release 2", "release 1", "release 3"])
    }

    func testAFutureCallbackRunsOnceWhenThePendingFutureIsCancelledByTheDestroy() {
        let future = FutureState(dispatcher: dispatcher)
        let seen = Recorder<AuthErrorCode?>()
        XCTAssertNil(future.addCallback { seen.append(future.error?.code) })
        XCTAssertNil(future.addCallback { seen.append(future.error?.code) })
        dispatcher.markDestroyed()
        future.fail(AuthError(code: .cancelled, message: "The app was destroyed."))
        let dispatcher = self.dispatcher!
        loop.shutdown(final: nil, last: { dispatcher.finalize() })
        XCTAssertEqual(seen.values, [.cancelled, .cancelled])
        // Once the destroy has begun, nothing more is taken.
        XCTAssertEqual(future.addCallback { seen.append(nil) }, .appDestroyed)
        XCTAssertEqual(seen.count, 2)
    }

    func testACallbackAddedToACompleteFutureRunsOnALaterTurnOnce() {
        let future = FutureState(dispatcher: dispatcher)
        future.succeed(.none)
        let seen = Recorder<Bool>()
        XCTAssertNil(future.addCallback { [loop] in seen.append(loop!.isLoopThread) })
        XCTAssertTrue(eventually(within: 5) { seen.count == 1 })
        Thread.sleep(forTimeInterval: 0.05)
        XCTAssertEqual(seen.values, [true])
    }
}
