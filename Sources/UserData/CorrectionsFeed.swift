import Synchronization

/// Tells the catalog that rows may have been added to `catalog_corrections`, so that it
/// builds the new generation at once. The PostgreSQL store publishes what its `LISTEN`
/// connection hears (the table's trigger notifies when an insert commits, through any
/// instance), and once more whenever that connection comes back, since a notification
/// may have been missed meanwhile. The SQLite store publishes nothing: the catalog looks
/// at the table itself every second (`CatalogGenerations`), which catches a row any
/// process added, and does so on PostgreSQL too, in case of a lost notification.
public final class CorrectionsFeed: Sendable {
    private let listeners = Mutex<[@Sendable () -> Void]>([])

    public init() {}

    /// Calls `listener` with every later publication, on the publishing thread: it must
    /// be quick (hand the news on).
    public func listen(_ listener: @escaping @Sendable () -> Void) {
        listeners.withLock { $0.append(listener) }
    }

    func publish() {
        for listener in listeners.withLock({ $0 }) { listener() }
    }
}
