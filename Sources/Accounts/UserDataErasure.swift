import UserData

/// Erases a user's data a slice at a time: each slice is one write transaction of at
/// most a given number of rows (`Accounts.erasureSliceRows`), so erasing an account of
/// any size never holds the store's writer (SQLite's single writer, and the group
/// commit behind it) for longer than one slice; other users' writes commit between
/// slices. The callers (`Accounts.eraseUserData`, `Accounts.deleteUser`) run slices
/// until one finds nothing left.
///
/// A slice takes the user's data in a fixed order, each kind from its oldest row, and
/// moves to the next kind only when the one before is gone: favorites, recents, the
/// walks' entries, removed photos and points, the walks themselves; then, for an
/// account's deletion, the user's change log and at last the user's row, whose
/// `ON DELETE CASCADE` then finds nothing left to delete. A new kind of user data adds
/// its table here.
///
/// Feedback is not the user's alone: what a moderator or an agreement accepted into the
/// catalog is the provenance of a catalog correction (`catalog_corrections.feedback_id`),
/// and the corrections stay. So an account's deletion erases the user's feedback that
/// changed nothing (open, rejected, and every `other`), keeps the accepted location,
/// date and rotation feedback with its author detached (`user_id` NULL), and detaches the
/// user from the decisions they made as a moderator (`decided_by` NULL; they still read
/// as a moderator's, `decided_through`). A reset leaves feedback alone: it is a report
/// about the catalog, not part of the user's collection.
///
/// A reset keeps the change log of `GET /sync` telling every device what went: each
/// slice turns the favorites, recents and walks it erases into tombstones, as
/// `ChangeLog.record` does for one item (a walk's entries go with their walk, so their
/// rows are dropped, not tombstoned), and keeps the users' counts of favorites, recents
/// and walks. An account's deletion writes no tombstones: no token of the user works
/// any more, so no device can read them.
enum UserDataErasure {
    /// What a slice erases for.
    enum Purpose {
        /// "Reset": the account, its profile and its tokens stay.
        case reset
        /// The account goes; its tokens were revoked when its deletion began.
        case accountDeletion
    }

    /// Erases at most `limit` rows of the user's data, in the caller's write
    /// transaction, which has locked the user's row (`Accounts.lockUser`).
    static func eraseSlice(
        userID: Int64, limit: Int, purpose: Purpose, at now: Int64, in connection: any UserDataConnection
    ) throws -> ErasureSlice {
        precondition(limit > 0, "a slice erases at least one row")
        var erasure = SliceErasure(userID: userID, left: limit, purpose: purpose, now: now, connection: connection)
        let favorites = try erasure.eraseList(table: "favorites", kind: .favorite, countColumn: "favorites_count")
        if favorites > 0, purpose == .reset {
            // The profile's favoriteCount changed.
            try ChangeLog.record(.profile, userID: userID, at: now, in: connection)
        }
        try erasure.eraseList(table: "recents", kind: .recent, countColumn: "recents_count")
        try erasure.eraseWalkChildren(
            table: "walk_entries", key: "sequence", select: "entry.sequence FROM walk_entries AS entry",
            join: "entry.walk")
        try erasure.eraseWalkChildren(
            table: "walk_removed_photos", key: "(walk, photo_id)",
            select: "removed.walk, removed.photo_id FROM walk_removed_photos AS removed", join: "removed.walk")
        try erasure.eraseWalkChildren(
            table: "walk_points", key: "(walk, number)", select: "point.walk, point.number FROM walk_points AS point",
            join: "point.walk")
        if purpose == .reset { try erasure.eraseWalkEntryChanges() }
        try erasure.eraseWalks()
        guard purpose == .accountDeletion else { return erasure.slice(finished: erasure.left > 0) }
        try erasure.eraseFeedback()
        try erasure.eraseChanges()
        guard erasure.left > 0 else { return erasure.slice(finished: false) }
        try connection.execute("DELETE FROM users WHERE id = ?", [.integer(userID)])
        return erasure.slice(finished: true)
    }
}

/// One slice's progress: what is left of its budget, and the statements of each kind of row.
private struct SliceErasure {
    let userID: Int64
    /// Rows this slice may still erase.
    var left: Int
    let purpose: UserDataErasure.Purpose
    let now: Int64
    let connection: any UserDataConnection
    private(set) var erased = 0

    init(userID: Int64, left: Int, purpose: UserDataErasure.Purpose, now: Int64, connection: any UserDataConnection) {
        self.userID = userID
        self.left = left
        self.purpose = purpose
        self.now = now
        self.connection = connection
    }

    private var user: UserDataValue { .integer(userID) }

    func slice(finished: Bool) -> ErasureSlice {
        ErasureSlice(userID: userID, rows: erased, finished: finished)
    }

    /// Counts the rows the last `execute` deleted against the budget.
    private mutating func spend() -> Int {
        let deleted = connection.changes
        left -= deleted
        erased += deleted
        return deleted
    }

