import Accounts
import Catalog
import Foundation
import UserData

/// Users' walks, kept in the user-data store (`SQLiteUserDataSchema` holds their
/// tables; a reset or a deleted account erases them with the rest, `Accounts`). Their times
/// are stored in milliseconds, so a batch's points keep the times the phone recorded.
///
/// Every method may block (SQLite, fsync): call them off the event loop. Every write
/// is one transaction, committed and fsynced before the method returns, so a walk is
/// never seen half-updated, after a crash included. Failures the client caused are
/// `WalkError`s (and `AccountsError.invalidCursor`); the store's own are
/// `UserDataError`s.
public final class Walks: Sendable {
    private let database: any UserDataStore
    /// The catalog's current generation: each write chooses its photos from the one it started with.
    private let catalog: @Sendable () -> PhotoCatalog
    private let maximumPoints: Int
    private let maximumWalks: Int
    private let clock: @Sendable () -> Date

    static let entriesCursor = SequenceCursor(prefix: "e1:")
    static let walksCursor = SequenceCursor(prefix: "w1:")

    /// - Parameters:
    ///   - catalog: the catalog's current generation.
    ///   - maximumPoints: accepted points per walk; lower only in tests.
    ///   - maximumWalks: walks one user keeps; lower only in tests.
    ///   - clock: the current time; tests may pin it.
    public init(
        database: any UserDataStore, catalog: @escaping @Sendable () -> PhotoCatalog,
        maximumPoints: Int = WalkRules.maximumPoints, maximumWalks: Int = WalkRules.maximumWalks,
        clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.database = database
        self.catalog = catalog
        self.maximumPoints = maximumPoints
        self.maximumWalks = maximumWalks
        self.clock = clock
    }

    /// Starts a walk with no points.
    /// - Throws: `walkLimitReached` when the user keeps `maximumWalks` walks already
    ///   (counted in `users.walks_count`, kept by every write of `walks`: this one,
    ///   `delete`, the erasures of `Accounts`).
    public func start(_ user: AuthenticatedUser) throws -> Walk {
        let id = WalkID.generate()
        let now = currentMillisecond()
        do {
            // The user's row first: it orders the change log and holds the count of walks.
            try database.groupWrite { [maximumWalks] connection in
                try Accounts.lockUser(user, in: connection)
                let kept = try connection.queryFirst("SELECT walks_count FROM users WHERE id = ?", [.integer(user.userID)]) {
                    $0.int(0)
                }
                guard let kept else { throw AccountsError.invalidToken }
                guard kept < maximumWalks else { throw WalkError.walkLimitReached(maximumWalks: maximumWalks) }
                try connection.execute(
                    "INSERT INTO walks (walk_id, user_id, started_at, updated_at) VALUES (?, ?, ?, ?)",
                    [.blob(id.bytes), .integer(user.userID), .integer(now), .integer(now)])
                try connection.execute(
                    "UPDATE users SET walks_count = walks_count + 1 WHERE id = ?", [.integer(user.userID)])
                try ChangeLog.record(.walk, walkID: id.bytes, userID: user.userID, at: now / 1_000, in: connection)
            }
        } catch let error as UserDataError where error.isConstraintViolation {
            // The user's foreign key: the user was deleted meanwhile.
            throw AccountsError.invalidToken
        }
        return Walk(
            walkID: id.text, startedAt: Self.date(now), updatedAt: Self.date(now), pointCount: 0, distanceMeters: 0,
            photoCount: 0)
    }

