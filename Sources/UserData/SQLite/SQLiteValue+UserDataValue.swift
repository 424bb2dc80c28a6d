import SQLite

extension SQLiteValue {
    /// The SQLite storage class of `value` (https://sqlite.org/datatype3.html).
    init(_ value: UserDataValue) {
        switch value {
        case .null: self = .null
        case .integer(let integer): self = .integer(integer)
        case .real(let real): self = .real(real)
        case .text(let text): self = .text(text)
        case .blob(let bytes): self = .blob(bytes)
        case .blobs: preconditionFailure("SQLite has no arrays: list the blobs as placeholders")
        }
    }
}