    /// The oldest favorites or recents (`table`, ordered by `sequence`), tombstoned on a
    /// reset, with the user's count of them kept.
    @discardableResult
    mutating func eraseList(table: String, kind: ChangeKind, countColumn: String) throws -> Int {
        guard left > 0 else { return 0 }
        let last = try connection.queryFirst(
            "SELECT max(sequence) FROM (SELECT sequence FROM \(table) WHERE user_id = ? ORDER BY sequence LIMIT ?) AS slice",
            [user, .integer(Int64(left))]
        ) { $0.isNull(0) ? nil : $0.int64(0) } ?? nil
        guard let last else { return 0 }
        let through: [UserDataValue] = [user, .integer(last)]
        if purpose == .reset {
            let logKey: [UserDataValue] = [user, .text(kind.rawValue), .blob([])]
            try connection.execute(
                """
                DELETE FROM sync_changes WHERE user_id = ? AND kind = ? AND walk_id = ?
                    AND photo_id IN (SELECT photo_id FROM \(table) WHERE user_id = ? AND sequence <= ?)
                """,
                logKey + through)
            try connection.execute(
                """
                INSERT INTO sync_changes (user_id, kind, walk_id, photo_id, deleted, changed_at)
                SELECT user_id, ?, ?, photo_id, 1, ? FROM \(table) WHERE user_id = ? AND sequence <= ? ORDER BY sequence
                """,
                [.text(kind.rawValue), .blob([]), .integer(now)] + through)
        }
        try connection.execute("DELETE FROM \(table) WHERE user_id = ? AND sequence <= ?", through)
        let deleted = spend()
        if purpose == .reset {
            try connection.execute(
                "UPDATE users SET \(countColumn) = \(countColumn) - ? WHERE id = ?", [.integer(Int64(deleted)), user])
            try purgeOldTombstones()
            try connection.announceChange(ofUser: userID)
        }
        return deleted
    }

    /// Rows of a table hanging off the user's walks, any walk's, by their `key`.
    mutating func eraseWalkChildren(table: String, key: String, select: String, join: String) throws {
        guard left > 0 else { return }
        try connection.execute(
            """
            DELETE FROM \(table) WHERE \(key) IN (
                SELECT \(select) JOIN walks ON walks.sequence = \(join) WHERE walks.user_id = ? LIMIT ?)
            """,
            [user, .integer(Int64(left))])
        _ = spend()
    }

    /// The change-log rows of the user's walks' entries: they go with their walks, without tombstones.
    mutating func eraseWalkEntryChanges() throws {
        guard left > 0 else { return }
        try connection.execute(
            """
            DELETE FROM sync_changes WHERE sequence IN (
                SELECT sequence FROM sync_changes WHERE user_id = ? AND kind = 'walkEntry' LIMIT ?)
            """,
            [user, .integer(Int64(left))])
        _ = spend()
    }

    /// The oldest walks, whose rows hang nothing off any more, tombstoned on a reset.
    mutating func eraseWalks() throws {
        guard left > 0 else { return }
        let last = try connection.queryFirst(
            "SELECT max(sequence) FROM (SELECT sequence FROM walks WHERE user_id = ? ORDER BY sequence LIMIT ?) AS slice",
            [user, .integer(Int64(left))]
        ) { $0.isNull(0) ? nil : $0.int64(0) } ?? nil
        guard let last else { return }
        let through: [UserDataValue] = [user, .integer(last)]
        if purpose == .reset {
            try connection.execute(
                """
                DELETE FROM sync_changes WHERE user_id = ? AND kind = 'walk'
                    AND walk_id IN (SELECT walk_id FROM walks WHERE user_id = ? AND sequence <= ?)
                """,
                [user] + through)
            try connection.execute(
                """
                INSERT INTO sync_changes (user_id, kind, walk_id, photo_id, deleted, changed_at)
                SELECT user_id, 'walk', walk_id, '', 1, ? FROM walks WHERE user_id = ? AND sequence <= ? ORDER BY sequence
                """,
                [.integer(now)] + through)
        }
        try connection.execute("DELETE FROM walks WHERE user_id = ? AND sequence <= ?", through)
        let deleted = spend()
        if purpose == .reset {
            try connection.execute(
                "UPDATE users SET walks_count = walks_count - ? WHERE id = ?", [.integer(Int64(deleted)), user])
            try purgeOldTombstones()
            try connection.announceChange(ofUser: userID)
        }
    }

    /// The user's feedback and decisions (an account's deletion only; see
    /// `UserDataErasure`): feedback behind no catalog correction deleted, the rest
    /// detached from its author, then the user's decisions detached from them; each
    /// updated row counts against the budget as a deleted one does.
    mutating func eraseFeedback() throws {
        guard left > 0 else { return }
        try connection.execute(
            """
            DELETE FROM feedback WHERE id IN (
                SELECT id FROM feedback WHERE user_id = ? AND (status <> 'accepted' OR kind = 'other') ORDER BY id LIMIT ?)
            """,
            [user, .integer(Int64(left))])
        _ = spend()
        guard left > 0 else { return }
        try connection.execute(
            "UPDATE feedback SET user_id = NULL WHERE id IN (SELECT id FROM feedback WHERE user_id = ? ORDER BY id LIMIT ?)",
            [user, .integer(Int64(left))])
        _ = spend()
        guard left > 0 else { return }
        try connection.execute(
            "UPDATE feedback SET decided_by = NULL WHERE id IN (SELECT id FROM feedback WHERE decided_by = ? ORDER BY id LIMIT ?)",
            [user, .integer(Int64(left))])
        _ = spend()
    }

    /// The user's whole change log, oldest first (an account's deletion only).
    mutating func eraseChanges() throws {
        guard left > 0 else { return }
        try connection.execute(
            """
            DELETE FROM sync_changes WHERE sequence IN (
                SELECT sequence FROM sync_changes WHERE user_id = ? ORDER BY sequence LIMIT ?)
            """,
            [user, .integer(Int64(left))])
        _ = spend()
    }

    /// Tombstones older than `ChangeLog.tombstoneSeconds`, as `ChangeLog.record` purges them.
    private func purgeOldTombstones() throws {
        try connection.execute(
            "DELETE FROM sync_changes WHERE user_id = ? AND deleted = 1 AND changed_at < ?",
            [user, .integer(now - ChangeLog.tombstoneSeconds)])
    }
}
