import Foundation
import UserData

/// The `LoginThrottling` of a store shared by several instances: each failure is a row
/// of `login_failures`, so every instance counts the same failures and a pair or an
/// address is refused wherever they were made. Same rules as `LoginThrottle`. A success
/// marks its pair's rows as no longer counting for the username
/// (`counts_for_username`), so the address's count keeps them. Rows that left the
/// window are deleted as new failures arrive: the table holds at most the failures of
/// the last `LoginThrottle.window`.
final class StoredLoginThrottle: LoginThrottling {
    private let pair = SlidingWindow(limit: LoginThrottle.failuresPerUsername, window: LoginThrottle.window)
    /// Nil when the per-address limit is lifted.
    private let client: SlidingWindow?
    private let store: any UserDataStore

    init(store: any UserDataStore, failuresPerClient: Int) {
        self.store = store
        client = failuresPerClient > 0 ? SlidingWindow(limit: failuresPerClient, window: LoginThrottle.window) : nil
    }

    func refusal(_ key: LoginThrottle.Key, now: Date) throws -> AccountsError? {
        let now = now.timeIntervalSince1970
        let pair = pair
        let client = client
        let (pairTimes, clientTimes) = try store.read { connection in
            let pairTimes = try connection.query(
                """
                SELECT failed_at FROM login_failures
                WHERE username_digest = ? AND client_address = ? AND counts_for_username AND failed_at > ?
                ORDER BY failed_at DESC LIMIT ?
                """,
                Self.values(key) + [.real(pair.start(now: now)), .integer(Int64(pair.limit))]
            ) { $0.double(0) }
            guard let client else { return (pairTimes, [Double]()) }
            let clientTimes = try connection.query(
                """
                SELECT failed_at FROM login_failures WHERE client_address = ? AND failed_at > ?
                ORDER BY failed_at DESC LIMIT ?
                """,
                [.text(key.clientAddress), .real(client.start(now: now)), .integer(Int64(client.limit))]
            ) { $0.double(0) }
            return (pairTimes, clientTimes)
        }
        return Self.refusal(
            pairRetryAfter: pair.retryAfter(pairTimes, now: now),
            clientRetryAfter: client?.retryAfter(clientTimes, now: now))
    }

    func recordFailure(_ key: LoginThrottle.Key, now: Date) throws {
        let now = now.timeIntervalSince1970
        try store.write { connection in
            try connection.execute(
                "DELETE FROM login_failures WHERE failed_at <= ?", [.real(now - LoginThrottle.window)])
            try connection.execute(
                "INSERT INTO login_failures (username_digest, client_address, failed_at) VALUES (?, ?, ?)",
                Self.values(key) + [.real(now)])
        }
    }

    func recordSuccess(_ key: LoginThrottle.Key) throws {
        try store.write { connection in
            try connection.execute(
                """
                UPDATE login_failures SET counts_for_username = false
                WHERE username_digest = ? AND client_address = ? AND counts_for_username
                """,
                Self.values(key))
        }
    }

    private static func values(_ key: LoginThrottle.Key) -> [UserDataValue] {
        [.blob(Array(key.usernameDigest)), .text(key.clientAddress)]
    }
}
