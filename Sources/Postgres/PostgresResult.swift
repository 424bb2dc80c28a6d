import CPostgres

/// The rows (or the row count) of one statement, owning its `PGresult`, which is
/// cleared exactly once, when the value goes. Values are read in text format.
public final class PostgresResult {
    private let handle: OpaquePointer

    init(_ handle: OpaquePointer) {
        self.handle = handle
    }

    deinit {
        PQclear(handle)
    }

    public var rowCount: Int { Int(PQntuples(handle)) }

    /// Rows an INSERT, UPDATE or DELETE touched (0 for other statements).
    public var affectedRows: Int {
        guard let text = PQcmdTuples(handle) else { return 0 }
        return Int(String(cString: text)) ?? 0
    }

    public func isNull(row: Int, column: Int) -> Bool {
        PQgetisnull(handle, Int32(row), Int32(column)) == 1
    }

    /// The value in text format ("" for NULL).
    public func text(row: Int, column: Int) -> String {
        String(cString: PQgetvalue(handle, Int32(row), Int32(column)))
    }

    /// A `bytea` value, decoded from its hex text format (`\x0a1b…`).
    public func bytes(row: Int, column: Int) -> [UInt8] {
        let text = Array(text(row: row, column: column).utf8)
        guard text.count >= 2, text[0] == UInt8(ascii: "\\"), text[1] == UInt8(ascii: "x") else { return [] }
        var bytes: [UInt8] = []
        bytes.reserveCapacity((text.count - 2) / 2)
        var index = 2
        while index + 1 < text.count {
            bytes.append(Self.nibble(text[index]) << 4 | Self.nibble(text[index + 1]))
            index += 2
        }
        return bytes
    }

    private static func nibble(_ digit: UInt8) -> UInt8 {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        default: digit - UInt8(ascii: "A") + 10
        }
    }
}
