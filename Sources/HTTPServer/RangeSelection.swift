import Basics

/// What a GET or HEAD with `Range` gets from a resource that supports byte ranges
/// (RFC 9110 §14): the whole representation, one range of it, or `416`.
///
/// Only a single byte range is served. What the RFC lets a server ignore is ignored, and
/// the whole representation sent with `200`: a unit other than `bytes` (§14.2), an
/// invalid `ranges-specifier` (§14.2), several ranges (§14.2: a server may ignore `Range`
/// altogether; one `200` costs a client less than a `multipart/byteranges` it must take
/// apart), and a false `If-Range` (§13.1.5).
enum RangeSelection: Equatable {
    /// `200` with the whole body.
    case whole
    /// `206` with these bytes and `Content-Range: bytes first-last/length`.
    case partial(Range<Int>)
    /// `416` with `Content-Range: bytes */length`: a valid single range that starts past the end.
    case unsatisfiable

    /// The selection that `headers` make of a representation of `length` bytes whose
    /// strong entity tag is `etag` (nil: it has none, so no `If-Range` holds).
    static func evaluate(_ headers: HTTPHeaders, etag: String?, length: Int) -> RangeSelection {
        let ranges = headers.values("Range")
        // `Range` is a singleton field: two of them are no valid specifier.
        guard ranges.count == 1 else { return .whole }
        let ifRange = headers.values("If-Range")
        if !ifRange.isEmpty {
            guard ifRange.count == 1, ifRangeHolds(ifRange[0], etag: etag) else { return .whole }
        }
        return parse(ranges[0], length: length)
    }

    /// RFC 9110 §13.1.5: true only when the field is an entity tag equal to `etag` by
    /// strong comparison (§8.8.3.2): both strong, the same octets. A weak tag never
    /// matches, and an HTTP-date cannot hold, as these responses send no `Last-Modified`.
    static func ifRangeHolds(_ value: String, etag: String?) -> Bool {
        guard let etag, !etag.hasPrefix("W/") else { return false }
        let tag = value.trimmingSpacesAndTabs()
        return tag.first == "\"" && tag == etag
    }

    /// One `Range` field value (RFC 9110 §14.1):
    ///
    ///     Range        = range-unit "=" range-set        ; unit case-insensitive
    ///     range-set    = 1#range-spec                    ; OWS around commas, empty elements ignored
    ///     range-spec   = int-range / suffix-range
    ///     int-range    = first-pos "-" [ last-pos ]      ; last-pos < first-pos is invalid
    ///     suffix-range = "-" suffix-length
    ///
    /// resolved against `length` (§14.1.2): a `last-pos` at or past the end means the
    /// last byte, a suffix longer than the representation means all of it, an
    /// `int-range` from at or past the end and a zero suffix are unsatisfiable.
    static func parse(_ value: String, length: Int) -> RangeSelection {
        let field = value.trimmingSpacesAndTabs()
        guard let equals = field.firstIndex(of: "="), field[..<equals].caseInsensitiveEquals("bytes") else {
            return .whole
        }
        let specs = field[field.index(after: equals)...].split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingSpacesAndTabs() }.filter { !$0.isEmpty }
        guard specs.count == 1, let spec = ByteRangeSpec(specs[0]) else { return .whole }
        switch spec {
        case .from(let first, let last):
            guard first < length else { return .unsatisfiable }
            return .partial(first..<(min(last ?? Int.max, length - 1) + 1))
        case .suffix(let count):
            guard count > 0 else { return .unsatisfiable }
            // §14.1.2 counts a non-zero suffix of an empty representation as satisfiable,
            // but no `Content-Range` can name its bytes: the whole, empty, body it is.
            guard length > 0 else { return .whole }
            return .partial(max(0, length - count)..<length)
        }
    }

    /// A syntactically valid `range-spec` of the `bytes` unit.
    private enum ByteRangeSpec {
        case from(Int, last: Int?)
        case suffix(Int)

        init?(_ text: Substring) {
            guard let dash = text.firstIndex(of: "-") else { return nil }
            let first = text[..<dash], last = text[text.index(after: dash)...]
            switch (first.isEmpty, last.isEmpty) {
            case (true, true):
                return nil
            case (true, false):
                guard let count = Self.position(last) else { return nil }
                self = .suffix(count)
            case (false, _):
                guard let start = Self.position(first) else { return nil }
                if last.isEmpty {
                    self = .from(start, last: nil)
                } else {
                    guard let end = Self.position(last), end >= start else { return nil }
                    self = .from(start, last: end)
                }
            }
        }

        /// `1*DIGIT`, saturated at `Int.max`: a position past any representation still
        /// parses (a first-pos beyond the end is unsatisfiable, not invalid).
        private static func position(_ digits: Substring) -> Int? {
            var value = 0
            for byte in digits.utf8 {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
                let (sum, carry) = shifted.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
                value = overflow || carry ? Int.max : sum
            }
            return value
        }
    }
}
