import Logging

/// One `.info` line per request, data in metadata. Never headers, bodies or the query:
/// they may carry tokens and personal data. The metadata is built only when `.info`
/// is enabled (swift-log's autoclosures).
enum AccessLog {
    static func record(
        _ logger: Logger, method: HTTPMethod, path: String, status: HTTPStatus, bytes: Int, startedAt: UInt64,
        requestID: String, remote: String
    ) {
        guard logger.logLevel <= .info else { return }
        let micros = (MonotonicClock.now() &- startedAt) / 1000
        // Every value is a `.string`: handlers print it as is, without a `description` call.
        logger.info(
            "request",
            metadata: [
                "method": .string(method.rawValue),
                "path": .string(path),
                "status": .string(String(status.code)),
                "bytes": .string(String(bytes)),
                "duration_ms": .string(formatMilliseconds(micros)),
                "request_id": .string(requestID),
                "remote": .string(remote),
            ])
    }

    /// Microseconds as milliseconds with three decimals, without Foundation formatting.
    static func formatMilliseconds(_ micros: UInt64) -> String {
        let fraction = micros % 1000
        let padded = fraction < 10 ? "00\(fraction)" : fraction < 100 ? "0\(fraction)" : "\(fraction)"
        return "\(micros / 1000).\(padded)"
    }
}
