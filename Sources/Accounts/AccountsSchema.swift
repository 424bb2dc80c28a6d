import SQLite

/// The schema of `accounts.sqlite`, as migrations (append new ones; never edit a
/// shipped one).
///
/// Times are Unix seconds. Tokens are stored only as their SHA-256; passwords only as
/// scrypt hash strings. `favorites.sequence` is AUTOINCREMENT, so it only grows, even
/// after deletions (https://sqlite.org/autoinc.html): it orders the list and is the
/// pagination cursor.
enum AccountsSchema {
    static let migrator = Migrator(migrations: [
        """
        CREATE TABLE users (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            username TEXT NOT NULL,
            username_key TEXT NOT NULL UNIQUE,
            password_hash TEXT NOT NULL,
            created_at INTEGER NOT NULL
        ) STRICT;
        CREATE TABLE tokens (
            token_hash BLOB PRIMARY KEY,
            user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            created_at INTEGER NOT NULL,
            expires_at INTEGER NOT NULL
        ) STRICT, WITHOUT ROWID;
        CREATE INDEX tokens_by_user ON tokens(user_id);
        CREATE INDEX tokens_by_expiry ON tokens(expires_at);
        CREATE TABLE favorites (
            sequence INTEGER PRIMARY KEY AUTOINCREMENT,
            user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            photo_id TEXT NOT NULL,
            saved_at INTEGER NOT NULL,
            UNIQUE (user_id, photo_id)
        ) STRICT;
        CREATE INDEX favorites_by_user ON favorites(user_id, sequence);
        """
    ])
}
