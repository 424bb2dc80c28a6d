/// Proof that a request carried a valid token: which user, and which token (so
/// logout and password change know what to revoke or keep).
public struct AuthenticatedUser: Sendable, Equatable {
    let userID: Int64
    let tokenHash: [UInt8]
}
