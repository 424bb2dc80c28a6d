import Synchronization

/// The users whose data the writes of one SQLite transaction changed, collected as the
/// writes run (`UserDataConnection.announceChange`) and published by the store once
/// the transaction commits.
final class ChangeAnnouncements: Sendable {
    private let users = Mutex<Set<Int64>>([])

    func add(_ userID: Int64) {
        users.withLock { _ = $0.insert(userID) }
    }

    var userIDs: Set<Int64> { users.withLock { $0 } }
}
