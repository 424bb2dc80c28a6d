/// Maps a method and a decoded path to a handler. Patterns are literal segments and
/// `{name}` parameters, e.g. `/photos/{photoID}`. Routes are registered before the
/// server starts; the server keeps its own copy.
public struct Router: Sendable {
    /// What a method and path resolve to.
    public enum Match: Sendable {
        case found(RouteHandler, pathParameters: [String: String], caching: CachePolicy)
        /// The path exists, but not for this method; `allowed` is for the `Allow` header.
        /// `caching` is `noStore` when a route of the path is, else `unspecified`.
        case methodNotAllowed(allowed: [HTTPMethod], caching: CachePolicy)
        case notFound
    }

    private struct Route: Sendable {
        let method: HTTPMethod
        let pattern: String
        let segments: [Segment]
        let handler: RouteHandler
        let caching: CachePolicy
    }

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
        case literal(String)
        case parameter(String)
    }

    private var routes: [Route] = []
    /// Indices into `routes` of the patterns without parameters that are ASCII and start
    /// with "/", by pattern. An ASCII path that starts with "/" binds such a route exactly
    /// when it equals the pattern, so most requests are routed by one lookup, without
    /// splitting the path.
    private var literalRoutes: [String: [Int]] = [:]
    /// Indices into `routes` of every other pattern, by segment count.
    private var otherRoutes: [Int: [Int]] = [:]
    /// `match`'s answers for each path of `literalRoutes` that no other pattern binds
    /// (none has as many segments), worked out whenever a route is added: most requests
    /// are routed by this one lookup and a scan of the path's few methods.
    private var literalAnswers: [String: LiteralAnswers] = [:]

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
            return .literal(String(part))
        }
        precondition(
            !routes.contains { $0.method == method && $0.segments == segments },
            "route \(method) \(pattern) registered twice")
        let isLiteral = segments.allSatisfy { if case .literal = $0 { true } else { false } }
        let route = Route(method: method, pattern: pattern, segments: segments, handler: handler, caching: caching)
        if isLiteral, let slashes = Self.slashCountIfASCIIRooted(pattern) {
            literalRoutes[pattern, default: []].append(routes.count)
            routes.append(route)
            if otherRoutes[slashes] == nil { literalAnswers[pattern] = answers(forLiteral: pattern) }
        } else {
            otherRoutes[segments.count, default: []].append(routes.count)
            routes.append(route)
            // It may bind the literal paths of as many segments: those are walked from now on.
            literalAnswers = literalAnswers.filter { Self.slashCountIfASCIIRooted($0.key) != segments.count }
        }
    }

    /// `match`'s answers for a path of `literalRoutes`, worked out by walking the routes.
    private func answers(forLiteral path: String) -> LiteralAnswers {
        var methods = (literalRoutes[path] ?? []).map { routes[$0].method }
        if methods.contains(.get), !methods.contains(.head) { methods.append(.head) }
        return LiteralAnswers(
            byMethod: methods.map { ($0, matchByWalking($0, path: path)) },
            // The empty method, which is no token, so no route has it.
            otherwise: matchByWalking(HTTPMethod(rawValue: ""), path: path))
    }

    public func match(_ method: HTTPMethod, path: String) -> Match {
        guard let answers = literalAnswers[path] else { return matchByWalking(method, path: path) }
        for answer in answers.byMethod where answer.method == method { return answer.match }
        return answers.otherwise
    }

    /// `match` worked out from the routes themselves, for any path: what `literalAnswers`
    /// holds, and what the tests compare `match` with.
    func matchByWalking(_ method: HTTPMethod, path: String) -> Match {
        var allowed: [HTTPMethod] = []
        var getMatch: (Route, [String: String])?
        var found: Match?
        var caching = CachePolicy.unspecified
        forEachRoute(boundTo: path) { route, parameters in
            if route.method == method {
                found = .found(route.handler, pathParameters: parameters, caching: route.caching)
                return false
            }
            // The first route of a method binds, as in a match; later ones add nothing to `Allow`.
            guard !allowed.contains(route.method) else { return true }
            if route.method == .get { getMatch = (route, parameters) }
            if route.caching == .noStore { caching = .noStore }
            allowed.append(route.method)
            return true
        }
        if let found { return found }
        if method == .head, let getMatch {
            return .found(getMatch.0.handler, pathParameters: getMatch.1, caching: getMatch.0.caching)
        }
        guard !allowed.isEmpty else { return .notFound }
        // RFC 9110 §10.2.1: `Allow` lists each method once; GET implies HEAD here, and OPTIONS is always served.
        for implied in (allowed.contains(.get) ? [HTTPMethod.head] : []) + [.options] where !allowed.contains(implied) {
            allowed.append(implied)
        }
        return .methodNotAllowed(allowed: allowed, caching: caching)
    }

    /// Calls `body` with each route that `path` binds to, and the route's parameters, in
    /// registration order, until `body` returns false.
    private func forEachRoute(boundTo path: String, _ body: (Route, [String: String]) -> Bool) {
        guard let slashes = Self.slashCountIfASCIIRooted(path) else {
            // Not ASCII (segments then compare by canonical equivalence, not bytes) or not
            // starting with "/": no lookup, every route is tried, in order.
            let parts = Self.split(path)
            for route in routes {
                guard let parameters = Self.bind(route.segments, to: parts) else { continue }
                guard body(route, parameters) else { return }
            }
            return
        }
        let literal = literalRoutes[path] ?? []
        guard let others = otherRoutes[slashes] else {
            for index in literal {
                guard body(routes[index], [:]) else { return }
            }
            return
        }
        let parts = Self.splitASCII(path)
        for index in (literal + others).sorted() {
            guard let parameters = Self.bind(routes[index].segments, to: parts) else { continue }
            guard body(routes[index], parameters) else { return }
        }
    }

    /// The number of "/" in `path` (its segment count, as `split` counts them) when `path`
    /// is ASCII and starts with "/"; nil otherwise.
    private static func slashCountIfASCIIRooted(_ path: String) -> Int? {
        guard path.utf8.first == UInt8(ascii: "/") else { return nil }
        var slashes = 0
        for byte in path.utf8 {
            guard byte < 0x80 else { return nil }
            if byte == UInt8(ascii: "/") { slashes += 1 }
        }
        return slashes
    }

    private static func split(_ path: String) -> [Substring] {
        path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map { $0 }
    }

    /// `split` of an ASCII path, by its bytes: the same segments, without the grapheme
    /// breaking that `String.split` does for each character (a fifth of a `/photos/{id}`
    /// request's CPU went there).
    private static func splitASCII(_ path: String) -> [Substring] {
        var parts: [Substring] = []
        let bytes = path.utf8
        var start = bytes.index(after: bytes.startIndex)
        var index = start
        while index < bytes.endIndex {
            if bytes[index] == UInt8(ascii: "/") {
                parts.append(path[start..<index])
                start = bytes.index(after: index)
            }
            index = bytes.index(after: index)
        }
        parts.append(path[start..<bytes.endIndex])
        return parts
    }

    private static func bind(_ segments: [Segment], to parts: [Substring]) -> [String: String]? {
        guard segments.count == parts.count else { return nil }
        var parameters: [String: String] = [:]
        for (segment, part) in zip(segments, parts) {
            switch segment {
            case .literal(let literal):
                guard part == literal else { return nil }
            case .parameter(let name):
                guard !part.isEmpty else { return nil }
                parameters[name] = String(part)
            }
        }
        return parameters
    }
}
