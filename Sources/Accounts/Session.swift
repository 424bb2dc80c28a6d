import Foundation

/// A new bearer token and its user, from registration or login. `token` is the
/// only copy of the secret: it is shown to the client once and never stored.
public struct Session: Sendable {
    public let user: User
    public let token: String
    public let expiresAt: Date
}
