import Accounts
import Dispatch
import Synchronization
import UserData

/// The held `GET /sync` requests (`wait`): each waits, with no thread of its own,
/// until the store's `ChangeFeed` says its user's data changed or its deadline
/// passes, then its `wake` runs once (on a Dispatch worker, never on the thread that
/// published the change). A request is held as a closure and a dictionary entry:
/// its connection waits on its event loop meanwhile.
final class SyncWaitRoom: Sendable {
    /// Why a held request is woken.
    enum Wake: Sendable {
        case changed
        case deadline
    }

    private struct Held {
        let ticket: UInt64
        let wake: @Sendable (Wake) -> Void
    }

    private let held = Mutex<(byUser: [Int64: [Held]], nextTicket: UInt64)>(([:], 0))

    init(feed: ChangeFeed) {
        feed.listen { [weak self] users in self?.changed(users) }
    }

    /// Holds a request of `userID` until a change of that user is published or
    /// `deadline` passes, then calls `wake` once. Returns a ticket for `release`.
    func hold(_ userID: Int64, until deadline: DispatchTime, wake: @escaping @Sendable (Wake) -> Void) -> UInt64 {
        let ticket = held.withLock { state in
            state.nextTicket += 1
            state.byUser[userID, default: []].append(Held(ticket: state.nextTicket, wake: wake))
            return state.nextTicket
        }
        DispatchQueue.global().asyncAfter(deadline: deadline) { [weak self] in
            guard let self, let expired = take(userID, ticket: ticket) else { return }
            expired.wake(.deadline)
        }
        return ticket
    }

    /// Lets go of a held request without waking it (its answer came another way).
    func release(_ userID: Int64, ticket: UInt64) {
        _ = take(userID, ticket: ticket)
    }

    private func take(_ userID: Int64, ticket: UInt64) -> Held? {
        held.withLock { state in
            guard let index = state.byUser[userID]?.firstIndex(where: { $0.ticket == ticket }) else { return nil }
            let taken = state.byUser[userID]!.remove(at: index)
            if state.byUser[userID]!.isEmpty { state.byUser[userID] = nil }
            return taken
        }
    }

    private func changed(_ users: ChangedUsers) {
        let woken: [Held] = held.withLock { state in
            switch users {
            case .anyone:
                defer { state.byUser.removeAll() }
                return state.byUser.values.flatMap { $0 }
            case .some(let ids):
                return ids.flatMap { state.byUser.removeValue(forKey: $0) ?? [] }
            }
        }
        guard !woken.isEmpty else { return }
        DispatchQueue.global().async {
            for request in woken { request.wake(.changed) }
        }
    }
}
