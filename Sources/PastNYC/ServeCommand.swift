import API
import Accounts
import ArgumentParser
import Foundation
import HTTPServer
import Logging
import Mail

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
    @OptionGroup var images: ImageOptions

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

    @Option(
        help: """
            Open connections at most (the file descriptor limit must allow them). From 90 % of it on, a new \
            connection closes the one idle longest; when none is idle, one more is answered 503 and closed.
            """)
    var maxConnections = HTTPServerConfiguration().maxConnections

    @Option(help: "GET /sync?wait= requests one user may have held at once; one more is refused with 429. 0 lifts the limit.")
    var maxHeldWaitsPerUser = ApplicationConfiguration().maxHeldWaitsPerUser

    @Option(
        help: """
            Failed logins from one client address within 15 minutes, whatever the usernames, after which every \
            login from it is answered 429 until the oldest leaves the window; 0 lifts the limit.
            """)
    var loginFailuresPerClient = ApplicationConfiguration().accountLimits.loginFailuresPerClient

    @Option(
        help: """
            Password hashes (register, login, password change, account deletion, password reset) one client \
            address may have running or queued at once; one more is answered 429. At most \(Self.maxHashesPerClient), \
            so that one address cannot fill the hasher; 0 lifts the limit.
            """)
    var hashesPerClient = ApplicationConfiguration().accountLimits.hashesPerClient

    @Option(help: "Accounts one client address may create within an hour; past that POST /users is answered 429; 0 lifts the limit.")
    var registrationsPerHour = ApplicationConfiguration().accountLimits.registrationsPerHour

    /// One less than the hashes the hasher admits at once: one address's share then
    /// always leaves room for another address.
    static let maxHashesPerClient = PasswordHasher.defaultConcurrentHashes + PasswordHasher.defaultQueuedHashes - 1
    @Option(
        help: """
            Open connections of one client address at most (a trusted proxy's are not counted); one more is \
            answered 429 and closed. 0: no limit.
            """)
    var maxConnectionsPerClient = HTTPServerConfiguration().maxConnectionsPerClient

    @Option(
        help: """
            An address or CIDR block (127.0.0.1, 10.0.0.0/8, ::1, fd00::/8) of a proxy whose X-Forwarded-For \
            names the client; repeatable. Default: none, the TCP peer is the client.
            """)
    var trustedProxy: [String] = []
    @Option(
        help: """
            Writes (POST, PUT, PATCH, DELETE with a token) one user may make a second on average, in bursts of up \
            to \(UserWriteLimiter.burstFactor) times as many, counted per instance; 0 lifts the limit.
            """)
    var userWriteRate = ApplicationConfiguration().userWriteRate

    /// Names `--smtp-url` when the option is not given: a URL with credentials stays out of `ps`.
    static let smtpURLVariable = "SMTP_URL"

    @Option(
        help: """
            The SMTP relay of the account mail (email codes, password resets): smtp://[user:password@]host[:port] \
            (STARTTLS when the relay offers it) or smtps://… (TLS from the start). Default: $\(Self.smtpURLVariable), \
            else none: the server sends no mail.
            """)
    var smtpURL: String?

    @Option(help: "The sender of the account mail (MAIL FROM and From), e.g. no-reply@example.org; required with --smtp-url.")
    var mailFrom: String?

    @Option(help: "A PEM file of the certificate authorities that sign the relay's certificate. Default: the system's.")
    var smtpCAFile: String?

    /// `--smtp-url`, else a non-empty `SMTP_URL`, else nil (no mail).
    var resolvedSMTPURL: String? {
        if let smtpURL { return smtpURL }
        guard let text = ProcessInfo.processInfo.environment[Self.smtpURLVariable], !text.isEmpty else { return nil }
        return text
    }

    /// The mail settings the options give; nil without a relay.
    func mailSettings() throws -> MailSettings? {
        guard let url = resolvedSMTPURL else {
            guard mailFrom == nil, smtpCAFile == nil else {
                throw ValidationError("--mail-from and --smtp-ca-file need --smtp-url (or $\(Self.smtpURLVariable))")
            }
            return nil
        }
        if let problem = MailSettings.problem(withURL: url) {
            // The URL may hold a password: named, never echoed.
            throw ValidationError("the SMTP URL (--smtp-url or $\(Self.smtpURLVariable)) \(problem)")
        }
        guard let mailFrom else { throw ValidationError("--mail-from is required with --smtp-url") }
        if let problem = MailSettings.problem(withSender: mailFrom) {
            throw ValidationError("--mail-from \(problem), got '\(mailFrom)'")
        }
        if let smtpCAFile, !FileManager.default.isReadableFile(atPath: smtpCAFile) {
            throw ValidationError("--smtp-ca-file: cannot read \(smtpCAFile)")
        }
        var settings = MailSettings(smtpURL: url, from: mailFrom)
        settings.certificateAuthorities = smtpCAFile
        return settings
    }
    @Option(
        help: """
            HOST:PORT of a second listener answering GET /metrics (Prometheus text format) and nothing else, e.g. \
            127.0.0.1:9464; keep it off the public network. Default: none, and nothing is counted.
            """)
    var metricsListen: String?

    func validate() throws {
        _ = try resolvedPort()
        _ = try metricsServer()
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
                "--map-tiles must be an http:// or https:// URL with {z}, {x} and {y} and a plain host "
                    + "({s} only as its first label), got '\(mapTiles)'")
        }
        guard maxConnections >= 1 else {
            throw ValidationError("max-connections must be at least 1, got \(maxConnections)")
        }
        guard maxHeldWaitsPerUser >= 0 else {
            throw ValidationError("--max-held-waits-per-user must be 0 (no limit) or more, got \(maxHeldWaitsPerUser)")
        }
        guard loginFailuresPerClient >= 0 else {
            throw ValidationError("--login-failures-per-client must be 0 (no limit) or more, got \(loginFailuresPerClient)")
        }
        guard (0...Self.maxHashesPerClient).contains(hashesPerClient) else {
            throw ValidationError(
                "--hashes-per-client must be from 0 (no limit) to \(Self.maxHashesPerClient), got \(hashesPerClient)")
        }
        guard registrationsPerHour >= 0 else {
            throw ValidationError("--registrations-per-hour must be 0 (no limit) or more, got \(registrationsPerHour)")
        }
        guard maxConnectionsPerClient >= 0 else {
            throw ValidationError("--max-connections-per-client must be 0 (no limit) or more, got \(maxConnectionsPerClient)")
        }
        _ = try trustedProxies()
        guard userWriteRate >= 0 else {
            throw ValidationError("--user-write-rate must be 0 (no limit) or more, got \(userWriteRate)")
        }
        _ = try mailSettings()
    }

    /// A tile URL template as Leaflet takes it: absolute http(s), with the tile's zoom and column and row.
    /// Its host is letters, digits, dots and dashes (and a port), with Leaflet's `{s}` only
    /// as its whole first label: the host goes into the pages' `Content-Security-Policy`
    /// (`WebRoutes.contentSecurityPolicy`), `{s}` as CSP's `*`.
    static func isTileTemplate(_ template: String) -> Bool {
        guard template.hasPrefix("https://") || template.hasPrefix("http://"),
            ["{z}", "{x}", "{y}"].allSatisfy({ template.contains($0) }),
            let schemeEnd = template.range(of: "://")
        else { return false }
        let authority = template[schemeEnd.upperBound...].prefix { $0 != "/" }
        let labels = authority.split(separator: ".", omittingEmptySubsequences: false)
        let plain = labels.enumerated().allSatisfy { index, label in
            (index == 0 && label == "{s}")
                || (!label.isEmpty && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ":") })
        }
        return plain
    }

    /// The `--trusted-proxy` blocks; a value that is not an address or CIDR block is refused.
    func trustedProxies() throws -> TrustedProxies {
        TrustedProxies(
            try trustedProxy.map { text in
                guard let range = IPAddressRange(text) else {
                    throw ValidationError(
                        "--trusted-proxy must be an IPv4 or IPv6 address or CIDR block (10.0.0.0/8, fd00::/8), got '\(text)'")
                }
                return range
            })
    }

    /// The listener of `--metrics-listen`: `HOST:PORT` (`[ADDRESS]:PORT` for IPv6), the
    /// port from 0 to 65535 (0 picks a free one, which the log line of its start names).
    func metricsServer() throws -> HTTPServerConfiguration? {
        guard let metricsListen else { return nil }
        let refusal = ValidationError("--metrics-listen must be HOST:PORT (127.0.0.1:9464, [::1]:9464), got '\(metricsListen)'")
        guard let colon = metricsListen.lastIndex(of: ":"), let port = Int(metricsListen[metricsListen.index(after: colon)...]),
            (0...65535).contains(port)
        else { throw refusal }
        var host = String(metricsListen[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty, !host.contains("["), !host.contains("]") else { throw refusal }
        var configuration = HTTPServerConfiguration()
        configuration.host = host
        configuration.port = port
        return configuration
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
        configuration.server.maxConnectionsPerClient = maxConnectionsPerClient
        configuration.server.trustedProxies = try trustedProxies()
        configuration.dataDirectory = storage.dataDir
        configuration.sourceDirectory = storage.resolvedSourceDir
        configuration.databaseURL = storage.resolvedDatabaseURL
        configuration.databasePoolSize = storage.databasePoolSize
        configuration.openAPIPath = openapi
        configuration.webDirectory = webDir
        configuration.mapTiles = mapTiles
        configuration.passwordCost = passwordCost.cost
        configuration.maxHeldWaitsPerUser = maxHeldWaitsPerUser
        configuration.accountLimits.loginFailuresPerClient = loginFailuresPerClient
        configuration.accountLimits.hashesPerClient = hashesPerClient
        configuration.accountLimits.registrationsPerHour = registrationsPerHour
        configuration.userWriteRate = userWriteRate
        configuration.imageOrigin = images.origin
        configuration.imageCacheSize = images.imageCacheSize
        configuration.mail = try mailSettings()
        configuration.metricsServer = try metricsServer()

        ServingProcess.prepare()
        let application = try Application(configuration: configuration, logger: logger)
        let signals = ShutdownSignals()
        try application.start()
        signals.wait()
        logger.notice("shutting down")
        application.shutdown()
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
