/// A statement parameter. Every value travels in PostgreSQL's text format (the server
/// parses it as the type the statement gives the parameter), so no binary layouts
/// are encoded here: integers and doubles as their shortest exact decimal, bytes as
/// `bytea` hex (`\x…`, https://www.postgresql.org/docs/current/datatype-binary.html).
public enum PostgresValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case double(Double)
    case text(String)
    case bytes([UInt8])

    /// The text-format spelling, or nil for SQL NULL.
    var textFormat: String? {
        switch self {
        case .null: nil
        case .integer(let value): String(value)
        case .double(let value): "\(value)"
        case .text(let value): value
        case .bytes(let bytes): "\\x" + bytes.map { byte in
            let digits = Array("0123456789abcdef".utf8)
            return String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]], as: UTF8.self)
        }.joined()
        }
    }
}
