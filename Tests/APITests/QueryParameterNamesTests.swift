import Testing

@testable import API

/// `QueryParameterNames` finds names by packed words; its twin is a byte-for-byte
/// search of the name list.
@Suite struct QueryParameterNamesTests {
    static let declared: QueryParameterNames = ["lat", "lon", "limit", "radius", "minPhotos", "to", "", "sixteen-bytes-ok"]

    /// The twin: the first declared name with exactly these bytes.
    static func twin(_ bytes: [UInt8]) -> Int? {
        declared.names.firstIndex { Array($0.utf8) == bytes }
    }

    static func index(_ bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBufferPointer { declared.index(ofBytes: $0) }
    }

    @Test func everyDeclaredNameIsFoundAtItsPosition() {
        for (position, name) in Self.declared.names.enumerated() {
            #expect(Self.index(Array(name.utf8)) == position)
        }
        #expect(Self.declared.index(of: "minPhotos") == 4)
        #expect(Self.declared.index(of: "") == 6)
        #expect(Self.declared.index(of: "la") == nil)
    }

    @Test func randomNamesAgreeWithTheTwin() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("latonmiPhsr-\u{0}é".utf8)
        var found = 0
        for _ in 0..<20_000 {
            var bytes: [UInt8]
            if Bool.random(using: &generator) {
                // A declared name, cut short, lengthened or with one byte changed.
                bytes = Array(Self.declared.names.randomElement(using: &generator)!.utf8)
                switch Int.random(in: 0..<4, using: &generator) {
                case 0 where !bytes.isEmpty: bytes.removeLast()
                case 1: bytes.append(alphabet.randomElement(using: &generator)!)
                case 2 where !bytes.isEmpty: bytes[Int.random(in: 0..<bytes.count, using: &generator)] = alphabet.randomElement(using: &generator)!
                default: break
                }
            } else {
                bytes = (0..<Int.random(in: 0...20, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
            }
            let expected = Self.twin(bytes)
            if expected != nil { found += 1 }
            #expect(Self.index(bytes) == expected, "\(bytes)")
        }
        #expect(found > 1_000)
    }
}
