/// What the I/O shell does next for a connection, as `ConnectionStateMachine` decides.
enum ConnectionAction {
    /// Nothing to do until the next event; the readiness interest stays as it is.
    case none
    /// Wait until the socket is readable (and only that).
    case awaitReadable
    /// Wait until the socket is writable (and only that): a write is stuck.
    case awaitWritable
    /// Write the interim `100 Continue`, then report `writeFinished` or `writeBlocked`.
    case sendContinue
    /// Encode and write the response, log `log`, then report `writeFinished` or `writeBlocked`.
    case respond(HTTPResponse, ResponseEncoder.Context, log: AccessLogEntry)
    /// Run the request through `RequestPipeline` (a `.blocking` handler on the worker
    /// pool, reading nothing meanwhile) and report `handlerFinished`.
    case handle(HTTPRequest, Router.Match)
    /// Shut the write side and read (discarding) until the peer closes or the linger deadline.
    case linger
    /// Close the socket.
    case close
}
