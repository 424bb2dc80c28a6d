import Crypto
import UserData

/// A secret of the server kept in the store (`server_secrets`), so that every
/// instance sharing it uses the same one and it outlives restarts: the first instance
/// to ask stores a random 256-bit key under the name; the others read it.
enum ServerSecret {
    static func load(named name: String, from store: any UserDataStore) throws -> SymmetricKey {
        let candidate = SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }
        let stored = try store.write { connection in
            try connection.execute(
                "INSERT INTO server_secrets (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING",
                [.text(name), .blob(candidate)])
            return try connection.queryFirst("SELECT value FROM server_secrets WHERE name = ?", [.text(name)]) { $0.blob(0) }
        }
        guard let stored else { preconditionFailure("the secret was just stored or found") }
        return SymmetricKey(data: stored)
    }
}
