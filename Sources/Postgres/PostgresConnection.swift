import CPostgres
import Glibc

/// One connection to a PostgreSQL server through libpq, owning its `PGconn`, which is
/// closed exactly once, when the value goes.
///
/// Not `Sendable`: one thread at a time uses it (a pool hands it out). Every
/// connection runs with a statement timeout, so no statement holds a thread for
/// long, and with `synchronous_commit` on, so a COMMIT returns only once it is
/// durable. Statements are parameterized (`PQexecParams`); only constant scripts
/// (migrations) go through `executeScript`.
public final class PostgresConnection {
    private let handle: OpaquePointer

    /// Connects, waiting at most `connectTimeout` (libpq's own `connect_timeout` cannot
    /// go below 2 s), then sets the session's statement timeout.
    /// - Parameter url: a libpq connection URI, `postgresql://user@host:port/database`.
    /// - Throws: `PostgresError` (with no SQLSTATE when the server could not be reached).
    public init(url: String, connectTimeout: Duration = .milliseconds(1500), statementTimeout: Duration = .seconds(5)) throws {
        // Keepalives notice a server that vanished without closing the connection.
        let options: [(String, String)] = [
            ("dbname", url), ("application_name", "past-nyc"), ("keepalives", "1"), ("keepalives_idle", "5"),
            ("keepalives_interval", "1"), ("keepalives_count", "3"),
        ]
        let keywords = options.map { strdup($0.0) }
        let values = options.map { strdup($0.1) }
        defer { (keywords + values).forEach { free($0) } }
        let started = (keywords.map { UnsafePointer($0) } + [nil]).withUnsafeBufferPointer { keywordPointers in
            (values.map { UnsafePointer($0) } + [nil]).withUnsafeBufferPointer { valuePointers in
                PQconnectStartParams(keywordPointers.baseAddress, valuePointers.baseAddress, 1)
            }
        }
        guard let started else { throw PostgresError(sqlState: nil, message: "out of memory") }
        handle = started
        // libpq would print the server's notices and warnings to stderr, the server's log
        // (a ROLLBACK after a failed COMMIT warns, a DROP … CASCADE notices): errors
        // reach the caller as `PostgresError`s, the rest is dropped.
        PQsetNoticeProcessor(handle, { _, _ in }, nil)
        try finishConnecting(deadline: ContinuousClock.now + connectTimeout)
        _ = try execute(
            "SELECT set_config('statement_timeout', $1, false)", [.text("\(Self.milliseconds(statementTimeout))ms")])
        _ = try execute("SELECT set_config('synchronous_commit', 'on', false)")
    }

    deinit {
        PQfinish(handle)
    }

    /// False once the connection broke (the server went away): drop it and connect anew.
    /// Reads what the server sent meanwhile (libpq's socket never blocks), so a
    /// server that closed the connection while it sat idle is noticed before use.
    public var isUsable: Bool {
        PQconsumeInput(handle) == 1 && PQstatus(handle) == CONNECTION_OK
    }

    /// Runs one statement with `$1`, `$2`, … bound to `parameters`.
    @discardableResult
    public func execute(_ sql: String, _ parameters: [PostgresValue] = []) throws -> PostgresResult {
        let texts = parameters.map { $0.textFormat.map { strdup($0) } ?? nil }
        defer { texts.forEach { free($0) } }
        let result = texts.map { $0.map { UnsafePointer($0) } }.withUnsafeBufferPointer { pointers in
            PQexecParams(handle, sql, Int32(parameters.count), nil, pointers.baseAddress, nil, nil, 0)
        }
        return try check(result)
    }

    /// Runs a constant script of several statements (no parameters): migrations only.
    public func executeScript(_ sql: String) throws {
        _ = try check(PQexec(handle, sql))
    }

    private func check(_ result: OpaquePointer?) throws -> PostgresResult {
        guard let result else { throw PostgresError(sqlState: nil, message: lastErrorMessage) }
        let owned = PostgresResult(result)
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
            return owned
        default:
            let sqlState = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
            let message = PQresultErrorMessage(result).map { String(cString: $0) } ?? lastErrorMessage
            // A lost connection has no SQLSTATE of the server's: it is a connection failure.
            throw PostgresError(sqlState: isUsable ? sqlState : (sqlState ?? "08006"), message: message)
        }
    }

    /// The payloads of the notifications (`LISTEN`, `NOTIFY`) that arrived, waiting up
    /// to `timeout` on the socket for the first (https://www.postgresql.org/docs/current/libpq-notify.html).
    /// - Throws: `PostgresError` (08006) when the connection broke.
    public func notifications(waitingUpTo timeout: Duration) throws -> [String] {
        var payloads: [String] = []
        func consume() throws {
            guard PQconsumeInput(handle) == 1 else { throw PostgresError(sqlState: "08006", message: lastErrorMessage) }
            while let notification = PQnotifies(handle) {
                payloads.append(String(cString: notification.pointee.extra))
                PQfreemem(notification)
            }
        }
        try consume()
        guard payloads.isEmpty else { return payloads }
        var descriptor = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
        let ready = poll(&descriptor, 1, Int32(min(Self.milliseconds(timeout), 60_000)))
        if ready < 0, errno != EINTR {
            throw PostgresError(sqlState: "08006", message: "poll failed while listening: errno \(errno)")
        }
        if ready > 0 { try consume() }
        return payloads
    }

    private var lastErrorMessage: String {
        PQerrorMessage(handle).map { String(cString: $0) } ?? "unknown libpq error"
    }

    /// Drives `PQconnectPoll` until connected, waiting on the socket with `poll(2)`, so the
    /// whole attempt (DNS aside) is bounded by `deadline`.
    private func finishConnecting(deadline: ContinuousClock.Instant) throws {
        var state = PGRES_POLLING_WRITING
        while true {
            if PQstatus(handle) == CONNECTION_BAD || state == PGRES_POLLING_FAILED {
                throw PostgresError(sqlState: "08001", message: lastErrorMessage)
            }
            if state == PGRES_POLLING_OK { return }
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero else {
                throw PostgresError(sqlState: "08001", message: "timed out connecting to PostgreSQL")
            }
            var descriptor = pollfd(
                fd: PQsocket(handle), events: Int16(state == PGRES_POLLING_READING ? POLLIN : POLLOUT), revents: 0)
            let ready = poll(&descriptor, 1, Int32(min(Self.milliseconds(remaining) + 1, 60_000)))
            if ready < 0, errno != EINTR {
                throw PostgresError(sqlState: "08001", message: "poll failed while connecting: errno \(errno)")
            }
            if ready > 0 { state = PQconnectPoll(handle) }
        }
    }

    private static func milliseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
    }
}
