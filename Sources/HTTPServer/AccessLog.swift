import Logging

/// One `.info` line per request, through the logger's `AccessLogHandler` when it has
/// one, else as metadata of a "request" event. The level and the handler's kind are
/// looked at once, when the server starts: its logger cannot change afterwards.
struct AccessLog: Sendable {
    private let logger: Logger
    private let handler: (any AccessLogHandler)?
    private let enabled: Bool

    init(logger: Logger) {
        self.logger = logger
        handler = logger.handler as? any AccessLogHandler
        enabled = logger.logLevel <= .info
    }

    func record(
        method: HTTPMethod, path: String, status: HTTPStatus, bytes: Int, startedAt: UInt64, requestID: String, remote: String
    ) {
        guard enabled else { return }
        let record = AccessLogRecord(
            method: method, path: path, status: status.code, bytes: bytes,
            durationMicroseconds: (MonotonicClock.now() &- startedAt) / 1000, requestID: requestID, remote: remote)
        if let handler {
            handler.logRequest(record)
        } else {
            logger.info("request", metadata: record.metadata)
        }
    }
}
