import Synchronization

/// Tells whoever listens (the held `GET /sync` requests) which users' data changed,
/// once the change is committed. The SQLite store publishes after each commit; the
/// PostgreSQL store publishes what its `LISTEN` connection hears, so a change through
/// any instance reaches the listeners of every instance.
///
/// A publication may be spurious (a rolled-back write of a group, a reconnected
/// listener's "anything may have changed"): listeners look before they answer.
public final class ChangeFeed: Sendable {
    private let listeners = Mutex<[@Sendable (ChangedUsers) -> Void]>([])

    public init() {}

    /// Calls `listener` with every later publication, on the publishing thread: it
    /// must be quick (hand the news on).
    public func listen(_ listener: @escaping @Sendable (ChangedUsers) -> Void) {
        listeners.withLock { $0.append(listener) }
    }

    func publish(_ users: ChangedUsers) {
        if case .some(let ids) = users, ids.isEmpty { return }
        for listener in listeners.withLock({ $0 }) { listener(users) }
    }
}

/// Whose data a `ChangeFeed` publication is about.
public enum ChangedUsers: Sendable, Equatable {
    case some(Set<Int64>)
    /// Anyone's: the news may have been missed (the listening connection was down).
    case anyone
}
