import Testing

@testable import HTTPServer

/// The `Range` and `If-Range` rules of RFC 9110 §14 and §13.1.5, value by value.
@Suite struct RangeSelectionTests {
    struct Row: CustomTestStringConvertible, Sendable {
        let value: String
        let length: Int
        let expected: RangeSelection
        var testDescription: String { "\(value.debugDescription) of \(length)" }
    }

    static let rows: [Row] = [
        // int-range, first-pos to last-pos inclusive (§14.1.2).
        Row(value: "bytes=0-0", length: 10, expected: .partial(0..<1)),
        Row(value: "bytes=0-9", length: 10, expected: .partial(0..<10)),
        Row(value: "bytes=2-5", length: 10, expected: .partial(2..<6)),
        Row(value: "bytes=9-9", length: 10, expected: .partial(9..<10)),
        // A last-pos at or past the end means the last byte.
        Row(value: "bytes=3-10", length: 10, expected: .partial(3..<10)),
        Row(value: "bytes=3-99999999999999999999999999", length: 10, expected: .partial(3..<10)),
        // Open-ended.
        Row(value: "bytes=0-", length: 10, expected: .partial(0..<10)),
        Row(value: "bytes=7-", length: 10, expected: .partial(7..<10)),
        // suffix-range: the last n bytes, all of them when n is longer.
        Row(value: "bytes=-1", length: 10, expected: .partial(9..<10)),
        Row(value: "bytes=-4", length: 10, expected: .partial(6..<10)),
        Row(value: "bytes=-10", length: 10, expected: .partial(0..<10)),
        Row(value: "bytes=-11", length: 10, expected: .partial(0..<10)),
        Row(value: "bytes=-99999999999999999999999999", length: 10, expected: .partial(0..<10)),
        // The unit is case-insensitive; whitespace around the field and around list commas is allowed.
        Row(value: "BYTES=1-2", length: 10, expected: .partial(1..<3)),
        Row(value: "Bytes=1-2", length: 10, expected: .partial(1..<3)),
        Row(value: "  bytes=1-2 \t", length: 10, expected: .partial(1..<3)),
        Row(value: "bytes= 1-2", length: 10, expected: .partial(1..<3)),
        // Empty list elements are ignored (§5.6.1.2).
        Row(value: "bytes=1-2,", length: 10, expected: .partial(1..<3)),
        Row(value: "bytes=, ,1-2", length: 10, expected: .partial(1..<3)),
        // Unsatisfiable: a first-pos at or past the end, a zero suffix.
        Row(value: "bytes=10-", length: 10, expected: .unsatisfiable),
        Row(value: "bytes=10-20", length: 10, expected: .unsatisfiable),
        Row(value: "bytes=99999999999999999999999999-", length: 10, expected: .unsatisfiable),
        Row(value: "bytes=-0", length: 10, expected: .unsatisfiable),
        Row(value: "bytes=0-", length: 0, expected: .unsatisfiable),
        Row(value: "bytes=0-0", length: 0, expected: .unsatisfiable),
        // A suffix of an empty representation names no bytes: the whole, empty, body.
        Row(value: "bytes=-5", length: 0, expected: .whole),
        // Invalid specifiers are ignored (§14.2): the whole body.
        Row(value: "bytes=5-2", length: 10, expected: .whole),
        Row(value: "bytes=-", length: 10, expected: .whole),
        Row(value: "bytes=", length: 10, expected: .whole),
        Row(value: "bytes=,", length: 10, expected: .whole),
        Row(value: "bytes", length: 10, expected: .whole),
        Row(value: "", length: 10, expected: .whole),
        Row(value: "bytes=1", length: 10, expected: .whole),
        Row(value: "bytes=a-2", length: 10, expected: .whole),
        Row(value: "bytes=1-b", length: 10, expected: .whole),
        Row(value: "bytes=+1-2", length: 10, expected: .whole),
        Row(value: "bytes=1-+2", length: 10, expected: .whole),
        Row(value: "bytes=-1-2", length: 10, expected: .whole),
        Row(value: "bytes=1-2-3", length: 10, expected: .whole),
        Row(value: "bytes=1 -2", length: 10, expected: .whole),
        Row(value: "bytes=1- 2", length: 10, expected: .whole),
        Row(value: "bytes=0x1-2", length: 10, expected: .whole),
        Row(value: "bytes=١-٢", length: 10, expected: .whole),
        Row(value: "bytes =1-2", length: 10, expected: .whole),
        Row(value: "bytes=1-2;x", length: 10, expected: .whole),
        Row(value: "=1-2", length: 10, expected: .whole),
        // Another unit is not understood, so ignored.
        Row(value: "items=1-2", length: 10, expected: .whole),
        Row(value: "byte=1-2", length: 10, expected: .whole),
        Row(value: "bytesx=1-2", length: 10, expected: .whole),
        // Several ranges are answered whole, satisfiable or not.
        Row(value: "bytes=0-1,3-4", length: 10, expected: .whole),
        Row(value: "bytes=0-1, 0-1", length: 10, expected: .whole),
        Row(value: "bytes=20-30,40-", length: 10, expected: .whole),
        Row(value: "bytes=0-1,x", length: 10, expected: .whole),
    ]

