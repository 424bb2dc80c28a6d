import Synchronization

/// What the image copy has done since the server started, as atomics a metrics scrape
/// reads without a lock: hits and misses of `GET /photos/{photoID}/image`, the bytes
/// and images kept now, and the source's failures by the status they gave (`502`,
/// `504`). Written where each happens; every read is a relaxed load.
public final class ImageCacheCounters: Sendable {
    private let hitCount = Atomic<Int>(0)
    private let missCount = Atomic<Int>(0)
    private let keptByteCount = Atomic<Int>(0)
    private let keptImageCount = Atomic<Int>(0)
    private let badGatewayCount = Atomic<Int>(0)
    private let gatewayTimeoutCount = Atomic<Int>(0)

    public init() {}

    /// Requests answered from the copy.
    public var hits: Int { hitCount.load(ordering: .relaxed) }
    /// Requests for an image the copy did not hold.
    public var misses: Int { missCount.load(ordering: .relaxed) }
    /// The bytes of every kept image.
    public var keptBytes: Int { keptByteCount.load(ordering: .relaxed) }
    public var keptImages: Int { keptImageCount.load(ordering: .relaxed) }
    /// Source fetches that failed as `502`: refused, unreachable, not a JPEG, too large.
    public var badGatewayFailures: Int { badGatewayCount.load(ordering: .relaxed) }
    /// Source fetches that failed as `504`: no whole answer within the time allowed.
    public var gatewayTimeoutFailures: Int { gatewayTimeoutCount.load(ordering: .relaxed) }

    public func countHit() { hitCount.add(1, ordering: .relaxed) }
    public func countMiss() { missCount.add(1, ordering: .relaxed) }

    func countFailure(_ failure: SourceFailure) {
        if failure.isTimeout {
            gatewayTimeoutCount.add(1, ordering: .relaxed)
        } else {
            badGatewayCount.add(1, ordering: .relaxed)
        }
    }

    func setKept(bytes: Int, images: Int) {
        keptByteCount.store(bytes, ordering: .relaxed)
        keptImageCount.store(images, ordering: .relaxed)
    }
}
