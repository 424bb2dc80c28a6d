import Foundation
import UserData

/// The `RegistrationThrottling` of a store shared by several instances: each account
/// created is a row of `registrations`, so every instance counts the same ones. Rows
/// that left the window are deleted as new ones arrive: the table holds at most the
/// registrations of the last `RegistrationThrottle.window`.
final class StoredRegistrationThrottle: RegistrationThrottling {
    private let rule: SlidingWindow
    private let store: any UserDataStore

    /// - Parameter perHour: accounts one address may create within the window; at least 1.
    init(store: any UserDataStore, perHour: Int) {
        self.store = store
        rule = SlidingWindow(limit: perHour, window: RegistrationThrottle.window)
    }

    func retryAfter(clientAddress: String, now: Date) throws -> Int? {
        let now = now.timeIntervalSince1970
        let rule = rule
        let times = try store.read { connection in
            try connection.query(
                """
                SELECT registered_at FROM registrations WHERE client_address = ? AND registered_at > ?
                ORDER BY registered_at DESC LIMIT ?
                """,
                [.text(clientAddress), .real(rule.start(now: now)), .integer(Int64(rule.limit))]
            ) { $0.double(0) }
        }
        return rule.retryAfter(times, now: now)
    }

    func record(clientAddress: String, now: Date) throws {
        let now = now.timeIntervalSince1970
        let start = rule.start(now: now)
        try store.write { connection in
            try connection.execute("DELETE FROM registrations WHERE registered_at <= ?", [.real(start)])
            try connection.execute(
                "INSERT INTO registrations (client_address, registered_at) VALUES (?, ?)",
                [.text(clientAddress), .real(now)])
        }
    }
}
