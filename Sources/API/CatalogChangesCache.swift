import Synchronization

/// The answers of `GET /catalog/changes` one generation made, by `since`: phones ask
/// with the tokens of the few generations before, so most answers are made once per
/// generation, on a worker, and then sent from here on the event loop, gzip copy and
/// all. Bounded by bytes; past that, the oldest answers go first.
final class CatalogChangesCache: Sendable {
    /// A made answer: its body, its gzip copy when the body is worth compressing, its tag.
    struct Answer: Sendable {
        let body: [UInt8]
        let gzipped: [UInt8]?
        let etag: String

        var byteCount: Int { body.count + (gzipped?.count ?? 0) }
    }

    private struct State {
        var answers: [String: Answer] = [:]
        /// The keys, oldest first.
        var order: [String] = []
        var byteCount = 0
    }

    /// Bytes kept at most: the answers of many phones' tokens, or one of a token so old
    /// its answer is a large part of the snapshot.
    static let capacity = 16 << 20

    private let state = Mutex(State())

    func answer(since: String) -> Answer? {
        state.withLock { $0.answers[since] }
    }

    /// Keeps `answer`, unless it alone is larger than the whole capacity.
    func keep(_ answer: Answer, since: String) {
        guard answer.byteCount <= Self.capacity else { return }
        state.withLock { state in
            guard state.answers[since] == nil else { return }
            state.answers[since] = answer
            state.order.append(since)
            state.byteCount += answer.byteCount
            while state.byteCount > Self.capacity, !state.order.isEmpty {
                let oldest = state.order.removeFirst()
                state.byteCount -= state.answers.removeValue(forKey: oldest)?.byteCount ?? 0
            }
        }
    }
}
