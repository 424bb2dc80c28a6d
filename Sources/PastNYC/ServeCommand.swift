import API
import ArgumentParser
import Foundation
import HTTPServer
import Logging

/// `past-nyc serve`: builds the catalog if needed, then serves until SIGTERM or SIGINT.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the API (the default command)."
    )

    @Option(help: "Address to listen on.")
    var host = ApplicationConfiguration().server.host

    @Option(
        help: "Port to listen on, 0 to 65535; 0 picks a free one. Default: $PORT, else \(ApplicationConfiguration().server.port).")
    var port: Int?

    @OptionGroup var storage: StorageOptions

    @Option(help: "Path of the OpenAPI document served at /openapi.yaml.")
    var openapi = ApplicationConfiguration().openAPIPath

    @Option(help: "Folder of the web pages served at / (the map) and /docs (the API reference), and their files.")
    var webDir = ApplicationConfiguration().webDirectory

    @Option(
        help: """
            URL template of a map tile server, e.g. https://tile.openstreetmap.org/{z}/{x}/{y}.png, drawn under \
            the map's borough outlines. Mind the server's usage policy. Default: none; the map then asks no other server.
            """)
    var mapTiles: String?

    @Option(help: "scrypt cost of new password hashes: owasp (N=2^17, r=8, p=1) or test (cheap; never in production).")
    var passwordCost = PasswordCostSetting.owasp

    @Option(help: "Lowest level logged to stderr: trace, debug, info, notice, warning, error, critical.")
    var logLevel = Logger.Level.info

    @Option(help: "Open connections at most; one more is accepted and closed at once (the file descriptor limit must allow them).")
    var maxConnections = HTTPServerConfiguration().maxConnections

    @Option(
        help: """
            Writes (POST, PUT, PATCH, DELETE with a token) one user may make a second on average, in bursts of up \
            to \(UserWriteLimiter.burstFactor) times as many, counted per instance; 0 lifts the limit.
            """)
    var userWriteRate = ApplicationConfiguration().userWriteRate

    func validate() throws {
        _ = try resolvedPort()
        try storage.requireSourceFiles(ApplicationConfiguration.sourceFileNames)
        guard FileManager.default.isReadableFile(atPath: openapi) else {
            throw ValidationError(
                "no OpenAPI document at \(openapi) (\(URL(fileURLWithPath: openapi).standardizedFileURL.path)). "
                    + "Start past-nyc in the repository's root folder, or point --openapi at its openapi.yaml.")
        }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: webDir, isDirectory: &isFolder), isFolder.boolValue else {
            throw ValidationError(
                "no web folder at \(webDir) (\(URL(fileURLWithPath: webDir).standardizedFileURL.path)). "
                    + "Start past-nyc in the repository's root folder, or point --web-dir at its Web folder.")
        }
        if let mapTiles, !Self.isTileTemplate(mapTiles) {
            throw ValidationError(
                "--map-tiles must be an http:// or https:// URL with {z}, {x} and {y}, got '\(mapTiles)'")
        }
        guard maxConnections >= 1 else {
            throw ValidationError("max-connections must be at least 1, got \(maxConnections)")
        }
        guard userWriteRate >= 0 else {
            throw ValidationError("--user-write-rate must be 0 (no limit) or more, got \(userWriteRate)")
        }
    }

    /// A tile URL template as Leaflet takes it: absolute http(s), with the tile's zoom and column and row.
    static func isTileTemplate(_ template: String) -> Bool {
        (template.hasPrefix("https://") || template.hasPrefix("http://"))
            && ["{z}", "{x}", "{y}"].allSatisfy { template.contains($0) }
    }

    /// `--port`, else the `PORT` environment variable, else the default; a value that is
    /// not a port is refused, never replaced by the default.
    func resolvedPort() throws -> Int {
        let ports = 0...65535
        if let port {
            guard ports.contains(port) else { throw ValidationError("--port must be from 0 to 65535, got \(port)") }
            return port
        }
        guard let text = ProcessInfo.processInfo.environment["PORT"] else { return ApplicationConfiguration().server.port }
        guard let port = Int(text), ports.contains(port) else {
            throw ValidationError("the PORT environment variable must be a port number from 0 to 65535, got '\(text)'")
        }
        return port
    }

    func run() throws {
        let logWriter = LogLineWriter()
        defer { logWriter.flush() }
        let logger = makeLogger(level: logLevel, writer: logWriter)
        var configuration = ApplicationConfiguration()
        configuration.server.host = host
        configuration.server.port = try resolvedPort()
        configuration.server.maxConnections = maxConnections
        configuration.dataDirectory = storage.dataDir
        configuration.sourceDirectory = storage.resolvedSourceDir
        configuration.databaseURL = storage.resolvedDatabaseURL
        configuration.databasePoolSize = storage.databasePoolSize
        configuration.openAPIPath = openapi
        configuration.webDirectory = webDir
        configuration.mapTiles = mapTiles
        configuration.passwordCost = passwordCost.cost
        configuration.userWriteRate = userWriteRate

        ServingProcess.prepare()
        let application = try Application(configuration: configuration, logger: logger)
        try application.start()
        ShutdownSignals.wait()
        logger.notice("shutting down")
        application.shutdown()
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
