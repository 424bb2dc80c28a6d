/// A plain byte array as a sink: the bodies whose size is not known ahead of time.
extension [UInt8]: CatalogByteSink {
    @inline(__always)
    mutating func append(bytes: UnsafeBufferPointer<UInt8>) {
        append(contentsOf: bytes)
    }

    mutating func append(count: Int, _ fill: (UnsafeMutableBufferPointer<UInt8>) -> Void) {
        let start = self.count
        append(contentsOf: repeatElement(0, count: count))
        withUnsafeMutableBufferPointer { fill(UnsafeMutableBufferPointer(rebasing: $0[start...])) }
    }
}
