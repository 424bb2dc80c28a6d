import SQLite
import Synchronization

/// One caller's body in a group commit, with its completion: the body's outcome is
/// staged when it runs and handed over only when the commit is known, so no caller
/// sees a result of a transaction that might still roll back.
final class GroupedWrite<Value: Sendable>: GroupedWriteJob {
    private let body: @Sendable (any UserDataConnection) throws -> Value
    private let completion: @Sendable (Result<Value, any Error>) -> Void
    private let staged = Mutex<Result<Value, any Error>?>(nil)

    init(
        _ body: @escaping @Sendable (any UserDataConnection) throws -> Value,
        completion: @escaping @Sendable (Result<Value, any Error>) -> Void
    ) {
        self.body = body
        self.completion = completion
    }

    func run(on connection: SQLiteUserDataConnection) -> Bool {
        let result = Result { try body(connection) }
        staged.withLock { $0 = result }
        if case .failure = result { return false }
        return true
    }

    func finish(failure: (any Error)?) {
        if let failure {
            completion(.failure(failure))
            return
        }
        guard let result = staged.withLock({ $0.take() }) else {
            preconditionFailure("a group commits only after every job in it ran")
        }
        completion(result)
    }
}
