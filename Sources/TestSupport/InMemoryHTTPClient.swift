import HTTPServer

/// Talks to a router through `InMemoryConnection`: the server's own request pipeline
/// (parser, state machine, handlers, problem rendering, encoder) without a socket, as
/// HummingbirdTesting's router mode does. Requests are the raw bytes a client would
/// send; responses come back parsed like `RawHTTPClient`'s.
///
/// Not `Sendable`: one test owns it.
public final class InMemoryHTTPClient {
    public let connection: InMemoryConnection
    var received: [UInt8] = []

    /// - Parameter remoteAddress: the peer's address as handlers see it (login throttling is per address).
    public init(
        router: Router, configuration: HTTPServerConfiguration = HTTPServerConfiguration(), remoteAddress: String = "127.0.0.1"
    ) {
        connection = InMemoryConnection(router: router, configuration: configuration, remoteAddress: remoteAddress)
    }

    /// Sends `request` and returns the first response it completes.
    public func send(_ request: String, forHead: Bool = false) throws -> RawHTTPClient.Response {
        received += connection.send(Array(request.utf8))
        return try nextResponse(forHead: forHead)
    }

    /// The next response among the bytes already received (from pipelined requests).
    public func nextResponse(forHead: Bool = false) throws -> RawHTTPClient.Response {
        guard let response = try RawHTTPClient.Response.take(from: &received, forHead: forHead) else {
            throw RawHTTPClient.ClientError.closedBeforeResponse(received: received.count)
        }
        return response
    }

    /// Bytes received but not yet consumed as responses.
    public var unreadBytes: [UInt8] { received }
}
