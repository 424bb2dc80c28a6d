/// A value bound to a parameter of the user-data SQL, whichever store runs it: each
/// store maps it exactly to its engine's own (SQLite's storage classes; PostgreSQL's
/// bigint, double precision, text and bytea).
public enum UserDataValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
    /// A list of blobs, for `column = ANY(?)` in SQL run on PostgreSQL only (a
    /// `bytea[]`): one statement for a list of any length. SQLite has no arrays: the SQL
    /// it runs lists such values as placeholders of their own, and binding this there
    /// is a programming error.
    case blobs([[UInt8]])
}

extension UserDataValue {
    /// A count or a number, as an integer.
    public init(_ value: Int) { self = .integer(Int64(value)) }
}
