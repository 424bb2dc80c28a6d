import Postgres

/// One row of a PostgreSQL result read as a `UserDataRow`: every value arrives in text
/// format and is parsed as the column's type (bigint, double precision, text, bytea).
struct PostgresRow: UserDataRow {
    let result: PostgresResult
    let row: Int

    func isNull(_ column: Int32) -> Bool { result.isNull(row: row, column: Int(column)) }
    func int64(_ column: Int32) -> Int64 { Int64(text(column)) ?? 0 }
    func int(_ column: Int32) -> Int { Int(text(column)) ?? 0 }
    func double(_ column: Int32) -> Double { Double(text(column)) ?? 0 }
    func text(_ column: Int32) -> String { result.text(row: row, column: Int(column)) }
    func optionalText(_ column: Int32) -> String? { isNull(column) ? nil : text(column) }
    func blob(_ column: Int32) -> [UInt8] { result.bytes(row: row, column: Int(column)) }
}
