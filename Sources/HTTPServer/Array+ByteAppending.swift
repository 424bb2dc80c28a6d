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

    /// Appends the decimal digits of `value`, without the `String` that `String(value)` allocates.
    package mutating func append(decimal value: UInt64) {
        // 20 digits hold any UInt64; written backwards into a stack buffer.
        var buffer: (UInt64, UInt64, UInt64) = (0, 0, 0)
        Swift.withUnsafeMutableBytes(of: &buffer) { digits in
            var remaining = value
            var position = digits.count
            repeat {
                position -= 1
                digits[position] = UInt8(ascii: "0") + UInt8(remaining % 10)
                remaining /= 10
            } while remaining > 0
            append(contentsOf: UnsafeRawBufferPointer(rebasing: digits[position...]))
        }
    }

    /// Appends an integer in decimal, with a leading `-` when negative.
    package mutating func append(decimal value: Int) {
        if value < 0 { append(UInt8(ascii: "-")) }
        append(decimal: UInt64(value.magnitude))
    }
}
