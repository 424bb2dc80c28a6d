/// Maps a method and a decoded path to a handler. Patterns are literal segments and
/// `{name}` parameters, e.g. `/photos/{photoID}`. Routes are registered before the
/// server starts; the server keeps its own copy.
public struct Router: Sendable {
    /// What a method and path resolve to.
    public enum Match: Sendable {
        /// `pattern`: the index of the route's pattern in `patterns`, what the request
        /// metrics name the route by (never the raw path).
        case found(RouteHandler, pathParameters: [String: String], caching: CachePolicy, pattern: Int)
        /// The path exists, but not for this method; `allowed` is for the `Allow` header.
        /// `caching` is `noStore` when a route of the path is, else `unspecified`;
        /// `pattern` is that of the first route the path binds.
        case methodNotAllowed(allowed: [HTTPMethod], caching: CachePolicy, pattern: Int)
        case notFound
    }

    private struct Route: Sendable {
        let method: HTTPMethod
        let pattern: String
        /// The index of `pattern` in `patterns`.
        let patternIndex: Int
        let segments: [Segment]
        let handler: RouteHandler
        let caching: CachePolicy
    }

    /// Every pattern registered, each once, in the order first registered: the routes as
    /// the request metrics name them (`Match`'s `pattern` indexes it).
    public private(set) var patterns: [String] = []

    /// A registered route as the table lists it: for tests that check a rule for every route.
    public struct Entry: Sendable {
        public let method: HTTPMethod
        public let pattern: String
        public let caching: CachePolicy
    }

    /// Every route, in registration order.
    public var entries: [Entry] {
        routes.map { Entry(method: $0.method, pattern: $0.pattern, caching: $0.caching) }
    }

    private enum Segment: Sendable, Equatable {
        /// A literal, with its bytes when it is ASCII (what an ASCII path compares with).
        case literal(String, ascii: [UInt8]?)
        case parameter(String)

        /// Literals compare as strings, by canonical equivalence, as a path's segments do.
        static func == (left: Segment, right: Segment) -> Bool {
            switch (left, right) {
            case (.literal(let left, _), .literal(let right, _)): left == right
            case (.parameter(let left), .parameter(let right)): left == right
            default: false
            }
        }
    }

    private var routes: [Route] = []
    /// For each segment count (the index), the routes of that many segments, grouped by
    /// their first segment: a path that is ASCII and starts with "/" is matched by its
    /// bytes, without being split, against the few routes of its group.
    private var bySegmentCount: [RoutesOfSegmentCount] = []
    /// `match`'s answers for each literal pattern, ASCII and starting with "/", that no
    /// other pattern can bind (none of as many segments `bindsOtherPaths`), worked out
    /// whenever a route is added: most requests are routed by this one lookup and a scan
    /// of the path's few methods.
    private var literalAnswers: [String: LiteralAnswers] = [:]

    /// The routes of one segment count.
    private struct RoutesOfSegmentCount: Sendable {
        /// Whether one of them may bind other paths than its pattern (it has a parameter,
        /// or is not ASCII or does not start with "/"), so that paths of as many segments
        /// are walked.
        var bindsOtherPaths = false
        /// One group for each ASCII literal that a first segment is, in the order first
        /// registered, then the group of the rest (a first segment that is a parameter,
        /// or not ASCII), which any first segment may bind.
        var groups: [RouteGroup] = []
    }

    /// Routes of one segment count that a path's first segment may bind.
    private struct RouteGroup: Sendable {
        /// The first segment of the group's patterns; nil for the rest group.
        let firstSegment: [UInt8]?
        /// Indices into `routes`, in registration order, the rest group's among them: the
        /// order in which they are tried.
        let routeIndices: [Int]
    }

    /// What `match` answers for one literal path.
    private struct LiteralAnswers: Sendable {
        /// The answer to each method a route of the path serves, and to HEAD when GET is one.
        var byMethod: [(method: HTTPMethod, match: Match)]
        /// The answer to every other method: `methodNotAllowed`, with the path's methods.
        var otherwise: Match
    }

    public init() {}