    /// Sends the walker's position. An accepted point, its entry and the walk's new
    /// counters are written in one transaction (grouped with other points' for one
    /// fsync); a rejected point writes nothing.
    /// - Throws: `walkNotFound`; `walkFull` for a point that would be accepted past
    ///   the walk's maximum of points.
    public func addPoint(_ user: AuthenticatedUser, walkID: String, point: WalkPoint) throws -> WalkPointOutcome {
        guard let id = WalkID(text: walkID) else { throw WalkError.walkNotFound }
        // Decided first on a reader: a rejected point or a full walk needs no write
        // (and so no wait for the writer); the transaction below decides again.
        let current = try database.read { connection in try Self.record(id, of: user, in: connection) }
        guard let current else { throw WalkError.walkNotFound }
        guard current.progress.accepting(point) != nil else { return .rejected(walk: current.walk) }
        guard current.progress.pointCount < maximumPoints else { throw WalkError.walkFull(maximumPoints: maximumPoints) }

        let now = currentMillisecond()
        let chooser = WalkPhotoChooser(catalog: catalog())
        return try database.groupWrite { [maximumPoints] connection in
            // The user's row (it orders the change log), then the walk's: its other
            // writers wait here, so the counters, the point number and the photos taken
            // are read as they last committed.
            try Accounts.lockUser(user, in: connection)
            try Self.lock(id, of: user, in: connection)
            guard let record = try Self.record(id, of: user, in: connection) else { throw WalkError.walkNotFound }
            guard let progress = record.progress.accepting(point) else { return .rejected(walk: record.walk) }
            guard record.progress.pointCount < maximumPoints else { throw WalkError.walkFull(maximumPoints: maximumPoints) }
            let entry = try Self.insert(point, as: progress, at: now, into: record.sequence, with: chooser, in: connection)
            let photoCount = record.walk.photoCount + (entry == nil ? 0 : 1)
            let walk = try Self.update(record, to: progress, photoCount: photoCount, updatedAt: now, in: connection)
            try Self.logChanges(of: id, gaining: entry.map { [$0] } ?? [], for: user, atMillisecond: now, in: connection)
            return .accepted(walk: walk, entry: entry)
        }
    }

    /// Sends points the phone recorded while offline, each handled in order as
    /// `addPoint` would handle it at its `recordedAt` (the entry's `addedAt`, the
    /// walk's `updatedAt`), except that a point recorded no later than the walk's last
    /// accepted point is not accepted: a batch sent again changes nothing. Points past
    /// the walk's maximum are not accepted either. All in one transaction (grouped with
    /// other writers' for one fsync): the batch is written whole or not at all.
    /// - Parameter points: `WalkRules.batchPoints` of them; their times are kept to the
    ///   millisecond.
    /// - Throws: `recordedOutOfOrder` or `recordedInTheFuture` for the first point that
    ///   breaks those rules, before anything is read; `walkNotFound`; `walkFull` when
    ///   the walk holds its maximum of points already.
    public func addPoints(_ user: AuthenticatedUser, walkID: String, points: [RoutePoint]) throws -> WalkBatchOutcome {
        precondition(WalkRules.batchPoints.contains(points.count), "the caller checks the batch's size")
        let times = points.map { Self.milliseconds($0.recordedAt) }
        let latest = currentMillisecond() + Int64(WalkRules.maximumClockLead * 1_000)
        for index in times.indices {
            if index > 0, times[index] < times[index - 1] { throw WalkError.recordedOutOfOrder(index: index) }
            if times[index] > latest { throw WalkError.recordedInTheFuture(index: index) }
        }
        guard let id = WalkID(text: walkID) else { throw WalkError.walkNotFound }

        let now = currentMillisecond()
        let chooser = WalkPhotoChooser(catalog: catalog())
        return try database.groupWrite { [maximumPoints] connection in
            // The user's row (it orders the change log), then the walk's, as `addPoint`.
            try Accounts.lockUser(user, in: connection)
            try Self.lock(id, of: user, in: connection)
            guard let record = try Self.record(id, of: user, in: connection) else { throw WalkError.walkNotFound }
            guard record.progress.pointCount < maximumPoints else { throw WalkError.walkFull(maximumPoints: maximumPoints) }
            var progress = record.progress
            var lastRecordedAt = record.lastRecordedAt
            var photoCount = record.walk.photoCount
            var results: [WalkPointResult] = []
            results.reserveCapacity(points.count)
            for (point, time) in zip(points, times) {
                guard progress.pointCount < maximumPoints, lastRecordedAt.map({ time > $0 }) ?? true,
                    let next = progress.accepting(point.point)
                else {
                    results.append(.notAccepted)
                    continue
                }
                let entry = try Self.insert(point.point, as: next, at: time, into: record.sequence, with: chooser, in: connection)
                progress = next
                lastRecordedAt = time
                if entry != nil { photoCount += 1 }
                results.append(.accepted(entry: entry))
            }
            guard progress != record.progress, let lastRecordedAt else {
                return WalkBatchOutcome(results: results, walk: record.walk)
            }
            let walk = try Self.update(record, to: progress, photoCount: photoCount, updatedAt: lastRecordedAt, in: connection)
            let entries = results.compactMap(\.entry)
            try Self.logChanges(of: id, gaining: entries, for: user, atMillisecond: now, in: connection)
            return WalkBatchOutcome(results: results, walk: walk)
        }
    }

