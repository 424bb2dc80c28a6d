/// Writes JSON straight into UTF-8 bytes: no intermediate values, no reflection.
/// Used for every response body, and to precompute the parts of catalog responses
/// that never change.
///
/// Commas are managed for you: call `beginObject`, then `key` + a value for each
/// member, then `endObject`; arrays the same without keys.
public struct JSONWriter: Sendable {
    public private(set) var bytes: [UInt8] = []
    /// One entry per open container: whether it still has no element.
    private var isFirstInContainer: [Bool] = []
    private var afterKey = false

    public init(reservingCapacity capacity: Int = 256) {
        bytes.reserveCapacity(capacity)
    }

    public mutating func beginObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
        isFirstInContainer.append(true)
    }

    public mutating func endObject() {
        isFirstInContainer.removeLast()
        bytes.append(UInt8(ascii: "}"))
    }

    public mutating func beginArray() {
        separate()
        bytes.append(UInt8(ascii: "["))
        isFirstInContainer.append(true)
    }

    public mutating func endArray() {
        isFirstInContainer.removeLast()
        bytes.append(UInt8(ascii: "]"))
    }

    public mutating func key(_ name: String) {
        separate()
        appendEscaped(name)
        bytes.append(UInt8(ascii: ":"))
        afterKey = true
    }

    public mutating func string(_ value: String) {
        separate()
        appendEscaped(value)
    }

    public mutating func string(_ value: String?) {
        if let value { string(value) } else { null() }
    }

    public mutating func int(_ value: Int) {
        separate()
        bytes.append(contentsOf: String(value).utf8)
    }

    /// A finite number in its shortest round-tripping form (e.g. `40.72951`, `600`).
    public mutating func number(_ value: Double) {
        precondition(value.isFinite, "JSON has no NaN or infinity")
        separate()
        if value == value.rounded(), abs(value) < 1e15 {
            bytes.append(contentsOf: String(Int64(value)).utf8)
        } else {
            bytes.append(contentsOf: String(value).utf8)
        }
    }

    public mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    public mutating func null() {
        separate()
        bytes.append(contentsOf: "null".utf8)
    }

    /// Appends an already-encoded JSON value (e.g. a precomputed fragment) as one element.
    public mutating func raw(_ encoded: [UInt8]) {
        separate()
        bytes.append(contentsOf: encoded)
    }

    public mutating func field(_ name: String, _ value: String?) {
        key(name)
        string(value)
    }

    public mutating func field(_ name: String, _ value: Int) {
        key(name)
        int(value)
    }

    public mutating func field(_ name: String, _ value: Double) {
        key(name)
        number(value)
    }

    public mutating func field(_ name: String, _ value: Bool) {
        key(name)
        bool(value)
    }

    /// Writes the comma before a container element, unless a key was just written.
    private mutating func separate() {
        if afterKey {
            afterKey = false
            return
        }
        guard let last = isFirstInContainer.indices.last else { return }
        if isFirstInContainer[last] {
            isFirstInContainer[last] = false
        } else {
            bytes.append(UInt8(ascii: ","))
        }
    }

    /// RFC 8259 §7: quote, backslash and control characters are escaped. Runs of bytes
    /// that need no escape are copied in one go, not byte by byte.
    private mutating func appendEscaped(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var runStart = 0
            for (offset, byte) in utf8.enumerated() where byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<offset]))
                appendEscape(of: byte)
                runStart = offset + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func appendEscape(of byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): bytes.append(contentsOf: [0x5C, 0x22])
        case UInt8(ascii: "\\"): bytes.append(contentsOf: [0x5C, 0x5C])
        case 0x0A: bytes.append(contentsOf: [0x5C, UInt8(ascii: "n")])
        case 0x0D: bytes.append(contentsOf: [0x5C, UInt8(ascii: "r")])
        case 0x09: bytes.append(contentsOf: [0x5C, UInt8(ascii: "t")])
        default:
            let hex = Array("0123456789abcdef".utf8)
            bytes.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
        }
    }
}
