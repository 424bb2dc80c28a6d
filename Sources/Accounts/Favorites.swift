import Foundation
import UserData

/// The photos users saved: saved, removed, read a page at a time, or looked up among
/// the photos of a screen. Every write is one group commit (`UserDataStore.groupWrite`)
/// that answers through a completion, and records its change in the user's `ChangeLog`.
///
/// A user keeps at most `maximum`. The count is kept in `users.favorites_count` by
/// every write of `favorites` (`save`, `remove`, the erasures), read by one lookup of
/// the user's row.
public struct Favorites: Sendable {
    /// The most favorites one user keeps when the configuration does not say.
    public static let defaultMaximum = 10_000
    /// The most photos `among(_:photoIDs:)` looks up at once.
    public static let lookupCapacity = 100

    /// The most favorites one user keeps (`AccountsError.favoriteLimitReached`).
    public let maximum: Int
    let store: any UserDataStore
    let sessions: Sessions
    /// The current time in Unix milliseconds.
    let clock: @Sendable () -> Int64

    /// Saves a photo (the caller checks that the catalog has it). Idempotent: saving
    /// it again returns the first `savedAt`. `completion` runs once it is committed and
    /// fsynced. A new favorite past `maximum` gets `favoriteLimitReached` (a photo
    /// already saved is still answered).
    public func save(
        _ authenticated: AuthenticatedUser, photoID: String,
        completion: @escaping @Sendable (Result<FavoriteSave, any Error>) -> Void
    ) {
        let now = clock() / 1000
        let userID = UserDataValue.integer(authenticated.userID)
        store.groupWrite(
            { [maximum] connection in
                try Accounts.lockUser(authenticated, in: connection)
                let saved = try connection.queryFirst("SELECT favorites_count FROM users WHERE id = ?", [userID]) {
                    $0.int(0)
                }
                guard let saved else { throw AccountsError.invalidToken }
                guard saved < maximum else {
                    let savedAt = try connection.queryFirst(
                        "SELECT saved_at FROM favorites WHERE user_id = ? AND photo_id = ?", [userID, .text(photoID)]
                    ) { $0.int64(0) }
                    guard let savedAt else { throw AccountsError.favoriteLimitReached(maximum: maximum) }
                    return FavoriteSave(favorite: Favorite(photoID: photoID, savedAt: Date(unixSeconds: savedAt)), created: false)
                }
                try connection.execute(
                    """
                    INSERT INTO favorites (user_id, photo_id, saved_at) VALUES (?, ?, ?)
                    ON CONFLICT (user_id, photo_id) DO NOTHING
                    """,
                    [userID, .text(photoID), .integer(now)])
                if connection.changes == 1 {
                    try connection.execute("UPDATE users SET favorites_count = favorites_count + 1 WHERE id = ?", [userID])
                    try ChangeLog.record(.favorite, photoID: photoID, userID: authenticated.userID, at: now, in: connection)
                    // The profile's favoriteCount changed.
                    try ChangeLog.record(.profile, userID: authenticated.userID, at: now, in: connection)
                    return FavoriteSave(favorite: Favorite(photoID: photoID, savedAt: Date(unixSeconds: now)), created: true)
                }
                let savedAt = try connection.queryFirst(
                    "SELECT saved_at FROM favorites WHERE user_id = ? AND photo_id = ?", [userID, .text(photoID)]
                ) { $0.int64(0) }
                guard let savedAt else { throw AccountsError.favoriteNotFound }
                return FavoriteSave(favorite: Favorite(photoID: photoID, savedAt: Date(unixSeconds: savedAt)), created: false)
            },
            completion: { completion($0.mapError(AccountsError.invalidTokenIfUserGone)) })
    }

