import Foundation
import Glibc
import Images
import SQLite
import Testing
import TestSupport

/// The disk copy: what it keeps it finds again, after a restart too; it evicts the least
/// recently served first; a start clears what a crash left; one process holds it.
@Suite struct ImageCopyTests {
    static let info = JPEGImage.Info(width: 608, height: 400, isGray: false, isCMYK: false)

    static func variant(_ photoID: String, _ size: ImageSize = .full) -> ImageVariant {
        ImageVariant(photoID: photoID, size: size)
    }

    /// Distinct bytes of `count` (the copy does not look inside).
    static func bytes(_ seed: UInt8, count: Int = 1000) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0) &+ seed }
    }

    static func keep(_ copy: ImageCopy, _ photoID: String, _ seed: UInt8, count: Int = 1000) throws -> KeptImage {
        guard case .kept(let image) = copy.keep(variant(photoID), bytes: bytes(seed, count: count), info: info) else {
            throw ImageCopyError.inUse(directory: "not kept")
        }
        return image
    }

    @Test func whatIsKeptIsFoundWithItsBytesAndAgainAfterARestart() throws {
        let directory = try TemporaryDirectory()
        let kept: KeptImage
        do {
            let copy = try ImageCopy(directory: directory.path, capacity: 1 << 20)
            kept = try Self.keep(copy, "a", 1)
            #expect(copy.kept(Self.variant("a")) == kept)
            #expect(copy.kept(Self.variant("a", .thumb)) == nil)
            #expect(FileManager.default.contents(atPath: kept.path) == Data(Self.bytes(1)))
            #expect(kept.etag == ImageCopy.etag(of: Self.bytes(1)))
            #expect(copy.counters.keptBytes == 1000 && copy.counters.keptImages == 1)
        }
        let reopened = try ImageCopy(directory: directory.path, capacity: 1 << 20)
        #expect(reopened.kept(Self.variant("a")) == kept)
        #expect(reopened.keptBytes == 1000)
    }

    @Test func theLeastRecentlyServedGoFirst() throws {
        let directory = try TemporaryDirectory()
        let copy = try ImageCopy(directory: directory.path, capacity: 3000)
        let a = try Self.keep(copy, "a", 1), b = try Self.keep(copy, "b", 2)
        _ = try Self.keep(copy, "c", 3)
        _ = copy.kept(Self.variant("a"))  // Served: now b is the least recent.
        _ = try Self.keep(copy, "d", 4)
        #expect(copy.kept(Self.variant("b"), serving: false) == nil)
        #expect(!FileManager.default.fileExists(atPath: b.path))
        #expect(copy.kept(Self.variant("a"), serving: false) == a)
        #expect(copy.keptBytes == 3000)
        // Two images' room: the two least recent go, c, then a (served before d was kept).
        _ = try Self.keep(copy, "e", 5, count: 2000)
        #expect(["a", "c", "d", "e"].filter { copy.kept(Self.variant($0), serving: false) != nil } == ["d", "e"])
    }

    @Test func theServedOrderOutlivesARestart() throws {
        let directory = try TemporaryDirectory()
        do {
            let copy = try ImageCopy(directory: directory.path, capacity: 2000)
            _ = try Self.keep(copy, "a", 1)
            _ = try Self.keep(copy, "b", 2)
            _ = copy.kept(Self.variant("a"))
        }
        let copy = try ImageCopy(directory: directory.path, capacity: 2000)
        _ = try Self.keep(copy, "c", 3)
        #expect(copy.kept(Self.variant("a"), serving: false) != nil)
        #expect(copy.kept(Self.variant("b"), serving: false) == nil)
    }

    @Test func anImageLargerThanTheCopyIsNotKept() throws {
        let directory = try TemporaryDirectory()
        let copy = try ImageCopy(directory: directory.path, capacity: 500)
        guard case .notKept = copy.keep(Self.variant("a"), bytes: Self.bytes(1), info: Self.info) else {
            Issue.record("kept an image larger than the copy")
            return
        }
        #expect(copy.keptCount == 0)
    }

    @Test func aStartRemovesWhatACrashLeft() throws {
        let directory = try TemporaryDirectory()
        let gone: KeptImage
        do {
            let copy = try ImageCopy(directory: directory.path, capacity: 1 << 20)
            _ = try Self.keep(copy, "a", 1)
            gone = try Self.keep(copy, "b", 2)
        }
        // What a kill -9 can leave: a half-written temporary file, a renamed file whose
        // row was never written; and a row whose file is gone (removed by hand).
        let temporary = directory.path + "/tmp/half.jpg.1.2"
        let orphan = directory.path + "/ab/abababababababab-0123.jpg"
        try Data([0xFF, 0xD8]).write(to: URL(fileURLWithPath: temporary))
        try Data([0xFF, 0xD8]).write(to: URL(fileURLWithPath: orphan))
        unlink(gone.path)
        let copy = try ImageCopy(directory: directory.path, capacity: 1 << 20)
        #expect(!FileManager.default.fileExists(atPath: temporary))
        #expect(!FileManager.default.fileExists(atPath: orphan))
        #expect(copy.kept(Self.variant("b")) == nil)
        #expect(copy.kept(Self.variant("a")) != nil)
        let rows = try SQLiteConnection(path: directory.path + "/index.sqlite").query("SELECT variant FROM images") { $0.text(0) }
        #expect(rows == [Self.variant("a").key])
    }

    @Test func aSmallerCapacityAtStartEvictsDownToIt() throws {
        let directory = try TemporaryDirectory()
        do {
            let copy = try ImageCopy(directory: directory.path, capacity: 1 << 20)
            for (index, name) in ["a", "b", "c"].enumerated() { _ = try Self.keep(copy, name, UInt8(index)) }
        }
        let copy = try ImageCopy(directory: directory.path, capacity: 2000)
        #expect(copy.keptBytes == 2000)
        #expect(copy.kept(Self.variant("a"), serving: false) == nil)
    }

    @Test func oneProcessHoldsTheCopy() throws {
        let directory = try TemporaryDirectory()
        let first = try ImageCopy(directory: directory.path, capacity: 1 << 20)
        #expect(throws: ImageCopyError.self) { try ImageCopy(directory: directory.path, capacity: 1 << 20) }
        withExtendedLifetime(first) {}
    }
}
