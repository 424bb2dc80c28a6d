/// A plain byte array as a sink: the bodies whose size is not known ahead of time.
extension [UInt8]: CatalogByteSink {
    @inline(__always)
    mutating func append(bytes: UnsafeBufferPointer<UInt8>) {
        append(contentsOf: bytes)
    }
}
