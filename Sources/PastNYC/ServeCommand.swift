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
    var host = "0.0.0.0"

    @Option(help: "Port to listen on; 0 picks a free one. Default: $PORT, else 8080.")
    var port: Int?

    @OptionGroup var storage: StorageOptions

    @Option(help: "Path of the OpenAPI document served at /openapi.yaml.")
    var openapi = "openapi.yaml"

    @Option(help: "scrypt cost of new password hashes: owasp (N=2^17, r=8, p=1) or test (cheap; never in production).")
    var passwordCost = PasswordCostSetting.owasp

    @Option(help: "Lowest level logged to stderr: trace, debug, info, notice, warning, error, critical.")
    var logLevel = Logger.Level.info

    func validate() throws {
        guard (0...65535).contains(resolvedPort) else {
            throw ValidationError("port must be 0...65535, got \(resolvedPort)")
        }
    }

    /// `--port`, else the `PORT` environment variable, else 8080.
    var resolvedPort: Int {
        if let port { return port }
        if let text = ProcessInfo.processInfo.environment["PORT"], let port = Int(text) { return port }
        return 8080
    }

    func run() throws {
        let logWriter = LogLineWriter()
        defer { logWriter.flush() }
        let logger = makeLogger(level: logLevel, writer: logWriter)
        var configuration = ApplicationConfiguration()
        configuration.server.host = host
        configuration.server.port = resolvedPort
        configuration.dataDirectory = storage.dataDir
        configuration.sourceDirectory = storage.sourceDir
        configuration.databaseURL = storage.resolvedDatabaseURL
        configuration.databasePoolSize = storage.databasePoolSize
        configuration.openAPIPath = openapi
        configuration.passwordCost = passwordCost.cost

        let application = try Application(configuration: configuration, logger: logger)
        try application.start()
        ShutdownSignals.wait()
        logger.notice("shutting down")
        application.shutdown()
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
