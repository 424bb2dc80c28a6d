import Testing

@testable import API

/// The writer must produce exactly what a byte array given the same appends holds.
@Suite struct CatalogBodyWriterTests {
    @Test func writesWhatAnArrayWouldHold() {
        let fragment: [UInt8] = Array(#"{"name":"x"}"#.utf8)
        func write(to sink: inout some CatalogByteSink & ~Copyable) {
            sink.append(#"{"a":"#)
            CatalogJSONNumber.append(-42, to: &sink)
            sink.append(UInt8(ascii: ","))
            CatalogJSONNumber.appendCentimetres(12.345, to: &sink)
            sink.append(UInt8(ascii: ","))
            CatalogJSONNumber.append(40.5, to: &sink)
            fragment.withUnsafeBufferPointer { sink.append(bytes: $0) }
            sink.append(bytes: UnsafeBufferPointer(start: nil, count: 0))
        }
        var expected: [UInt8] = []
        write(to: &expected)
        #expect(CatalogBodyWriter.body(capacity: expected.count) { write(to: &$0) } == expected)
        #expect(CatalogBodyWriter.body(capacity: expected.count + 100) { write(to: &$0) } == expected)
    }

    @Test func anEmptyBodyIsEmpty() {
        #expect(CatalogBodyWriter.body(capacity: 0) { _ in }.isEmpty)
    }
}