    /// Saves a photo as `save(_:photoID:completion:)` does, for the user of the bearer
    /// `token`, checked in the same write (`TokenCheckedWrite`): in one statement, the
    /// stored function `save_favorite` (`PostgresUserDataSchema`, the same rules in
    /// PL/pgSQL), where a store has round trips; else `Sessions.authenticate(token:)`,
    /// then `save(_:photoID:completion:)`.
    /// Hands `completion` `invalidToken` when the token does not work.
    public func save(
        token: String, photoID: String, completion: @escaping @Sendable (Result<FavoriteSave, any Error>) -> Void
    ) {
        let now = clock() / 1000
        sessions.runCheckedWrite(
            token: token,
            forUser: { [self] user, completion in save(user, photoID: photoID, completion: completion) },
            statement: { [maximum] digest, connection in
                let saved = try connection.queryFirst(
                    "SELECT saver_id, saved_second, created, at_capacity FROM save_favorite(?, ?, ?, ?)",
                    [.blob(digest), .text(photoID), .integer(now), .integer(Int64(maximum))]
                ) {
                    (userID: $0.int64(0), savedAt: $0.isNull(1) ? nil : $0.int64(1), created: $0.int(2) == 1,
                     atCapacity: $0.int(3) == 1)
                }
                if let saved, saved.created { try connection.announceChange(ofUser: saved.userID) }
                return saved
            },
            answer: { [maximum] saved in
                guard !saved.atCapacity else { throw AccountsError.favoriteLimitReached(maximum: maximum) }
                guard let savedAt = saved.savedAt else { throw AccountsError.favoriteNotFound }
                return FavoriteSave(
                    favorite: Favorite(photoID: photoID, savedAt: Date(unixSeconds: savedAt)), created: saved.created)
            },
            completion: completion)
    }

    /// Hands `completion` `favoriteNotFound` when the photo is not a favorite of this user.
    public func remove(
        _ authenticated: AuthenticatedUser, photoID: String, completion: @escaping @Sendable (Result<Void, any Error>) -> Void
    ) {
        let now = clock() / 1000
        store.groupWrite(
            { connection in
                try Accounts.lockUser(authenticated, in: connection)
                try connection.execute(
                    "DELETE FROM favorites WHERE user_id = ? AND photo_id = ?",
                    [.integer(authenticated.userID), .text(photoID)])
                guard connection.changes > 0 else { throw AccountsError.favoriteNotFound }
                try connection.execute(
                    "UPDATE users SET favorites_count = favorites_count - 1 WHERE id = ?", [.integer(authenticated.userID)])
                try ChangeLog.record(.favorite, photoID: photoID, deleted: true, userID: authenticated.userID, at: now, in: connection)
                try ChangeLog.record(.profile, userID: authenticated.userID, at: now, in: connection)
            },
            completion: completion)
    }

    /// A page of favorites, newest first, after `cursor` (from a previous page).
    /// - Throws: `invalidCursor` for a cursor this server did not issue.
    public func page(_ authenticated: AuthenticatedUser, limit: Int, cursor: String?) throws -> FavoritesPage {
        precondition(limit > 0, "limit must be positive")
        let before = try cursor.map(SequenceCursor.favorites.decode) ?? Int64.max
        let rows = try store.read { connection in
            try connection.query(
                """
                SELECT sequence, photo_id, saved_at FROM favorites
                WHERE user_id = ? AND sequence < ? ORDER BY sequence DESC LIMIT ?
                """,
                [.integer(authenticated.userID), .integer(before), .integer(Int64(limit) + 1)]
            ) {
                (sequence: $0.int64(0), favorite: Favorite(photoID: $0.text(1), savedAt: Date(unixSeconds: $0.int64(2))))
            }
        }
        let page = rows.prefix(limit)
        let nextCursor = rows.count > limit ? page.last.map { SequenceCursor.favorites.encode(sequence: $0.sequence) } : nil
        return FavoritesPage(favorites: page.map(\.favorite), nextCursor: nextCursor)
    }

