/// How and where a route's handler runs. Handlers never see a socket: they take a
/// parsed request and return a response value, or throw (an `HTTPError` becomes its
/// problem+json; anything else becomes a 500 whose details are logged, not sent).
public enum RouteHandler: Sendable {
    /// Runs on the connection's event loop. Only for fast work on memory that
    /// never blocks: no SQLite, no file I/O, no password hashing, no waiting on locks
    /// held by slow work.
    case immediate(@Sendable (HTTPRequest) throws -> HTTPResponse)
    /// Runs on the server's bounded worker pool, off the event loop: for SQLite,
    /// password hashing and anything else that may block.
    case blocking(@Sendable (HTTPRequest) throws -> HTTPResponse)
}