    /// A walk and a page of its entries, most recently added first, after `cursor`.
    /// - Throws: `walkNotFound`; `AccountsError.invalidCursor`.
    public func walk(_ user: AuthenticatedUser, walkID: String, limit: Int, cursor: String?) throws -> WalkPage {
        precondition(limit > 0, "limit must be positive")
        guard let id = WalkID(text: walkID) else { throw WalkError.walkNotFound }
        let before = try cursor.map(Self.entriesCursor.decode) ?? Int64.max
        let (record, rows) = try database.read { connection in
            // One snapshot, so the entries agree with the walk's counters.
            try connection.snapshot {
                guard let record = try Self.record(id, of: user, in: connection) else { throw WalkError.walkNotFound }
                let rows = try connection.query(
                    """
                    SELECT entry.sequence, entry.photo_id, entry.added_at, point.latitude, point.longitude,
                        entry.distance_meters
                    FROM walk_entries AS entry
                    JOIN walk_points AS point ON point.walk = entry.walk AND point.number = entry.point_number
                    WHERE entry.walk = ? AND entry.sequence < ? ORDER BY entry.sequence DESC LIMIT ?
                    """,
                    [.integer(record.sequence), .integer(before), .integer(Int64(limit) + 1)]
                ) { row in
                    (sequence: row.int64(0),
                     entry: WalkEntry(
                        photoID: row.text(1), addedAt: Self.date(row.int64(2)),
                        point: WalkPoint(latitude: row.double(3), longitude: row.double(4)),
                        distanceMeters: row.double(5)))
                }
                return (record.walk, rows)
            }
        }
        let page = rows.prefix(limit)
        let nextCursor = rows.count > limit ? page.last.map { Self.entriesCursor.encode(sequence: $0.sequence) } : nil
        return WalkPage(walk: record, entries: page.map(\.entry), nextCursor: nextCursor)
    }

    /// The walk's accepted points in order: the line of the walk on a map.
    /// - Throws: `walkNotFound`.
    public func route(_ user: AuthenticatedUser, walkID: String) throws -> [RoutePoint] {
        guard let id = WalkID(text: walkID) else { throw WalkError.walkNotFound }
        return try database.read { connection in
            try connection.snapshot {
                guard let record = try Self.record(id, of: user, in: connection) else { throw WalkError.walkNotFound }
                return try connection.query(
                    "SELECT latitude, longitude, added_at FROM walk_points WHERE walk = ? ORDER BY number",
                    [.integer(record.sequence)]
                ) { row in
                    RoutePoint(point: WalkPoint(latitude: row.double(0), longitude: row.double(1)), recordedAt: Self.date(row.int64(2)))
                }
            }
        }
    }

    /// A page of the user's walks, most recently started first, after `cursor`.
    /// - Throws: `AccountsError.invalidCursor`.
    public func walks(_ user: AuthenticatedUser, limit: Int, cursor: String?) throws -> WalksPage {
        precondition(limit > 0, "limit must be positive")
        let before = try cursor.map(Self.walksCursor.decode) ?? Int64.max
        let records = try database.read { connection in
            try connection.query(
                """
                SELECT \(WalkRecord.columns) FROM walks \(WalkRecord.lastPointJoin)
                WHERE walks.user_id = ? AND walks.sequence < ? ORDER BY walks.sequence DESC LIMIT ?
                """,
                [.integer(user.userID), .integer(before), .integer(Int64(limit) + 1)], row: WalkRecord.init)
        }
        let page = records.prefix(limit)
        let nextCursor = records.count > limit ? page.last.map { Self.walksCursor.encode(sequence: $0.sequence) } : nil
        return WalksPage(walks: page.map(\.walk), nextCursor: nextCursor)
    }

