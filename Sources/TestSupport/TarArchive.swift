/// Reads a POSIX ustar archive by the format's rules, for tests of `GET /images/pack`:
/// each header's magic and checksum checked, then its content, then the padding to the
/// next 512-byte block, up to the two zero blocks that end it.
public enum TarArchive {
    public struct Member: Equatable {
        public let name: String
        public let content: [UInt8]
    }

    public enum ReadError: Error, CustomStringConvertible {
        case malformed(String)

        public var description: String {
            switch self {
            case .malformed(let what): "not a ustar archive: \(what)"
            }
        }
    }

    public static func members(of archive: [UInt8]) throws -> [Member] {
        var members: [Member] = []
        var offset = 0
        while true {
            guard offset + 512 <= archive.count else { throw ReadError.malformed("no end-of-archive blocks") }
            let header = Array(archive[offset..<(offset + 512)])
            if header.allSatisfy({ $0 == 0 }) { break }
            guard Array(header[257..<263]) == Array("ustar\0".utf8) else { throw ReadError.malformed("no ustar magic at \(offset)") }
            var summed = header
            summed.replaceSubrange(148..<156, with: Array(repeating: UInt8(ascii: " "), count: 8))
            guard Int(String(decoding: header[148..<154], as: UTF8.self), radix: 8) == summed.reduce(0, { $0 + Int($1) }) else {
                throw ReadError.malformed("a wrong checksum at \(offset)")
            }
            let name = String(decoding: header[0..<100].prefix { $0 != 0 }, as: UTF8.self)
            guard let size = Int(String(decoding: header[124..<135], as: UTF8.self), radix: 8), offset + 512 + size <= archive.count
            else { throw ReadError.malformed("a bad size at \(offset)") }
            offset += 512
            members.append(Member(name: name, content: Array(archive[offset..<(offset + size)])))
            offset += (size + 511) / 512 * 512
        }
        guard archive.count % 10240 == 0 else { throw ReadError.malformed("not whole records of 20 blocks") }
        return members
    }
}
