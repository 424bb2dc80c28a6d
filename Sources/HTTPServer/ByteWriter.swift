/// Writes bytes into a buffer sized beforehand, with a bounds check per write and no
/// other bookkeeping: a response head or a log line is ten to twenty short pieces, and
/// `Array.append(contentsOf:)` costs a uniqueness and capacity check and a generic copy
/// for each, more than the copying itself.
package struct ByteWriter: ~Copyable {
    private let buffer: UnsafeMutableBufferPointer<UInt8>
    /// How many bytes are written, from the start of the buffer.
    package private(set) var count = 0

    package init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        self.buffer = buffer
    }

    /// An array of at most `capacity` bytes, filled by `write`.
    package static func bytes(capacity: Int, _ write: (inout ByteWriter) -> Void) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
            var writer = ByteWriter(buffer)
            write(&writer)
            initialized = writer.count
        }
    }

    @inline(__always)
    package mutating func write(_ byte: UInt8) {
        precondition(count < buffer.count, "ByteWriter: the buffer is full")
        buffer[count] = byte
        count += 1
    }

    @inline(__always)
    package mutating func write(_ literal: StaticString) {
        write(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    @inline(__always)
    package mutating func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        precondition(bytes.count <= buffer.count - count, "ByteWriter: the buffer is full")
        guard let source = bytes.baseAddress else { return }
        (buffer.baseAddress! + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    @inline(__always)
    package mutating func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { write($0) }
    }

    /// A string's UTF-8 bytes, copied in one piece when the string is contiguous (native strings are).
    @inline(__always)
    package mutating func write(utf8 string: String) {
        let copied: Void? = string.utf8.withContiguousStorageIfAvailable { write($0) }
        if copied == nil {
            for byte in string.utf8 { write(byte) }
        }
    }

    /// `prefix` then `value`'s UTF-8 bytes, when there is a value: an optional header
    /// field of a response head (`"\r\nETag: "` and the tag).
    package mutating func write(_ prefix: StaticString, ifPresent value: String?) {
        guard let value else { return }
        write(prefix)
        write(utf8: value)
    }

    /// `value` in decimal, with a leading `-` when negative.
    package mutating func write(decimal value: Int) {
        if value < 0 { write(UInt8(ascii: "-")) }
        write(decimal: UInt64(value.magnitude))
    }

    /// `value` in decimal: its digits written in place, last first.
    package mutating func write(decimal value: UInt64) {
        var digits = 1
        var rest = value / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        precondition(digits <= buffer.count - count, "ByteWriter: the buffer is full")
        var remaining = value
        for position in stride(from: count + digits - 1, through: count, by: -1) {
            buffer[position] = UInt8(ascii: "0") + UInt8(remaining % 10)
            remaining /= 10
        }
        count += digits
    }
}
