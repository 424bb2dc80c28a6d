import Catalog
import Dispatch
import Images
import Synchronization

/// `past-nyc images prefetch`: fills the disk copy with every image of the catalog (or
/// of a box) at one size that it does not hold yet, three tries each, at most
/// `concurrency` source requests at once and holding off a host that answers `429`
/// (`SourceFetcher`). What is kept stays kept, so a prefetch stopped in any way resumes
/// where it was when run again.
public struct ImagePrefetch {
    public struct Progress: Sendable, Equatable {
        /// Images asked for.
        public var total: Int
        /// Kept before this run.
        public var alreadyKept: Int
        /// Kept by this run.
        public var fetched = 0
        /// Failed three tries, or could not be kept.
        public var failed = 0

        public var finished: Int { alreadyKept + fetched + failed }
    }

    /// What failed, by photo ID, in photoID order.
    public struct Failure: Sendable, Equatable {
        public let photoID: String
        public let reason: String
    }

    private let catalog: PhotoCatalog
    private let maker: ImageMaker
    private let sources: PhotoImageSources
    private let size: ImageSize
    private let photos: [Int]

    /// - Parameter box: south, west, north and east; nil for the whole catalog.
    public init(
        catalog: PhotoCatalog, copy: ImageCopy, origin: ImageOrigin?, size: ImageSize, concurrency: Int,
        box: (south: Double, west: Double, north: Double, east: Double)?
    ) throws {
        self.catalog = catalog
        var settings = SourceFetcher.Settings()
        settings.maxConcurrent = concurrency
        settings.maxBackground = concurrency
        maker = try ImageMaker(copy: copy, fetcher: try SourceFetcher(settings: settings))
        sources = PhotoImageSources(origin: origin)
        self.size = size
        var photos: [Int]
        if let box {
            photos = []
            let result = catalog.region(RegionQuery(south: box.south, west: box.west, north: box.north, east: box.east, limit: .max))
            for match in result.matches { photos += catalog.photoRange(location: match.location) }
        } else {
            photos = Array(catalog.photos.indices)
        }
        self.photos = photos.sorted { catalog.photos[$0].photoID.utf8.lexicographicallyPrecedes(catalog.photos[$1].photoID.utf8) }
    }

    /// Fetches what is missing; calls `report` about five times a second, and once at
    /// the end, from another thread. Returns what failed.
    public func run(report: @escaping @Sendable (Progress) -> Void) -> [Failure] {
        let variants = photos.map { photo in
            (photo, ImageVariant(photoID: catalog.photos[photo].photoID, size: size, turn: catalog.acceptedTurn(ofPhoto: photo)))
        }
        let lacking = variants.filter { maker.copy.kept($0.1, serving: false) == nil }
        let state = Mutex((progress: Progress(total: variants.count, alreadyKept: variants.count - lacking.count), failures: [Failure]()))
        let done = DispatchSemaphore(value: 0)
        for (photo, variant) in lacking {
            maker.image(variant, source: sources.source(of: catalog.photos[photo]), tries: 3) { outcome in
                let finished = state.withLock { state -> Bool in
                    switch outcome {
                    case .kept:
                        state.progress.fetched += 1
                    case .unkept:
                        state.progress.failed += 1
                        state.failures.append(Failure(photoID: variant.photoID, reason: "not kept: the disk or the copy is full"))
                    case .failed(let failure):
                        state.progress.failed += 1
                        state.failures.append(Failure(photoID: variant.photoID, reason: "\(failure)"))
                    }
                    return state.progress.finished == state.progress.total
                }
                if finished { done.signal() }
            }
        }
        if lacking.isEmpty { done.signal() }
        while done.wait(timeout: .now() + .milliseconds(200)) == .timedOut {
            report(state.withLock { $0.progress })
        }
        maker.copy.writeServedOrder()
        let (progress, failures) = state.withLock { ($0.progress, $0.failures) }
        report(progress)
        return failures.sorted { $0.photoID.utf8.lexicographicallyPrecedes($1.photoID.utf8) }
    }
}