    /// The caller's favorites among `photoIDs` (at most `lookupCapacity`), newest first;
    /// photos not saved are absent.
    ///
    /// Most users have fewer favorites than a list screen shows photos, and reading all
    /// of a user's favorites costs SQLite about half of looking up as many photos (1.9k
    /// against 3.1k instructions a row, measured with callgrind). So a user with no more
    /// favorites than there are photos has them read whole; a user with more (counted
    /// in the `favorites_by_user` index only, up to one past the photos) has each photo
    /// looked up.
    public func among(_ authenticated: AuthenticatedUser, photoIDs: Set<PhotoIDKey>) throws -> [Favorite] {
        precondition(photoIDs.count <= Self.lookupCapacity, "at most \(Self.lookupCapacity) photos")
        guard !photoIDs.isEmpty else { return [] }
        let userID = UserDataValue.integer(authenticated.userID)
        return try store.read { connection in
            let saved = try connection.queryFirst(
                "SELECT count(*) FROM (SELECT 1 FROM favorites WHERE user_id = ? LIMIT ?) AS saved",
                [userID, .integer(Int64(photoIDs.count) + 1)]
            ) { Int($0.int64(0)) } ?? 0
            if saved <= photoIDs.count {
                return try connection.query(
                    "SELECT photo_id, saved_at FROM favorites WHERE user_id = ? ORDER BY sequence DESC", [userID]
                ) { Favorite(photoID: $0.text(0), savedAt: Date(unixSeconds: $0.int64(1))) }
                .filter { photoIDs.contains(PhotoIDKey($0.photoID)) }
            }
            // Always all the placeholders, the unused ones NULL (which no photo_id equals):
            // one statement text, prepared once, whatever the number of photos.
            let values = [userID] + photoIDs.map { UserDataValue.text($0.photoID) }
                + Array(repeating: UserDataValue.null, count: Self.lookupCapacity - photoIDs.count)
            let rows = try connection.query(Self.amongPhotosSQL, values) {
                (sequence: $0.int64(0), favorite: Favorite(photoID: $0.text(1), savedAt: Date(unixSeconds: $0.int64(2))))
            }
            return rows.sorted { $0.sequence > $1.sequence }.map(\.favorite)
        }
    }

    /// The photos as a list of constant rows (`?2`…), each looked up in the
    /// `(user_id, photo_id)` key: unlike `photo_id IN (…)`, no temporary index of the
    /// list is built first. Sorted by the caller, not by `ORDER BY sequence`: with one,
    /// SQLite walks all the user's favorites in `favorites_by_user` order to avoid a
    /// sort, instead of looking up each photo.
    private static let amongPhotosSQL = """
        WITH wanted(photo_id) AS (VALUES \((2...lookupCapacity + 1).map { "(?\($0))" }.joined(separator: ", ")))
        SELECT favorites.sequence, favorites.photo_id, favorites.saved_at FROM wanted
        JOIN favorites ON favorites.user_id = ?1 AND favorites.photo_id = wanted.photo_id
        """

    /// The caller's favorite of one photo.
    /// - Throws: `favoriteNotFound` when the photo is not a favorite of this user.
    public func favorite(_ authenticated: AuthenticatedUser, photoID: String) throws -> Favorite {
        guard let favorite = try favoriteIfSaved(authenticated, photoID: photoID) else {
            throw AccountsError.favoriteNotFound
        }
        return favorite
    }

    /// The caller's favorite of one photo, nil when it is not saved.
    public func favoriteIfSaved(_ authenticated: AuthenticatedUser, photoID: String) throws -> Favorite? {
        let savedAt = try store.read { connection in
            try connection.queryFirst(
                "SELECT saved_at FROM favorites WHERE user_id = ? AND photo_id = ?",
                [.integer(authenticated.userID), .text(photoID)]
            ) { $0.int64(0) }
        }
        return savedAt.map { Favorite(photoID: photoID, savedAt: Date(unixSeconds: $0)) }
    }
}
