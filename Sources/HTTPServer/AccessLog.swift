import Logging

/// One `.info` line per request, through the logger's `AccessLogHandler` when it has
/// one, else as metadata of a "request" event. The level and the handler's kind are
/// looked at once, when the server starts: its logger cannot change afterwards. A class,
/// so that recording a request reads its fields in place instead of copying the logger.
final class AccessLog: Sendable {
    private let logger: Logger
    /// The handler's `logRequest`, bound once: calling it through the existential would
    /// copy the handler (and retain what it holds) on every request.
    private let logRequest: (@Sendable (AccessLogRecord) -> Void)?
    /// Whether `record` logs anything (the logger's level is `info` or lower).
    let isEnabled: Bool

    init(logger: Logger) {
        self.logger = logger
        if let handler = logger.handler as? any AccessLogHandler {
            logRequest = { handler.logRequest($0) }
        } else {
            logRequest = nil
        }
        isEnabled = logger.logLevel <= .info
    }

    /// Logs one request that took `nanoseconds` from its parsed head to its encoded response.
    func record(
        method: HTTPMethod, path: String, status: HTTPStatus, bytes: Int, nanoseconds: UInt64, requestID: String, remote: String
    ) {
        guard isEnabled else { return }
        let record = AccessLogRecord(
            method: method, path: path, status: status.code, bytes: bytes,
            durationMicroseconds: nanoseconds / 1000, requestID: requestID, remote: remote)
        if let logRequest {
            logRequest(record)
        } else {
            logger.info("request", metadata: record.metadata)
        }
    }
}
