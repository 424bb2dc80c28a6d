import Foundation

/// A `GET /catalog/changes` answer read as it was sent: each change's `locationID`, and
/// its `location` as the very bytes of the answer, to be applied to a snapshot byte for
/// byte. The answer is checked as JSON first; the bytes are found by the server's own
/// spelling (`"deleted":false,"location":`, which no escaped string holds) and the
/// object after it, its braces counted outside strings.
struct RawChanges {
    struct Change {
        let locationID: String
        /// nil for a deleted location.
        let location: ArraySlice<UInt8>?
    }

    let generation: String
    let changes: [Change]

    enum Malformed: Error {
        case answer(String)
    }

    init(_ body: [UInt8]) throws {
        guard let object = try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any],
            let generation = object["generation"] as? String, let list = object["changes"] as? [[String: Any]]
        else { throw Malformed.answer("not a changes answer") }
        self.generation = generation
        let marker = Array(#""deleted":false,"location":"#.utf8)
        var position = 0
        var changes: [Change] = []
        for entry in list {
            guard let locationID = entry["locationID"] as? String, let deleted = entry["deleted"] as? Bool else {
                throw Malformed.answer("a change without its locationID or deleted")
            }
            guard !deleted else {
                guard entry["location"] == nil else { throw Malformed.answer("a deleted location with a line") }
                changes.append(Change(locationID: locationID, location: nil))
                continue
            }
            guard let found = Self.find(marker, in: body, from: position) else { throw Malformed.answer("a line is missing") }
            let start = found + marker.count
            let end = try Self.endOfObject(in: body, from: start)
            changes.append(Change(locationID: locationID, location: body[start..<end]))
            position = end
        }
        self.changes = changes
    }

    private static func find(_ marker: [UInt8], in body: [UInt8], from start: Int) -> Int? {
        guard body.count >= marker.count else { return nil }
        return (start...(body.count - marker.count)).first { body[$0..<($0 + marker.count)].elementsEqual(marker) }
    }

    /// Where the object that starts at `start` ends (one past its closing brace).
    private static func endOfObject(in body: [UInt8], from start: Int) throws -> Int {
        var depth = 0
        var inString = false
        var escaped = false
        for index in start..<body.count {
            let byte = body[index]
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth == 0 { return index + 1 }
            default: break
            }
        }
        throw Malformed.answer("an unclosed object")
    }
}
