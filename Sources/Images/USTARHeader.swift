/// The 512-byte header of one regular file in a POSIX ustar archive (IEEE Std 1003.1,
/// "pax", ustar Interchange Format): the same bytes for the same name and size, as
/// every varying field is fixed (mode 0644, owner 0, time 0, no user or group names),
/// so an archive's bytes depend on its members' names and contents only.
enum USTARHeader {
    static let blockSize = 512
    /// Archives are written in records of 20 blocks, as tar's default blocking factor.
    static let recordSize = 20 * blockSize

    /// The header of a regular file `name` (at most 100 bytes of UTF-8) of `size` bytes.
    static func regularFile(name: String, size: Int) -> [UInt8] {
        var header = [UInt8](repeating: 0, count: blockSize)
        let nameBytes = Array(name.utf8)
        precondition(nameBytes.count <= 100, "a ustar name field holds 100 bytes")
        header.replaceSubrange(0..<nameBytes.count, with: nameBytes)
        put(octal: 0o644, width: 8, at: 100, in: &header)  // mode
        put(octal: 0, width: 8, at: 108, in: &header)  // uid
        put(octal: 0, width: 8, at: 116, in: &header)  // gid
        put(octal: size, width: 12, at: 124, in: &header)  // size
        put(octal: 0, width: 12, at: 136, in: &header)  // mtime
        header.replaceSubrange(148..<156, with: Array(repeating: UInt8(ascii: " "), count: 8))  // chksum, as spaces while summed
        header[156] = UInt8(ascii: "0")  // typeflag: a regular file
        header.replaceSubrange(257..<263, with: Array("ustar\0".utf8))  // magic
        header.replaceSubrange(263..<265, with: Array("00".utf8))  // version
        put(octal: 0, width: 8, at: 329, in: &header)  // devmajor
        put(octal: 0, width: 8, at: 337, in: &header)  // devminor
        // The checksum: the sum of the header's bytes with its own field as spaces, in six
        // octal digits, a NUL and a space.
        let sum = header.reduce(0) { $0 + Int($1) }
        put(octal: sum, width: 7, at: 148, in: &header)
        header[155] = UInt8(ascii: " ")
        return header
    }

    /// Zero bytes that bring `size` to a whole number of blocks.
    static func padding(after size: Int) -> Int {
        (blockSize - size % blockSize) % blockSize
    }

    /// `value` as `width - 1` zero-padded octal digits and a NUL.
    private static func put(octal value: Int, width: Int, at offset: Int, in header: inout [UInt8]) {
        var remaining = value
        for position in stride(from: offset + width - 2, through: offset, by: -1) {
            header[position] = UInt8(ascii: "0") + UInt8(remaining & 7)
            remaining >>= 3
        }
        precondition(remaining == 0, "a ustar field too narrow for its value")
        header[offset + width - 1] = 0
    }
}
