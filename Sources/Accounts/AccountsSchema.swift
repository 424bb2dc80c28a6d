import SQLite

/// The schema of `accounts.sqlite`, as migrations (append new ones; never edit a
/// shipped one).
///
/// Times are Unix seconds. Tokens are stored only as their SHA-256; passwords only as
/// scrypt hash strings. `favorites.sequence` is AUTOINCREMENT, so it only grows, even
/// after deletions (https://sqlite.org/autoinc.html): it orders the list and is the
/// pagination cursor. `recents.sequence` likewise orders the recently viewed list:
/// viewing a photo again deletes its row and inserts a new one, whose sequence is
/// above every other (two views in the same second keep the order of the PUTs).
///
/// Migration 2 (profiles and recents) only adds: `ALTER TABLE … ADD COLUMN` keeps
/// every existing row (https://sqlite.org/lang_altertable.html), and new columns
/// are NULL for users registered before it.
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
        """,
        """
        ALTER TABLE users ADD COLUMN display_name TEXT;
        ALTER TABLE users ADD COLUMN home_latitude REAL;
        ALTER TABLE users ADD COLUMN home_longitude REAL
            CHECK ((home_latitude IS NULL) = (home_longitude IS NULL));
        CREATE TABLE recents (
            sequence INTEGER PRIMARY KEY AUTOINCREMENT,
            user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            photo_id TEXT NOT NULL,
            viewed_at INTEGER NOT NULL,
            UNIQUE (user_id, photo_id)
        ) STRICT;
        CREATE INDEX recents_by_user ON recents(user_id, sequence);
        """,
    ])
}
