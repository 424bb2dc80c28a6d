import Foundation
import Testing
import TestSupport

/// How the real `past-nyc` reads its configuration: values that are not what they claim
/// are refused with a message and a non-zero exit, and the source folder can be named
/// from anywhere.
@Suite struct ConfigurationTests {
    /// Arguments that would serve if the configuration were good, so only the value under
    /// test can stop the server (a run that does start is stopped by the test's timeout).
    static func serve(_ extra: [String] = []) -> [String] {
        let root = PackageRoot.path
        return [
            "serve", "--host", "127.0.0.1", "--source-dir", root + "/Data", "--openapi", root + "/openapi.yaml",
            "--web-dir", root + "/Web",
        ] + extra
    }

    struct BadPort: CustomTestStringConvertible, Sendable {
        let environment: String?
        let option: String?
        let message: String
        var testDescription: String { "PORT=\(environment ?? "unset") --port \(option ?? "unset")" }
    }

    @Test(arguments: [
        BadPort(environment: "abc", option: nil, message: "PORT environment variable must be a port number from 0 to 65535, got 'abc'"),
        BadPort(environment: "", option: nil, message: "got ''"),
        BadPort(environment: "8080x", option: nil, message: "got '8080x'"),
        BadPort(environment: "65536", option: nil, message: "got '65536'"),
        BadPort(environment: "-1", option: nil, message: "got '-1'"),
        BadPort(environment: nil, option: "65536", message: "--port must be from 0 to 65535, got 65536"),
        BadPort(environment: "8080", option: "70000", message: "--port must be from 0 to 65535, got 70000"),
    ])
    func aPortThatIsNotAPortIsRefused(_ row: BadPort) throws {
        let dataDirectory = try TemporaryDirectory()
        let arguments = Self.serve(["--data-dir", dataDirectory.path] + (row.option.map { ["--port", $0] } ?? []))
        let (status, output) = try ServerProcess.runToExit(
            arguments, environment: row.environment.map { ["PORT": $0] } ?? [:])
        #expect(status == 64, "EX_USAGE: \(output)")
        #expect(output.contains(row.message), "\(output)")
        #expect(!FileManager.default.fileExists(atPath: dataDirectory.file("catalog.sqlite")), "refused before any work")
    }

    /// Started outside the repository, with the relative default, the server names what it
    /// did not find, where it looked, and how to point at it, instead of a Foundation error.
    @Test func startedElsewhereItSaysTheSourceFolderIsMissing() throws {
        let elsewhere = try TemporaryDirectory()
        let (status, output) = try ServerProcess.runToExit(
            ["serve", "--port", "0", "--data-dir", elsewhere.file("var")], workingDirectory: elsewhere.path)
        #expect(status == 64, "\(output)")
        let resolved = URL(fileURLWithPath: elsewhere.path).resolvingSymlinksInPath().path
        for expected in [
            "./Data", "oldnyc-locations.jsonl.gz, boroughs.geojson, common-passwords.txt", "--source-dir",
            "PAST_NYC_SOURCE_DIR", "the default, relative to the current folder",
        ] {
            #expect(output.contains(expected), "\(expected) in: \(output)")
        }
        #expect(output.contains(elsewhere.path + "/Data") || output.contains(resolved + "/Data"), "\(output)")
        #expect(!output.contains("NSCocoaErrorDomain"))
    }

    /// Only the files that are missing are named.
    @Test func aSourceFolderMissingOneFileNamesIt() throws {
        let source = try TemporaryDirectory()
        for name in ["oldnyc-locations.jsonl.gz", "boroughs.geojson"] {
            try FileManager.default.copyItem(atPath: PackageRoot.path + "/Data/" + name, toPath: source.file(name))
        }
        let (status, output) = try ServerProcess.runToExit(
            Self.serve(["--data-dir", source.file("var"), "--source-dir", source.path]))
        #expect(status == 64)
        #expect(output.contains(", from --source-dir) lacks common-passwords.txt."), "\(output)")
    }

    /// From another folder, `PAST_NYC_SOURCE_DIR` (and `--openapi` and `--web-dir`) are all
    /// it takes; `--map-tiles` reaches the map's settings.
    @Test func theSourceFolderVariableWorksFromAnotherFolder() throws {
        let elsewhere = try TemporaryDirectory()
        // A catalog built from the same data: the server checks it against the source files it finds.
        try FileManager.default.createDirectory(atPath: elsewhere.file("var"), withIntermediateDirectories: true)
        try SharedCatalog.copy(into: elsewhere.file("var"))
        let tiles = "https://tile.openstreetmap.org/{z}/{x}/{y}.png"
        let server = try ServerProcess(
            arguments: [
                "--openapi", PackageRoot.path + "/openapi.yaml", "--web-dir", PackageRoot.path + "/Web", "--map-tiles", tiles,
            ],
            workingDirectory: elsewhere.path,
            environment: ["PAST_NYC_SOURCE_DIR": PackageRoot.path + "/Data"])
        let client = try RawHTTPClient(port: server.port)
        #expect(try client.request("GET", "/healthz").status == 200)
        #expect(FileManager.default.fileExists(atPath: elsewhere.file("var/catalog.sqlite")), "the default data folder, ./var")
        #expect(try client.request("GET", "/").status == 200)
        let settings = try client.request("GET", "/app/settings.json").bodyText
        #expect(settings.hasPrefix(#"{"tiles":{"url":"\#(tiles)","attribution":"Map data &copy; "#), "\(settings)")
        #expect(server.stop() == 0)
    }

