import Dispatch

/// Wakes the sender when messages were committed to the outbox, so one waits for no
/// poll: the writer rings after its commit (`Outbox.announce`), the sender sleeps on it.
/// A ring while the sender is awake makes its next sleep end at once: never missed.
public final class OutboxDoorbell: Sendable {
    private let rings = DispatchSemaphore(value: 0)

    public init() {}

    func ring() {
        rings.signal()
    }

    /// Sleeps until a ring or `milliseconds` pass; takes every ring waiting.
    func wait(milliseconds: Int64) {
        _ = rings.wait(timeout: .now() + .milliseconds(Int(clamping: max(milliseconds, 0))))
        while rings.wait(timeout: .now()) == .success {}
    }
}
