/// `past-nyc backup` and `restore`, for whichever store the configuration names.
extension UserDataLocation {
    /// Writes a copy of the user data as it was at one moment to the file `path`, while
    /// servers may be writing: every write acknowledged before the call is in it. The
    /// file appears whole or not at all.
    /// - Throws: `UserDataBackupError`, `UserDataError`, `SystemCallError`.
    public func backup(to path: String) throws {
        switch self {
        case .sqlite(let dataDirectory): try SQLiteUserDataBackup.backup(dataDirectory: dataDirectory, to: path)
        case .postgres(let url, _): try PostgresUserDataBackup.backup(url: url, to: path)
        }
    }

    /// Puts the backup at `path` back, with no server running on the store. A store that
    /// holds user data is refused unless `replacing`; a refused restore changes nothing.
    /// - Throws: `UserDataBackupError`, `UserDataError`, `SystemCallError`.
    public func restore(from path: String, replacing: Bool) throws {
        switch self {
        case .sqlite(let dataDirectory):
            try SQLiteUserDataBackup.restore(from: path, dataDirectory: dataDirectory, replacing: replacing)
        case .postgres(let url, _): try PostgresUserDataBackup.restore(from: path, url: url, replacing: replacing)
        }
    }
}
