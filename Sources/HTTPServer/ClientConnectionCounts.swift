import Synchronization

/// How many connections each client address holds open, shared by every event loop
/// (each accepts from the same listening socket). Touched once when a connection is
/// accepted and once when it closes, never per request; a lock is cheap at that rate.
/// Addresses with no connection are removed, so the table holds only open connections' peers.
final class ClientConnectionCounts: Sendable {
    private let counts = Mutex<[IPAddress: Int]>([:])

    /// Counts one more connection of `address`, unless it already holds `limit`; whether it did.
    func admit(_ address: IPAddress, limit: Int) -> Bool {
        counts.withLock { table in
            let open = table[address, default: 0]
            guard open < limit else { return false }
            table[address] = open + 1
            return true
        }
    }

    /// One connection that `admit` counted has closed.
    func release(_ address: IPAddress) {
        counts.withLock { table in
            guard let open = table[address] else { return }
            table[address] = open > 1 ? open - 1 : nil
        }
    }
}
