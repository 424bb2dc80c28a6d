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

/// A server out of file descriptors (`EMFILE`) must not spin on its ready listening
/// socket: it pauses accepting, and lets the waiting clients in as descriptors free up.
@Suite struct DescriptorExhaustionTests {
    @Test func outOfDescriptorsTheServerPausesAcceptingThenServesTheWaitingClients() throws {
        let dataDirectory = try TemporaryDirectory()
        try SharedCatalog.copy(into: dataDirectory.path)
        let limit = 40
        let server = try ServerProcess(dataDirectory: dataDirectory.path, descriptorLimit: limit)
        // The kernel completes these connections in the backlog whether accepted or not.
        var clients = try (0..<48).map { _ in try RawHTTPClient(port: server.port, timeout: .seconds(2)) }
        for client in clients { try client.send("GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n") }
        // Out of descriptors means every number below the limit is taken (the test process
        // may have passed on others above it, which the server cannot use up).
        func descriptorsBelowLimit() throws -> Int { try server.openDescriptors().count { $0.number < limit } }
        let deadline = ContinuousClock.now + .seconds(20)
        while try descriptorsBelowLimit() < limit, ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.05) }
        let descriptors = try server.openDescriptors()
        #expect(try descriptorsBelowLimit() == limit, "the server should have used every descriptor it may: \(descriptors)")

        // With clients waiting and no descriptor left, the server idles instead of retrying accept() in a busy loop.
        let before = try server.cpuTime()
        Thread.sleep(forTimeInterval: 1)
        #expect(try server.cpuTime() - before < .milliseconds(300))

        // Each client closed after its answer frees a descriptor for the next one waiting.
        while !clients.isEmpty {
            #expect(try clients.removeFirst().readResponse().status == 200)
        }
        #expect(try RawHTTPClient(port: server.port).request("GET", "/healthz").status == 200)
    }
}
