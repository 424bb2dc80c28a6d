import Foundation
import Gzip
import TestSupportCore
import Testing

/// Blocks deflated on their own, laid one after another, are one gzip member of all
/// their bytes, and a block's bytes depend on its own bytes only.
@Suite struct GzipBlockTests {
    @Test(arguments: 1...12 as ClosedRange<UInt64>)
    func blocksMakeOneMemberOfTheirBytes(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let size = Int.random(in: 0...300_000, using: &random)
        // Text-like runs and noise, cut at random places (an empty block among them).
        let original = (0..<size).map { index in
            index % 97 < 60 ? UInt8(ascii: "a") + UInt8(index % 23) : UInt8.random(in: 0...255, using: &random)
        }
        var cuts = (0..<Int.random(in: 0...8, using: &random)).map { _ in Int.random(in: 0...size, using: &random) }
        cuts = ([0] + cuts.sorted() + [size])
        let blocks = try zip(cuts, cuts.dropFirst()).map { start, end in
            try original[start..<end].withUnsafeBufferPointer { try GzipBlock(compressing: $0) }
        }
        let member = GzipBlock.member(of: blocks)
        #expect(try Self.gunzip(member) == original)
        #expect(GzipTrailer(ofMember: member) == GzipTrailer(of: original))
    }

    @Test func aBlocksBytesDependOnlyOnWhatItHolds() throws {
        let text = Array(String(repeating: "Broadway & 42nd Street, looking north. ", count: 2_000).utf8)
        let first = try text.withUnsafeBufferPointer { try GzipBlock(compressing: $0) }
        let again = try text.withUnsafeBufferPointer { try GzipBlock(compressing: $0) }
        #expect(first == again)
        #expect(first.trailer == GzipTrailer(of: text))
        #expect(first.deflated.count < text.count / 20)
        #expect(Array(first.deflated.suffix(4)) == [0x00, 0x00, 0xFF, 0xFF], "ends on a sync flush's empty stored block")
    }

    /// Decompresses through the production reader.
    private static func gunzip(_ bytes: [UInt8]) throws -> [UInt8] {
        let folder = try TemporaryDirectory(prefix: "gzip-block")
        let path = folder.file("member.gz")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let reader = try GzipFileReader(path: path)
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = try chunk.withUnsafeMutableBytes { try reader.read(into: $0) }
            if count == 0 { return output }
            output += chunk[..<count]
        }
    }
}
