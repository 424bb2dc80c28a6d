import API
import ArgumentParser
import Foundation

/// Where the server keeps its databases and reads its source data.
struct StorageOptions: ParsableArguments {
    /// Names `--source-dir` when the option is not given.
    static let sourceDirectoryVariable = "PAST_NYC_SOURCE_DIR"

    @Option(help: "Folder for the SQLite databases (catalog, accounts); created if missing.")
    var dataDir = ApplicationConfiguration().dataDirectory

    @Option(
        help: """
            Folder with the catalog source files and common-passwords.txt (the repository's Data folder). \
            Default: $\(Self.sourceDirectoryVariable), else \(ApplicationConfiguration().sourceDirectory).
            """)
    var sourceDir: String?

    /// `--source-dir`, else `$PAST_NYC_SOURCE_DIR`, else `./Data`.
    var resolvedSourceDir: String {
        sourceDir ?? ProcessInfo.processInfo.environment[Self.sourceDirectoryVariable]
            ?? ApplicationConfiguration().sourceDirectory
    }

    /// Refuses, before anything starts, a source folder without `fileNames`: says which
    /// are missing, where it looked (a relative default depends on the current folder),
    /// and how to point at the right one.
    func requireSourceFiles(_ fileNames: [String]) throws {
        let directory = resolvedSourceDir
        let missing = fileNames.filter { !FileManager.default.isReadableFile(atPath: directory + "/" + $0) }
        guard !missing.isEmpty else { return }
        let absolute = URL(fileURLWithPath: directory).standardizedFileURL.path
        let origin =
            sourceDir != nil ? "--source-dir"
            : ProcessInfo.processInfo.environment[Self.sourceDirectoryVariable] != nil ? "$\(Self.sourceDirectoryVariable)"
            : "the default, relative to the current folder"
        throw ValidationError(
            "the source data folder \(directory) (\(absolute), from \(origin)) lacks "
                + missing.joined(separator: ", ")
                + ". Start past-nyc in the repository's root folder, or point --source-dir or the "
                + "\(Self.sourceDirectoryVariable) environment variable at the repository's Data folder.")
    }
}
