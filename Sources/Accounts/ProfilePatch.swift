/// A change to a user's profile (`PATCH /users/me`), one `PatchedField` per
/// profile field; `Profiles.update` validates it whole before writing any of it.
public struct ProfilePatch: Sendable, Equatable {
    public var displayName: PatchedField<String>
    public var home: PatchedField<HomePlace>
    public var email: PatchedField<String>

    public init(
        displayName: PatchedField<String> = .unchanged, home: PatchedField<HomePlace> = .unchanged,
        email: PatchedField<String> = .unchanged
    ) {
        self.displayName = displayName
        self.home = home
        self.email = email
    }
}
