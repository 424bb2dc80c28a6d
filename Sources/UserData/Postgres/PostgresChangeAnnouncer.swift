import Basics
import Dispatch
import Postgres
import Synchronization

/// Sends the `NOTIFY`s that tell every instance's `PostgresChangeListener` whose data
/// changed, after the writes commit, on a connection of its own with
/// `synchronous_commit` off. PostgreSQL commits the transactions that notify one at a
/// time, each holding a database-wide lock until its commit record is flushed (so
/// that notifications queue in commit order): a `NOTIFY` inside every write would
/// make the writes of all users wait for one another's fsync. Here the writes commit
/// durably side by side, sharing their flushes, and the announcement waits for no
/// flush and carries every user changed since the previous one.
///
/// A crash between a commit and its announcement only delays the held `GET /sync`
/// requests to the end of their wait, when they read the log anyway. Runs on a
/// thread of its own, which ends when the announcer is released.
final class PostgresChangeAnnouncer: Sendable {
    private let pending = Mutex<Set<Int64>>([])
    private let wake = DispatchSemaphore(value: 0)
    /// How often the thread looks up from its wait to see whether the announcer still exists.
    static let pollInterval = DispatchTimeInterval.seconds(1)

    private init() {}

    static func start(url: String) throws -> PostgresChangeAnnouncer {
        let announcer = PostgresChangeAnnouncer()
        try NativeThread.spawn(name: "pg-announce") { [weak announcer] in
            var connection: PostgresConnection?
            while let wake = announcer?.wake {
                _ = wake.wait(timeout: .now() + pollInterval)
                guard let users = announcer?.pending.withLock({ pending in defer { pending = [] }; return pending })
                else { return }
                guard !users.isEmpty else { continue }
                do {
                    if connection == nil {
                        let opened = try PostgresConnection(url: url)
                        try opened.execute("SELECT set_config('synchronous_commit', 'off', false)")
                        connection = opened
                    }
                    try connection!.execute(
                        "SELECT pg_notify($1, id::text) FROM unnest($2::bigint[]) AS id",
                        [.text(PostgresChangeListener.channel), .text("{\(users.map(String.init).joined(separator: ","))}")])
                } catch {
                    // Dropped: a server the listeners lost too makes them publish `.anyone`
                    // when they are back; the next announcement connects again.
                    connection = nil
                }
            }
        }.detach()
        return announcer
    }

    /// Announces `users` soon (at once unless an announcement is under way).
    func announce(_ users: Set<Int64>) {
        guard !users.isEmpty else { return }
        pending.withLock { $0.formUnion(users) }
        wake.signal()
    }
}
