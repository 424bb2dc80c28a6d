import Basics
import Glibc
import Postgres

/// The one connection per instance that `LISTEN`s for the user-data changes any
/// instance commits (`PostgresChangeAnnouncer` sends them with `pg_notify` once
/// the writes committed) and publishes them on the store's `ChangeFeed`, so a held
/// `GET /sync` on this instance wakes for a write through another; and for the
/// accepted catalog corrections (the payload `catalog`, which the table's trigger sends),
/// which it publishes on the store's `CorrectionsFeed`.
/// (https://www.postgresql.org/docs/current/sql-notify.html)
///
/// Runs on a thread of its own, blocked in `poll(2)` on the connection's socket. When
/// the connection breaks it connects again after a pause, then publishes `.anyone` and
/// a correction: changes may have been committed while nobody listened. The thread ends
/// when the feed is gone (the store was released).
enum PostgresChangeListener {
    static let channel = "past_nyc_user_data"
    /// The payload of the notifications of `catalog_corrections` (no user ID is a word).
    static let correctionsPayload = "catalog"
    static let reconnectPauseMilliseconds = 1000
    /// How often the thread looks up from `poll` to see whether the feed still exists.
    static let pollInterval = Duration.seconds(1)

    static func start(url: String, feed: ChangeFeed, corrections: CorrectionsFeed) throws {
        try NativeThread.spawn(name: "pg-listen") { [weak feed, weak corrections] in
            var connection: PostgresConnection?
            while feed != nil {
                do {
                    if connection == nil {
                        let opened = try PostgresConnection(url: url, statementTimeout: .seconds(5))
                        try opened.execute("LISTEN \(channel)")
                        connection = opened
                        feed?.publish(.anyone)
                        corrections?.publish()
                    }
                    let payloads = try connection!.notifications(waitingUpTo: pollInterval)
                    let users = Set(payloads.compactMap { Int64($0) })
                    if !users.isEmpty { feed?.publish(.some(users)) }
                    if payloads.contains(correctionsPayload) { corrections?.publish() }
                } catch {
                    connection = nil
                    usleep(UInt32(reconnectPauseMilliseconds * 1000))
                }
            }
        }.detach()
    }
}