    /// Without the web folder (the relative default, from another folder) the server says
    /// where it looked and how to point at it.
    @Test func startedElsewhereItSaysTheWebFolderIsMissing() throws {
        let elsewhere = try TemporaryDirectory()
        let root = PackageRoot.path
        let (status, output) = try ServerProcess.runToExit(
            ["serve", "--port", "0", "--data-dir", elsewhere.file("var"), "--source-dir", root + "/Data",
             "--openapi", root + "/openapi.yaml"],
            workingDirectory: elsewhere.path)
        #expect(status == 64, "\(output)")
        #expect(output.contains("no web folder at Web ("), "\(output)")
        #expect(output.contains("point --web-dir at its Web folder"), "\(output)")
    }

    @Test(arguments: [
        "tile.openstreetmap.org/{z}/{x}/{y}.png", "ftp://tiles.example/{z}/{x}/{y}.png", "https://tiles.example/{z}/{x}.png",
        "https://tiles.{s}.example/{z}/{x}/{y}.png", "https://tiles.example;script-src */{z}/{x}/{y}.png",
    ])
    func aMapTilesValueThatIsNotATileTemplateIsRefused(_ template: String) throws {
        let dataDirectory = try TemporaryDirectory()
        let (status, output) = try ServerProcess.runToExit(Self.serve(["--data-dir", dataDirectory.path, "--map-tiles", template]))
        #expect(status == 64, "\(output)")
        #expect(output.contains("--map-tiles must be an http:// or https:// URL with {z}, {x} and {y}"), "\(output)")
        #expect(output.contains("got '\(template)'"), "\(output)")
    }

    @Test func aNegativeHeldWaitLimitIsRefused() throws {
        let dataDirectory = try TemporaryDirectory()
        let (status, output) = try ServerProcess.runToExit(
            Self.serve(["--data-dir", dataDirectory.path, "--max-held-waits-per-user=-1"]))
        #expect(status == 64, "\(output)")
        #expect(output.contains("max-held-waits-per-user must be 0 (no limit) or more, got -1"), "\(output)")
    }

    /// The accounts' fair-use limits: 0 lifts one, a negative count means nothing, and a
    /// hashing share of the whole hasher would let one address fill it.
    @Test(arguments: [
        (["--login-failures-per-client=-1"], "--login-failures-per-client must be 0 (no limit) or more, got -1"),
        (["--hashes-per-client", "6"], "--hashes-per-client must be from 0 (no limit) to 5, got 6"),
        (["--hashes-per-client=-1"], "--hashes-per-client must be from 0 (no limit) to 5, got -1"),
        (["--registrations-per-hour=-3"], "--registrations-per-hour must be 0 (no limit) or more, got -3"),
    ])
    func anAccountLimitOutOfRangeIsRefused(_ option: [String], _ message: String) throws {
        let dataDirectory = try TemporaryDirectory()
        let (status, output) = try ServerProcess.runToExit(Self.serve(["--data-dir", dataDirectory.path] + option))
        #expect(status == 64, "\(output)")
        #expect(output.contains(message), "\(output)")
    }

    @Test(arguments: [
        (["--trusted-proxy", "127.0.0.1", "--trusted-proxy", "nginx"], "--trusted-proxy must be an IPv4 or IPv6 address or CIDR block"),
        (["--trusted-proxy", "10.0.0.0/33"], "got '10.0.0.0/33'"),
        (["--max-connections-per-client=-1"], "--max-connections-per-client must be 0 (no limit) or more, got -1"),
    ])
    func aConnectionOptionThatIsNotWhatItClaimsIsRefused(_ options: [String], _ message: String) throws {
        let dataDirectory = try TemporaryDirectory()
        let (status, output) = try ServerProcess.runToExit(Self.serve(["--data-dir", dataDirectory.path] + options))
        #expect(status == 64, "\(output)")
        #expect(output.contains(message), "\(output)")
    }

    /// The mail options: a relay URL that is not one, a sender that is not a bare
    /// address, one without the other; a URL's password is never echoed.
    @Test(arguments: [
        (["--smtp-url", "http://relay.example.org", "--mail-from", "a@b.example"],
         "the SMTP URL (--smtp-url or $SMTP_URL) must start with smtp:// or smtps://"),
        (["--smtp-url", "smtp://user:hunter2@", "--mail-from", "a@b.example"], "the SMTP URL (--smtp-url or $SMTP_URL) must name a host"),
        (["--smtp-url", "smtp://relay.example.org"], "--mail-from is required with --smtp-url"),
        (["--smtp-url", "smtp://relay.example.org", "--mail-from", "PAST NYC <a@b.example>"], "--mail-from must be printable ASCII"),
        (["--mail-from", "a@b.example"], "--mail-from and --smtp-ca-file need --smtp-url"),
        (["--smtp-url", "smtps://relay.example.org", "--mail-from", "a@b.example", "--smtp-ca-file", "/no/such/file.pem"],
         "--smtp-ca-file: cannot read /no/such/file.pem"),
    ])
    func aMailOptionThatIsNotWhatItClaimsIsRefused(_ options: [String], _ message: String) throws {
        let dataDirectory = try TemporaryDirectory()
        let (status, output) = try ServerProcess.runToExit(Self.serve(["--data-dir", dataDirectory.path] + options))
        #expect(status == 64, "\(output)")
        #expect(output.contains(message), "\(output)")
        #expect(!output.contains("hunter2"))
    }
}
