/// What a user may do beyond their own data: a moderator also decides other users'
/// feedback. Stored in `users.role`; the operator names moderators
/// (`past-nyc moderators`, `UserRoles`), no request can.
public enum UserRole: String, Sendable, CaseIterable {
    case user
    case moderator
}
