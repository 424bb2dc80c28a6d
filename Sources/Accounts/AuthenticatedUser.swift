/// Proof that a request carried a valid token: which user, and which token (so
/// logout and password change know what to revoke or keep).
public struct AuthenticatedUser: Sendable, Hashable {
    /// The user's row in `users`, for the rows that belong to them.
    public let userID: Int64
    let tokenHash: [UInt8]
}
