/// How and where a route's handler runs. Handlers never see a socket: they take a
/// parsed request and return a response value, or throw (an `HTTPResponseError` becomes
/// its problem+json; anything else becomes a 500 whose details are logged, not sent).
public enum RouteHandler: Sendable {
    /// Runs on the connection's event loop. Only for fast work on memory that
    /// never blocks: no SQLite, no file I/O, no password hashing, no waiting on locks
    /// held by slow work.
    case immediate(@Sendable (HTTPRequest) throws -> HTTPResponse)
    /// Runs on the server's bounded worker pool, off the event loop: for SQLite,
    /// password hashing and anything else that may block.
    case blocking(@Sendable (HTTPRequest) throws -> HTTPResponse)
    /// For work that is usually in memory but sometimes must block (a search whose
    /// phrases are not all cached yet): the first closure runs on the event loop, under
    /// the rules of `immediate`, and returns nil when it cannot answer from memory; then
    /// the second runs on the worker pool. The hand-off to a worker and back costs
    /// about as much CPU as a fast handler's whole work, so this saves it when it can.
    case immediateUnlessBlocking(
        @Sendable (HTTPRequest) throws -> HTTPResponse?, blocking: @Sendable (HTTPRequest) throws -> HTTPResponse)
    /// Runs on the worker pool, as `blocking`, but answers through its `HTTPResponder`,
    /// at once or later from any thread: for a request that waits on something other
    /// than its own work (its group commit, a change to come) without holding a worker
    /// meanwhile. The connection then waits without a thread. What it throws before it
    /// answers is the answer, rendered as every handler's error is.
    case deferred(@Sendable (HTTPRequest, HTTPResponder) throws -> Void)
    /// Runs on the connection's event loop, under the rules of `immediate`, and answers
    /// through its `HTTPResponder` later, from any thread: for a handler that only hands
    /// the request on to what will answer it (a pool of its own). Unlike `deferred`, no
    /// worker thread wakes in between: each hop is a thread switch.
    case handOff(@Sendable (HTTPRequest, HTTPResponder) -> Void)
    /// As `immediateUnlessBlocking`, but when the first closure cannot answer from memory
    /// (it returns nil) the second takes the request as `handOff` does: for work that
    /// waits on something slow without a thread (an image the server must first fetch
    /// from its source), where most requests are answered at once (the image is kept).
    case immediateUnlessHandOff(
        @Sendable (HTTPRequest) throws -> HTTPResponse?, handOff: @Sendable (HTTPRequest, HTTPResponder) -> Void)

    /// Where one request's handler runs: `immediate`, `blocking`, `deferred` and `handOff` as they are; for
    /// `immediateUnlessBlocking` and `immediateUnlessHandOff`, runs its first closure now
    /// (the caller is on the event loop) and answers `immediate` with its response or
    /// error, or `blocking` or `handOff` with the second.
    public func placement(for request: HTTPRequest) -> Placement {
        switch self {
        case .immediate(let run): return .immediate(run)
        case .blocking(let run): return .blocking(run)
        case .deferred(let run): return .deferred(run)
        case .handOff(let run): return .handOff(run)
        case .immediateUnlessBlocking(let immediate, let blocking):
            do {
                guard let response = try immediate(request) else { return .blocking(blocking) }
                return .immediate { _ in response }
            } catch {
                return .immediate { _ in throw error }
            }
        case .immediateUnlessHandOff(let immediate, let handOff):
            do {
                guard let response = try immediate(request) else { return .handOff(handOff) }
                return .immediate { _ in response }
            } catch {
                return .immediate { _ in throw error }
            }
        }
    }

    /// Where one request's handler runs, and what it runs.
    public enum Placement: Sendable {
        case immediate(@Sendable (HTTPRequest) throws -> HTTPResponse)
        case blocking(@Sendable (HTTPRequest) throws -> HTTPResponse)
        /// Run through `HTTPResponder.run(_:)`, which answers with what it throws.
        case deferred(@Sendable (HTTPRequest, HTTPResponder) throws -> Void)
        case handOff(@Sendable (HTTPRequest, HTTPResponder) -> Void)
    }
}
