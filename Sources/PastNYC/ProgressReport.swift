import API
import Dispatch
import Glibc
import Synchronization

/// How `images prefetch` shows its progress on stderr: a bar redrawn in place on a
/// terminal, a plain line every five seconds otherwise (a log, a pipe).
final class ProgressReport: Sendable {
    private let onTerminal: Bool
    private let last = Mutex<(progress: ImagePrefetch.Progress?, lineAt: DispatchTime)>((nil, .now()))
    private static let width = 30

    init(onTerminal: Bool) {
        self.onTerminal = onTerminal
    }

    func show(_ progress: ImagePrefetch.Progress) {
        let text: String? = last.withLock { last in
            defer { last.progress = progress }
            if onTerminal { return "\r" + Self.bar(progress) }
            guard last.progress != progress, DispatchTime.now() > last.lineAt + .seconds(5) else { return nil }
            last.lineAt = .now()
            return Self.line(progress) + "\n"
        }
        if let text { Self.write(text) }
    }

    /// Ends the bar's line, or writes the last line.
    func finish() {
        let progress = last.withLock { $0.progress }
        guard let progress else { return }
        Self.write(onTerminal ? "\n" : Self.line(progress) + "\n")
    }

    private static func bar(_ progress: ImagePrefetch.Progress) -> String {
        let filled = progress.total == 0 ? width : progress.finished * width / progress.total
        return "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "] " + line(progress)
    }

    private static func line(_ progress: ImagePrefetch.Progress) -> String {
        "\(progress.finished)/\(progress.total): \(progress.alreadyKept) kept before, \(progress.fetched) fetched, \(progress.failed) failed"
    }

    private static func write(_ text: String) {
        var text = text
        text.withUTF8 { _ = Glibc.write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}
