import Foundation
import Testing
import TestSupport

/// The real `past-nyc` executable as a child process.
@Suite struct ExecutableTests {
    @Test func serveBuildsTheCatalogOnFirstStartAndStopsCleanlyOnSIGTERM() throws {
        let dataDirectory = try TemporaryDirectory()
        let server = try ServerProcess(dataDirectory: dataDirectory.path)
        let client = try RawHTTPClient(port: server.port)
        #expect(try client.request("GET", "/healthz").status == 200)
        #expect(FileManager.default.fileExists(atPath: dataDirectory.file("catalog.sqlite")))

        let started = ContinuousClock.now
        #expect(server.stop() == 0)
        #expect(ContinuousClock.now - started < .seconds(10))
        #expect(try client.waitForClose())
    }
}
