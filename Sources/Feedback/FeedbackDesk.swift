import Accounts
import Catalog
import Foundation
import UserData

/// Where users report what is wrong with a photo and moderators decide: the feedback
/// rows of the user-data store (`SQLiteUserDataSchema`, migration 12), the rotation
/// agreement, and the corrections an acceptance appends to `catalog_corrections`
/// (`CorrectionLog`), from which every instance builds its catalog.
///
/// Every method may block (the store, fsync): call them off the event loop. Every write
/// is one transaction, committed durably before the method returns. Writers of one
/// photo's rotation feedback take that photo's row in `feedback_photos` first, so its
/// agreement is decided one writer at a time on PostgreSQL too; a user's sends take the
/// user's row first (the open feedback and the daily count are the user's). Failures the
/// client caused are `FeedbackError`s (and `AccountsError.invalidCursor`,
/// `invalidToken`); the store's own are `UserDataError`s.
public final class FeedbackDesk: Sendable {
    private let database: any UserDataStore
    /// The shipped catalog: which photos exist, and where each was placed before any
    /// correction (the 50 km rule measures from there).
    private let catalog: ShippedCatalog
    private let dailyLimit: Int
    private let clock: @Sendable () -> Date

    static let mineCursor = SequenceCursor(prefix: "fm1:")
    static let queueCursor = SequenceCursor(prefix: "fq1:")

    /// - Parameters:
    ///   - catalog: the catalog as shipped, never a corrected generation.
    ///   - dailyLimit: new feedbacks per user within 24 hours; lower only in tests.
    ///   - clock: the current time; tests move it.
    public init(
        database: any UserDataStore, catalog: ShippedCatalog, dailyLimit: Int = FeedbackRules.dailyLimit,
        clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        precondition(dailyLimit > 0, "a user may send a feedback")
        self.database = database
        self.catalog = catalog
        self.dailyLimit = dailyLimit
        self.clock = clock
    }

    /// The photo's place in the shipped catalog; nil when there is no such photo.
    public func shippedPlace(ofPhoto photoID: String) -> CatalogLocation? {
        catalog.photoIndex(photoID: photoID).map { catalog.locations[catalog.photos[$0].locationIndex] }
    }

    // MARK: Sending

    /// Sends feedback about a photo: a new one (`created`), or, when the user has an open
    /// feedback of the same photo and kind, that one with its fields replaced (same ID
    /// and `createdAt`). A rotation is then weighed for agreement (`RotationAgreement`),
    /// which may accept it, and others, at once.
    /// - Throws: `photoNotFound`; `invalidField` (`FeedbackRules`); `dailyLimitReached`
    ///   for a new feedback past the user's `dailyLimit` in 24 hours (a replacement is
    ///   not new); `AccountsError.invalidToken` when the account's deletion began.
    public func send(_ user: AuthenticatedUser, photoID: String, change: FeedbackChange) throws -> FeedbackReceipt {
        guard let shipped = shippedPlace(ofPhoto: photoID) else { throw FeedbackError.photoNotFound(photoID: photoID) }
        try FeedbackRules.validate(change, shipped: shipped)
        let now = currentSecond()
        let kind = change.kind
        let fields = Self.fieldValues(change)
        return try database.groupWrite { [dailyLimit] connection in
            try Accounts.lockUser(user, in: connection)
            // No role: the account's deletion began since the token was checked.
            guard try UserRoles.role(ofUser: user.userID, in: connection) != nil else { throw AccountsError.invalidToken }
            if kind == .rotation { try Self.lockPhoto(photoID, in: connection) }
            let open = try connection.queryFirst(
                "SELECT id FROM feedback WHERE user_id = ? AND photo_id = ? AND kind = ? AND status = 'open'",
                [.integer(user.userID), .text(photoID), .text(kind.rawValue)]
            ) { $0.int64(0) }
            let id: Int64
            if let open {
                try connection.execute(
                    "UPDATE feedback SET latitude = ?, longitude = ?, year = ?, degrees = ?, text = ? WHERE id = ?",
                    fields + [.integer(open)])
                id = open
            } else {
                // The `dailyLimit`-th newest of the user's feedbacks in the window: while
                // there is one, the window is full, until it leaves.
                let window = FeedbackRules.dailyWindowSeconds
                let filling = try connection.queryFirst(
                    """
                    SELECT created_at FROM feedback WHERE user_id = ? AND created_at > ?
                    ORDER BY created_at DESC LIMIT 1 OFFSET ?
                    """,
                    [.integer(user.userID), .integer(now - window), .init(dailyLimit - 1)]
                ) { $0.int64(0) }
                if let filling {
                    throw FeedbackError.dailyLimitReached(
                        maximum: dailyLimit, retryAfterSeconds: Int(max(1, filling + window - now)))
                }
                let inserted = try connection.queryFirst(
                    """
                    INSERT INTO feedback (user_id, photo_id, kind, latitude, longitude, year, degrees, text, status, created_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'open', ?)
                    RETURNING id
                    """,
                    [.integer(user.userID), .text(photoID), .text(kind.rawValue)] + fields + [.integer(now)]
                ) { $0.int64(0) }
                guard let inserted else { preconditionFailure("INSERT … RETURNING returns the row") }
                id = inserted
            }
            if kind == .rotation { try Self.applyAgreement(photoID: photoID, at: now, in: connection) }
            guard let feedback = try Self.feedback(id: id, in: connection)?.feedback else {
                preconditionFailure("the feedback was written in this transaction")
            }
            return FeedbackReceipt(feedback: feedback, created: open == nil)
        }
    }

