import Basics
import Dispatch
import Foundation
import Glibc
import Synchronization
import Testing

@Suite struct WorkerPoolTests {
    @Test func runsEverySubmittedJobInOrderOnOneThread() throws {
        let pool = try WorkerPool(threadCount: 1, name: "order")
        defer { pool.stop() }
        let seen = Mutex<[Int]>([])
        let done = DispatchSemaphore(value: 0)
        for index in 0..<500 {
            #expect(pool.submit {
                seen.withLock { $0.append(index) }
                if index == 499 { done.signal() }
            })
        }
        done.wait()
        #expect(seen.withLock { $0 } == Array(0..<500))
    }

    @Test func runReturnsTheValueOrRethrowsTheError() throws {
        struct Failure: Error, Equatable {}
        let pool = try WorkerPool(threadCount: 2, name: "run")
        defer { pool.stop() }
        #expect(try pool.run { 6 * 7 } == 42)
        #expect(throws: Failure()) { try pool.run { () throws -> Int in throw Failure() } }
        #expect(pool.jobsInFlight == 0)
    }

    /// With one thread busy and the one waiting place taken, the next job is refused at
    /// once (the password hasher's 503), and accepted again once there is room.
    @Test func aFullPoolRefusesAtOnce() throws {
        let pool = try WorkerPool(threadCount: 1, name: "full", waitingLimit: 1)
        defer { pool.stop() }
        #expect(pool.capacity == 2)
        let gate = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        #expect(pool.submit {
            started.signal()
            gate.wait()
        })
        started.wait()
        #expect(pool.submit { finished.signal() })
        #expect(pool.jobsInFlight == 2)
        // Required: were it admitted, the `run` below would wait behind the gate for good.
        try #require(!pool.submit {})
        #expect(throws: WorkerPoolError.full) { try pool.run { 1 } }
        #expect(pool.jobsInFlight == 2, "a refused job is not counted")
        gate.signal()
        finished.wait()
        #expect(try pool.run { 1 } == 1)
        #expect(pool.jobsInFlight == 0)
    }

    @Test func stoppingFinishesAdmittedJobsAndRefusesNewOnes() throws {
        let pool = try WorkerPool(threadCount: 1, name: "stop")
        let gate = DispatchSemaphore(value: 0)
        let ran = Atomic(0)
        let allRan = DispatchSemaphore(value: 0)
        pool.submit { gate.wait() }
        for _ in 0..<3 {
            pool.submit { if ran.add(1, ordering: .relaxed).newValue == 3 { allRan.signal() } }
        }
        pool.stop()
        pool.stop()
        #expect(!pool.submit {})
        #expect(throws: WorkerPoolError.stopped) { try pool.run { 1 } }
        gate.signal()
        allRan.wait()
        #expect(ran.load(ordering: .relaxed) == 3)
    }

    /// The threads carry the pool's name and, when asked, a lower priority than the caller.
    @Test func threadsAreNamedAndNiced() throws {
        let pool = try WorkerPool(threadCount: 1, name: "a-rather-long-pool-name", niceness: 5)
        defer { pool.stop() }
        errno = 0
        let callerNice = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        let (name, nice) = try pool.run { () -> (String, Int32) in
            let name = try String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)
            return (name.trimmingCharacters(in: .newlines), getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0))
        }
        #expect(name == "a-rather-long-p", "cut to Linux's 15 bytes")
        #expect(nice == min(19, callerNice + 5))
        let plain = try WorkerPool(threadCount: 3, name: "plain")
        defer { plain.stop() }
        #expect(plain.threadCount == 3)
        #expect(try plain.run { getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) } == callerNice)
    }
}
