import Postgres
import Synchronization

/// One place in `PostgresUserDataStore`'s pool: a connection (or none yet) only
/// reachable while holding the slot's lock, so one thread at a time uses it.
final class PostgresPoolSlot: Sendable {
    private let connection = Mutex<PostgresUserDataConnection?>(nil)

    /// Runs `body` if the slot is free right now (nil if it is taken), on its connection,
    /// connecting first when there is none or it broke. PostgreSQL's failures become
    /// `UserDataError`s: one that says the server is unreachable, or a transaction the
    /// server rolled back for a race (one that `body` did not run again), is
    /// `unavailable`, and a broken connection is dropped, so the next use connects anew.
    func withConnectionIfFree<Value: Sendable>(
        url: String, connectTimeout: Duration, _ body: (PostgresUserDataConnection) throws -> Value
    ) -> Result<Value, any Error>? {
        connection.withLockIfAvailable { connection -> Result<Value, any Error> in
            do {
                if let current = connection, current.isUsable {
                    return .success(try body(current))
                }
                connection = nil
                let fresh = PostgresUserDataConnection(try PostgresConnection(url: url, connectTimeout: connectTimeout))
                connection = fresh
                return .success(try body(fresh))
            } catch let error as PostgresError where error.isUnavailable || error.isSerializationFailure {
                if let current = connection, !current.isUsable { connection = nil }
                return .failure(UserDataError(error))
            } catch let error as PostgresError {
                return .failure(UserDataError(error))
            } catch {
                return .failure(error)
            }
        }
    }
}
