import Postgres

/// The PostgreSQL side of `UserDataConnection`: the shared SQL's `?` placeholders
/// become `$1`, `$2`, … (`?N` becomes `$N`), values travel as text, and the results
/// are read back as `UserDataRow`s.
final class PostgresUserDataConnection: UserDataConnection {
    private let connection: PostgresConnection
    /// The shared SQL as PostgreSQL spells it, translated once per statement text.
    private var translated: [String: String] = [:]
    private(set) var changes = 0
    /// The users whose data the current write changed (`announceChange`), for the
    /// store to announce once it commits (`PostgresChangeAnnouncer`).
    private var announcedUsers: Set<Int64> = []

    init(_ connection: PostgresConnection) {
        self.connection = connection
    }

    func execute(_ sql: String, _ values: [UserDataValue]) throws {
        changes = try run(sql, values).affectedRows
    }

    func query<Row>(_ sql: String, _ values: [UserDataValue], row: (any UserDataRow) throws -> Row) throws -> [Row] {
        let result = try run(sql, values)
        return try (0..<result.rowCount).map { try row(PostgresRow(result: result, row: $0)) }
    }

    func queryFirst<Row>(_ sql: String, _ values: [UserDataValue], row: (any UserDataRow) throws -> Row) throws -> Row? {
        let result = try run(sql, values)
        return result.rowCount == 0 ? nil : try row(PostgresRow(result: result, row: 0))
    }

    func exists(_ sql: String, _ values: [UserDataValue]) throws -> Bool {
        try run(sql, values).rowCount > 0
    }

    /// False once the connection broke: the pool connects anew.
    var isUsable: Bool { connection.isUsable }

    /// Runs a statement of the store's own (BEGIN, COMMIT, ROLLBACK), as it is written.
    func statement(_ sql: String) throws {
        try connection.execute(sql)
    }

    func snapshot<Result>(_ body: () throws -> Result) throws -> Result {
        try connection.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        do {
            let result = try body()
            try connection.execute("COMMIT")
            return result
        } catch {
            _ = try? connection.execute("ROLLBACK")
            throw error
        }
    }

    func lockRows(_ sql: String, _ values: [UserDataValue]) throws {
        _ = try run(sql + " FOR UPDATE", values)
    }

    func announceChange(ofUser userID: Int64) throws {
        announcedUsers.insert(userID)
    }

    /// The users announced since the last call, and forgets them.
    func takeAnnouncedUsers() -> Set<Int64> {
        defer { announcedUsers = [] }
        return announcedUsers
    }

    private func run(_ sql: String, _ values: [UserDataValue]) throws -> PostgresResult {
        let statement: String
        if let known = translated[sql] {
            statement = known
        } else {
            statement = Self.numberingPlaceholders(sql)
            translated[sql] = statement
        }
        return try connection.execute(statement, values.map(Self.value))
    }

    /// `?` → `$n` (the next number), `?N` → `$N`. The shared SQL has no `?` inside
    /// string literals, so every `?` is a placeholder.
    static func numberingPlaceholders(_ sql: String) -> String {
        var output = ""
        var next = 1
        var characters = sql.makeIterator()
        var pending = characters.next()
        while let character = pending {
            pending = characters.next()
            guard character == "?" else {
                output.append(character)
                continue
            }
            var digits = ""
            while let digit = pending, digit.isASCII, digit.isNumber {
                digits.append(digit)
                pending = characters.next()
            }
            if digits.isEmpty {
                digits = String(next)
                next += 1
            }
            output += "$" + digits
        }
        return output
    }

    private static func value(_ value: UserDataValue) -> PostgresValue {
        switch value {
        case .null: .null
        case .integer(let integer): .integer(integer)
        case .real(let real): .double(real)
        case .text(let text): .text(text)
        case .blob(let bytes): .bytes(bytes)
        case .blobs(let list): .byteArrays(list)
        }
    }
}
