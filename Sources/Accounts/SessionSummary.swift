import Foundation

/// One live session (token) of a user as `GET /users/me/sessions` lists it; never the
/// token itself.
public struct SessionSummary: Sendable, Equatable {
    /// Names the session without revealing its token (`Sessions.sessionID`).
    public let sessionID: String
    public let createdAt: Date
    /// The latest use this instance knows of, to the second.
    public let lastUsedAt: Date
    /// `lastUsedAt` + 30 days, at most `createdAt` + 365 days.
    public let expiresAt: Date
    /// The `User-Agent` of the request that made the token, at most 256 characters.
    public let userAgent: String?
    /// Whether it is the token of the request that asked.
    public let current: Bool
}
