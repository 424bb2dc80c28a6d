/// The kept images in the order they were last served, least recent first: what the
/// disk copy evicts from when it is full. A doubly linked list threaded through arrays
/// by slot number, so serving an image (moving it to the back), adding one and taking
/// the least recent are each O(1) with no allocation per image; freed slots are reused.
/// Its tests check it against a plain array on many seeded random sequences.
struct RecencyList {
    /// The slots' neighbours; `none` at either end, and for a free slot.
    private var previous: [Int32] = []
    private var next: [Int32] = []
    private var head: Int32 = none
    private var tail: Int32 = none
    /// Slots given back, to reuse before growing the arrays.
    private var free: [Int32] = []
    private(set) var count = 0

    private static let none: Int32 = -1

    /// A new slot, at the back (the most recent).
    mutating func append() -> Int {
        let slot: Int32
        if let reused = free.popLast() {
            slot = reused
        } else {
            slot = Int32(previous.count)
            previous.append(Self.none)
            next.append(Self.none)
        }
        link(atBack: slot)
        count += 1
        return Int(slot)
    }

    /// Moves `slot` to the back: it was just served.
    mutating func touch(_ slot: Int) {
        let slot = Int32(slot)
        guard slot != tail else { return }
        unlink(slot)
        link(atBack: slot)
    }

    /// Takes `slot` out of the order and frees it.
    mutating func remove(_ slot: Int) {
        unlink(Int32(slot))
        free.append(Int32(slot))
        count -= 1
    }

    /// The least recently served slot, if any.
    var first: Int? { head == Self.none ? nil : Int(head) }

    /// Every slot, least recent first (for tests and for writing the order down).
    var inOrder: [Int] {
        var slots: [Int] = []
        slots.reserveCapacity(count)
        var slot = head
        while slot != Self.none {
            slots.append(Int(slot))
            slot = next[Int(slot)]
        }
        return slots
    }

    private mutating func link(atBack slot: Int32) {
        previous[Int(slot)] = tail
        next[Int(slot)] = Self.none
        if tail != Self.none { next[Int(tail)] = slot } else { head = slot }
        tail = slot
    }

    private mutating func unlink(_ slot: Int32) {
        let before = previous[Int(slot)], after = next[Int(slot)]
        if before != Self.none { next[Int(before)] = after } else { head = after }
        if after != Self.none { previous[Int(after)] = before } else { tail = before }
        previous[Int(slot)] = Self.none
        next[Int(slot)] = Self.none
    }
}
