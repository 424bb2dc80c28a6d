import Catalog
import HTTPServer

/// The query parameters of a request, validated strictly: every route reads its query
/// through this one type, so every bad value becomes a 400 whose detail names the
/// parameter, on every endpoint alike. A declared parameter given twice is rejected
/// (which value was meant is ambiguous); unknown parameters are ignored, so clients
/// may add cache-busters.
struct QueryParameters {
    /// The request's query, read as sent: no String is made for a name or a number.
    private let query: QueryString
    private let known: QueryParameterNames
    /// Where each known parameter's value lies in the query, by its index in `known`;
    /// -1 when absent. Found in one pass over the query, which also finds duplicates.
    private var valueStarts = SIMD16<Int32>(repeating: -1)
    private var valueEnds = SIMD16<Int32>(repeating: -1)

    /// - Parameter known: the parameters this endpoint reads.
    init(_ request: HTTPRequest, known: QueryParameterNames) throws {
        query = request.queryString
        self.known = known
        var starts = valueStarts, ends = valueEnds
        try query.forEachPair { name, value in
            guard let index = name.withDecodedBytes({ known.index(ofBytes: $0) }) else { return true }
            guard starts[index] < 0 else { throw Self.invalid(known.names[index], "must be given only once") }
            starts[index] = Int32(value.offsets.lowerBound)
            ends[index] = Int32(value.offsets.upperBound)
            return true
        }
        (valueStarts, valueEnds) = (starts, ends)
    }

    /// The parameter's value as given (percent-decoded), nil when absent.
    func value(_ name: StaticString) -> String? {
        withValue(name) { $0.decoded }
    }

    /// `read` applied to the parameter's value as sent, nil when absent. Names are
    /// literals throughout, so a declared one is found by its bytes, with no String made.
    private func withValue<Result>(_ name: StaticString, _ read: (QueryString.Part) -> Result) -> Result? {
        guard let index = known.index(of: name) else {
            // Not one the endpoint declared: looked up by a scan (the first wins).
            var result: Result?
            query.forEachPair { pairName, value in
                guard pairName.equals(name.description) else { return true }
                result = read(value)
                return false
            }
            return result
        }
        guard valueStarts[index] >= 0 else { return nil }
        return query.withPart(at: Int(valueStarts[index])..<Int(valueEnds[index]), read)
    }

    /// The parameter's text as given (an opaque value such as a cursor); nil when absent.
    func string(_ name: StaticString) -> String? {
        value(name)
    }

    /// A required decimal number within `range`.
    func number(_ name: StaticString, in range: ClosedRange<Double>) throws -> Double {
        guard let value = try optionalNumber(name) else { throw Self.invalid(name, "is required") }
        guard range.contains(value) else {
            throw Self.invalid(name, "must be between \(Self.format(range.lowerBound)) and \(Self.format(range.upperBound))")
        }
        return value
    }

    /// A decimal number (`-12`, `40.7`, `4.07e1`), finite; nil when absent.
    /// `NaN`, `inf`, hexadecimal and numbers that overflow (`1e999`) are rejected.
    func optionalNumber(_ name: StaticString) throws -> Double? {
        guard let parsed = withValue(name, { $0.withDecodedBytes(DecimalText.number) }) else { return nil }
        guard let value = parsed else {
            throw Self.invalid(name, "must be a decimal number, not \(Self.quote(self.value(name) ?? ""))")
        }
        guard value.isFinite else { throw Self.invalid(name, "must be a finite number, not \(Self.quote(self.value(name) ?? ""))") }
        return value
    }