    /// Registers `handler` for `method` on `pattern`, with what its answers tell caches.
    /// A GET route also answers HEAD.
    public mutating func add(_ method: HTTPMethod, _ pattern: String, caching: CachePolicy, _ handler: RouteHandler) {
        let segments = Self.split(pattern).map { part -> Segment in
            if part.hasPrefix("{"), part.hasSuffix("}") {
                return .parameter(String(part.dropFirst().dropLast()))
            }
            return .literal(String(part), ascii: part.utf8.allSatisfy { $0 < 0x80 } ? Array(part.utf8) : nil)
        }
        precondition(
            !routes.contains { $0.method == method && $0.segments == segments },
            "route \(method) \(pattern) registered twice")
        let patternIndex = patterns.firstIndex(of: pattern) ?? patterns.count
        if patternIndex == patterns.count { patterns.append(pattern) }
        routes.append(
            Route(
                method: method, pattern: pattern, patternIndex: patternIndex, segments: segments, handler: handler,
                caching: caching))
        let count = segments.count
        while bySegmentCount.count <= count { bySegmentCount.append(RoutesOfSegmentCount()) }
        bySegmentCount[count].groups = groups(ofSegmentCount: count)
        let hasParameter = segments.contains { if case .parameter = $0 { true } else { false } }
        if hasParameter || Self.segmentCount(ifASCIIRooted: pattern) != count {
            bySegmentCount[count].bindsOtherPaths = true
            // It may bind the literal paths of as many segments: those are walked from now on.
            literalAnswers = literalAnswers.filter { Self.segmentCount(ifASCIIRooted: $0.key) != count }
        } else if !bySegmentCount[count].bindsOtherPaths {
            literalAnswers[pattern] = answers(forLiteral: pattern)
        }
    }

    /// The groups of the routes of `count` segments, as `RoutesOfSegmentCount` holds them.
    private func groups(ofSegmentCount count: Int) -> [RouteGroup] {
        let indices = routes.indices.filter { routes[$0].segments.count == count }
        let firstSegment = { (index: Int) -> [UInt8]? in
            guard case .literal(_, let ascii) = routes[index].segments[0] else { return nil }
            return ascii
        }
        var firstSegments: [[UInt8]] = []
        for first in indices.compactMap(firstSegment) where !firstSegments.contains(first) {
            firstSegments.append(first)
        }
        let rest = indices.filter { firstSegment($0) == nil }
        return firstSegments.map { first in
            RouteGroup(firstSegment: first, routeIndices: indices.filter { [first, nil].contains(firstSegment($0)) })
        } + [RouteGroup(firstSegment: nil, routeIndices: rest)]
    }

    /// `match`'s answers for a literal pattern, worked out by walking the routes.
    private func answers(forLiteral path: String) -> LiteralAnswers {
        var methods = routes.filter { $0.pattern == path }.map(\.method)
        if methods.contains(.get), !methods.contains(.head) { methods.append(.head) }
        return LiteralAnswers(
            byMethod: methods.map { ($0, matchByWalking($0, path: path)) },
            // The empty method, which is no token, so no route has it.
            otherwise: matchByWalking(HTTPMethod(rawValue: ""), path: path))
    }

    public func match(_ method: HTTPMethod, path: String) -> Match {
        var utf8 = path
        return utf8.withUTF8 { bytes in
            guard let count = Self.segmentCount(ifASCIIRooted: bytes) else {
                return matchTryingEveryRoute(method, path: path)
            }
            // A path of as many segments as a pattern that binds other paths is not in the
            // table: it is walked without being hashed first.
            if count < bySegmentCount.count, !bySegmentCount[count].bindsOtherPaths, let answers = literalAnswers[path] {
                for answer in answers.byMethod where answer.method == method { return answer.match }
                return answers.otherwise
            }
            return answer(method) { forEachRoute(boundToASCII: bytes, segmentCount: count, $0) }
        }
    }

    /// `match` worked out from the routes themselves, for any path: what `literalAnswers`
    /// holds, and what the tests compare `match` with.
    func matchByWalking(_ method: HTTPMethod, path: String) -> Match {
        var utf8 = path
        return utf8.withUTF8 { bytes in
            guard let count = Self.segmentCount(ifASCIIRooted: bytes) else { return matchTryingEveryRoute(method, path: path) }
            return answer(method) { forEachRoute(boundToASCII: bytes, segmentCount: count, $0) }
        }
    }

    /// `match` by trying every route in order on the path split as a string, without the
    /// groups: how a path that is not ASCII, or does not start with "/", is matched, and
    /// the plain twin the tests compare the groups with.
    func matchTryingEveryRoute(_ method: HTTPMethod, path: String) -> Match {
        answer(method) { forEachRoute(boundTo: path, $0) }
    }

