import Logging
import Dispatch
import Glibc

/// Collects log lines in memory and writes them to stderr in batches, from its own
/// queue: every 50 ms, at once when 64 KiB are waiting, and on `flush()`. The event
/// loops never wait on stderr (a slow pipe reader cannot stall requests), and a burst
/// of requests costs one `write` per batch instead of one per line. A crash can lose
/// the last 50 ms of lines; nothing a client was promised depends on them.
final class LogLineWriter: @unchecked Sendable {
    // @unchecked: `pending` and the timestamp cache are only touched under `lock`.
    private var lock = pthread_mutex_t()
    private var pending: [UInt8] = []
    private var cachedSecond = -1
    private var cachedPrefix: [UInt8] = []
    private let queue = DispatchQueue(label: "past-nyc.log-writer")
    private let timer: DispatchSourceTimer
    private static let batchBytes = 64 * 1024

    init() {
        pthread_mutex_init(&lock, nil)
        timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + .milliseconds(50), repeating: .milliseconds(50))
        timer.setEventHandler { [unowned self] in self.flush() }
        timer.resume()
    }

    func append(_ line: [UInt8]) {
        pthread_mutex_lock(&lock)
        pending += line
        let full = pending.count >= Self.batchBytes
        pthread_mutex_unlock(&lock)
        if full {
            queue.async { self.flush() }
        }
    }

    /// Writes everything collected so far; call before the process exits.
    func flush() {
        pthread_mutex_lock(&lock)
        let batch = pending
        pending.removeAll(keepingCapacity: true)
        pthread_mutex_unlock(&lock)
        var offset = 0
        while offset < batch.count {
            let written = batch.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                return  // stderr is gone: there is nowhere left to report it
            }
            offset += written
        }
    }

    /// The current UTC time as RFC 3339 with milliseconds; the part up to the seconds is
    /// formatted once per second.
    func timestamp() -> [UInt8] {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        pthread_mutex_lock(&lock)
        if now.tv_sec != cachedSecond {
            cachedSecond = now.tv_sec
            var seconds = now.tv_sec
            var parts = tm()
            gmtime_r(&seconds, &parts)
            cachedPrefix = Array(
                (Self.pad(parts.tm_year + 1900, 4) + "-" + Self.pad(parts.tm_mon + 1, 2) + "-" + Self.pad(parts.tm_mday, 2)
                    + "T" + Self.pad(parts.tm_hour, 2) + ":" + Self.pad(parts.tm_min, 2) + ":" + Self.pad(parts.tm_sec, 2)
                    + ".").utf8)
        }
        var stamp = cachedPrefix
        pthread_mutex_unlock(&lock)
        stamp += Self.pad(Int32(now.tv_nsec / 1_000_000), 3).utf8
        stamp.append(UInt8(ascii: "Z"))
        return stamp
    }

    private static func pad(_ value: Int32, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}

/// Sends every log line of the process to stderr at `level` and above, through `writer`.
func makeLogger(level: Logger.Level, writer: LogLineWriter) -> Logger {
    LoggingSystem.bootstrap { _ in StandardErrorLogHandler(logLevel: level, writer: writer) }
    var logger = Logger(label: "past-nyc")
    logger.logLevel = level
    return logger
}
