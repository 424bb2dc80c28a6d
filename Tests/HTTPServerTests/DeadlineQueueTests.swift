import Testing
import TestSupport

@testable import HTTPServer

/// `DeadlineQueue` against the walk it replaced: at every sweep, the connections it hands
/// out and that are due are exactly the open connections whose deadline has passed.
@Suite struct DeadlineQueueTests {
    /// One open connection as the test's event loop sees it.
    struct Open {
        let id: UInt64
        var deadline: UInt64
    }

    /// Plays the event loop's part on random schedules: accepts (reusing the lowest free
    /// descriptor, as the kernel does), events that move a deadline later, earlier or to
    /// none, closes, and sweeps at a clock that moves on; after each, what the loop does
    /// with the queue (`schedule` after every event, `remove` on close).
    @Test(arguments: 0..<40) func aSweepTicksExactlyTheConnectionsTheWalkOverAllWould(seed: UInt64) {
        var random = SeededGenerator(seed: 0xDEAD_11AE + seed)
        // A small slack for some seeds, so stale entries often outnumber the live ones and
        // the heap is rebuilt.
        let slack = seed % 2 == 0 ? 4 : 1_024
        var queue = DeadlineQueue(compactionSlack: slack)
        var open: [Int32: Open] = [:]
        var nextID: UInt64 = 0
        var now: UInt64 = 1_000
        // Few descriptors for some seeds, so they are reused while stale entries remain.
        let descriptorCount = seed % 3 == 0 ? 8 : 400
        let steps = 3_000

        func randomDeadline() -> UInt64 {
            switch UInt64.random(in: 0..<10, using: &random) {
            case 0: .max  // a handler is running
            case 1...3: now + UInt64.random(in: 1...50, using: &random)  // earlier than most
            default: now + UInt64.random(in: 1...3_000, using: &random)
            }
        }
        func schedule(_ descriptor: Int32) {
            let connection = open[descriptor]!
            queue.schedule(descriptor: descriptor, connectionID: connection.id, deadline: connection.deadline)
        }
        func close(_ descriptor: Int32) {
            open[descriptor] = nil
            queue.remove(descriptor: descriptor)
        }

        var sweeps = 0, ticked = 0
        for _ in 0..<steps {
            switch UInt64.random(in: 0..<10, using: &random) {
            case 0...1 where open.count < descriptorCount:
                let descriptor = (0..<Int32(descriptorCount)).first { open[$0] == nil }!
                nextID += 1
                open[descriptor] = Open(id: nextID, deadline: now + UInt64.random(in: 1...1_000, using: &random))
                schedule(descriptor)
            case 2...5 where !open.isEmpty:
                let descriptor = open.keys.randomElement(using: &random)!
                open[descriptor]!.deadline = randomDeadline()
                schedule(descriptor)
            case 6 where !open.isEmpty:
                close(open.keys.randomElement(using: &random)!)
            default:
                now += UInt64.random(in: 0...200, using: &random)
                sweeps += 1
                let walk = Set(open.filter { $0.value.deadline <= now }.map { DeadlineQueue.Due(descriptor: $0.key, connectionID: $0.value.id) })
                let taken = queue.takeDue(now: now)
                #expect(Set(taken).count == taken.count, "a connection handed out twice in one sweep")
                let stillOpen = taken.filter { open[$0.descriptor]?.id == $0.connectionID }
                let due = Set(stillOpen.filter { open[$0.descriptor]!.deadline <= now })
                #expect(due == walk, "seed \(seed), now \(now)")
                for connection in stillOpen {
                    if due.contains(connection) {
                        ticked += 1
                        // The tick closes it (a 408, the idle timeout) or sets a later deadline (linger).
                        if Bool.random(using: &random) {
                            close(connection.descriptor)
                            continue
                        }
                        open[connection.descriptor]!.deadline = now + UInt64.random(in: 1...500, using: &random)
                    }
                    schedule(connection.descriptor)
                }
            }
            #expect(queue.entryCount <= 2 * open.count + slack)
        }
        #expect(sweeps > 100 && ticked > 50)
    }

    /// The keep-alive case the queue exists for: requests keep moving every deadline later,
    /// which queues nothing, and a sweep with nothing due hands out nothing.
    @Test func deadlinesThatMoveLaterQueueNothingNew() {
        var queue = DeadlineQueue()
        for descriptor in 0..<Int32(10_000) {
            queue.schedule(descriptor: descriptor, connectionID: UInt64(descriptor) + 1, deadline: 30_000)
        }
        for later in stride(from: UInt64(30_001), through: 40_000, by: 1_000) {
            for descriptor in 0..<Int32(10_000) {
                queue.schedule(descriptor: descriptor, connectionID: UInt64(descriptor) + 1, deadline: later)
            }
        }
        #expect(queue.entryCount == 10_000)
        #expect(queue.takeDue(now: 29_999).isEmpty)
        #expect(queue.takeDue(now: 30_000).count == 10_000)
        #expect(queue.entryCount == 0)
    }
}
