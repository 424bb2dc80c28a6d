/// A write for the holder of a bearer token, in the two forms a store may run it, so
/// the domain states both once and the store picks (`UserDataStore.run(_:completion:)`)
/// with no question about which store it is:
/// - `inTwoSteps`: the token checked by a read, then the write in a group commit. A store
///   in the process (SQLite) runs this: it has no round trips, so two steps cost nothing.
/// - `inOneStatement`: one statement that checks the token and writes (a stored function
///   of the schema), sent as a transaction of its own. A store across a network
///   (PostgreSQL) runs this: one round trip where the two steps take a dozen.
///
/// Both forms keep the same rules; the suite `TokenCheckedWriteTests` holds them to it
/// on each store.
public struct TokenCheckedWrite<Value: Sendable>: Sendable {
    /// Runs both steps and hands the outcome to the completion it is given.
    public let inTwoSteps: @Sendable (_ completion: @escaping @Sendable (Result<Value, any Error>) -> Void) -> Void
    /// Runs the one statement on the connection it is given, in no transaction of its
    /// own (the store sends it alone, so the server commits it before it answers).
    public let inOneStatement: @Sendable (any UserDataConnection) throws -> Value

    public init(
        inTwoSteps: @escaping @Sendable (_ completion: @escaping @Sendable (Result<Value, any Error>) -> Void) -> Void,
        inOneStatement: @escaping @Sendable (any UserDataConnection) throws -> Value
    ) {
        self.inTwoSteps = inTwoSteps
        self.inOneStatement = inOneStatement
    }
}