    /// Deletes a walk with its points, entries and removed photos.
    /// - Throws: `walkNotFound`.
    public func delete(_ user: AuthenticatedUser, walkID: String) throws {
        guard let id = WalkID(text: walkID) else { throw WalkError.walkNotFound }
        let now = currentMillisecond()
        try database.groupWrite { connection in
            try Accounts.lockUser(user, in: connection)
            try connection.execute(
                "DELETE FROM walks WHERE walk_id = ? AND user_id = ?", [.blob(id.bytes), .integer(user.userID)])
            guard connection.changes > 0 else { throw WalkError.walkNotFound }
            try connection.execute("UPDATE users SET walks_count = walks_count - 1 WHERE id = ?", [.integer(user.userID)])
            try ChangeLog.record(.walk, walkID: id.bytes, deleted: true, userID: user.userID, at: now / 1_000, in: connection)
            // The entries go with their walk, in the log too.
            try connection.execute(
                "DELETE FROM sync_changes WHERE user_id = ? AND kind = 'walkEntry' AND walk_id = ?",
                [.integer(user.userID), .blob(id.bytes)])
        }
    }

    /// Takes a photo out of the walk's stream for good: it is remembered as removed,
    /// so no later point brings it back.
    /// - Throws: `walkNotFound`; `photoNotInWalk` when it is not in the stream now.
    public func removePhoto(_ user: AuthenticatedUser, walkID: String, photoID: String) throws {
        guard let id = WalkID(text: walkID) else { throw WalkError.walkNotFound }
        let now = currentMillisecond()
        try database.groupWrite { connection in
            try Accounts.lockUser(user, in: connection)
            try Self.lock(id, of: user, in: connection)
            guard let record = try Self.record(id, of: user, in: connection) else { throw WalkError.walkNotFound }
            try connection.execute(
                "DELETE FROM walk_entries WHERE walk = ? AND photo_id = ?", [.integer(record.sequence), .text(photoID)])
            guard connection.changes > 0 else { throw WalkError.photoNotInWalk }
            try connection.execute(
                "INSERT INTO walk_removed_photos (walk, photo_id) VALUES (?, ?)",
                [.integer(record.sequence), .text(photoID)])
            try connection.execute(
                "UPDATE walks SET photo_count = photo_count - 1, updated_at = ? WHERE sequence = ?",
                [.integer(now), .integer(record.sequence)])
            try ChangeLog.record(.walkEntry, walkID: id.bytes, photoID: photoID, deleted: true, userID: user.userID, at: now / 1_000, in: connection)
            try ChangeLog.record(.walk, walkID: id.bytes, userID: user.userID, at: now / 1_000, in: connection)
        }
    }

    /// One walk of the user, nil when there is no such walk (for `GET /sync`).
    public func summary(_ user: AuthenticatedUser, walkID: String) throws -> Walk? {
        guard let id = WalkID(text: walkID) else { return nil }
        return try database.read { connection in try Self.record(id, of: user, in: connection)?.walk }
    }

    /// One entry of the user's walk, nil when the photo is not in its stream (for `GET /sync`).
    public func entry(_ user: AuthenticatedUser, walkID: String, photoID: String) throws -> WalkEntry? {
        guard let id = WalkID(text: walkID) else { return nil }
        return try database.read { connection in
            try connection.queryFirst(
                """
                SELECT entry.added_at, point.latitude, point.longitude, entry.distance_meters
                FROM walks JOIN walk_entries AS entry ON entry.walk = walks.sequence
                JOIN walk_points AS point ON point.walk = entry.walk AND point.number = entry.point_number
                WHERE walks.walk_id = ? AND walks.user_id = ? AND entry.photo_id = ?
                """,
                [.blob(id.bytes), .integer(user.userID), .text(photoID)]
            ) { row in
                WalkEntry(
                    photoID: photoID, addedAt: Self.date(row.int64(0)),
                    point: WalkPoint(latitude: row.double(1), longitude: row.double(2)), distanceMeters: row.double(3))
            }
        }
    }

    // MARK: Helpers

    private static func record(_ id: WalkID, of user: AuthenticatedUser, in connection: any UserDataConnection) throws -> WalkRecord? {
        try connection.queryFirst(
            """
            SELECT \(WalkRecord.columns) FROM walks \(WalkRecord.lastPointJoin)
            WHERE walks.walk_id = ? AND walks.user_id = ?
            """,
            [.blob(id.bytes), .integer(user.userID)], row: WalkRecord.init)
    }

    /// Locks the walk's row until the write transaction ends (nothing if it is not the user's).
    private static func lock(_ id: WalkID, of user: AuthenticatedUser, in connection: any UserDataConnection) throws {
        try connection.lockRows(
            "SELECT 1 FROM walks WHERE walk_id = ? AND user_id = ?", [.blob(id.bytes), .integer(user.userID)])
    }

