import Accounts
import Dispatch
import Logging
import Synchronization
import UserData

/// The held `GET /sync` requests (`wait`): each waits, with no thread of its own,
/// until the store's `ChangeFeed` says its user's data changed, its token stops
/// working, or its deadline passes; then its `wake` runs once (on a Dispatch worker,
/// never on the thread that published the change). A request is held as a closure and
/// a dictionary entry: its connection waits on its event loop meanwhile.
///
/// One user holds at most `maximumPerUser` requests at once (`--max-held-waits-per-user`),
/// so no account can pile up held requests on an instance.
///
/// A token can stop working in many ways (logout, password change, account deletion, a
/// revoked session, expiry), on any instance of a shared store, some announced by no
/// change of the user's data. So the room does not listen for each: every
/// `revalidationInterval` while something is held, a tick off the event loop asks the
/// store in one query which of the held tokens still work (`stillWorking`), and wakes
/// the others with `tokenStopped`. While nothing is held no tick is scheduled at all.
final class SyncWaitRoom: Sendable {
    /// Why a held request is woken.
    enum Wake: Sendable {
        case changed
        case deadline
        /// Its token no longer works: answer as a request with that token is answered now.
        case tokenStopped
    }

    /// What `hold` did.
    enum Hold: Sendable, Equatable {
        /// Held; the ticket lets go of it (`release`).
        case held(ticket: UInt64)
        /// Not held: the user already holds `maximumPerUser`. The first of theirs ends
        /// (its wait runs out) within `retryAfterSeconds`, at the latest.
        case full(retryAfterSeconds: Int)
    }

    /// How often the tokens of held requests are checked: often enough that a request
    /// whose token stopped working is answered within a second of it.
    static let defaultRevalidationInterval = DispatchTimeInterval.milliseconds(500)

    private struct Held {
        let ticket: UInt64
        let token: AuthenticatedUser
        let deadline: DispatchTime
        let wake: @Sendable (Wake) -> Void
        /// Its request read the log after being held and found nothing to answer with
        /// (`settle`): from here on only a wake answers it.
        var settled = false
    }

    private struct State {
        var byUser: [Int64: [Held]] = [:]
        var count = 0
        /// Of `count`, the settled ones.
        var settledCount = 0
        var nextTicket: UInt64 = 0
        /// A tick is scheduled: the next hold need not schedule one.
        var ticking = false

        /// Counts out requests no longer held.
        mutating func forget(_ gone: [Held]) {
            count -= gone.count
            settledCount -= gone.lazy.filter(\.settled).count
        }
    }

    private let state = Mutex(State())
    private let maximumPerUser: Int
    private let revalidationInterval: DispatchTimeInterval?
    private let logger: Logger
    private let stillWorking: @Sendable (Set<AuthenticatedUser>) throws -> Set<AuthenticatedUser>
    /// Runs the ticks one after another, off every event loop.
    private let ticks = DispatchQueue(label: "past-nyc.sync-wait-room.revalidation")

    /// - Parameters:
    ///   - maximumPerUser: requests one user holds at most; 0 lifts the limit.
    ///   - revalidationInterval: between two ticks while something is held; nil schedules
    ///     none, for tests that drive `revalidate()` themselves.
    ///   - stillWorking: which of the given tokens still work (`Sessions.stillAuthenticated`).
    ///   - logger: where a check the store could not answer is reported.
    init(
        feed: ChangeFeed, maximumPerUser: Int, revalidationInterval: DispatchTimeInterval? = defaultRevalidationInterval,
        logger: Logger, stillWorking: @escaping @Sendable (Set<AuthenticatedUser>) throws -> Set<AuthenticatedUser>
    ) {
        self.maximumPerUser = maximumPerUser
        self.revalidationInterval = revalidationInterval
        self.logger = logger
        self.stillWorking = stillWorking
        feed.listen { [weak self] users in self?.changed(users) }
    }

    /// Held requests right now, of every user.
    var heldCount: Int {
        state.withLock { $0.count }
    }

    /// Held requests that found nothing to answer with after being held (`settle`):
    /// each will be answered by a wake (a change, its token stopping, its deadline).
    /// A test that waits for this count before writing knows the write's wake answers.
    var settledCount: Int {
        state.withLock { $0.settledCount }
    }

