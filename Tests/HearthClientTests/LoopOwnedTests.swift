import CLibUV
import Foundation
@testable import HearthTransport
import XCTest

/// `EventLoop.makeOwned()`: Hearth's own loop thread.
final class LoopOwnedTests: XCTestCase {
    private func waitFor(_ semaphore: DispatchSemaphore, seconds: Double = 5, file: StaticString = #filePath,
                         line: UInt = #line) {
        XCTAssertEqual(semaphore.wait(timeout: .now() + seconds), .success, "timed out", file: file, line: line)
    }

    /// The loop thread's kernel id, asked of the loop itself.
    private func loopThreadID(_ loop: EventLoop) -> String? {
        let id = Recorder<String>()
        let done = DispatchSemaphore(value: 0)
        loop.execute {
            id.append(currentThreadID())
            done.signal()
        }
        waitFor(done)
        return id.values.first
    }

    func testMakeOwnedStartsExactlyOneThreadAndShutdownJoinsIt() throws {
        let before = processThreadIDs()
        let loop = try EventLoop.makeOwned()
        let started = processThreadIDs().subtracting(before)
        XCTAssertEqual(started.count, 1)
        XCTAssertEqual(loopThreadID(loop).map { [$0] }, Array(started))
        XCTAssertTrue(loop.isOwned)
        loop.shutdown()
        // Joined before shutdown returned.
        for id in started { XCTAssertFalse(threadIsAlive(id)) }
    }

    func testWorkRunsOnTheLoopThreadNotTheCaller() throws {
        let loop = try EventLoop.makeOwned()
        defer { loop.shutdown() }
        XCTAssertFalse(loop.isLoopThread)
        let done = DispatchSemaphore(value: 0)
        let seen = Recorder<(isLoopThread: Bool, thread: String)>()
        XCTAssertTrue(loop.execute {
            seen.append((loop.isLoopThread, currentThreadID()))
            done.signal()
        })
        waitFor(done)
        XCTAssertEqual(seen.values.map(\.isLoopThread), [true])
        XCTAssertNotEqual(seen.values.first?.thread, currentThreadID())
    }

