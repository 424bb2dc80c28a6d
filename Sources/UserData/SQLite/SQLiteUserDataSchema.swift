import SQLite

/// The schema of `accounts.sqlite`, as migrations (append new ones; never edit a
/// shipped one).
///
/// Times are Unix seconds, except the walks' (`walks`, `walk_points`, `walk_entries`),
/// which are Unix milliseconds since migration 5, and `tokens.last_used_at` (milliseconds). Tokens are stored only as their SHA-256; passwords only as
/// scrypt hash strings. `favorites.sequence` is AUTOINCREMENT, so it only grows, even
/// after deletions (https://sqlite.org/autoinc.html): it orders the list and is the
/// pagination cursor. `recents.sequence` likewise orders the recently viewed list:
/// viewing a photo again deletes its row and inserts a new one, whose sequence is
/// above every other (two views in the same second keep the order of the PUTs).
///
/// Migration 2 (profiles and recents) only adds: `ALTER TABLE … ADD COLUMN` keeps
/// every existing row (https://sqlite.org/lang_altertable.html), and new columns
/// are NULL for users registered before it.
enum SQLiteUserDataSchema {
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
        // Walks (the Walks module): a walk, its accepted points (numbered from 1; the
        // last is the one the next point is measured from), its entries (the photo
        // stream, ordered by their AUTOINCREMENT sequence) and the photos removed from
        // it (never chosen again). `walk_id` is the public ID: 16 random bytes.
        """
        CREATE TABLE walks (
            sequence INTEGER PRIMARY KEY AUTOINCREMENT,
            walk_id BLOB NOT NULL UNIQUE,
            user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            started_at INTEGER NOT NULL,
            updated_at INTEGER NOT NULL,
            point_count INTEGER NOT NULL DEFAULT 0,
            distance_meters REAL NOT NULL DEFAULT 0,
            photo_count INTEGER NOT NULL DEFAULT 0
        ) STRICT;
        CREATE INDEX walks_by_user ON walks(user_id, sequence);
        CREATE TABLE walk_points (
            walk INTEGER NOT NULL REFERENCES walks(sequence) ON DELETE CASCADE,
            number INTEGER NOT NULL,
            latitude REAL NOT NULL,
            longitude REAL NOT NULL,
            added_at INTEGER NOT NULL,
            PRIMARY KEY (walk, number)
        ) STRICT, WITHOUT ROWID;
        CREATE TABLE walk_entries (
            sequence INTEGER PRIMARY KEY AUTOINCREMENT,
            walk INTEGER NOT NULL REFERENCES walks(sequence) ON DELETE CASCADE,
            photo_id TEXT NOT NULL,
            point_number INTEGER NOT NULL,
            distance_meters REAL NOT NULL,
            added_at INTEGER NOT NULL,
            UNIQUE (walk, photo_id)
        ) STRICT;
        CREATE INDEX walk_entries_by_walk ON walk_entries(walk, sequence);
        CREATE TABLE walk_removed_photos (
            walk INTEGER NOT NULL REFERENCES walks(sequence) ON DELETE CASCADE,
            photo_id TEXT NOT NULL,
            PRIMARY KEY (walk, photo_id)
        ) STRICT, WITHOUT ROWID;
        """,
        // Migration 4: what people saved lately (`GET /photos/popular`) is read by save
        // time, not by user.
        """
        CREATE INDEX favorites_by_saved_at ON favorites(saved_at, photo_id);
        """,
        // Migration 5: walks' times in milliseconds, so the points a phone recorded
        // offline keep their times (`POST /walks/{walkID}/points/batch`). Every stored
        // second becomes the same moment in milliseconds.
        """
        UPDATE walks SET started_at = started_at * 1000, updated_at = updated_at * 1000;
        UPDATE walk_points SET added_at = added_at * 1000;
        UPDATE walk_entries SET added_at = added_at * 1000;
        """,
        // Migration 6: the change log of `GET /sync` (`ChangeLog`): one row per item
        // that changed (`walk_id` and `photo_id` empty where the kind has none, so the
        // UNIQUE key compares them), filled with every existing item, and the secret
        // that authenticates sync tokens (`SyncTokenKey`). The log keeps seconds; walks
        // keep milliseconds (migration 5).
        """
        CREATE TABLE sync_changes (
            sequence INTEGER PRIMARY KEY AUTOINCREMENT,
            user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            kind TEXT NOT NULL CHECK (kind IN ('favorite', 'recent', 'walk', 'walkEntry', 'profile')),
            walk_id BLOB NOT NULL,
            photo_id TEXT NOT NULL,
            deleted INTEGER NOT NULL,
            changed_at INTEGER NOT NULL,
            UNIQUE (user_id, kind, walk_id, photo_id)
        ) STRICT;
        CREATE INDEX sync_changes_by_user ON sync_changes(user_id, sequence);
        CREATE INDEX sync_changes_tombstones ON sync_changes(user_id, changed_at) WHERE deleted = 1;
        INSERT INTO sync_changes (user_id, kind, walk_id, photo_id, deleted, changed_at)
            SELECT id, 'profile', x'', '', 0, created_at FROM users ORDER BY id;
        INSERT INTO sync_changes (user_id, kind, walk_id, photo_id, deleted, changed_at)
            SELECT user_id, 'favorite', x'', photo_id, 0, saved_at FROM favorites ORDER BY sequence;
        INSERT INTO sync_changes (user_id, kind, walk_id, photo_id, deleted, changed_at)
            SELECT user_id, 'recent', x'', photo_id, 0, viewed_at FROM recents ORDER BY sequence;
        INSERT INTO sync_changes (user_id, kind, walk_id, photo_id, deleted, changed_at)
            SELECT user_id, 'walk', walk_id, '', 0, updated_at / 1000 FROM walks ORDER BY sequence;
        INSERT INTO sync_changes (user_id, kind, walk_id, photo_id, deleted, changed_at)
            SELECT walks.user_id, 'walkEntry', walks.walk_id, entry.photo_id, 0, entry.added_at / 1000
            FROM walk_entries AS entry JOIN walks ON walks.sequence = entry.walk ORDER BY entry.sequence;
        CREATE TABLE server_secrets (name TEXT PRIMARY KEY, value BLOB NOT NULL) STRICT;
        """,
        // Migration 7: `sync_changes` rebuilt with its kind checked by equalities, the same
        // rule as migration 6's `IN` list. SQLite evaluates a CHECK at every insert, and an
        // `IN` list of more than two values builds a temporary B-tree each time: that was
        // about a fifth of the instructions of a saved favorite, which logs two changes.
        // SQLite cannot alter a CHECK, so the table is copied, row for row and sequence for
        // sequence, with AUTOINCREMENT's high-water mark, so that no sequence a client has
        // seen is handed out again (https://sqlite.org/lang_altertable.html#otheralter).
        """
        CREATE TABLE sync_changes_rebuilt (
            sequence INTEGER PRIMARY KEY AUTOINCREMENT,
            user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            kind TEXT NOT NULL CHECK (
                kind = 'favorite' OR kind = 'recent' OR kind = 'walk' OR kind = 'walkEntry' OR kind = 'profile'),
            walk_id BLOB NOT NULL,
            photo_id TEXT NOT NULL,
            deleted INTEGER NOT NULL,
            changed_at INTEGER NOT NULL,
            UNIQUE (user_id, kind, walk_id, photo_id)
        ) STRICT;
        INSERT INTO sync_changes_rebuilt (sequence, user_id, kind, walk_id, photo_id, deleted, changed_at)
            SELECT sequence, user_id, kind, walk_id, photo_id, deleted, changed_at FROM sync_changes ORDER BY sequence;
        DELETE FROM sqlite_sequence WHERE name = 'sync_changes_rebuilt';
        INSERT INTO sqlite_sequence (name, seq) SELECT 'sync_changes_rebuilt', seq FROM sqlite_sequence WHERE name = 'sync_changes';
        DROP TABLE sync_changes;
        ALTER TABLE sync_changes_rebuilt RENAME TO sync_changes;
        CREATE INDEX sync_changes_by_user ON sync_changes(user_id, sequence);
        CREATE INDEX sync_changes_tombstones ON sync_changes(user_id, changed_at) WHERE deleted = 1;
        """,
        // Migration 8: how many photos each user's recently viewed list holds, kept by
        // every write of `recents` (`Recents.record`), so that a view of a photo not
        // in a full list pushes the oldest out without first stepping over the hundred
        // newer ones to find out that the list is full.
        """
        ALTER TABLE users ADD COLUMN recents_count INTEGER NOT NULL DEFAULT 0;
        UPDATE users SET recents_count = (SELECT count(*) FROM recents WHERE recents.user_id = users.id);
        """,
        // Migration 9: when each token was last used (authenticated with), in Unix
        // milliseconds, stored at most once a minute per token (`TokenUseLog`): a login
        // past a user's live-token limit revokes the least recently used. A token issued
        // before counts as used when it was issued.
        """
        ALTER TABLE tokens ADD COLUMN last_used_at INTEGER NOT NULL DEFAULT 0;
        UPDATE tokens SET last_used_at = created_at * 1000;
        """,
        // Migration 10: the per-user quotas and the erasure in slices (`Accounts`). How
        // many favorites and walks each user keeps, kept by every write of those rows
        // (as `recents_count`), so that a save checks its limit with one lookup where
        // counting would step over up to 10,000 rows; and `deleted_at`, set when an
        // account's deletion begins (its tokens revoked in the same transaction) and
        // found again by the partial index at the next start if it was interrupted.
        """
        ALTER TABLE users ADD COLUMN favorites_count INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE users ADD COLUMN walks_count INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE users ADD COLUMN deleted_at INTEGER;
        UPDATE users SET
            favorites_count = (SELECT count(*) FROM favorites WHERE favorites.user_id = users.id),
            walks_count = (SELECT count(*) FROM walks WHERE walks.user_id = users.id);
        CREATE INDEX users_being_deleted ON users(id) WHERE deleted_at IS NOT NULL;
        """,
        // The accepted corrections of the shipped catalog, in the order they were
        // accepted (`sequence`, AUTOINCREMENT: never reused): a catalog generation is the
        // shipped data with every row laid over it in that order, the last of one photo
        // and kind winning. Rows are only added, and belong to no user: an account's
        // erasure leaves them. `feedback_id` names the feedback it accepted, NULL for one
        // an operator made. The kind's own columns are set, the others NULL.
        """
        CREATE TABLE catalog_corrections (
            sequence INTEGER PRIMARY KEY AUTOINCREMENT,
            photo_id TEXT NOT NULL,
            kind TEXT NOT NULL,
            latitude REAL,
            longitude REAL,
            year INTEGER,
            degrees INTEGER,
            feedback_id INTEGER,
            accepted_at INTEGER NOT NULL,
            CHECK (
                (kind = 'location' AND latitude IS NOT NULL AND longitude IS NOT NULL AND year IS NULL AND degrees IS NULL)
                OR (kind = 'date' AND year IS NOT NULL AND latitude IS NULL AND longitude IS NULL AND degrees IS NULL)
                OR (kind = 'rotation' AND degrees IS NOT NULL AND latitude IS NULL AND longitude IS NULL AND year IS NULL))
        ) STRICT;
        """,
        // Feedback and moderation (the Feedback module). `users.role`: a moderator decides
        // feedback; the operator names them (`past-nyc moderators`). `feedback`: what a user
        // said of a photo, its kind's own columns set and the others NULL; `id` is the
        // public feedbackID (and `catalog_corrections.feedback_id`). At most one open
        // feedback per user, photo and kind (the partial unique index). `user_id` is the
        // author, NULL once the author's account is deleted (only feedback behind a
        // catalog correction outlives its account); `decided_by` the moderator who
        // decided, NULL for an agreement (`decided_through`) or once the moderator's account
        // is deleted. `feedback_photos`: one row per photo with rotation feedback, which the
        // writers of that feedback lock, so its agreement is decided one writer at a time.
        // Kinds, statuses and deciders are checked by equalities (see migration 7).
        """
        ALTER TABLE users ADD COLUMN role TEXT NOT NULL DEFAULT 'user' CHECK (role = 'user' OR role = 'moderator');
        CREATE INDEX users_moderators ON users(username_key) WHERE role = 'moderator';
        CREATE TABLE feedback (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            user_id INTEGER REFERENCES users(id),
            photo_id TEXT NOT NULL,
            kind TEXT NOT NULL,
            latitude REAL,
            longitude REAL,
            year INTEGER,
            degrees INTEGER,
            text TEXT,
            status TEXT NOT NULL CHECK (status = 'open' OR status = 'accepted' OR status = 'rejected'),
            created_at INTEGER NOT NULL,
            decided_at INTEGER,
            decided_by INTEGER REFERENCES users(id),
            decided_through TEXT CHECK (decided_through = 'moderator' OR decided_through = 'agreement'),
            CHECK (
                (kind = 'location' AND latitude IS NOT NULL AND longitude IS NOT NULL AND year IS NULL AND degrees IS NULL AND text IS NULL)
                OR (kind = 'date' AND year IS NOT NULL AND latitude IS NULL AND longitude IS NULL AND degrees IS NULL AND text IS NULL)
                OR (kind = 'rotation' AND degrees IS NOT NULL AND latitude IS NULL AND longitude IS NULL AND year IS NULL AND text IS NULL)
                OR (kind = 'other' AND text IS NOT NULL AND latitude IS NULL AND longitude IS NULL AND year IS NULL AND degrees IS NULL)),
            CHECK ((status = 'open') = (decided_at IS NULL) AND (decided_at IS NULL) = (decided_through IS NULL)),
            CHECK (decided_by IS NULL OR decided_through = 'moderator')
        ) STRICT;
        CREATE UNIQUE INDEX feedback_open ON feedback(user_id, photo_id, kind) WHERE status = 'open';
        CREATE INDEX feedback_by_user ON feedback(user_id, id);
        CREATE INDEX feedback_by_user_time ON feedback(user_id, created_at);
        CREATE INDEX feedback_by_status ON feedback(status, id);
        CREATE INDEX feedback_by_status_kind ON feedback(status, kind, id);
        CREATE INDEX feedback_by_photo ON feedback(photo_id, kind);
        CREATE INDEX feedback_by_decider ON feedback(decided_by) WHERE decided_by IS NOT NULL;
        CREATE TABLE feedback_photos (photo_id TEXT PRIMARY KEY) STRICT, WITHOUT ROWID;
        """,
        // Keeping an account. Sessions: a token expires 30 days after its last use, at
        // most 365 after it was made; `expires_at` is kept so by every store of a last
        // use (`TokenUseLog`), so the checks of a token stay one comparison; and the
        // `User-Agent` that made it. Email: an optional address (`email` as given,
        // `email_key` lowercased), verified by a 6-digit code (`email_codes`, one row per
        // code asked for, the newest the live one, its digest written when its message
        // is sent); a verified address belongs to one user (the partial unique index).
        // Password resets: the tokens, as SHA-256 only (`password_resets`), and the
        // requests of the last hour per address digest (`password_reset_requests`,
        // transient: not copied). The mail outbox (`Outbox`, times in milliseconds).
        """
        ALTER TABLE tokens ADD COLUMN user_agent TEXT;
        UPDATE tokens SET expires_at = min(last_used_at / 1000 + 2592000, created_at + 31536000);
        ALTER TABLE users ADD COLUMN email TEXT;
        ALTER TABLE users ADD COLUMN email_key TEXT;
        ALTER TABLE users ADD COLUMN email_verified INTEGER NOT NULL DEFAULT 0;
        CREATE UNIQUE INDEX users_by_verified_email ON users(email_key) WHERE email_verified = 1;
        CREATE TABLE email_codes (
            sequence INTEGER PRIMARY KEY AUTOINCREMENT,
            user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            message INTEGER NOT NULL,
            requested_at INTEGER NOT NULL,
            code_digest BLOB,
            sent_at INTEGER,
            failures INTEGER NOT NULL DEFAULT 0
        ) STRICT;
        CREATE INDEX email_codes_by_user ON email_codes(user_id, sequence);
        CREATE TABLE password_resets (
            token_hash BLOB PRIMARY KEY,
            user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            created_at INTEGER NOT NULL,
            expires_at INTEGER NOT NULL
        ) STRICT, WITHOUT ROWID;
        CREATE INDEX password_resets_by_user ON password_resets(user_id);
        CREATE INDEX password_resets_by_expiry ON password_resets(expires_at);
        CREATE TABLE password_reset_requests (
            address_digest BLOB NOT NULL,
            requested_at INTEGER NOT NULL,
            sent INTEGER NOT NULL
        ) STRICT;
        CREATE INDEX password_reset_requests_by_address ON password_reset_requests(address_digest, requested_at);
        CREATE INDEX password_reset_requests_by_time ON password_reset_requests(requested_at);
        CREATE TABLE mail_outbox (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            message_id TEXT NOT NULL UNIQUE,
            kind TEXT NOT NULL,
            user_id INTEGER REFERENCES users(id) ON DELETE CASCADE,
            recipient TEXT NOT NULL,
            created_at INTEGER NOT NULL,
            attempts INTEGER NOT NULL DEFAULT 0,
            next_attempt_at INTEGER NOT NULL,
            claimed_by TEXT,
            claim_expires_at INTEGER,
            finished_at INTEGER,
            outcome TEXT,
            last_error TEXT
        ) STRICT;
        CREATE INDEX mail_outbox_pending ON mail_outbox(next_attempt_at, id) WHERE finished_at IS NULL;
        CREATE INDEX mail_outbox_finished ON mail_outbox(finished_at) WHERE finished_at IS NOT NULL;
        CREATE INDEX mail_outbox_by_user ON mail_outbox(user_id);
        """,
    ])
}
