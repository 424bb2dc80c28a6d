/// Where the user data lives, as the configuration says, and the one place that opens
/// its store: SQLite in the data directory unless a PostgreSQL URL is given. A new
/// kind of store adds its case here (and its folder beside `SQLite/` and `Postgres/`).
public enum UserDataLocation: Sendable, Equatable {
    /// `<dataDirectory>/accounts.sqlite`: the store of one instance, the default.
    case sqlite(dataDirectory: String)
    /// A PostgreSQL database that several instances share, through a pool of at most
    /// `poolSize` connections per instance.
    case postgres(url: String, poolSize: Int)

    /// PostgreSQL when the configuration names a database URL, else SQLite in the data directory.
    public init(dataDirectory: String, databaseURL: String?, poolSize: Int = PostgresUserDataStore.defaultPoolSize) {
        self = if let databaseURL { .postgres(url: databaseURL, poolSize: poolSize) } else { .sqlite(dataDirectory: dataDirectory) }
    }

    /// Opens the store, creating or migrating its schema.
    /// - Throws: `UserDataError`.
    public func openStore() throws -> any UserDataStore {
        switch self {
        case .sqlite(let dataDirectory): try SQLiteUserDataStore(dataDirectory: dataDirectory)
        case .postgres(let url, let poolSize): try PostgresUserDataStore(url: url, poolSize: poolSize)
        }
    }
}
