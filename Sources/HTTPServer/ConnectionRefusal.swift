import CEpoll
import Descriptors
import Glibc

/// The answer to a connection the server will not serve, given at once on accept,
/// before any request is read: a problem response with `Retry-After` and
/// `Connection: close`, then the socket is closed.
enum ConnectionRefusal {
    /// One client address already holds `limit` connections.
    static func tooManyFromClient(limit: Int) -> HTTPError {
        HTTPError(
            .tooManyRequests,
            detail: "this client address already holds \(limit) open connections, the most one address may; "
                + "reuse or close one of them",
            headers: retryAfter)
    }

    /// The server holds `maxConnections` and none of them is idle.
    static let serverFull = HTTPError(
        .serviceUnavailable, detail: "the server holds as many connections as it may and none is idle; try again shortly",
        headers: retryAfter)

    private static let retryAfter = HTTPHeaders([("Retry-After", "1")])

    /// Writes `error` on `socket` (a fresh one: its send buffer takes the few hundred bytes
    /// at once, or the peer is gone and nothing is lost) and closes it. Before closing, the
    /// write side is shut and whatever the client already sent is read into `scratch` and
    /// dropped: closing with unread bytes would send a reset, which may destroy the
    /// response before the client reads it (RFC 9112 §9.6).
    static func answer(
        _ socket: FileDescriptor, with error: HTTPError, requestID: String, serverName: String, date: [UInt8],
        scratch: UnsafeMutableRawBufferPointer
    ) {
        let context = ResponseEncoder.Context(
            method: .get, requestHeaders: HTTPHeaders(), requestID: requestID, closing: true, echoKeepAlive: false,
            caching: .unspecified)
        let encoded = ResponseEncoder.encode(error.problemResponse, context: context, serverName: serverName, date: date)
        let bytes = encoded.head + encoded.body
        let descriptor = socket.rawValue
        _ = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        shutdown(descriptor, Int32(SHUT_WR))
        var reads = 0
        while reads < 4, recv(descriptor, scratch.baseAddress, scratch.count, Int32(MSG_DONTWAIT)) > 0 { reads += 1 }
        socket.close()
    }
}
