import SQLite
import Synchronization

/// One caller's body in a group commit, with its outcome: staged when the body ran,
/// published only when the commit is known, so no caller sees a result of a
/// transaction that might still roll back.
final class GroupedWrite<Value: Sendable>: GroupedWriteJob {
    private enum State {
        case waiting
        case staged(Result<Value, any Error>)
        case finished(Result<Value, any Error>)
    }

    private let body: @Sendable (any UserDataConnection) throws -> Value
    private let state = Mutex<State>(.waiting)

    init(_ body: @escaping @Sendable (any UserDataConnection) throws -> Value) {
        self.body = body
    }

    func run(on connection: SQLiteConnection) -> Bool {
        let result = Result { try body(SQLiteUserDataConnection(connection: connection)) }
        state.withLock { $0 = .staged(result) }
        if case .failure = result { return false }
        return true
    }

    func finish(failure: (any Error)?) {
        state.withLock { state in
            switch (state, failure) {
            case (_, let failure?): state = .finished(.failure(failure))
            case (.staged(let result), nil): state = .finished(result)
            default: preconditionFailure("a group commits only after every job in it ran")
            }
        }
    }

    var isFinished: Bool {
        state.withLock { if case .finished = $0 { true } else { false } }
    }

    /// The outcome; call only after the group holding this write has been committed.
    func result() throws -> Value {
        let outcome = state.withLock { state -> Result<Value, any Error>? in
            if case .finished(let result) = state { result } else { nil }
        }
        guard let outcome else { preconditionFailure("a grouped write is read only after its group committed") }
        return try outcome.get()
    }
}
