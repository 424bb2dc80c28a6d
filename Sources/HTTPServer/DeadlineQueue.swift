/// The event loop's connection deadlines, ordered so that a sweep visits only the
/// connections whose deadline may have passed, not every open one.
///
/// Why: the sweep runs every 100 ms, and walking all connections cost a loop holding
/// 10,000 idle keep-alive connections 100,000 visits a second, each touching a
/// `Connection` that is otherwise cold (docs/RELIABILITY.md, section 4). A binary min-heap of
/// (deadline, descriptor, connection id) with lazy deletion makes a sweep with nothing
/// due one comparison.
///
/// Lazy deletion: an entry is never updated in place. `schedule` pushes a new entry only
/// when a connection's deadline comes earlier than the one it already has queued; a
/// deadline that moves later (each request on a keep-alive connection moves it later)
/// costs nothing until the queued entry comes due, when the loop finds the real deadline
/// and schedules again. Entries of closed connections and superseded entries are dropped
/// when they come due, or all at once when they outnumber the live ones.
///
/// The invariant the loop keeps: after every event that can move a connection's deadline
/// (accept, readiness, a worker's response, shutdown, a tick), it calls `schedule` with
/// the connection's current deadline, and `remove` when the connection closes. Then every
/// open connection whose deadline is at or before `now` has a live entry at or before
/// `now`, so `takeDue(now:)` returns it: the sweep ticks exactly the connections the walk
/// over all of them would (the test checks this against that walk).
struct DeadlineQueue {
    /// A connection whose queued deadline has come; its real deadline may be later.
    struct Due: Hashable {
        let descriptor: Int32
        let connectionID: UInt64
    }

    private struct Entry {
        let deadline: UInt64
        let descriptor: Int32
        let connectionID: UInt64
    }

    /// The connection on a descriptor and the deadline of its live entry (`.max`: none).
    private struct Slot {
        var connectionID: UInt64
        var deadline: UInt64
    }

    /// A binary min-heap on `deadline`.
    private var heap: [Entry] = []
    /// Indexed by descriptor number: descriptors are small integers, reused after a close.
    private var slots: [Slot] = []
    /// How many slots hold a live entry, to know when stale entries dominate the heap.
    private var liveCount = 0
    /// Stale entries tolerated beyond as many as the live ones, so a small heap is not
    /// rebuilt at every push.
    private let compactionSlack: Int

    init(compactionSlack: Int = 1_024) {
        self.compactionSlack = compactionSlack
    }

    /// Entries in the heap, live and stale (for tests).
    var entryCount: Int { heap.count }

    /// Records that connection `connectionID` on `descriptor` is due at `deadline`
    /// (`.max`: no deadline). Pushes an entry only if that is earlier than the connection's
    /// queued one, or the descriptor now belongs to another connection.
    mutating func schedule(descriptor: Int32, connectionID: UInt64, deadline: UInt64) {
        let index = Int(descriptor)
        if index >= slots.count {
            slots.append(contentsOf: repeatElement(Slot(connectionID: 0, deadline: .max), count: index + 1 - slots.count))
        }
        let slot = slots[index]
        let sameConnection = slot.connectionID == connectionID && slot.deadline != .max
        if sameConnection && deadline >= slot.deadline { return }
        if deadline == .max {
            // Another connection's entry, or none: nothing to queue for this one.
            if slot.deadline != .max { liveCount -= 1 }
            slots[index] = Slot(connectionID: connectionID, deadline: .max)
        } else {
            if slot.deadline == .max { liveCount += 1 }
            slots[index] = Slot(connectionID: connectionID, deadline: deadline)
            push(Entry(deadline: deadline, descriptor: descriptor, connectionID: connectionID))
        }
        compactIfMostlyStale()
    }

    /// Forgets the connection on `descriptor` (it closed); its entries become stale.
    mutating func remove(descriptor: Int32) {
        let index = Int(descriptor)
        guard index < slots.count, slots[index].deadline != .max else { return }
        slots[index].deadline = .max
        liveCount -= 1
        compactIfMostlyStale()
    }

    /// Removes and returns every connection whose live entry is at or before `now`, earliest
    /// first. Each is out of the queue until the caller schedules it again with its real
    /// deadline (after ticking it if that has passed), so a connection is returned once.
    mutating func takeDue(now: UInt64) -> [Due] {
        var due: [Due] = []
        while let first = heap.first, first.deadline <= now {
            popFirst()
            let index = Int(first.descriptor)
            let slot = slots[index]
            // Superseded by an earlier entry, or a closed connection's: stale.
            guard slot.connectionID == first.connectionID, slot.deadline == first.deadline else { continue }
            slots[index].deadline = .max
            liveCount -= 1
            due.append(Due(descriptor: first.descriptor, connectionID: first.connectionID))
        }
        compactIfMostlyStale()
        return due
    }

    // MARK: The heap

    private mutating func push(_ entry: Entry) {
        heap.append(entry)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].deadline < heap[parent].deadline else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func popFirst() {
        let last = heap.removeLast()
        guard !heap.isEmpty else { return }
        heap[0] = last
        siftDown(from: 0)
    }

    private mutating func siftDown(from start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            guard left < heap.count else { return }
            let right = left + 1
            let child = right < heap.count && heap[right].deadline < heap[left].deadline ? right : left
            guard heap[child].deadline < heap[parent].deadline else { return }
            heap.swapAt(child, parent)
            parent = child
        }
    }

    /// Rebuilds the heap from the live entries alone once stale ones outnumber them by
    /// `compactionSlack`: the heap stays within twice the open connections plus the slack.
    private mutating func compactIfMostlyStale() {
        guard heap.count > 2 * liveCount + compactionSlack else { return }
        heap.removeAll(keepingCapacity: true)
        for (index, slot) in slots.enumerated() where slot.deadline != .max {
            heap.append(Entry(deadline: slot.deadline, descriptor: Int32(index), connectionID: slot.connectionID))
        }
        for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(from: index) }
    }
}
