import Foundation
import UserData

/// The photos a user viewed lately, newest first, at most `capacity`: recorded,
/// listed, looked up, cleared. Every write is one group commit that records its change
/// in the user's `ChangeLog`.
///
/// The list's length is kept in `users.recents_count` by every write of `recents`
/// (`record`, `clear`, the erasures): a view of a photo not in a full list reads the
/// count and the oldest view by an index lookup each, where counting the list would
/// step over every view in it.
public struct Recents: Sendable {
    /// How many recently viewed photos a user keeps; older views are dropped.
    public static let capacity = 100

    let store: any UserDataStore
    let sessions: Sessions
    /// The current time in Unix milliseconds.
    let clock: @Sendable () -> Int64

    /// Puts a photo (the caller checks that the catalog has it) at the top of the
    /// user's list: its earlier view, if any, is replaced, and views beyond `capacity`
    /// are deleted in the same transaction, so the list never holds more. `completion`
    /// runs once it is committed and fsynced.
    public func record(
        _ authenticated: AuthenticatedUser, photoID: String, completion: @escaping @Sendable (Result<Recent, any Error>) -> Void
    ) {
        let now = clock() / 1000
        let userID = UserDataValue.integer(authenticated.userID)
        store.groupWrite(
            { connection in
                // The user's row first: which views lie beyond the capacity depends on
                // every view of the user, so their writers take turns.
                try Accounts.lockUser(authenticated, in: connection)
                try connection.execute("DELETE FROM recents WHERE user_id = ? AND photo_id = ?", [userID, .text(photoID)])
                let viewedBefore = connection.changes > 0
                try connection.execute(
                    "INSERT INTO recents (user_id, photo_id, viewed_at) VALUES (?, ?, ?)",
                    [userID, .text(photoID), .integer(now)])
                try ChangeLog.record(.recent, photoID: photoID, userID: authenticated.userID, at: now, in: connection)
                let recent = Recent(photoID: photoID, viewedAt: Date(unixSeconds: now))
                // A view that replaced an earlier one left the list as long as it was.
                guard !viewedBefore else { return recent }
                let count = try connection.queryFirst("SELECT recents_count FROM users WHERE id = ?", [userID]) {
                    $0.int64(0)
                } ?? 0
                guard count >= Int64(Self.capacity) else {
                    try connection.execute("UPDATE users SET recents_count = recents_count + 1 WHERE id = ?", [userID])
                    return recent
                }
                // The list was full: its oldest views go, as many as leave it full again.
                let pushedOut = try connection.query(
                    "SELECT sequence, photo_id FROM recents WHERE user_id = ? ORDER BY sequence LIMIT ?",
                    [userID, .integer(count - Int64(Self.capacity) + 1)]
                ) { (sequence: $0.int64(0), photoID: $0.text(1)) }
                if let newestPushedOut = pushedOut.last?.sequence {
                    try connection.execute(
                        "DELETE FROM recents WHERE user_id = ? AND sequence <= ?", [userID, .integer(newestPushedOut)])
                }
                if count != Int64(Self.capacity) {
                    try connection.execute(
                        "UPDATE users SET recents_count = ? WHERE id = ?", [.integer(Int64(Self.capacity)), userID])
                }
                for old in pushedOut {
                    try ChangeLog.record(
                        .recent, photoID: old.photoID, deleted: true, userID: authenticated.userID, at: now, in: connection)
                }
                return recent
            },
            completion: { completion($0.mapError(AccountsError.invalidTokenIfUserGone)) })
    }

    /// Records a view as `record(_:photoID:completion:)` does, for the user of the bearer
    /// `token`, checked in the same write (`TokenCheckedWrite`): in one statement, the
    /// stored function `record_view` (`PostgresUserDataSchema`, the same rules in
    /// PL/pgSQL), where a store has round trips; else `Sessions.authenticate(token:)`,
    /// then `record(_:photoID:completion:)`.
    /// Hands `completion` `invalidToken` when the token does not work.
    public func record(
        token: String, photoID: String, completion: @escaping @Sendable (Result<Recent, any Error>) -> Void
    ) {
        let now = clock() / 1000
        sessions.runCheckedWrite(
            token: token,
            forUser: { [self] user, completion in record(user, photoID: photoID, completion: completion) },
            statement: { digest, connection in
                let viewer = try connection.queryFirst(
                    "SELECT viewer_id FROM record_view(?, ?, ?, ?, ?)",
                    [.blob(digest), .text(photoID), .integer(now), .integer(Int64(Self.capacity)),
                     .integer(ChangeLog.tombstoneSeconds)]
                ) { $0.int64(0) }
                if let viewer { try connection.announceChange(ofUser: viewer) }
                return viewer
            },
            answer: { _ in Recent(photoID: photoID, viewedAt: Date(unixSeconds: now)) },
            completion: completion)
    }

    /// The user's most recently viewed photos, most recent first (the later view
    /// first when two share a second).
    public func list(_ authenticated: AuthenticatedUser, limit: Int) throws -> [Recent] {
        precondition(limit > 0, "limit must be positive")
        return try store.read { connection in
            try connection.query(
                "SELECT photo_id, viewed_at FROM recents WHERE user_id = ? ORDER BY sequence DESC LIMIT ?",
                [.integer(authenticated.userID), .integer(Int64(limit))]
            ) { Recent(photoID: $0.text(0), viewedAt: Date(unixSeconds: $0.int64(1))) }
        }
    }

    /// The caller's view of one photo, nil when it is not in the list.
    public func view(_ authenticated: AuthenticatedUser, photoID: String) throws -> Recent? {
        try store.read { connection in
            try connection.queryFirst(
                "SELECT viewed_at FROM recents WHERE user_id = ? AND photo_id = ?",
                [.integer(authenticated.userID), .text(photoID)]
            ) { Recent(photoID: photoID, viewedAt: Date(unixSeconds: $0.int64(0))) }
        }
    }

    /// Empties the user's list.
    public func clear(_ authenticated: AuthenticatedUser, completion: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        let now = clock() / 1000
        store.groupWrite(
            { connection in
                try Accounts.lockUser(authenticated, in: connection)
                let cleared = try connection.query(
                    "DELETE FROM recents WHERE user_id = ? RETURNING photo_id", [.integer(authenticated.userID)]
                ) { $0.text(0) }
                try connection.execute("UPDATE users SET recents_count = 0 WHERE id = ?", [.integer(authenticated.userID)])
                for photoID in cleared {
                    try ChangeLog.record(.recent, photoID: photoID, deleted: true, userID: authenticated.userID, at: now, in: connection)
                }
            },
            completion: completion)
    }
}
