/// Where the catalog's JSON bytes go: a growing `[UInt8]`, or a `CatalogBodyWriter`
/// over storage sized once. The number formats and the fragment splices are written
/// once, generic over the sink, and specialized for each.
protocol CatalogByteSink: ~Copyable {
    mutating func append(_ byte: UInt8)
    /// Appends the bytes in one copy.
    mutating func append(bytes: UnsafeBufferPointer<UInt8>)
    /// Appends `count` bytes that `fill` writes in place, in any order.
    mutating func append(count: Int, _ fill: (UnsafeMutableBufferPointer<UInt8>) -> Void)
}

extension CatalogByteSink where Self: ~Copyable {
    /// Appends a literal's UTF-8 bytes in one copy.
    @inline(__always)
    mutating func append(_ literal: StaticString) {
        append(bytes: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }
}