    // MARK: Reading

    /// One feedback, to its author or a moderator.
    /// - Throws: `feedbackNotFound` for an ID that names none, or another user's to a
    ///   user who is not a moderator.
    public func feedback(_ user: AuthenticatedUser, feedbackID: String) throws -> Feedback {
        guard let id = Self.id(feedbackID) else { throw FeedbackError.feedbackNotFound }
        return try database.read { connection in
            guard let found = try Self.feedback(id: id, in: connection) else { throw FeedbackError.feedbackNotFound }
            if found.author == user.userID { return found.feedback }
            guard try UserRoles.role(ofUser: user.userID, in: connection) == .moderator else {
                throw FeedbackError.feedbackNotFound
            }
            return found.feedback
        }
    }

    /// A page of the user's own feedback, newest first, after `cursor`.
    /// - Throws: `AccountsError.invalidCursor`.
    public func mine(_ user: AuthenticatedUser, limit: Int, cursor: String?) throws -> FeedbackPage {
        precondition(limit > 0, "limit must be positive")
        let before = try cursor.map(Self.mineCursor.decode) ?? Int64.max
        let rows = try database.read { connection in
            try connection.query(
                "SELECT \(Self.columns) FROM feedback WHERE user_id = ? AND id < ? ORDER BY id DESC LIMIT ?",
                [.integer(user.userID), .integer(before), .integer(Int64(limit) + 1)], row: Self.row)
        }
        return Self.page(rows, limit: limit, cursor: Self.mineCursor)
    }

    // MARK: Moderation

    /// The user as a moderator, for this request.
    /// - Throws: `notModerator` unless the user holds the moderator role now.
    public func moderator(_ user: AuthenticatedUser) throws -> Moderator {
        let role = try database.read { connection in try UserRoles.role(ofUser: user.userID, in: connection) }
        guard role == .moderator else { throw FeedbackError.notModerator }
        return Moderator(userID: user.userID)
    }

    /// A page of the moderation queue: feedback of `status` (and `kind`, if given),
    /// oldest first, after `cursor`.
    /// - Throws: `AccountsError.invalidCursor`.
    public func queue(
        _ moderator: Moderator, status: FeedbackStatus, kind: FeedbackKind?, limit: Int, cursor: String?
    ) throws -> FeedbackPage {
        precondition(limit > 0, "limit must be positive")
        let after = try cursor.map(Self.queueCursor.decode) ?? 0
        let kindFilter = kind == nil ? "" : "AND kind = ? "
        let values: [UserDataValue] =
            [.text(status.rawValue)] + (kind.map { [.text($0.rawValue)] } ?? []) + [.integer(after), .integer(Int64(limit) + 1)]
        let rows = try database.read { connection in
            try connection.query(
                "SELECT \(Self.columns) FROM feedback WHERE status = ? \(kindFilter)AND id > ? ORDER BY id LIMIT ?", values,
                row: Self.row)
        }
        return Self.page(rows, limit: limit, cursor: Self.queueCursor)
    }

    /// Accepts or rejects an open feedback. An accepted location, date or rotation
    /// appends its correction to `catalog_corrections` in the same transaction; a
    /// decided rotation is then weighed for agreement again (a rejection may leave the
    /// others agreeing).
    /// - Throws: `feedbackNotFound`; `alreadyDecided`.
    public func decide(_ moderator: Moderator, feedbackID: String, accept: Bool) throws -> Feedback {
        guard let id = Self.id(feedbackID) else { throw FeedbackError.feedbackNotFound }
        let now = currentSecond()
        return try database.groupWrite { connection in
            let target = try connection.queryFirst("SELECT photo_id, kind FROM feedback WHERE id = ?", [.integer(id)]) {
                (photoID: $0.text(0), isRotation: $0.text(1) == FeedbackKind.rotation.rawValue)
            }
            guard let target else { throw FeedbackError.feedbackNotFound }
            if target.isRotation { try Self.lockPhoto(target.photoID, in: connection) }
            try connection.lockRows("SELECT 1 FROM feedback WHERE id = ?", [.integer(id)])
            // Read again under the lock: another decision, or the author's erasure, may have come first.
            guard let current = try Self.feedback(id: id, in: connection)?.feedback else { throw FeedbackError.feedbackNotFound }
            guard current.status == .open else { throw FeedbackError.alreadyDecided(status: current.status) }
            let status: FeedbackStatus = accept ? .accepted : .rejected
            try connection.execute(
                """
                UPDATE feedback SET status = ?, decided_at = ?, decided_by = ?, decided_through = 'moderator'
                WHERE id = ?
                """,
                [.text(status.rawValue), .integer(now), .integer(moderator.userID), .integer(id)])
            if accept, let correction = current.change.correction {
                try CorrectionLog.append(correction, photoID: current.photoID, feedbackID: id, at: now, in: connection)
            }
            if target.isRotation { try Self.applyAgreement(photoID: current.photoID, at: now, in: connection) }
            guard let decided = try Self.feedback(id: id, in: connection)?.feedback else {
                preconditionFailure("the feedback was locked in this transaction")
            }
            return decided
        }
    }

