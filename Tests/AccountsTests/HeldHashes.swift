import Dispatch

@testable import Accounts

/// Password-hashing slots the test holds open on behalf of one client address: they stay
/// taken for as long as the test needs, however the machine schedules the threads, so
/// what the hasher answers meanwhile is observed, never timed.
final class HeldHashes: Sendable {
    private let releasing = DispatchSemaphore(value: 0)
    private let finished = DispatchGroup()
    private let count: Int

    enum HoldError: Error {
        case notAdmitted
    }

    /// Returns once all `count` slots are running the test's held work.
    init(_ count: Int, from clientAddress: String, in hasher: PasswordHasher) throws {
        self.count = count
        let holding = DispatchSemaphore(value: 0)
        for _ in 0..<count {
            finished.enter()
            DispatchQueue.global().async { [releasing, finished] in
                defer { finished.leave() }
                do {
                    _ = try hasher.withSlot(clientAddress: clientAddress) {
                        holding.signal()
                        // Bounded, so a test that wrongly waits for the slot fails instead of hanging.
                        _ = releasing.wait(timeout: .now() + 60)
                        return []
                    }
                } catch {
                    // Not admitted: `holding` is never signalled, and `init` throws below.
                }
            }
        }
        for _ in 0..<count where holding.wait(timeout: .now() + 60) != .success {
            release()
            throw HoldError.notAdmitted
        }
    }

    /// Lets the held work finish, and waits until it has.
    func release() {
        for _ in 0..<count { releasing.signal() }
        finished.wait()
    }
}
