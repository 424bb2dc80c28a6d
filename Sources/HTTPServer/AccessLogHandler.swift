import Logging

/// A `LogHandler` that writes the access log's line itself, from the request's fields.
/// Through `Logger.info` a request's line costs a `Logger.Metadata` dictionary built,
/// copied and sorted back into a line: a third of the CPU a small request takes. The
/// server checks once, at start, whether its logger's handler is one of these; any other
/// handler gets the same fields as metadata of an `.info` "request" event.
public protocol AccessLogHandler: LogHandler {
    /// Logs one answered request at `.info` (the caller has checked the level). Called on
    /// an event loop for every request: it must not block.
    func logRequest(_ record: AccessLogRecord)
}
