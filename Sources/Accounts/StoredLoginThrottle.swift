import Foundation
import UserData

/// The `LoginThrottling` of a store shared by several instances: each failure is a row
/// of `login_failures`, so every instance counts the same failures and a pair is
/// refused after `maxFailures` wherever they were made. Same rule as `LoginThrottle`:
/// the newest `maxFailures` failures within `window` decide; rows that left the
/// window are deleted as new failures arrive.
final class StoredLoginThrottle: LoginThrottling {
    let maxFailures: Int
    let window: TimeInterval
    private let store: any UserDataStore

    init(store: any UserDataStore, maxFailures: Int = 5, window: TimeInterval = 15 * 60) {
        self.store = store
        self.maxFailures = maxFailures
        self.window = window
    }

    func retryAfter(_ key: LoginThrottle.Key, now: Date) throws -> Int? {
        let times = try store.read { connection in
            try connection.query(
                """
                SELECT failed_at FROM login_failures
                WHERE username_digest = ? AND client_address = ? AND failed_at > ?
                ORDER BY failed_at DESC LIMIT ?
                """,
                Self.values(key) + [.real(now.timeIntervalSince1970 - window), .integer(Int64(maxFailures))]
            ) { $0.double(0) }
        }
        guard times.count >= maxFailures, let oldest = times.last else { return nil }
        return max(1, Int((oldest + window - now.timeIntervalSince1970).rounded(.up)))
    }

    func recordFailure(_ key: LoginThrottle.Key, now: Date) throws {
        try store.write { connection in
            try connection.execute(
                "DELETE FROM login_failures WHERE failed_at <= ?", [.real(now.timeIntervalSince1970 - window)])
            try connection.execute(
                "INSERT INTO login_failures (username_digest, client_address, failed_at) VALUES (?, ?, ?)",
                Self.values(key) + [.real(now.timeIntervalSince1970)])
        }
    }

    func recordSuccess(_ key: LoginThrottle.Key) throws {
        try store.write { connection in
            try connection.execute(
                "DELETE FROM login_failures WHERE username_digest = ? AND client_address = ?", Self.values(key))
        }
    }

    private static func values(_ key: LoginThrottle.Key) -> [UserDataValue] {
        [.blob(Array(key.usernameDigest)), .text(key.clientAddress)]
    }
}
