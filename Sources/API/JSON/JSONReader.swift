/// Reads a request body as JSON text (RFC 8259) in one pass over its bytes, straight
/// into a `JSONValue`, within the fair-use limits of a body: at most `maxDepth` nested
/// arrays and objects, at most `maxValues` values, each member name once per object
/// and in stream-safe text, UTF-8 without a byte order mark (RFC 8259 §8.1).
///
/// The cost grows linearly with the body whatever its shape. Each byte is read once
/// (a refused body may be scanned once more, to tell a mis-encoded body from a broken
/// one); containers are read with an explicit stack of at most `maxDepth` entries, not
/// by recursion the client steers; the values of the open containers wait on one shared
/// stack and each moves once, into its array or dictionary, when its container closes;
/// a repeated name is found by that dictionary's hashing, seeded per process so that a
/// client cannot choose colliding names, and linear in each name since names are
/// stream-safe (`isStreamSafe(_:)`). The limits are checked as values are met, so
/// reading stops at the first container too deep or the first value too many.
///
/// It accepts what `JSONSerialization` (`.fragmentsAllowed`) accepts, to the same
/// values, except that it refuses a repeated member name (and names that Swift's
/// `String` compares equal, canonically equivalent ones, which one dictionary could
/// not hold apart), a byte order mark, a name with more than 30 combining marks in a
/// row, and what passes the limits. Strings keep the code points sent: nothing is
/// normalized.
struct JSONReader {
    /// The most arrays and objects one value may nest, the outermost being level 1.
    static let maxDepth = 32
    /// The most values a body may hold, every array and object counted, member names not.
    static let maxValues = 10_000

    /// The value of `body`, a whole JSON text (any value at the top, as RFC 8259 §2 allows).
    static func read(_ body: [UInt8]) throws(JSONReaderError) -> JSONValue {
        try body.withUnsafeBufferPointer { bytes throws(JSONReaderError) in
            var reader = JSONReader(bytes: bytes)
            return try reader.readText()
        }
    }

    /// An array or object begun and not yet closed.
    private struct OpenContainer {
        let isObject: Bool
        /// Where its elements (an object's member values) begin in `pendingValues`.
        let firstValue: Int
        /// Where its member names begin in `pendingNames`.
        let firstName: Int
    }

    /// The body; only valid during `read(_:)`.
    let bytes: UnsafeBufferPointer<UInt8>
    /// The next byte to read.
    var position = 0
    private var valueCount = 0
    private var containers: [OpenContainer] = []
    /// The finished values of every open container, outermost first.
    private var pendingValues: [JSONValue] = []
    /// The member names of every open object, each pushed before its value is read.
    private var pendingNames: [String] = []
    /// The bytes of a string with escapes, as it is being decoded (reused for every string).
    var unescaped: [UInt8] = []

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    private mutating func readText() throws(JSONReaderError) -> JSONValue {
        guard !Self.startsInAnotherEncoding(bytes) else { throw .notUTF8 }
        nextValue: while true {
            skipWhitespace()
            guard var value = try readValueOrOpenContainer() else { continue }
            // A finished value goes to its container; a closing bracket then finishes that one.
            while let container = containers.last {
                pendingValues.append(value)
                skipWhitespace()
                guard position < bytes.count else { throw unexpected() }
                switch bytes[position] {
                case UInt8(ascii: ","):
                    position += 1
                    if container.isObject { try readMemberName() }
                    continue nextValue
                case container.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"):
                    position += 1
                    value = try close(container)
                default:
                    throw unexpected()
                }
            }
            skipWhitespace()
            guard position == bytes.count else { throw unexpected() }
            return value
        }
    }

