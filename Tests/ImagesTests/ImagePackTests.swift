import Foundation
import Testing
import TestSupport

@testable import Images

/// The pack's archive: the bytes its segments make are a POSIX ustar archive that tar
/// reads, index first, members in order, each the kept file's bytes; the same members
/// give the same bytes and tag.
@Suite struct ImagePackTests {
    /// Files of `sizes` bytes (each byte its file's number and offset) as pack members `p0`, `p1`, ….
    static func members(_ sizes: [Int], in directory: TemporaryDirectory) throws -> [ImagePack.Member] {
        try sizes.enumerated().map { index, size in
            let path = directory.file("m\(index).jpg")
            let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ index) }
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            return ImagePack.Member(
                photoID: "p\(index)", image: KeptImage(path: path, bytes: size, etag: "\"t\(index)-\(size)\"", width: 10, height: 20))
        }
    }

    /// The archive, segment after segment.
    static func bytes(of pack: ImagePack) throws -> [UInt8] {
        var bytes: [UInt8] = []
        for index in 0..<pack.segmentCount {
            #expect(bytes.count == pack.segmentStart(index), "segment \(index) starts where the one before ends")
            switch pack.segment(index) {
            case .bytes(let made): bytes += made
            case .file(let path): bytes += try Array(Data(contentsOf: URL(fileURLWithPath: path)))
            }
        }
        #expect(bytes.count == pack.length)
        return bytes
    }

    @Test(arguments: [[Int](), [1], [512], [511, 513, 1024, 3], (0..<40).map { 100 + $0 * 37 }])
    func theSegmentsMakeAnArchiveOfTheIndexAndEveryFileInOrder(_ sizes: [Int]) throws {
        let directory = try TemporaryDirectory()
        let members = try Self.members(sizes, in: directory)
        let index = Array(#"{"size":"thumb","photos":[]}"#.utf8)
        let pack = ImagePack(members: members, index: index)
        let read = try TarArchive.members(of: Self.bytes(of: pack))
        #expect(read.map(\.name) == ["index.json"] + members.map(\.fileName))
        #expect(read.first?.content == index)
        for (member, entry) in zip(members, read.dropFirst()) {
            #expect(entry.content == (try Array(Data(contentsOf: URL(fileURLWithPath: member.image.path)))))
        }
    }

    @Test func tarItselfListsAndExtractsTheArchive() throws {
        let directory = try TemporaryDirectory()
        let members = try Self.members([700, 1, 4096], in: directory)
        let pack = ImagePack(members: members, index: Array("{}".utf8))
        let archive = directory.file("pack.tar")
        try Data(Self.bytes(of: pack)).write(to: URL(fileURLWithPath: archive))
        let out = directory.file("out")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let tar = Process()
        tar.executableURL = URL(fileURLWithPath: "/bin/tar")
        tar.arguments = ["-x", "-f", archive, "-C", out]
        try tar.run()
        tar.waitUntilExit()
        #expect(tar.terminationStatus == 0)
        for member in members {
            #expect(FileManager.default.contents(atPath: out + "/" + member.fileName) == FileManager.default.contents(atPath: member.image.path))
        }
        #expect(FileManager.default.contents(atPath: out + "/index.json") == Data("{}".utf8))
    }

    @Test func theSameMembersGiveTheSameBytesAndTagAndAnotherMemberAnotherTag() throws {
        let directory = try TemporaryDirectory()
        let members = try Self.members([300, 900], in: directory)
        let index = Array("{}".utf8)
        let first = ImagePack(members: members, index: index), second = ImagePack(members: members, index: index)
        #expect(try Self.bytes(of: first) == Self.bytes(of: second))
        #expect(first.etag == second.etag)
        let changed = [members[0], ImagePack.Member(photoID: "p1", image: KeptImage(
            path: members[1].image.path, bytes: 900, etag: "\"another\"", width: 10, height: 20))]
        #expect(ImagePack(members: changed, index: index).etag != first.etag)
    }
}
