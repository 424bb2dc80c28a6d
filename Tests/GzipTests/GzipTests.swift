import Foundation
import Gzip
import TestSupportCore
import Testing

/// Writes `bytes` to a file in a new temporary folder; the folder, removed once
/// released, is for the caller to keep alive to the end of the test.
private func temporaryFile(_ bytes: [UInt8]) throws -> (path: String, folder: TemporaryDirectory) {
    let folder = try TemporaryDirectory(prefix: "gzip-test")
    let path = folder.file("data.gz")
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return (path, folder)
}

private func readAll(_ reader: GzipFileReader) throws -> [UInt8] {
    var result: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1000)
    while true {
        let count = try buffer.withUnsafeMutableBytes { try reader.read(into: $0) }
        if count == 0 { return result }
        result += buffer[0..<count]
    }
}

@Suite struct GzipTests {
    @Test(arguments: [0, 1, 1023, 70_000, 1_000_000])
    func compressedBytesDecompressToTheOriginal(size: Int) throws {
        var generator = SeededGenerator(seed: UInt64(size))
        // Half random, half repetitive: exercises both stored and compressed blocks.
        let original = (0..<size).map { index in index % 2 == 0 ? UInt8.random(in: 0...255, using: &generator) : UInt8(index % 7) }
        let compressed = try Gzip.compress(original)
        #expect(Array(compressed.prefix(2)) == [0x1F, 0x8B], "gzip magic number")
        let (path, folder) = try temporaryFile(compressed)
        defer { withExtendedLifetime(folder) {} }
        #expect(try readAll(GzipFileReader(path: path)) == original)
    }

    @Test func linesAreSplitOnNewlinesIncludingAFinalLineWithoutOne() throws {
        let text = "first\n\nthird line\nlast"
        let (path, folder) = try temporaryFile(try Gzip.compress(Array(text.utf8)))
        defer { withExtendedLifetime(folder) {} }
        var lines: [(String, Int)] = []
        try GzipFileReader(path: path).forEachLine { line, number in lines.append((String(decoding: line, as: UTF8.self), number)) }
        #expect(lines.map(\.0) == ["first", "", "third line", "last"])
        #expect(lines.map(\.1) == [1, 2, 3, 4])
    }

    @Test func aTruncatedFileIsAnError() throws {
        let compressed = try Gzip.compress(Array(repeating: UInt8(ascii: "x"), count: 10_000))
        let (path, folder) = try temporaryFile(Array(compressed.prefix(compressed.count / 2)))
        defer { withExtendedLifetime(folder) {} }
        #expect(throws: GzipError.self) { _ = try readAll(GzipFileReader(path: path)) }
    }

    @Test func corruptDataIsAnError() throws {
        var compressed = try Gzip.compress(Array("hello, world, hello, world".utf8))
        compressed.replaceSubrange(10..<16, with: [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])
        let (path, folder) = try temporaryFile(compressed)
        defer { withExtendedLifetime(folder) {} }
        #expect(throws: GzipError.self) { _ = try readAll(GzipFileReader(path: path)) }
    }

    @Test func aMissingFileIsAnError() {
        #expect(throws: GzipError.self) { _ = try GzipFileReader(path: "/nonexistent/\(UUID().uuidString).gz") }
    }
}
