/// Maps a method and a decoded path to a handler. Patterns are literal segments and
/// `{name}` parameters, e.g. `/photos/{photoID}`. Routes are registered before the
/// server starts; the server keeps its own copy.
public struct Router: Sendable {
    /// What a method and path resolve to.
    public enum Match: Sendable {
        case found(RouteHandler, pathParameters: [String: String])
        /// The path exists, but not for this method; `allowed` is for the `Allow` header.
        case methodNotAllowed(allowed: [HTTPMethod])
        case notFound
    }

    private struct Route: Sendable {
        let method: HTTPMethod
        let segments: [Segment]
        let handler: RouteHandler
    }

    private enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
    }

    private var routes: [Route] = []

    public init() {}

    /// Registers `handler` for `method` on `pattern`. A GET route also answers HEAD.
    public mutating func add(_ method: HTTPMethod, _ pattern: String, _ handler: RouteHandler) {
        let segments = Self.split(pattern).map { part -> Segment in
            if part.hasPrefix("{"), part.hasSuffix("}") {
                return .parameter(String(part.dropFirst().dropLast()))
            }
            return .literal(String(part))
        }
        precondition(
            !routes.contains { $0.method == method && $0.segments == segments },
            "route \(method) \(pattern) registered twice")
        routes.append(Route(method: method, segments: segments, handler: handler))
    }

    public func match(_ method: HTTPMethod, path: String) -> Match {
        let parts = Self.split(path)
        var allowed: [HTTPMethod] = []
        var getMatch: (RouteHandler, [String: String])?
        for route in routes {
            guard let parameters = Self.bind(route.segments, to: parts) else { continue }
            if route.method == method {
                return .found(route.handler, pathParameters: parameters)
            }
            if route.method == .get { getMatch = (route.handler, parameters) }
            allowed.append(route.method)
        }
        if method == .head, let getMatch {
            return .found(getMatch.0, pathParameters: getMatch.1)
        }
        guard !allowed.isEmpty else { return .notFound }
        if allowed.contains(.get) { allowed.append(.head) }
        allowed.append(.options)
        return .methodNotAllowed(allowed: allowed)
    }

    /// The methods a path answers to (for `Allow` and CORS preflight), or `[]` if none.
    public func allowedMethods(path: String) -> [HTTPMethod] {
        let parts = Self.split(path)
        var methods = routes.filter { Self.bind($0.segments, to: parts) != nil }.map(\.method)
        guard !methods.isEmpty else { return [] }
        if methods.contains(.get) { methods.append(.head) }
        methods.append(.options)
        return methods
    }

    private static func split(_ path: String) -> [Substring] {
        path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map { $0 }
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
