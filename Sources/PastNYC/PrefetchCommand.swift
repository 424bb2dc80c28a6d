import API
import ArgumentParser
import Catalog
import Dispatch
import Foundation
import Glibc
import Images

/// `past-nyc images prefetch`: fills the disk copy for the whole catalog or a box, with
/// a progress bar on a terminal (a line every few seconds otherwise), resumable, and
/// exits non-zero when anything failed, after listing it.
struct PrefetchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prefetch",
        abstract: "Fetch every photograph the disk copy lacks, for the whole catalog or a box.",
        discussion: """
            Run it while no server uses the same data directory (the copy belongs to one process at a time). \
            Stopped, it resumes where it was when run again.
            """
    )

    @OptionGroup var storage: StorageOptions
    @OptionGroup var images: ImageOptions

    @Option(help: "thumb or 600.")
    var size = "thumb"

    // Unconditional: a western longitude is negative, and would otherwise read as an option.
    @Option(parsing: .unconditional, help: "The box's southern edge (with --west, --north and --east); default: the whole catalog.")
    var south: Double?
    @Option(parsing: .unconditional, help: "The box's western edge.")
    var west: Double?
    @Option(parsing: .unconditional, help: "The box's northern edge.")
    var north: Double?
    @Option(parsing: .unconditional, help: "The box's eastern edge.")
    var east: Double?

    @Option(help: "Source requests at once, at most (1 to 64).")
    var concurrency = 8

    func validate() throws {
        try storage.requireSourceFiles(CatalogStore.sourceFileNames)
        guard ImageSize(rawValue: size) != nil else { throw ValidationError("--size must be thumb or 600, got '\(size)'") }
        guard (1...64).contains(concurrency) else { throw ValidationError("--concurrency must be from 1 to 64, got \(concurrency)") }
        let edges = [south, west, north, east]
        guard edges.allSatisfy({ $0 == nil }) || edges.allSatisfy({ $0 != nil }) else {
            throw ValidationError("a box needs all of --south, --west, --north and --east")
        }
        if let south, let west, let north, let east {
            guard (-90...90).contains(south), (-90...90).contains(north), (-180...180).contains(west), (-180...180).contains(east)
            else { throw ValidationError("the box's edges must be latitudes in -90...90 and longitudes in -180...180") }
            guard south <= north else { throw ValidationError("--south must not be greater than --north") }
        }
    }

    func run() throws {
        try FileManager.default.createDirectory(atPath: storage.dataDir, withIntermediateDirectories: true)
        // The catalog as the servers serve it: the shipped one with the accepted corrections
        // (a photo's accepted turn is part of the image kept).
        let shipped = try CatalogStore.openOrBuild(
            dataDirectory: storage.dataDir, sourceDirectory: storage.resolvedSourceDir, snapshot: CatalogSnapshot.blocks(for:))
        let corrections = try CatalogCorrection.accepted(in: try storage.openUserData())
        let catalog = PhotoCatalog(shipped, corrections: PhotoCorrections(corrections, shipped: shipped))
        let copy = try ImageCopy(
            directory: storage.dataDir + "/" + ApplicationConfiguration.imagesFolderName, capacity: images.imageCacheSize)
        let box = south.map { (south: $0, west: west!, north: north!, east: east!) }
        let prefetch = try ImagePrefetch(
            catalog: catalog, copy: copy, origin: images.origin, size: ImageSize(rawValue: size)!, concurrency: concurrency, box: box)
        let bar = ProgressReport(onTerminal: isatty(STDERR_FILENO) == 1)
        let failures = prefetch.run { bar.show($0) }
        bar.finish()
        for failure in failures { print("failed \(failure.photoID): \(failure.reason)") }
        guard failures.isEmpty else {
            print("\(failures.count) image(s) failed; run the same command again to try them once more")
            throw ExitCode(1)
        }
    }
}