    @Test(arguments: rows)
    func rangeValue(_ row: Row) {
        #expect(RangeSelection.parse(row.value, length: row.length) == row.expected)
    }

    struct IfRangeRow: CustomTestStringConvertible, Sendable {
        let value: String
        let etag: String?
        let holds: Bool
        var testDescription: String { "\(value.debugDescription) against \(etag ?? "no tag")" }
    }

    static let ifRangeRows: [IfRangeRow] = [
        IfRangeRow(value: #""abc""#, etag: #""abc""#, holds: true),
        IfRangeRow(value: #"  "abc" "#, etag: #""abc""#, holds: true),
        // Strong comparison: octet for octet, and never a weak tag on either side.
        IfRangeRow(value: #""ABC""#, etag: #""abc""#, holds: false),
        IfRangeRow(value: #""abc-gzip""#, etag: #""abc""#, holds: false),
        IfRangeRow(value: #"W/"abc""#, etag: #""abc""#, holds: false),
        IfRangeRow(value: #""abc""#, etag: #"W/"abc""#, holds: false),
        IfRangeRow(value: #"abc"#, etag: #""abc""#, holds: false),
        IfRangeRow(value: #""abc", "abc""#, etag: #""abc""#, holds: false),
        IfRangeRow(value: "*", etag: #""abc""#, holds: false),
        IfRangeRow(value: "", etag: #""abc""#, holds: false),
        // A date cannot hold: these responses send no Last-Modified.
        IfRangeRow(value: "Sun, 06 Nov 1994 08:49:37 GMT", etag: #""abc""#, holds: false),
        IfRangeRow(value: #""abc""#, etag: nil, holds: false),
    ]

    @Test(arguments: ifRangeRows)
    func ifRangeValue(_ row: IfRangeRow) {
        #expect(RangeSelection.ifRangeHolds(row.value, etag: row.etag) == row.holds)
    }

    struct FieldsRow: CustomTestStringConvertible, Sendable {
        let fields: [(String, String)]
        let expected: RangeSelection
        var testDescription: String { fields.map { "\($0.0): \($0.1)" }.joined(separator: "; ") }
    }

    static let fieldsRows: [FieldsRow] = [
        FieldsRow(fields: [], expected: .whole),
        FieldsRow(fields: [("Range", "bytes=1-2")], expected: .partial(1..<3)),
        FieldsRow(fields: [("range", "bytes=1-2")], expected: .partial(1..<3)),
        // Range is a singleton field.
        FieldsRow(fields: [("Range", "bytes=1-2"), ("Range", "bytes=1-2")], expected: .whole),
        FieldsRow(fields: [("Range", "bytes=1-2"), ("If-Range", #""tag""#)], expected: .partial(1..<3)),
        FieldsRow(fields: [("Range", "bytes=1-2"), ("If-Range", #""old""#)], expected: .whole),
        FieldsRow(fields: [("Range", "bytes=20-"), ("If-Range", #""old""#)], expected: .whole),
        FieldsRow(fields: [("Range", "bytes=20-"), ("If-Range", #""tag""#)], expected: .unsatisfiable),
        FieldsRow(fields: [("Range", "bytes=1-2"), ("If-Range", #""tag""#), ("If-Range", #""tag""#)], expected: .whole),
        // If-Range without Range changes nothing (§13.1.5).
        FieldsRow(fields: [("If-Range", #""old""#)], expected: .whole),
    ]

    @Test(arguments: fieldsRows)
    func rangeAndIfRangeFields(_ row: FieldsRow) {
        let headers = HTTPHeaders(row.fields.map { (name: $0.0, value: $0.1) })
        #expect(RangeSelection.evaluate(headers, etag: #""tag""#, length: 10) == row.expected)
    }
}
