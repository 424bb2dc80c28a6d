import Foundation

/// A user as `GET /users/me` shows them.
public struct User: Sendable, Equatable {
    /// As registered (NFC), whatever case the login used.
    public let username: String
    public let createdAt: Date
    public let favoriteCount: Int
    /// Trimmed; nil until the user sets one.
    public let displayName: String?
    public let home: HomePlace?
    /// `moderator` when the operator named the user one.
    public let role: UserRole
}