    /// Holds a request made with `token` until a change of its user is published, the
    /// token stops working or `deadline` passes, then calls `wake` once.
    /// - Parameter counted: false for a request already held once and woken by a change
    ///   it found nothing new in: it is held again whatever the limit, having been let in.
    func hold(
        _ token: AuthenticatedUser, until deadline: DispatchTime, counted: Bool = true,
        wake: @escaping @Sendable (Wake) -> Void
    ) -> Hold {
        let outcome: Hold = state.withLock { state in
            let held = state.byUser[token.userID, default: []]
            if counted, maximumPerUser > 0, held.count >= maximumPerUser {
                let first = held.map(\.deadline).min() ?? deadline
                let nanoseconds = first.uptimeNanoseconds &- min(first.uptimeNanoseconds, DispatchTime.now().uptimeNanoseconds)
                return .full(retryAfterSeconds: max(1, Int((nanoseconds + 999_999_999) / 1_000_000_000)))
            }
            state.nextTicket += 1
            state.byUser[token.userID, default: []].append(
                Held(ticket: state.nextTicket, token: token, deadline: deadline, wake: wake))
            state.count += 1
            if !state.ticking, revalidationInterval != nil {
                state.ticking = true
                scheduleTick()
            }
            return .held(ticket: state.nextTicket)
        }
        guard case .held(let ticket) = outcome else { return outcome }
        DispatchQueue.global().asyncAfter(deadline: deadline) { [weak self] in
            guard let self, let expired = take(token.userID, ticket: ticket) else { return }
            expired.wake(.deadline)
        }
        return outcome
    }

    /// Lets go of a held request without waking it (its answer came another way).
    func release(_ userID: Int64, ticket: UInt64) {
        _ = take(userID, ticket: ticket)
    }

    /// Marks a held request whose read of the log, after it was held, found nothing:
    /// only a wake answers it now. Nothing when it was woken meanwhile.
    func settle(_ userID: Int64, ticket: UInt64) {
        state.withLock { state in
            guard let index = state.byUser[userID]?.firstIndex(where: { $0.ticket == ticket }) else { return }
            state.byUser[userID]![index].settled = true
            state.settledCount += 1
        }
    }

    /// One tick: asks the store which of the held tokens still work, in one query, and
    /// wakes the requests of the others with `tokenStopped`. Nothing held: nothing asked.
    /// A store that cannot answer leaves every request held; the next tick asks again.
    func revalidate() {
        let tokens = state.withLock { state in Set(state.byUser.values.joined().map(\.token)) }
        guard !tokens.isEmpty else { return }
        let working: Set<AuthenticatedUser>
        do {
            working = try stillWorking(tokens)
        } catch {
            logger.warning("held sync requests' tokens not checked", metadata: ["error": "\(error)"])
            return
        }
        let stopped = tokens.subtracting(working)
        guard !stopped.isEmpty else { return }
        let woken: [Held] = state.withLock { state in
            var woken: [Held] = []
            for userID in Set(stopped.map(\.userID)) {
                guard let held = state.byUser[userID] else { continue }
                let (gone, kept) = (held.filter { stopped.contains($0.token) }, held.filter { !stopped.contains($0.token) })
                state.byUser[userID] = kept.isEmpty ? nil : kept
                state.forget(gone)
                woken += gone
            }
            return woken
        }
        wakeAll(woken, .tokenStopped)
    }

    /// Called with the lock held.
    private func scheduleTick() {
        guard let revalidationInterval else { return }
        ticks.asyncAfter(deadline: .now() + revalidationInterval) { [weak self] in
            self?.tick()
        }
    }

    private func tick() {
        revalidate()
        state.withLock { state in
            guard state.count > 0 else {
                state.ticking = false
                return
            }
            scheduleTick()
        }
    }

    private func take(_ userID: Int64, ticket: UInt64) -> Held? {
        state.withLock { state in
            guard let index = state.byUser[userID]?.firstIndex(where: { $0.ticket == ticket }) else { return nil }
            let taken = state.byUser[userID]!.remove(at: index)
            if state.byUser[userID]!.isEmpty { state.byUser[userID] = nil }
            state.forget([taken])
            return taken
        }
    }

    private func changed(_ users: ChangedUsers) {
        let woken: [Held] = state.withLock { state in
            let woken: [Held]
            switch users {
            case .anyone:
                woken = Array(state.byUser.values.joined())
                state.byUser.removeAll()
            case .some(let ids):
                woken = ids.flatMap { state.byUser.removeValue(forKey: $0) ?? [] }
            }
            state.forget(woken)
            return woken
        }
        wakeAll(woken, .changed)
    }

    private func wakeAll(_ woken: [Held], _ reason: Wake) {
        guard !woken.isEmpty else { return }
        DispatchQueue.global().async {
            for request in woken { request.wake(reason) }
        }
    }
}
