extension JSONWriter {
    /// An encoded JSON object with one more string member at its end: how a
    /// precomputed PhotoSummary becomes a favorite (`savedAt`) or a recent (`viewedAt`)
    /// without being decoded.
    static func object(_ object: [UInt8], appending name: String, _ value: String) -> [UInt8] {
        var writer = JSONWriter()
        writer.beginObject()
        writer.field(name, value)
        writer.endObject()
        return self.object(object, appendingMembersOf: writer.bytes)
    }

    /// An encoded JSON object followed by the members of another non-empty one
    /// (`{…a…}` and `{…b…}` make `{…a…,…b…}`): how a PhotoSummary becomes a walk's entry.
    static func object(_ object: [UInt8], appendingMembersOf other: [UInt8]) -> [UInt8] {
        var members = object
        while let last = members.last, last != UInt8(ascii: "}") { members.removeLast() }
        precondition(members.first == UInt8(ascii: "{") && !members.isEmpty, "appending to a JSON object")
        members.removeLast()
        let isEmpty = members.dropFirst().allSatisfy { [0x20, 0x09, 0x0A, 0x0D].contains($0) }
        precondition(other.first == UInt8(ascii: "{") && other.count > 2, "appending a non-empty JSON object")
        // `other` without its opening brace, after a comma unless the object was empty.
        return members + (isEmpty ? [] : [UInt8(ascii: ",")]) + other.dropFirst()
    }
}