    // MARK: Helpers

    /// Accepts the photo's open rotation feedbacks that its users agree on
    /// (`RotationAgreement`), oldest first, each with its correction. The caller holds
    /// the photo's lock.
    private static func applyAgreement(photoID: String, at now: Int64, in connection: any UserDataConnection) throws {
        // A feedback whose author's account is gone counts as a voter of its own: -id.
        let votes = try connection.query(
            """
            SELECT id, coalesce(user_id, -id), degrees, status FROM feedback
            WHERE photo_id = ? AND kind = 'rotation' AND (status = 'open' OR status = 'accepted') ORDER BY id
            """,
            [.text(photoID)]
        ) { (id: $0.int64(0), vote: RotationVote(voter: $0.int64(1), degrees: $0.int(2)), isOpen: $0.text(3) == "open") }
        guard let degrees = RotationAgreement.agreedDegrees(votes.map(\.vote)) else { return }
        for vote in votes where vote.isOpen && vote.vote.degrees == degrees {
            try connection.execute(
                "UPDATE feedback SET status = 'accepted', decided_at = ?, decided_through = 'agreement' WHERE id = ?",
                [.integer(now), .integer(vote.id)])
            try CorrectionLog.append(.rotation(degrees: degrees), photoID: photoID, feedbackID: vote.id, at: now, in: connection)
        }
    }

    /// Locks the photo's row of `feedback_photos`, made on its first rotation feedback,
    /// for the rest of the write transaction.
    private static func lockPhoto(_ photoID: String, in connection: any UserDataConnection) throws {
        try connection.execute("INSERT INTO feedback_photos (photo_id) VALUES (?) ON CONFLICT DO NOTHING", [.text(photoID)])
        try connection.lockRows("SELECT 1 FROM feedback_photos WHERE photo_id = ?", [.text(photoID)])
    }

    /// The columns `row` reads, in its order.
    private static let columns = "id, photo_id, kind, latitude, longitude, year, degrees, text, status, created_at, decided_at"

    private static func row(_ row: any UserDataRow) -> (id: Int64, feedback: Feedback) {
        let change: FeedbackChange =
            switch FeedbackKind(rawValue: row.text(2)) {
            case .location: .location(latitude: row.double(3), longitude: row.double(4))
            case .date: .date(year: row.int(5))
            case .rotation: .rotation(degrees: row.int(6))
            case .other, nil: .other(text: row.text(7))
            }
        let feedback = Feedback(
            feedbackID: String(row.int64(0)), photoID: row.text(1), change: change,
            status: FeedbackStatus(rawValue: row.text(8)) ?? .open, createdAt: date(row.int64(9)),
            decidedAt: row.isNull(10) ? nil : date(row.int64(10)))
        return (row.int64(0), feedback)
    }

    /// The feedback `id` with its author (nil once the author's account is gone).
    private static func feedback(id: Int64, in connection: any UserDataConnection) throws -> (feedback: Feedback, author: Int64?)? {
        try connection.queryFirst("SELECT \(columns), user_id FROM feedback WHERE id = ?", [.integer(id)]) {
            (row($0).feedback, $0.isNull(11) ? nil : $0.int64(11))
        }
    }

    private static func page(_ rows: [(id: Int64, feedback: Feedback)], limit: Int, cursor: SequenceCursor) -> FeedbackPage {
        let page = rows.prefix(limit)
        let next = rows.count > limit ? page.last.map { cursor.encode(sequence: $0.id) } : nil
        return FeedbackPage(feedback: page.map(\.feedback), nextCursor: next)
    }

    /// The values of the kind columns (latitude, longitude, year, degrees, text): the
    /// change's own set, the others NULL.
    private static func fieldValues(_ change: FeedbackChange) -> [UserDataValue] {
        switch change {
        case .location(let latitude, let longitude): [.real(latitude), .real(longitude), .null, .null, .null]
        case .date(let year): [.null, .null, .init(year), .null, .null]
        case .rotation(let degrees): [.null, .null, .null, .init(degrees), .null]
        case .other(let text): [.null, .null, .null, .null, .text(text)]
        }
    }

    /// The row ID a feedbackID names: its decimal digits exactly as `Feedback` writes
    /// them (no sign, no leading zero); nil for any other text.
    private static func id(_ feedbackID: String) -> Int64? {
        guard let id = Int64(feedbackID), id > 0, String(id) == feedbackID else { return nil }
        return id
    }

    private func currentSecond() -> Int64 {
        Int64(clock().timeIntervalSince1970.rounded(.down))
    }

    private static func date(_ seconds: Int64) -> Date {
        Date(timeIntervalSince1970: TimeInterval(seconds))
    }
}
