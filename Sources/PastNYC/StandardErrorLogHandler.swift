import Glibc
import Logging

/// Writes each log event as one logfmt line on stderr:
/// `ts=… level=info msg="…" key=value …`, one `write` per line so lines never interleave.
struct StandardErrorLogHandler: LogHandler {
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var line = "ts=\(Self.timestamp()) level=\(event.level) msg=\(Self.quoted(event.message.description))"
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        for key in merged.keys.sorted() {
            line += " \(key)=\(Self.quoted(merged[key]!.description))"
        }
        line += "\n"
        var bytes = Array(line.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { write(STDERR_FILENO, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                return  // stderr is gone; nothing better to do with a log line
            }
            offset += written
        }
    }

    /// Quotes a value when it holds spaces, quotes or `=`, as logfmt readers expect.
    private static func quoted(_ value: String) -> String {
        let needsQuotes = value.isEmpty || value.contains { $0 == " " || $0 == "\"" || $0 == "=" || $0.isNewline }
        guard needsQuotes else { return value }
        let escaped = value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n")
        return "\"\(escaped)\""
    }

    /// UTC time with milliseconds in RFC 3339 form.
    private static func timestamp() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var seconds = now.tv_sec
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let millis = now.tv_nsec / 1_000_000
        func pad(_ value: Int32, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))T"
            + "\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2)).\(pad(Int32(millis), 3))Z"
    }
}

/// Sends every log line of the process to stderr at `level` and above.
func makeLogger(level: Logger.Level) -> Logger {
    LoggingSystem.bootstrap { _ in StandardErrorLogHandler(logLevel: level) }
    var logger = Logger(label: "past-nyc")
    logger.logLevel = level
    return logger
}
