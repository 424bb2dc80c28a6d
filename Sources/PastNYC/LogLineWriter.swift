import Basics
import Logging
import Dispatch
import Glibc

/// Collects log lines in memory and writes them to stderr (tests pass another
/// descriptor) in batches, from its own queue: every 50 ms, at once when 64 KiB are
/// waiting, and on `flush()`. The event loops never wait on stderr (a slow pipe reader
/// cannot stall requests), and a burst of requests costs one `write` per batch instead
/// of one per line. A crash can lose the last 50 ms of lines; nothing a client was
/// promised depends on them.
final class LogLineWriter: @unchecked Sendable {
    // @unchecked: `pending` and the timestamp cache are only touched under `lock`,
    // `writing` only under `flushLock`.
    private var lock = pthread_mutex_t()
    private var pending: [UInt8] = []
    /// One flush at a time: the flush in progress owns `writing`.
    private var flushLock = pthread_mutex_t()
    /// The batch being written. It trades places with `pending` and keeps its capacity,
    /// so lines are appended into memory already in use: a fresh buffer per batch would
    /// cost the event loops a page fault on each of its pages.
    private var writing: [UInt8] = []
    private var cachedSecond = -1
    private var cachedPrefix: [UInt8] = []
    private let descriptor: Int32
    private let queue = DispatchQueue(label: "past-nyc.log-writer")
    private let timer: DispatchSourceTimer
    private static let batchBytes = 64 * 1024

    init(descriptor: Int32 = STDERR_FILENO) {
        self.descriptor = descriptor
        pthread_mutex_init(&lock, nil)
        pthread_mutex_init(&flushLock, nil)
        timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + .milliseconds(50), repeating: .milliseconds(50))
        timer.setEventHandler { [weak self] in self?.flush() }
        timer.resume()
    }

    deinit {
        timer.cancel()
        pthread_mutex_destroy(&lock)
        pthread_mutex_destroy(&flushLock)
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
        pthread_mutex_lock(&flushLock)
        defer { pthread_mutex_unlock(&flushLock) }
        pthread_mutex_lock(&lock)
        swap(&pending, &writing)
        pthread_mutex_unlock(&lock)
        defer { writing.removeAll(keepingCapacity: true) }
        var offset = 0
        while offset < writing.count {
            let written = writing.withUnsafeBytes { write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                return  // the output is gone: there is nowhere left to report it
            }
            offset += written
        }
    }

    /// Appends the current UTC time as RFC 3339 with milliseconds; the part up to the
    /// seconds is formatted once per second.
    func appendTimestamp(to line: inout [UInt8]) {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        pthread_mutex_lock(&lock)
        if now.tv_sec != cachedSecond {
            cachedSecond = now.tv_sec
            cachedPrefix = Array((UTCDateTime(secondsSince1970: now.tv_sec).iso8601WithoutOffset + ".").utf8)
        }
        line += cachedPrefix
        pthread_mutex_unlock(&lock)
        let milliseconds = Int(now.tv_nsec / 1_000_000)
        line.append(UInt8(ascii: "0") + UInt8(milliseconds / 100))
        line.append(UInt8(ascii: "0") + UInt8(milliseconds / 10 % 10))
        line.append(UInt8(ascii: "0") + UInt8(milliseconds % 10))
        line.append(UInt8(ascii: "Z"))
    }
}

/// Sends every log line of the process to stderr at `level` and above, through `writer`.
func makeLogger(level: Logger.Level, writer: LogLineWriter) -> Logger {
    LoggingSystem.bootstrap { _ in StandardErrorLogHandler(logLevel: level, writer: writer) }
    var logger = Logger(label: "past-nyc")
    logger.logLevel = level
    return logger
}
