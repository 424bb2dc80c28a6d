import Gzip
import TestSupportCore
import Testing

/// The trailer read from a member `Gzip.compress` made is the one computed from its input,
/// and a change of a byte or of the length changes it.
@Suite struct GzipTrailerTests {
    @Test(arguments: [0, 1, 1023, 70_000])
    func aMembersTrailerIsThatOfItsInput(_ size: Int) throws {
        var generator = SeededGenerator(seed: UInt64(size) + 29)
        let input = (0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let trailer = GzipTrailer(of: input)
        #expect(GzipTrailer(ofMember: try Gzip.compress(input)) == trailer)
        #expect(trailer.size == UInt32(size))
        #expect(GzipTrailer(of: input + [0]) != trailer)
        if size > 0 {
            var changed = input
            changed[Int.random(in: 0..<size, using: &generator)] ^= 0x01
            #expect(GzipTrailer(of: changed) != trailer)
        }
    }

    @Test func theCRCIsZlibsOfAKnownInput() {
        // RFC 1952's CRC-32 of "123456789" is the check value 0xCBF43926.
        #expect(GzipTrailer(of: Array("123456789".utf8)).crc32 == 0xCBF4_3926)
    }

    @Test func tooShortToBeAMemberHasNoTrailer() {
        #expect(GzipTrailer(ofMember: Array(repeating: 0, count: 17)) == nil)
    }
}