    /// Reads the value at `position` whole when it is a scalar or an empty container;
    /// opens a container that has content (reading its first member's name) and returns nil.
    private mutating func readValueOrOpenContainer() throws(JSONReaderError) -> JSONValue? {
        guard position < bytes.count else { throw unexpected() }
        valueCount += 1
        guard valueCount <= Self.maxValues else { throw .tooManyValues }
        switch bytes[position] {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            guard containers.count < Self.maxDepth else { throw .tooDeep }
            let isObject = bytes[position] == UInt8(ascii: "{")
            position += 1
            skipWhitespace()
            if position < bytes.count, bytes[position] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                position += 1
                return isObject ? .object([:]) : .array([])
            }
            containers.append(OpenContainer(isObject: isObject, firstValue: pendingValues.count, firstName: pendingNames.count))
            if isObject { try readMemberName() }
            return nil
        case UInt8(ascii: "\""):
            return .string(try readString(depth: containers.count))
        case UInt8(ascii: "t"):
            try readLiteral("true".utf8)
            return .bool(true)
        case UInt8(ascii: "f"):
            try readLiteral("false".utf8)
            return .bool(false)
        case UInt8(ascii: "n"):
            try readLiteral("null".utf8)
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return .number(try readNumber(depth: containers.count))
        default:
            throw unexpected()
        }
    }

    /// Reads `"name":` of the innermost open object, and keeps the name for its value.
    private mutating func readMemberName() throws(JSONReaderError) {
        skipWhitespace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { throw unexpected() }
        let name = try readString(depth: containers.count - 1)
        guard Self.isStreamSafe(name) else { throw .nameNotStreamSafe(path: path(through: containers.count - 1)) }
        skipWhitespace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { throw unexpected() }
        position += 1
        pendingNames.append(name)
    }

    /// Moves the innermost container's values off the pending stacks into its value.
    private mutating func close(_ container: OpenContainer) throws(JSONReaderError) -> JSONValue {
        let value: JSONValue
        if container.isObject {
            var members: [String: JSONValue] = [:]
            members.reserveCapacity(pendingValues.count - container.firstValue)
            for (name, member) in zip(pendingNames[container.firstName...], pendingValues[container.firstValue...]) {
                guard members.updateValue(member, forKey: name) == nil else {
                    throw .repeatedName(path: Self.joined(path(through: containers.count - 1), name))
                }
            }
            pendingNames.removeSubrange(container.firstName...)
            value = .object(members)
        } else {
            value = .array(Array(pendingValues[container.firstValue...]))
        }
        pendingValues.removeSubrange(container.firstValue...)
        containers.removeLast()
        return value
    }

    /// The path of the value being read inside the outermost `depth` open containers
    /// (`home.latitude`, `points[3]`; empty for the body): each names the element or
    /// member it is reading. Built only for an error.
    func path(through depth: Int) -> String {
        var path = ""
        for level in 0..<depth {
            let container = containers[level]
            let isInnermost = level + 1 == containers.count
            if container.isObject {
                let nameEnd = isInnermost ? pendingNames.count : containers[level + 1].firstName
                path = Self.joined(path, pendingNames[nameEnd - 1])
            } else {
                let valueEnd = isInnermost ? pendingValues.count : containers[level + 1].firstValue
                path += "[\(valueEnd - container.firstValue)]"
            }
        }
        return path
    }

    private static func joined(_ path: String, _ name: String) -> String {
        path.isEmpty ? name : path + "." + name
    }

    /// Skips the whitespace RFC 8259 §2 allows around values and structural characters.
    mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    /// The error for the byte at `position` (or the end of the body) that the grammar
    /// does not allow there: `.notUTF8` when the body from there on is not UTF-8, so that
    /// a body in Latin-1 is told its encoding rather than a byte offset; else `.malformed`.
    /// (What comes before `position` has been read, hence is UTF-8.)
    func unexpected() -> JSONReaderError {
        var index = position
        while index < bytes.count {
            guard let length = Self.wellFormedLength(bytes, at: index) else { return .notUTF8 }
            index += length
        }
        return .malformed(offset: position)
    }
}