    func testWorkRunsInSubmissionOrderFromEachThread() throws {
        let loop = try EventLoop.makeOwned()
        defer { loop.shutdown() }
        let seen = Recorder<(thread: Int, index: Int)>()
        let perThread = 500
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for index in 0..<perThread {
                loop.execute { seen.append((thread, index)) }
            }
        }
        let done = DispatchSemaphore(value: 0)
        loop.execute { done.signal() }
        waitFor(done)
        XCTAssertEqual(seen.count, 4 * perThread)
        for thread in 0..<4 {
            XCTAssertEqual(seen.values.filter { $0.thread == thread }.map(\.index), Array(0..<perThread))
        }
    }

    func testWorkPostedFromTheLoopThreadRunsLaterNeverInline() throws {
        let loop = try EventLoop.makeOwned()
        defer { loop.shutdown() }
        let events = Recorder<String>()
        let done = DispatchSemaphore(value: 0)
        loop.execute {
            loop.execute {
                events.append("inner")
                done.signal()
            }
            events.append("outer finished")
        }
        waitFor(done)
        XCTAssertEqual(events.values, ["outer finished", "inner"])
    }

    func testShutdownFromAnotherThreadRunsFinalOnTheLoopThreadThenJoins() throws {
        let loop = try EventLoop.makeOwned()
        let thread = try XCTUnwrap(loopThreadID(loop))
        let finalOnLoopThread = Recorder<Bool>()
        loop.shutdown(final: { finalOnLoopThread.append(loop.isLoopThread) })
        // Returned only after final ran and the thread was joined.
        XCTAssertEqual(finalOnLoopThread.values, [true])
        XCTAssertFalse(threadIsAlive(thread))
        XCTAssertFalse(loop.isLoopThread)
        XCTAssertFalse(loop.execute { XCTFail("work ran after shutdown") })
    }

    func testReleasesDeferredDuringShutdownRunOnTheLoopThreadAfterShutdownReturned() throws {
        let loop = try EventLoop.makeOwned()
        let loopThread = try XCTUnwrap(loopThreadID(loop))
        let events = Recorder<String>()
        let released = DispatchSemaphore(value: 0)
        let releaseGate = DispatchSemaphore(value: 0)
        loop.shutdown(final: {
            loop.afterShutdown {
                // Blocks until shutdown has returned: proof that the caller does not wait for it.
                releaseGate.wait()
                events.append(currentThreadID() == loopThread ? "released on the loop thread" : "released elsewhere")
                released.signal()
            }
            events.append("final")
        })
        events.append("shutdown returned")
        releaseGate.signal()
        waitFor(released)
        XCTAssertEqual(events.values, ["final", "shutdown returned", "released on the loop thread"])
    }

    func testAReleaseOutsideShutdownRunsAtOnce() throws {
        let loop = try EventLoop.makeOwned()
        defer { loop.shutdown() }
        let ran = Recorder<Bool>()
        let done = DispatchSemaphore(value: 0)
        loop.execute {
            loop.afterShutdown { ran.append(true) }
            ran.append(false)
            done.signal()
        }
        waitFor(done)
        XCTAssertEqual(ran.values, [true, false])
    }

    func testShutdownDropsQueuedWorkAndRefusesNewWork() throws {
        let loop = try EventLoop.makeOwned()
        let release = DispatchSemaphore(value: 0)
        let blocking = DispatchSemaphore(value: 0)
        let ran = Recorder<Int>()
        loop.execute {
            blocking.signal()
            release.wait()
            ran.append(0)
        }
        waitFor(blocking)
        for index in 1...10 { loop.execute { ran.append(index) } }
        let shutdownReturned = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            loop.shutdown()
            shutdownReturned.signal()
        }
        // The loop is busy, so shutdown is waiting; once it has begun, new work is refused.
        XCTAssertTrue(eventually(within: 5) { !loop.execute {} })
        release.signal()
        waitFor(shutdownReturned)
        XCTAssertEqual(ran.values, [0])
    }

    func testShutdownInsideALoopCallbackRunsFinalInlineAndTheThreadExits() throws {
        let loop = try EventLoop.makeOwned()
        let thread = try XCTUnwrap(loopThreadID(loop))
        let events = Recorder<String>()
        let done = DispatchSemaphore(value: 0)
        loop.execute {
            loop.execute { events.append("queued work ran") }
            loop.shutdown(final: { events.append("final") })
            events.append("shutdown returned")
            XCTAssertFalse(loop.execute { events.append("late work ran") })
            done.signal()
        }
        waitFor(done)
        XCTAssertTrue(eventually(within: 5) { !threadIsAlive(thread) }, "loop thread did not exit")
        XCTAssertEqual(events.values, ["final", "shutdown returned"])
        XCTAssertFalse(loop.isLoopThread)
        // A later call from elsewhere is a no-op that returns promptly.
        loop.shutdown(final: { events.append("second final") })
        XCTAssertEqual(events.values, ["final", "shutdown returned"])
    }

    func testShutdownIsIdempotentAndOnlyTheFirstFinalRuns() throws {
        let loop = try EventLoop.makeOwned()
        let finals = Recorder<Int>()
        loop.shutdown(final: { finals.append(1) })
        loop.shutdown(final: { finals.append(2) })
        XCTAssertEqual(finals.values, [1])
    }

    func testConcurrentShutdownsAllReturnAfterTheLoopThreadIsGone() throws {
        let loop = try EventLoop.makeOwned()
        let thread = try XCTUnwrap(loopThreadID(loop))
        let finals = Recorder<Int>()
        let aliveAfterReturn = Recorder<Bool>()
        DispatchQueue.concurrentPerform(iterations: 4) { index in
            loop.shutdown(final: { finals.append(index) })
            aliveAfterReturn.append(loop.isLoopThread || !loop.execute {})
        }
        XCTAssertEqual(finals.count, 1)
        XCTAssertEqual(aliveAfterReturn.values, [true, true, true, true])
        XCTAssertTrue(eventually(within: 5) { !threadIsAlive(thread) })
    }

    func testShutdownClosesTimersWithoutFiringThem() throws {
        let loop = try EventLoop.makeOwned()
        let fired = Recorder<Bool>()
        let armed = DispatchSemaphore(value: 0)
        loop.execute {
            loop.makeTimer().start(afterMs: 50) { fired.append(true) }
            armed.signal()
        }
        waitFor(armed)
        loop.shutdown()
        usleep(150_000)
        XCTAssertEqual(fired.count, 0)
    }

    func testTimersFireOnTheOwnedLoop() throws {
        let loop = try EventLoop.makeOwned()
        defer { loop.shutdown() }
        let fired = Recorder<Bool>()
        let done = DispatchSemaphore(value: 0)
        loop.execute {
            loop.makeTimer().start(afterMs: 5) {
                fired.append(loop.isLoopThread)
                done.signal()
            }
        }
        waitFor(done)
        XCTAssertEqual(fired.values, [true])
    }
}