    /// A required integer within `range`.
    func integer(_ name: StaticString, in range: ClosedRange<Int>) throws -> Int {
        guard let value = try optionalInteger(name) else { throw Self.invalid(name, "is required") }
        guard range.contains(value) else {
            throw Self.invalid(name, "must be an integer from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    /// An integer within `range`, `defaultValue` when absent.
    func integer(_ name: StaticString, default defaultValue: Int, in range: ClosedRange<Int>) throws -> Int {
        guard let value = try optionalInteger(name) else { return defaultValue }
        guard range.contains(value) else {
            throw Self.invalid(name, "must be an integer from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    /// An integer (optional sign, decimal digits); nil when absent.
    func optionalInteger(_ name: StaticString) throws -> Int? {
        guard let parsed = withValue(name, { $0.withDecodedBytes(DecimalText.integer) }) else { return nil }
        switch parsed {
        case .value(let value): return value
        case .notInteger: throw Self.invalid(name, "must be an integer, not \(Self.quote(value(name) ?? ""))")
        case .outOfRange: throw Self.invalid(name, "is out of range")
        }
    }

    /// The box of `/region` and `/clusters`: `south`, `west`, `north` and `east`, all
    /// required, with `south <= north`; `west > east` is allowed (the box crosses the antimeridian).
    func box() throws -> (south: Double, west: Double, north: Double, east: Double) {
        let south = try number("south", in: -90...90)
        let west = try number("west", in: -180...180)
        let north = try number("north", in: -90...90)
        let east = try number("east", in: -180...180)
        guard south <= north else {
            throw Self.invalid("south", "must not be greater than 'north'")
        }
        return (south, west, north, east)
    }

    /// The `from`, `to`, `topic` and `borough` filters shared by `/nearby`, `/region`,
    /// `/clusters`, `/search` and `/tours`.
    func filter(topics: TopicIndex) throws -> PhotoFilter {
        var filter = try photoFilter(topics: topics)
        filter.borough = try borough()
        return filter
    }

    /// The filters of one location's photos (`/locations/{locationID}`): `from`, `to` and `topic`.
    func photoFilter(topics: TopicIndex) throws -> PhotoFilter {
        let from = try year("from")
        let to = try year("to")
        if let from, let to, from > to {
            throw Self.invalid("from", "must not be greater than 'to' (\(from) > \(to))")
        }
        return PhotoFilter(fromYear: from, toYear: to, topic: try topic(topics))
    }

    /// "What am I facing" (`/nearby`): `heading` (0 ≤ heading < 360) and `fov` (0 < fov ≤ 360,
    /// default 60, only with `heading`); nil without `heading`.
    func cone() throws -> ViewCone? {
        let fieldOfView = try optionalNumber("fov")
        guard let heading = try optionalNumber("heading") else {
            if fieldOfView != nil { throw Self.invalid("fov", "needs 'heading'") }
            return nil
        }
        guard heading >= 0, heading < 360 else { throw Self.invalid("heading", "must be at least 0 and less than 360 (degrees)") }
        if let fieldOfView, !(fieldOfView > 0 && fieldOfView <= 360) {
            throw Self.invalid("fov", "must be greater than 0 and at most 360 (degrees)")
        }
        return ViewCone(heading: heading, fieldOfView: fieldOfView ?? ViewCone.defaultFieldOfView)
    }

    /// `topic`: one of the archive's subject topics, in any letter case; nil when absent.
    private func topic(_ topics: TopicIndex) throws -> Int? {
        guard let name = value("topic") else { return nil }
        guard !name.isEmpty else { throw Self.invalid("topic", "must not be empty") }
        guard let number = topics.number(named: name) else {
            throw Self.invalid("topic", "must be one of the subject topics of GET /topics, not \(Self.quote(name))")
        }
        return number
    }

    private func borough() throws -> Borough? {
        var borough: Borough?
        if let name = value("borough") {
            guard let known = Borough(name: name) else {
                let names = Borough.allCases.map(\.rawValue).joined(separator: ", ")
                throw Self.invalid("borough", "must be one of \(names), not \(Self.quote(name))")
            }
            borough = known
        }
        return borough
    }

    /// A year filter, -9999 to 9999; nil when absent.
    private func year(_ name: StaticString) throws -> Int? {
        guard let year = try optionalInteger(name) else { return nil }
        guard Self.years.contains(year) else {
            throw Self.invalid(name, "must be a year from \(Self.years.lowerBound) to \(Self.years.upperBound)")
        }
        return year
    }

    private static let years = -9999...9999

    static func invalid(_ name: some CustomStringConvertible, _ problem: String) -> HTTPError {
        HTTPError(.badRequest, detail: "query parameter '\(name)' \(problem)")
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    /// The offending value, quoted and cut short, for the problem detail.
    private static func quote(_ text: String) -> String {
        text.count > 40 ? "'\(text.prefix(40))…'" : "'\(text)'"
    }
}
