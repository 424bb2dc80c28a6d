import API
import ArgumentParser
import Catalog
import Foundation

/// `past-nyc import`: (re)builds the catalog database from the source files and exits.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Build the catalog database from the source data, replacing any previous one."
    )

    @OptionGroup var storage: StorageOptions

    func validate() throws {
        try storage.requireSourceFiles(CatalogStore.sourceFileNames)
    }

    func run() throws {
        try FileManager.default.createDirectory(atPath: storage.dataDir, withIntermediateDirectories: true)
        let started = ContinuousClock.now
        try CatalogStore.build(
            dataDirectory: storage.dataDir, sourceDirectory: storage.resolvedSourceDir, snapshot: CatalogSnapshot.blocks(for:))
        print("catalog built in \(storage.dataDir) in \(ContinuousClock.now - started)")
    }
}
