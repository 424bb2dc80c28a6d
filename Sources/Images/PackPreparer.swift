import Basics
import Crypto
import Synchronization

/// Gets every image of a pack kept before the pack is served: a pack whose images are all
/// kept (or failed while it was prepared) is ready; otherwise its missing images are
/// made in the background (`ImageMaker`, three tries each; the fetcher runs at most its
/// `maxBackground`, 8, source requests at once), and the caller answers with the progress.
///
/// A finished preparation is remembered for `retention`, so a pack whose source failed
/// for some photos is ready, with those listed as missing, rather than prepared again at
/// every request; after that a request tries them again.
///
/// `Sendable`: the preparations are behind a lock.
public final class PackPreparer: Sendable {
    /// One image a pack holds.
    public struct Item: Sendable {
        public let variant: ImageVariant
        public let source: PhotoSource

        public init(variant: ImageVariant, source: PhotoSource) {
            self.variant = variant
            self.source = source
        }
    }

    public struct Progress: Sendable, Equatable {
        public let photoCount: Int
        public let readyCount: Int
        public let failedCount: Int
    }

    public enum State: Sendable {
        /// Every item kept but those of `missing` (photo IDs, in the items' order); `kept`
        /// in the items' order.
        case ready(kept: [ImagePack.Member], missing: [String])
        case preparing(Progress)
    }

    private final class Preparation: Sendable {
        struct Counts {
            var ready: Int
            var failed: Set<ImageVariant> = []
            var pending: Int
            var finishedAt: ContinuousClock.Instant?
        }

        let photoCount: Int
        let counts: Mutex<Counts>

        init(photoCount: Int, ready: Int) {
            self.photoCount = photoCount
            counts = Mutex(Counts(ready: ready, pending: photoCount - ready))
        }
    }

    private let maker: ImageMaker
    private let retention: Duration
    private let preparations = Mutex<[String: Preparation]>([:])

    public init(maker: ImageMaker, retention: Duration = .seconds(600)) {
        self.maker = maker
        self.retention = retention
    }

    /// The state of the pack of `items`, starting its preparation when it is neither
    /// ready nor under way.
    public func state(of items: [Item]) -> State {
        let copy = maker.copy
        var digest = SHA256()
        for item in items { digest.update(data: Array((item.variant.key + "\n").utf8)) }
        let key = Hex.string(digest.finalize())
        return preparations.withLock { preparations -> State in
            let now = ContinuousClock.now
            preparations = preparations.filter { _, preparation in
                preparation.counts.withLock { $0.finishedAt.map { now - $0 < retention } ?? true }
            }
            var failed: Set<ImageVariant> = []
            if let preparation = preparations[key] {
                let counts = preparation.counts.withLock { $0 }
                guard counts.finishedAt != nil else {
                    return .preparing(Progress(photoCount: preparation.photoCount, readyCount: counts.ready, failedCount: counts.failed.count))
                }
                failed = counts.failed
            }
            var kept: [ImagePack.Member] = []
            var missing: [String] = []
            var lacking: [Item] = []
            kept.reserveCapacity(items.count)
            for item in items {
                if let image = copy.kept(item.variant, serving: true) {
                    kept.append(ImagePack.Member(photoID: item.variant.photoID, image: image))
                } else if failed.contains(item.variant) {
                    missing.append(item.variant.photoID)
                } else {
                    lacking.append(item)
                }
            }
            guard !lacking.isEmpty else { return .ready(kept: kept, missing: missing) }
            let preparation = Preparation(photoCount: items.count, ready: items.count - lacking.count)
            preparations[key] = preparation
            for item in lacking {
                maker.image(item.variant, source: item.source, tries: 3) { outcome in
                    preparation.counts.withLock { counts in
                        if case .kept = outcome {
                            counts.ready += 1
                        } else {
                            // A failed source, or an image the copy could not keep (it
                            // could not be streamed from a file): left out.
                            counts.failed.insert(item.variant)
                        }
                        counts.pending -= 1
                        if counts.pending == 0 { counts.finishedAt = ContinuousClock.now }
                    }
                }
            }
            return .preparing(Progress(photoCount: items.count, readyCount: items.count - lacking.count, failedCount: 0))
        }
    }
}
