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
    /// A `bytea[]`, for `= ANY($1)`: an array literal of double-quoted hex elements
    /// (https://www.postgresql.org/docs/current/arrays.html#ARRAYS-IO).
    case byteArrays([[UInt8]])

    /// The text-format spelling, or nil for SQL NULL.
    var textFormat: String? {
        switch self {
        case .null: nil
        case .integer(let value): String(value)
        case .double(let value): "\(value)"
        case .text(let value): value
        case .bytes(let bytes): Self.hex(bytes, backslashes: 1)
        // Inside an element's double quotes a backslash is escaped by another.
        case .byteArrays(let list): "{" + list.map { "\"" + Self.hex($0, backslashes: 2) + "\"" }.joined(separator: ",") + "}"
        }
    }

    /// `bytea`'s hex format: a backslash (repeated `backslashes` times), `x`, and two
    /// lowercase digits a byte.
    private static func hex(_ bytes: [UInt8], backslashes: Int) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text = Array(repeating: UInt8(ascii: "\\"), count: backslashes) + [UInt8(ascii: "x")]
        text.reserveCapacity(text.count + 2 * bytes.count)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
