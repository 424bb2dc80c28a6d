/// One user's token bucket of writes (`UserWriteLimiter`), kept as credit in
/// nanoseconds so that it refills exactly: a write costs `1 s / rate` of credit, the
/// credit grows with the time passed, up to `burst` writes' worth. A bucket left alone
/// long enough is full again, the same as a new one.
struct WriteBucket {
    private var credit: UInt64
    private var updatedAt: UInt64

    /// A full bucket at `now` (monotonic nanoseconds).
    init(capacity: UInt64, now: UInt64) {
        credit = capacity
        updatedAt = now
    }

    /// Takes one write's `cost` at `now`; nil when it is admitted, else the whole
    /// seconds until it would be (at least 1).
    mutating func take(cost: UInt64, capacity: UInt64, now: UInt64) -> Int? {
        refill(capacity: capacity, now: now)
        if credit >= cost {
            credit -= cost
            return nil
        }
        let missing = cost - credit
        return max(1, Int((missing + 999_999_999) / 1_000_000_000))
    }

    /// Whether the bucket holds `capacity` at `now`, so forgetting it changes nothing.
    func isFull(capacity: UInt64, now: UInt64) -> Bool {
        credit + refilled(capacity: capacity, now: now) == capacity
    }

    private mutating func refill(capacity: UInt64, now: UInt64) {
        credit += refilled(capacity: capacity, now: now)
        updatedAt = max(updatedAt, now)
    }

    /// The credit the time since `updatedAt` adds, up to a full bucket.
    private func refilled(capacity: UInt64, now: UInt64) -> UInt64 {
        // A clock read a little earlier on another thread may arrive after a later one.
        guard now > updatedAt else { return 0 }
        return min(capacity - credit, now - updatedAt)
    }
}
