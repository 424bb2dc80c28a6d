/// One committed slice of a user's erasure (`Accounts.eraseUserData`, `Accounts.deleteUser`):
/// what `Accounts`' `afterErasureSlice` observer is shown.
public struct ErasureSlice: Sendable, Equatable {
    public var userID: Int64
    /// Rows erased by this slice's transaction (tombstones written not counted).
    public var rows: Int
    /// Whether the user's data is all gone (for an account's deletion, the user's row too).
    public var finished: Bool

    public init(userID: Int64, rows: Int, finished: Bool) {
        self.userID = userID
        self.rows = rows
        self.finished = finished
    }
}
