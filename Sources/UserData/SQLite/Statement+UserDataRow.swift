import SQLite

/// A SQLite row is read in place, on the statement that stepped to it.
extension Statement: UserDataRow {}
