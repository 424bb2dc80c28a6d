import Basics
import Dispatch
import Glibc
import HTTPServer
import Logging
import Synchronization

/// Collects log lines in memory and writes them to stderr (tests pass another
/// descriptor) in batches, from its own queue: every 50 ms, at once when 64 KiB are
/// waiting, and on `flush()`. The event loops never wait on stderr (a slow pipe reader
/// cannot stall requests), and a burst of requests costs one `write` per batch instead
/// of one per line. A crash can lose the last 50 ms of lines; nothing a client was
/// promised depends on them.
final class LogLineWriter: Sendable {
    /// Lines not yet handed to a flush, and the timestamp prefix of the current second.
    private struct Pending {
        var bytes: [UInt8] = []
        var cachedSecond = -1
        var cachedPrefix: [UInt8] = []
    }

    private let pending = Mutex(Pending())
    /// The batch being written, held for the whole of a flush: one flush at a time. It
    /// trades places with the pending bytes and keeps its capacity, so lines are appended
    /// into memory already in use: a fresh buffer per batch would cost the event loops a
    /// page fault on each of its pages.
    private let writing = Mutex<[UInt8]>([])
    private let descriptor: Int32
    private let queue = DispatchQueue(label: "past-nyc.log-writer")
    private static let batchBytes = 64 * 1024
    private static let flushInterval = DispatchTimeInterval.milliseconds(50)

    init(descriptor: Int32 = STDERR_FILENO) {
        self.descriptor = descriptor
        scheduleFlush()
    }

    /// Flushes after the interval, then again after each: a chain that ends with the
    /// writer, as each step holds it only weakly.
    private func scheduleFlush() {
        queue.asyncAfter(deadline: .now() + Self.flushInterval) { [weak self] in
            guard let self else { return }
            flush()
            scheduleFlush()
        }
    }

    /// Appends one line: `ts=` and the current time, `fields`, a newline; the timestamp is
    /// formatted straight into the pending batch.
    func appendLine(_ fields: UnsafeBufferPointer<UInt8>) {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let full = pending.withLock { pending in
            pending.bytes.append("ts=")
            Self.appendTimestamp(now, to: &pending)
            pending.bytes.append(contentsOf: fields)
            pending.bytes.append(UInt8(ascii: "\n"))
            return pending.bytes.count >= Self.batchBytes
        }
        if full {
            queue.async { self.flush() }
        }
    }

    /// Writes everything collected so far; call before the process exits.
    func flush() {
        writing.withLock { writing in
            pending.withLock { swap(&$0.bytes, &writing) }
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
    }

    /// Appends `now` as RFC 3339 UTC with milliseconds; the part up to the seconds is
    /// formatted once per second.
    private static func appendTimestamp(_ now: timespec, to pending: inout Pending) {
        if now.tv_sec != pending.cachedSecond {
            pending.cachedSecond = now.tv_sec
            pending.cachedPrefix = Array((UTCDateTime(secondsSince1970: now.tv_sec).iso8601WithoutOffset + ".").utf8)
        }
        pending.bytes += pending.cachedPrefix
        let milliseconds = Int(now.tv_nsec / 1_000_000)
        pending.bytes.append(UInt8(ascii: "0") + UInt8(milliseconds / 100))
        pending.bytes.append(UInt8(ascii: "0") + UInt8(milliseconds / 10 % 10))
        pending.bytes.append(UInt8(ascii: "0") + UInt8(milliseconds % 10))
        pending.bytes.append(UInt8(ascii: "Z"))
    }
}

/// Sends every log line of the process to stderr at `level` and above, through `writer`.
func makeLogger(level: Logger.Level, writer: LogLineWriter) -> Logger {
    LoggingSystem.bootstrap { _ in StandardErrorLogHandler(logLevel: level, writer: writer) }
    var logger = Logger(label: "past-nyc")
    logger.logLevel = level
    return logger
}
