import Crypto
import UserData

/// The secret that authenticates sync tokens (`ServerSecret`), so that every instance
/// sharing the store accepts the others' tokens, and tokens outlive restarts.
enum SyncTokenKey {
    static let name = "sync-token"

    static func load(from store: any UserDataStore) throws -> SymmetricKey {
        try ServerSecret.load(named: name, from: store)
    }
}