    /// The answer to `method` from the routes `forEachBound` calls its body with (each
    /// with its parameters, in registration order, until the body returns false).
    private func answer(
        _ method: HTTPMethod, walking forEachBound: ((Route, [String: String]) -> Bool) -> Void
    ) -> Match {
        var allowed: [HTTPMethod] = []
        var getMatch: (Route, [String: String])?
        var found: Match?
        var caching = CachePolicy.unspecified
        var firstPattern: Int?
        forEachBound { route, parameters in
            if route.method == method {
                found = .found(route.handler, pathParameters: parameters, caching: route.caching, pattern: route.patternIndex)
                return false
            }
            if firstPattern == nil { firstPattern = route.patternIndex }
            // The first route of a method binds, as in a match; later ones add nothing to `Allow`.
            guard !allowed.contains(route.method) else { return true }
            if route.method == .get { getMatch = (route, parameters) }
            if route.caching == .noStore { caching = .noStore }
            allowed.append(route.method)
            return true
        }
        if let found { return found }
        if method == .head, let getMatch {
            return .found(
                getMatch.0.handler, pathParameters: getMatch.1, caching: getMatch.0.caching, pattern: getMatch.0.patternIndex)
        }
        guard !allowed.isEmpty, let firstPattern else { return .notFound }
        // RFC 9110 §10.2.1: `Allow` lists each method once; GET implies HEAD here, and OPTIONS is always served.
        for implied in (allowed.contains(.get) ? [HTTPMethod.head] : []) + [.options] where !allowed.contains(implied) {
            allowed.append(implied)
        }
        return .methodNotAllowed(allowed: allowed, caching: caching, pattern: firstPattern)
    }

    /// Calls `body` with each route of `segmentCount` segments that the ASCII `path`
    /// (starting with "/") binds, and its parameters, in registration order, until `body`
    /// returns false: only the routes of the group of its first segment are tried.
    private func forEachRoute(
        boundToASCII path: UnsafeBufferPointer<UInt8>, segmentCount: Int, _ body: (Route, [String: String]) -> Bool
    ) {
        guard segmentCount < bySegmentCount.count else { return }
        let firstEnd = path[1...].firstIndex(of: UInt8(ascii: "/")) ?? path.endIndex
        let group = bySegmentCount[segmentCount].groups.first { $0.firstSegment?.elementsEqual(path[1..<firstEnd]) ?? true }
        for index in group?.routeIndices ?? [] {
            guard let parameters = Self.bind(routes[index].segments, toASCII: path) else { continue }
            guard body(routes[index], parameters) else { return }
        }
    }

    /// Calls `body` with each route that `path` binds to, split as a string (segments
    /// compare by canonical equivalence), and the route's parameters, trying every route
    /// in registration order until `body` returns false.
    private func forEachRoute(boundTo path: String, _ body: (Route, [String: String]) -> Bool) {
        let parts = Self.split(path)
        for route in routes {
            guard let parameters = Self.bind(route.segments, to: parts) else { continue }
            guard body(route, parameters) else { return }
        }
    }

    /// The number of "/" in `path` (its segment count, as `split` counts them) when `path`
    /// is ASCII and starts with "/"; nil otherwise.
    private static func segmentCount(ifASCIIRooted path: UnsafeBufferPointer<UInt8>) -> Int? {
        guard path.first == UInt8(ascii: "/") else { return nil }
        var slashes = 0
        for byte in path {
            guard byte < 0x80 else { return nil }
            if byte == UInt8(ascii: "/") { slashes += 1 }
        }
        return slashes
    }

    private static func segmentCount(ifASCIIRooted path: String) -> Int? {
        var utf8 = path
        return utf8.withUTF8 { segmentCount(ifASCIIRooted: $0) }
    }

    private static func split(_ path: String) -> [Substring] {
        path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map { $0 }
    }

    private static func bind(_ segments: [Segment], to parts: [Substring]) -> [String: String]? {
        guard segments.count == parts.count else { return nil }
        var parameters: [String: String] = [:]
        for (segment, part) in zip(segments, parts) {
            switch segment {
            case .literal(let literal, _):
                guard part == literal else { return nil }
            case .parameter(let name):
                guard !part.isEmpty else { return nil }
                parameters[name] = String(part)
            }
        }
        return parameters
    }

    /// `bind(_:to:)` for an ASCII path that starts with "/" and has as many segments as
    /// `segments`, by its bytes. A literal that is not ASCII may still equal an ASCII
    /// segment by canonical equivalence (K and the Kelvin sign), so it compares as a string.
    private static func bind(_ segments: [Segment], toASCII path: UnsafeBufferPointer<UInt8>) -> [String: String]? {
        var parameters: [String: String] = [:]
        var start = 1
        for segment in segments {
            let end = path[start...].firstIndex(of: UInt8(ascii: "/")) ?? path.endIndex
            let part = UnsafeBufferPointer(rebasing: path[start..<end])
            switch segment {
            case .literal(_, let ascii?):
                guard ascii.elementsEqual(part) else { return nil }
            case .literal(let literal, nil):
                guard String(decoding: part, as: UTF8.self) == literal else { return nil }
            case .parameter(let name):
                guard !part.isEmpty else { return nil }
                parameters[name] = String(decoding: part, as: UTF8.self)
            }
            start = end + 1
        }
        return parameters
    }
}
