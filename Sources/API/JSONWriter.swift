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
        open(UInt8(ascii: "{"))
    }

    public mutating func endObject() {
        close(UInt8(ascii: "}"))
    }

    public mutating func beginArray() {
        open(UInt8(ascii: "["))
    }

    public mutating func endArray() {
        close(UInt8(ascii: "]"))
    }

    private mutating func open(_ bracket: UInt8) {
        separate()
        bytes.append(bracket)
        isFirstInContainer.append(true)
    }

    private mutating func close(_ bracket: UInt8) {
        isFirstInContainer.removeLast()
        bytes.append(bracket)
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

    /// The member `name`: an already-encoded value, or `null` without one.
    public mutating func field(_ name: String, raw encoded: [UInt8]?) {
        key(name)
        if let encoded { raw(encoded) } else { null() }
    }

    /// The member `name`: an object whose members `write` writes from `value`, or `null`
    /// without a value.
    public mutating func field<Value>(_ name: String, object value: Value?, _ write: (inout JSONWriter, Value) -> Void) {
        key(name)
        guard let value else { return null() }
        beginObject()
        write(&self, value)
        endObject()
    }

    /// The member `name`: an array of `elements`, each written by `write`.
    public mutating func field<Element>(
        _ name: String, array elements: some Sequence<Element>, _ write: (inout JSONWriter, Element) throws -> Void
    ) rethrows {
        key(name)
        beginArray()
        for element in elements { try write(&self, element) }
        endArray()
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
