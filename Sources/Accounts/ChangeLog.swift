import Basics
import Crypto
import UserData

/// The change log of `GET /sync` (`sync_changes`): one row per item of a user's data
/// that ever changed, moved to the end of the user's log (a new, higher `sequence`)
/// at each change, so the log is compacted by construction and "what changed after
/// sequence S" is the user's rows above S, each once, in the order of their latest
/// change. Rows are written by the write they record, in its transaction, so a
/// commit holds both or neither (a `kill -9` included). The row says which item and
/// whether it is gone; the item's state is read from its own table when answering.
///
/// Deleted items stay as tombstones for `tombstoneDays`, then a later deletion of the
/// same user purges them; a sync token older than `SyncToken.lifetime` (shorter) is
/// refused, so no token still in use can have missed a purged tombstone.
///
/// Ordering on PostgreSQL: every writer of a user's data locks the user's row first
/// (`Accounts.lockUser`), so a user's sequences are taken, and committed, in one order:
/// a reader never sees a sequence while a lower one of the same user is uncommitted.
/// On SQLite the single writer does the same.
///
/// Each write records its rows through the static `record`; an instance answers
/// `GET /sync` (`changes(_:since:limit:)`).
public struct ChangeLog: Sendable {
    /// How long tombstones are kept, in seconds: a day more than a token lives.
    static let tombstoneSeconds: Int64 = 31 * 24 * 60 * 60

    let store: any UserDataStore
    /// Authenticates the sync tokens (`SyncToken`), shared by every instance of the store.
    let syncKey: SymmetricKey
    /// The current time in Unix milliseconds.
    let clock: @Sendable () -> Int64

    /// The user's changes after the answer that gave `since` (without it, the whole
    /// current state), at most `limit`, with the token to continue from.
    /// - Throws: `invalidSyncToken` for a `since` this server did not issue to this
    ///   user; `expiredSyncToken` for one older than the retained history.
    public func changes(_ authenticated: AuthenticatedUser, since: String?, limit: Int) throws -> ChangesPage {
        precondition(limit > 0, "limit must be positive")
        let now = clock() / 1000
        let after = try since.map {
            try SyncToken(decoding: $0, userID: authenticated.userID, key: syncKey, now: now).sequence
        } ?? 0
        let (rows, last) = try store.read { connection in
            try connection.snapshot {
                let rows = try Self.changes(
                    userID: authenticated.userID, after: after, limit: limit + 1, live: since == nil, in: connection)
                return (rows, try Self.lastSequence(userID: authenticated.userID, in: connection))
            }
        }
        let more = rows.count > limit
        let page = rows.prefix(limit)
        // Not `more`: past every row, the tombstones a whole-state answer leaves out included.
        let through = more ? page.last!.sequence : max(last, after)
        let next = SyncToken(userID: authenticated.userID, sequence: through, issuedAt: now).encoded(key: syncKey)
        return ChangesPage(changes: page.map(\.change), next: next, more: more)
    }

    /// Records that an item changed (or, `deleted`, is gone) in the caller's write
    /// transaction, and announces the user's change (`UserDataConnection.announceChange`).
    /// PostgreSQL's `save_favorite` and `record_view` (`PostgresUserDataSchema`) write
    /// a saved favorite's and a view's rows themselves, the same way: a change here
    /// changes them too.
    public static func record(
        _ kind: ChangeKind, walkID: [UInt8] = [], photoID: String = "", deleted: Bool = false, userID: Int64, at now: Int64,
        in connection: any UserDataConnection
    ) throws {
        let key: [UserDataValue] = [.integer(userID), .text(kind.rawValue), .blob(walkID), .text(photoID)]
        try connection.execute(
            "DELETE FROM sync_changes WHERE user_id = ? AND kind = ? AND walk_id = ? AND photo_id = ?", key)
        try connection.execute(
            "INSERT INTO sync_changes (user_id, kind, walk_id, photo_id, deleted, changed_at) VALUES (?, ?, ?, ?, ?, ?)",
            key + [.integer(deleted ? 1 : 0), .integer(now)])
        if deleted {
            try connection.execute(
                "DELETE FROM sync_changes WHERE user_id = ? AND deleted = 1 AND changed_at < ?",
                [.integer(userID), .integer(now - tombstoneSeconds)])
        }
        try connection.announceChange(ofUser: userID)
    }

    /// The user's log after `sequence`, oldest change first, at most `limit` rows;
    /// `live` leaves tombstones out (the whole state, without `since`).
    private static func changes(
        userID: Int64, after sequence: Int64, limit: Int, live: Bool, in connection: any UserDataConnection
    ) throws -> [(sequence: Int64, change: LoggedChange)] {
        try connection.query(
            """
            SELECT sequence, kind, walk_id, photo_id, deleted FROM sync_changes
            WHERE user_id = ? AND sequence > ? AND deleted <= ? ORDER BY sequence LIMIT ?
            """,
            [.integer(userID), .integer(sequence), .integer(live ? 0 : 1), .integer(Int64(limit))]
        ) { row in
            // The column's CHECK admits only these kinds.
            guard let kind = ChangeKind(rawValue: row.text(1)) else { preconditionFailure("an unknown kind of change") }
            return (
                row.int64(0),
                LoggedChange(
                    kind: kind, walkID: Base64.url.encode(row.blob(2)), photoID: row.text(3), deleted: row.int64(4) != 0))
        }
    }

    /// The user's last sequence (0 when the log is empty).
    private static func lastSequence(userID: Int64, in connection: any UserDataConnection) throws -> Int64 {
        try connection.queryFirst(
            "SELECT coalesce(max(sequence), 0) FROM sync_changes WHERE user_id = ?", [.integer(userID)]
        ) { $0.int64(0) } ?? 0
    }
}
