import Foundation
import Synchronization
import Testing
import TestSupport

@testable import Images

/// Packs assembled into one file: the file holds exactly the bytes the pack's segments
/// stream; the least recently served go when the capacity is reached; a pack larger than
/// it, or one whose kept image is gone, is not assembled; a start empties the folder.
@Suite struct PackFilesTests {
    /// Assembles `pack` and waits for the outcome.
    static func assembled(_ files: PackFiles, _ pack: ImagePack) -> PackFiles.File? {
        let done = DispatchSemaphore(value: 0)
        let outcome = Mutex<PackFiles.File?>(nil)
        files.assemble(pack) { file in
            outcome.withLock { $0 = file }
            done.signal()
        }
        done.wait()
        return outcome.withLock { $0 }
    }

    static func pack(_ sizes: [Int], in directory: TemporaryDirectory, index: String = "{}") throws -> ImagePack {
        ImagePack(members: try ImagePackTests.members(sizes, in: directory), index: Array(index.utf8))
    }

    @Test(arguments: [[Int](), [1], [511, 513, 1024, 3], (0..<40).map { 100 + $0 * 37 }])
    func theFileIsTheStreamedArchiveByteForByte(_ sizes: [Int]) throws {
        let directory = try TemporaryDirectory()
        let files = try PackFiles(directory: directory.file("packs"), capacity: 1 << 20)
        let pack = try Self.pack(sizes, in: directory)
        #expect(files.file(etag: pack.etag) == nil)
        let file = try #require(Self.assembled(files, pack))
        #expect(files.file(etag: pack.etag) == file)
        #expect(file.length == pack.length)
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: file.path))) == ImagePackTests.bytes(of: pack))
        #expect(files.bytes == pack.length)
    }

    @Test func theLeastRecentlyServedGoFirstAndTooLargeIsNeverAssembled() throws {
        let directory = try TemporaryDirectory()
        let packs = try (0..<3).map { try Self.pack([3000], in: directory, index: "{\"n\":\($0)}") }
        // Room for two of the three packs, each as long as the others.
        let length = packs[0].length
        #expect(packs.allSatisfy { $0.length == length })
        let files = try PackFiles(directory: directory.file("packs"), capacity: 2 * length + 100)
        let first = try #require(Self.assembled(files, packs[0]))
        _ = try #require(Self.assembled(files, packs[1]))
        _ = files.file(etag: packs[0].etag)  // served: the second is now the oldest
        _ = try #require(Self.assembled(files, packs[2]))
        #expect(files.file(etag: packs[1].etag) == nil)
        #expect(files.file(etag: packs[0].etag) == first && files.file(etag: packs[2].etag) != nil)
        #expect(files.bytes == 2 * length)
        #expect(try ImageCopy.names(in: directory.file("packs")).count == 2, "the removed pack's file is gone")

        let small = try PackFiles(directory: directory.file("small"), capacity: length - 1)
        small.assemble(packs[0])  // refused at once, before anything is queued
        #expect(small.file(etag: packs[0].etag) == nil, "a pack larger than the capacity is not assembled")
        #expect(try ImageCopy.names(in: directory.file("small")).isEmpty)
    }

    @Test func aMemberGoneBeforeItsTurnLeavesNoFile() throws {
        let directory = try TemporaryDirectory()
        let pack = try Self.pack([100, 200], in: directory)
        try FileManager.default.removeItem(atPath: pack.members[1].image.path)
        let files = try PackFiles(directory: directory.file("packs"), capacity: 1 << 20)
        #expect(Self.assembled(files, pack) == nil)
        #expect(files.file(etag: pack.etag) == nil && files.bytes == 0)
        #expect(try ImageCopy.names(in: directory.file("packs")).isEmpty, "no temporary file is left")
    }

    @Test func aStartEmptiesTheFolder() throws {
        let directory = try TemporaryDirectory()
        let pack = try Self.pack([100], in: directory)
        let files = try PackFiles(directory: directory.file("packs"), capacity: 1 << 20)
        _ = try #require(Self.assembled(files, pack))
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: directory.file("packs/left.tar.tmp")))
        let restarted = try PackFiles(directory: directory.file("packs"), capacity: 1 << 20)
        #expect(restarted.file(etag: pack.etag) == nil)
        #expect(try ImageCopy.names(in: directory.file("packs")).isEmpty)
    }
}
