import Foundation
import UserData

extension User {
    /// The user with ID `id` as stored, read through `connection`; nil for one that is
    /// unknown or being deleted.
    static func stored(_ id: Int64, in connection: any UserDataConnection) throws -> User? {
        try connection.queryFirst(
            """
            SELECT username, created_at, favorites_count, display_name, home_latitude, home_longitude, email, email_verified, role
            FROM users WHERE id = ? AND deleted_at IS NULL
            """,
            [.integer(id)]
        ) { row in
            User(
                username: row.text(0), createdAt: Date(unixSeconds: row.int64(1)), favoriteCount: row.int(2),
                displayName: row.optionalText(3),
                home: row.isNull(4) ? nil : HomePlace(latitude: row.double(4), longitude: row.double(5)),
                email: row.optionalText(6), emailVerified: row.int(7) == 1, role: UserRole(rawValue: row.text(8)) ?? .user)
        }
    }
}
