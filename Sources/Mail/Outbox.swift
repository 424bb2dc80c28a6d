import Basics
import UserData

/// The mail outbox: the table `mail_outbox` of the user-data store, where a message
/// is written in the same transaction as what caused it (`enqueue`), so it exists if
/// and only if that commits, a `kill -9` included; `OutboxSender` then delivers it.
///
/// A row says what to send (its kind, its user, its recipient) and carries its
/// `Message-ID`, made once here; the text is written as it is sent
/// (`OutboxComposer`). Its life: pending (`finished_at` NULL) while attempts fail,
/// each moving `next_attempt_at` later; claimed by one instance at a time
/// (`claimed_by`, until `claim_expires_at`), so on a store that instances share each
/// message goes out from one of them; finished as `sent`, `refused` (the relay's
/// permanent no) or `superseded` (it no longer applied). Finished rows are deleted
/// after `retentionMilliseconds`. Times are Unix milliseconds.
public struct Outbox: Sendable {
    public let settings: MailSettings
    public let doorbell: OutboxDoorbell

    /// How long finished rows are kept: a week of what was sent, to look into.
    static let retentionMilliseconds: Int64 = 7 * 24 * 60 * 60 * 1000

    public init(settings: MailSettings, doorbell: OutboxDoorbell = OutboxDoorbell()) {
        self.settings = settings
        self.doorbell = doorbell
    }

    /// Writes a message to send to `recipient` at once, in the caller's write
    /// transaction; returns its row's `id`. Call `announce()` after the commit.
    @discardableResult
    public func enqueue(
        kind: String, userID: Int64?, recipient: String, now: Int64, in connection: any UserDataConnection
    ) throws -> Int64 {
        // 128 random bits: unique without asking the store (RFC 5322 §3.6.4).
        let unique = Hex.string(UInt64.random(in: .min ... .max)) + Hex.string(UInt64.random(in: .min ... .max))
        let inserted = try connection.queryFirst(
            """
            INSERT INTO mail_outbox (message_id, kind, user_id, recipient, created_at, next_attempt_at)
            VALUES (?, ?, ?, ?, ?, ?) RETURNING id
            """,
            [.text("<\(unique)@\(settings.domain)>"), .text(kind), userID.map { .integer($0) } ?? .null, .text(recipient),
             .integer(now), .integer(now)]
        ) { $0.int64(0) }
        guard let inserted else { preconditionFailure("INSERT … RETURNING returns the row") }
        return inserted
    }

    /// Wakes this instance's sender: call it once a transaction that enqueued committed.
    public func announce() {
        doorbell.ring()
    }

    /// What `claimNext` found.
    enum Claim {
        /// Claimed by this instance until its lease ends, and written: send it.
        case message(OutboxEntry, MailContent)
        /// Claimed and finished at once: its composer said it no longer applies.
        case superseded
        /// Another instance claimed it first; look again.
        case taken
    }

    /// Claims the message due first (at `now`, whose claim, if any, ran out) for
    /// `instance` until `now + lease`, and has `composer` write it, in one transaction;
    /// nil when none is due. On a shared store two instances may pick the same row: each
    /// locks it and looks again, and only the first finds it free.
    func claimNext(
        instance: String, now: Int64, composer: any OutboxComposer, store: any UserDataStore
    ) throws -> Claim? {
        let lease = settings.leaseMilliseconds
        return try store.groupWrite { connection -> Claim? in
            let due = try connection.queryFirst(
                """
                SELECT id FROM mail_outbox
                WHERE finished_at IS NULL AND next_attempt_at <= ?1 AND (claim_expires_at IS NULL OR claim_expires_at <= ?1)
                ORDER BY next_attempt_at, id LIMIT 1
                """,
                [.integer(now)]
            ) { $0.int64(0) }
            guard let due else { return nil }
            try connection.lockRows("SELECT 1 FROM mail_outbox WHERE id = ?", [.integer(due)])
            let entry = try connection.queryFirst(
                """
                SELECT id, message_id, kind, user_id, recipient, attempts FROM mail_outbox
                WHERE id = ?1 AND finished_at IS NULL AND (claim_expires_at IS NULL OR claim_expires_at <= ?2)
                """,
                [.integer(due), .integer(now)]
            ) { row in
                OutboxEntry(
                    id: row.int64(0), messageID: row.text(1), kind: row.text(2), userID: row.isNull(3) ? nil : row.int64(3),
                    recipient: row.text(4), attempts: row.int(5))
            }
            guard let entry else { return .taken }
            guard let content = try composer.compose(entry, now: now, in: connection) else {
                try connection.execute(
                    "UPDATE mail_outbox SET finished_at = ?, outcome = 'superseded' WHERE id = ?",
                    [.integer(now), .integer(entry.id)])
                return .superseded
            }
            try connection.execute(
                "UPDATE mail_outbox SET claimed_by = ?, claim_expires_at = ? WHERE id = ?",
                [.text(instance), .integer(now + lease), .integer(entry.id)])
            return .message(entry, content)
        }
    }

    /// Records the end of `entry`'s attempt by `instance`: `outcome` (`sent`, `refused`)
    /// or, with `retryAt`, another attempt then. Does nothing when the claim was lost
    /// (its lease ran out and another instance took the message).
    func record(
        _ entry: OutboxEntry, instance: String, outcome: String?, retryAt: Int64? = nil, error: String?, now: Int64,
        store: any UserDataStore
    ) throws {
        try store.groupWrite { connection in
            try connection.execute(
                """
                UPDATE mail_outbox SET attempts = attempts + 1, claimed_by = NULL, claim_expires_at = NULL,
                    finished_at = ?, outcome = ?, next_attempt_at = ?, last_error = ?
                WHERE id = ? AND claimed_by = ?
                """,
                [outcome == nil ? .null : .integer(now), outcome.map { .text($0) } ?? .null, .integer(retryAt ?? now),
                 error.map { .text($0) } ?? .null, .integer(entry.id), .text(instance)])
        }
    }

    /// When the next pending message is due (its claim, if any, included), nil when none waits.
    func nextDue(store: any UserDataStore) throws -> Int64? {
        try store.read { connection in
            try connection.queryFirst(
                """
                SELECT min(CASE WHEN claim_expires_at > next_attempt_at THEN claim_expires_at ELSE next_attempt_at END)
                FROM mail_outbox WHERE finished_at IS NULL
                """,
                []
            ) { $0.isNull(0) ? nil : $0.int64(0) } ?? nil
        }
    }

    /// At an instance's start: every pending message is due at once (a restart often
    /// follows the repair that lets mail through); on a store of this instance alone,
    /// the claims of its previous life are dropped too (no other instance can hold one).
    func prepareForStart(now: Int64, store: any UserDataStore) throws {
        try store.groupWrite { connection in
            try connection.execute(
                "UPDATE mail_outbox SET next_attempt_at = ? WHERE finished_at IS NULL AND next_attempt_at > ?",
                [.integer(now), .integer(now)])
            if !store.isShared {
                try connection.execute(
                    "UPDATE mail_outbox SET claimed_by = NULL, claim_expires_at = NULL WHERE claimed_by IS NOT NULL", [])
            }
        }
    }

    /// Deletes the rows finished before `retentionMilliseconds` ago.
    func purgeFinished(now: Int64, store: any UserDataStore) throws {
        try store.groupWrite { connection in
            try connection.execute(
                "DELETE FROM mail_outbox WHERE finished_at IS NOT NULL AND finished_at < ?",
                [.integer(now - Self.retentionMilliseconds)])
        }
    }
}
