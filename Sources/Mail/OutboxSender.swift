import Basics
import Foundation
import Logging
import Synchronization
import UserData

/// Delivers the outbox (`Outbox`) through the relay, one message at a time, on a
/// thread of its own: woken by the doorbell when a message is committed, else by the
/// next retry due or the poll.
///
/// Each message is claimed and written in one transaction, handed to the relay, then
/// recorded: sent, refused for good (a 5yz), or due again after the `RetrySchedule`'s
/// wait. A relay that cannot be reached (no reply at all) pauses the whole sender for
/// the same growing wait, since every other message would meet the same outage; one
/// that answers 4yz for one message delays that message only. Nothing is ever dropped
/// for an outage: a message waits, however long, until the relay takes it.
///
/// What can still happen twice: a crash (or a store that fails) after the relay took a
/// message and before its record is committed sends it again, with the same
/// `Message-ID`, once its claim is free (at once after a restart on SQLite, after the
/// lease on a shared store).
public final class OutboxSender: Sendable {
    private let store: any UserDataStore
    private let outbox: Outbox
    private let composer: any OutboxComposer
    private let logger: Logger
    private let clock: @Sendable () -> Int64
    /// This instance's name in its claims: new at every start.
    let instance = Hex.string(UInt64.random(in: .min ... .max))

    private struct State {
        var stopping = false
        var thread: NativeThread?
    }

    private let state = Mutex(State())
    /// How often finished rows are purged, at most.
    static let purgeIntervalMilliseconds: Int64 = 60 * 60 * 1000

    /// - Parameter clock: Unix milliseconds; the wall clock by default.
    public init(
        store: any UserDataStore, outbox: Outbox, composer: any OutboxComposer, logger: Logger,
        clock: @escaping @Sendable () -> Int64 = { Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)) }
    ) {
        self.store = store
        self.outbox = outbox
        self.composer = composer
        self.logger = logger
        self.clock = clock
    }

    /// Starts the sending thread. Throws when libcurl or the thread cannot start.
    public func start() throws {
        let client = ClientHandOver(try SMTPClient(settings: outbox.settings))
        let thread = try NativeThread.spawn(name: "mail-sender") { [self] in run(client.take()) }
        state.withLock { $0.thread = thread }
    }

    /// Stops after the attempt under way, if any (at most one transfer timeout), and
    /// waits for the thread to end.
    public func stop() {
        let thread = state.withLock { state in
            state.stopping = true
            return state.thread.take()
        }
        outbox.doorbell.ring()
        thread?.join()
    }

    private var isStopping: Bool { state.withLock { $0.stopping } }

    private func run(_ client: SMTPClient) {
        let settings = outbox.settings
        // Consecutive attempts that found no relay; the sender pauses after each.
        var outages = 0
        var pausedUntil: Int64 = 0
        var purgedAt: Int64?
        do {
            try outbox.prepareForStart(now: clock(), store: store)
        } catch {
            logger.error("could not make the waiting mail due", metadata: ["error": "\(error)"])
        }
        while !isStopping {
            var wakeAt = clock() + settings.pollMilliseconds
            do {
                if clock() >= pausedUntil {
                    if purgedAt.map({ clock() - $0 >= Self.purgeIntervalMilliseconds }) ?? true {
                        try outbox.purgeFinished(now: clock(), store: store)
                        purgedAt = clock()
                    }
                    if let pause = try sendDue(client, outages: &outages) {
                        pausedUntil = clock() + pause
                    }
                }
                if let due = try outbox.nextDue(store: store) { wakeAt = min(wakeAt, due) }
            } catch {
                logger.error("the mail outbox could not be read or written", metadata: ["error": "\(error)"])
                pausedUntil = clock() + settings.retry.firstMilliseconds
            }
            let now = clock()
            outbox.doorbell.wait(milliseconds: max(wakeAt, pausedUntil) - now)
        }
    }

    /// Sends every message due, one after another; returns how long to pause when the
    /// relay could not be reached, nil when every due message was tried.
    private func sendDue(_ client: SMTPClient, outages: inout Int) throws -> Int64? {
        let settings = outbox.settings
        while !isStopping {
            guard let claim = try outbox.claimNext(instance: instance, now: clock(), composer: composer, store: store)
            else { return nil }
            guard case .message(let entry, let content) = claim else { continue }
            let message = MailMessage(
                from: settings.from, recipient: entry.recipient, content: content, messageID: entry.messageID,
                date: Int(clock() / 1000))
            let metadata: Logger.Metadata = [
                "message_id": "\(entry.messageID)", "kind": "\(entry.kind)", "attempt": "\(entry.attempts + 1)",
                "relay": "\(settings.relayDescription)",
            ]
            var refusal: SMTPFailure?
            do throws(SMTPFailure) {
                try client.send(message)
            } catch {
                refusal = error
            }
            guard let failure = refusal else {
                outages = 0
                try outbox.record(entry, instance: instance, outcome: "sent", error: nil, now: clock(), store: store)
                logger.info("mail sent", metadata: metadata)
                continue
            }
            if failure.isPermanent {
                try outbox.record(
                    entry, instance: instance, outcome: "refused", error: failure.description, now: clock(), store: store)
                logger.error("the relay refused a message for good", metadata: metadata.merging(["error": "\(failure)"]) { $1 })
                continue
            }
            let wait = settings.retry.delay(afterFailures: entry.attempts + 1)
            try outbox.record(
                entry, instance: instance, outcome: nil, retryAt: clock() + wait, error: failure.description, now: clock(),
                store: store)
            logger.warning(
                "mail not sent; it will be tried again",
                metadata: metadata.merging(["error": "\(failure)", "retry_in_ms": "\(wait)"]) { $1 })
            guard failure.relayAnswered else {
                outages += 1
                return settings.retry.delay(afterFailures: outages)
            }
        }
        return nil
    }
}

/// Moves the SMTP client into the sender's thread, which is its only user from then on:
/// `@unchecked Sendable` for that one hand-over, taken once.
private final class ClientHandOver: @unchecked Sendable {
    private var client: SMTPClient?

    init(_ client: SMTPClient) {
        self.client = client
    }

    func take() -> SMTPClient {
        guard let client else { preconditionFailure("the client is handed over once") }
        self.client = nil
        return client
    }
}
