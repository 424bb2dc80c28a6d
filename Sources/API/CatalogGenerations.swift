import Basics
import CEpoll
import Catalog
import Dispatch
import Explore
import Logging
import Synchronization
import UserData

/// The catalog the routes serve: its current generation, behind one reference that each
/// request reads once (`current`), and the generations to come.
///
/// A thread of its own watches the accepted corrections (`catalog_corrections`): every
/// second it reads their count and highest `sequence` (one cheap query), and at once when
/// the store says rows were added (`CorrectionsFeed`: on PostgreSQL a trigger's `NOTIFY`
/// reaches every instance) or `refresh()` is called. When they changed, it reads them
/// all, builds the generation of every one of them (`CatalogGeneration`, a second or so of CPU
/// on this thread, never on an event loop) and swaps it in. Requests already running
/// finish on the generation they read; the old one is freed when the last of them ends.
/// Corrections accepted while a generation is built are in the next one. A build that
/// fails is logged and tried again only when more corrections arrive; the generation
/// before keeps being served.
///
/// Nothing of a generation is stored: a start reads every correction and builds their
/// generation before it listens, so a server killed mid-build comes back with all of them.
///
/// `Sendable`: the reference is behind a lock; the rest is immutable.
public final class CatalogGenerations: PlacedPhotoProvider, Sendable {
    private let generation: Mutex<CatalogGeneration>
    private let shipped: ShippedCatalog
    private let search: ShippedSearchIndex
    private let store: any UserDataStore
    private let logger: Logger
    private let wake = DispatchSemaphore(value: 0)

    /// How often the watcher looks at the corrections without being told.
    static let pollInterval = DispatchTimeInterval.seconds(1)

    /// The generation of `corrections`: `initial` when it is theirs, else built here.
    /// - Parameters:
    ///   - corrections: every accepted correction, in `sequence` order.
    init(
        initial: CatalogGeneration, shipped: ShippedCatalog, search: ShippedSearchIndex, corrections: [CatalogCorrection],
        store: any UserDataStore, logger: Logger
    ) throws {
        self.shipped = shipped
        self.search = search
        self.store = store
        self.logger = logger
        let history = CorrectionHistory(shippedDataVersion: shipped.dataVersion, corrections: corrections)
        if initial.history.token == history.token {
            generation = Mutex(initial)
        } else {
            generation = Mutex(
                try CatalogGeneration.build(
                    history, shipped: shipped, search: search, reusing: initial.snapshot.blocks, logger: logger))
        }
        store.correctionsFeed.listen { [wake] in wake.signal() }
    }

    /// The generation to serve now. A request reads it once and keeps it to its end.
    public var current: CatalogGeneration {
        generation.withLock { $0 }
    }

    /// The current generation's number: the `sequence` of the last correction it holds
    /// (rising), 0 for the shipped catalog. For the metrics.
    public var number: Int64 {
        current.number
    }

    /// The accepted clockwise turn (0, 90, 180 or 270) that makes the image at a photo's
    /// `photoURL` upright, in the current generation; nil for an unknown photo ID. What the
    /// image routes turn the source's bytes by (`PhotoCatalog.acceptedRotation(photoID:)`).
    public func acceptedRotation(photoID: String) -> Int? {
        current.catalog.acceptedRotation(photoID: photoID)
    }

    /// Looks at the corrections now rather than at the next tick: for the writer of a
    /// correction on this instance.
    public func refresh() {
        wake.signal()
    }

    /// Whether the store holds a correction of `sequence` or later: a generation another
    /// instance may have built already. Blocks (a query): call it off the event loop.
    func isAccepted(sequence: Int64) throws -> Bool {
        try CatalogCorrection.head(in: store).lastSequence >= sequence
    }

    /// Starts the watcher thread, which ends when this object is released.
    func startWatching() throws {
        let initial = current.history.corrections
        try NativeThread.spawn(name: "catalog-watch") { [weak self, wake] in
            var known = initial
            var failed: CatalogCorrectionsHead?
            weak var retired: CatalogGeneration?
            var trimPending = false
            while true {
                _ = wake.wait(timeout: .now() + Self.pollInterval)
                // The generation swapped out is freed once its last request ends. glibc keeps
                // the freed pages of an allocator arena resident, so without a trim the
                // process would hold two generations' memory until the next build reused
                // it; malloc_trim(3) gives them back (madvise on every arena's free pages).
                if trimPending, retired == nil {
                    malloc_trim(0)
                    trimPending = false
                }
                guard let self else { return }
                if let swappedOut = self.update(known: &known, failed: &failed) {
                    retired = swappedOut
                    trimPending = true
                }
            }
        }.detach()
    }

    /// Builds and swaps in the generation of the corrections in the store, when they are
    /// not `known` (the current generation's) and did not fail to build already; returns
    /// the generation it swapped out, if it did.
    private func update(known: inout [CatalogCorrection], failed: inout CatalogCorrectionsHead?) -> CatalogGeneration? {
        let corrections: [CatalogCorrection]
        do {
            let head = try CatalogCorrection.head(in: store)
            guard head != CatalogCorrectionsHead(count: known.count, lastSequence: known.last?.sequence ?? 0), head != failed
            else { return nil }
            corrections = try CatalogCorrection.accepted(in: store)
        } catch {
            logger.warning("cannot read the catalog corrections", metadata: ["error": "\(error)"])
            return nil
        }
        let head = CatalogCorrectionsHead(count: corrections.count, lastSequence: corrections.last?.sequence ?? 0)
        do {
            let history = CorrectionHistory(shippedDataVersion: shipped.dataVersion, corrections: corrections)
            let built = try CatalogGeneration.build(
                history, shipped: shipped, search: search, reusing: current.snapshot.blocks, logger: logger)
            let swappedOut = generation.withLock { generation in
                defer { generation = built }
                return generation
            }
            known = corrections
            failed = nil
            return swappedOut
        } catch {
            failed = head
            logger.error(
                "cannot build the catalog generation; serving the one before",
                metadata: ["generation": "\(head.lastSequence)", "error": "\(error)"])
            return nil
        }
    }

    // MARK: PlacedPhotoProvider, for the user-data routes

    public func placedPhotoJSON(photoID: String) -> [UInt8]? {
        current.catalogRoutes.json.placedPhotoJSON(photoID: photoID)
    }

    public func appendOpenPlacedPhoto(photoID: String, to body: inout [UInt8]) -> Bool {
        current.catalogRoutes.json.appendOpenPlacedPhoto(photoID: photoID, to: &body)
    }

    /// The current generation's, for a response of many photos to take from one generation.
    public func pinned() -> any PlacedPhotoProvider {
        current.catalogRoutes.json
    }
}