    /// Writes `point`, accepted as `progress` (its number is `progress.pointCount`) at
    /// `time`, and the entry of the photo it gains, if any. The walk's own row is the
    /// caller's to update, once however many points it writes.
    private static func insert(
        _ point: WalkPoint, as progress: WalkProgress, at time: Int64, into walk: Int64, with chooser: WalkPhotoChooser,
        in connection: any UserDataConnection
    ) throws -> WalkEntry? {
        try connection.execute(
            "INSERT INTO walk_points (walk, number, latitude, longitude, added_at) VALUES (?, ?, ?, ?, ?)",
            [.integer(walk), .init(progress.pointCount), .real(point.latitude), .real(point.longitude), .integer(time)])
        guard let choice = try choose(near: point, for: walk, with: chooser, in: connection) else { return nil }
        try connection.execute(
            """
            INSERT INTO walk_entries (walk, photo_id, point_number, distance_meters, added_at)
            VALUES (?, ?, ?, ?, ?)
            """,
            [.integer(walk), .text(choice.photoID), .init(progress.pointCount), .real(choice.distanceMeters),
             .integer(time)])
        return WalkEntry(photoID: choice.photoID, addedAt: date(time), point: point, distanceMeters: choice.distanceMeters)
    }

    /// Records in the change log of `GET /sync`, in the write's transaction, that the walk
    /// changed and gained `entries` (the log keeps seconds; walks keep milliseconds).
    private static func logChanges(
        of id: WalkID, gaining entries: [WalkEntry], for user: AuthenticatedUser, atMillisecond now: Int64,
        in connection: any UserDataConnection
    ) throws {
        try ChangeLog.record(.walk, walkID: id.bytes, userID: user.userID, at: now / 1_000, in: connection)
        for entry in entries {
            try ChangeLog.record(
                .walkEntry, walkID: id.bytes, photoID: entry.photoID, userID: user.userID, at: now / 1_000, in: connection)
        }
    }

    /// Writes the walk's new counters and `updatedAt`; returns the walk as it now is.
    private static func update(
        _ record: WalkRecord, to progress: WalkProgress, photoCount: Int, updatedAt: Int64,
        in connection: any UserDataConnection
    ) throws -> Walk {
        try connection.execute(
            """
            UPDATE walks SET point_count = ?, distance_meters = ?, photo_count = ?, updated_at = ?
            WHERE sequence = ?
            """,
            [.init(progress.pointCount), .real(progress.distanceMeters), .init(photoCount), .integer(updatedAt),
             .integer(record.sequence)])
        return Walk(
            walkID: record.walk.walkID, startedAt: record.walk.startedAt, updatedAt: date(updatedAt),
            pointCount: progress.pointCount, distanceMeters: progress.distanceMeters, photoCount: photoCount)
    }

    /// The photo the walk gains at `point`, asking the database, photo by photo, only
    /// about the photos of the locations the chooser considers.
    private static func choose(
        near point: WalkPoint, for walk: Int64, with chooser: WalkPhotoChooser, in connection: any UserDataConnection
    ) throws -> (photoID: String, distanceMeters: Double)? {
        var failure: (any Error)?
        let choice = chooser.choose(near: point) { photoID in
            do {
                return try connection.exists(
                    """
                    SELECT 1 FROM walk_entries WHERE walk = ?1 AND photo_id = ?2
                    UNION ALL SELECT 1 FROM walk_removed_photos WHERE walk = ?1 AND photo_id = ?2
                    """,
                    [.integer(walk), .text(photoID)])
            } catch {
                failure = error
                return true
            }
        }
        if let failure { throw failure }
        return choice.map { ($0.photoID, $0.distanceMeters) }
    }

    private func currentMillisecond() -> Int64 {
        Self.milliseconds(clock())
    }

    /// `date` in whole milliseconds since 1970, to the nearest: a `Date` made by
    /// `date(_:)` holds its milliseconds only up to a binary fraction, which rounding
    /// down could take to the millisecond before.
    public static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1_000).rounded())
    }

    /// The moment `milliseconds` after 1970.
    public static func date(_ milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: TimeInterval(milliseconds) / 1_000)
    }
}
