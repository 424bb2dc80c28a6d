import HTTPServer

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
        JSONString.append(name, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        afterKey = true
    }

    public mutating func string(_ value: String) {
        separate()
        JSONString.append(value, to: &bytes)
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
}
