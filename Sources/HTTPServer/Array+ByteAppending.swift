extension [UInt8] {
    /// Appends a literal's UTF-8 bytes in one copy. `append(contentsOf: "…".utf8)` takes
    /// the generic sequence path, which showed in the profiles of the hot responses.
    @inline(__always)
    package mutating func append(_ literal: StaticString) {
        append(contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    /// Appends a string's UTF-8 bytes, in one copy when the string is contiguous UTF-8
    /// (native strings always are).
    @inline(__always)
    package mutating func append(utf8 string: String) {
        let copied: Void? = string.utf8.withContiguousStorageIfAvailable { append(contentsOf: $0) }
        if copied == nil { append(contentsOf: string.utf8) }
    }
}
