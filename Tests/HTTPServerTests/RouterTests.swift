import Testing
import TestSupport

@testable import HTTPServer

@Suite struct RouterTests {
    /// A router whose handlers answer with their own name in the body.
    static func router(_ routes: [(HTTPMethod, String)]) -> Router {
        var router = Router()
        for (method, pattern) in routes {
            let name = "\(method.rawValue) \(pattern)"
            router.add(method, pattern, caching: .unspecified, .immediate { _ in HTTPResponse(body: Array(name.utf8)) })
        }
        return router
    }

    /// The name of the route `path` resolves to and its parameters, or how it failed.
    static func resolve(_ router: Router, _ method: HTTPMethod, _ path: String) throws -> String {
        try describe(router.match(method, path: path), method, path)
    }

    /// The name of the route `match` found and its parameters, or how it failed.
    static func describe(_ match: Router.Match, _ method: HTTPMethod, _ path: String) throws -> String {
        switch match {
        case .found(let handler, let parameters, _, _):
            guard case .immediate(let run) = handler else { return "blocking" }
            let name = String(decoding: try run(HTTPRequest(method: method, target: path, path: path)).body, as: UTF8.self)
            let bound = parameters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            return bound.isEmpty ? name : "\(name) \(bound.joined(separator: ","))"
        case .methodNotAllowed(let allowed, _, _):
            return "405 " + allowed.map(\.rawValue).joined(separator: ",")
        case .notFound:
            return "404"
        }
    }

    static let routes: [(HTTPMethod, String)] = [
        (.get, "/"),
        (.get, "/nearby"),
        (.post, "/users"),
        (.get, "/users/me"),
        (.delete, "/users/me"),
        (.get, "/photos/{photoID}"),
        // Registered after the parameter route of the same shape: the earlier route wins.
        (.get, "/photos/search"),
        (.put, "/photos/search"),
        (.get, "/a/{x}/c"),
        (.get, "/caf\u{E9}"),
        (.get, "/K"),
        (.get, "/trailing/"),
        // A pattern that starts with a parameter binds whatever the first segment is.
        (.get, "/{lang}/about"),
        (.post, "/{lang}/about"),
    ]

    struct Row: CustomTestStringConvertible, Sendable {
        let method: HTTPMethod
        let path: String
        let expected: String
        var testDescription: String { "\(method.rawValue) \(path)" }
    }

    static let rows: [Row] = [
        Row(method: .get, path: "/", expected: "GET /"),
        Row(method: .get, path: "/nearby", expected: "GET /nearby"),
        Row(method: .head, path: "/nearby", expected: "GET /nearby"),
        Row(method: .post, path: "/nearby", expected: "405 GET,HEAD,OPTIONS"),
        Row(method: .get, path: "/nearby/", expected: "404"),
        Row(method: .get, path: "/nearby/x", expected: "404"),
        Row(method: .get, path: "/Nearby", expected: "404"),
        Row(method: .get, path: "//nearby", expected: "404"),
        Row(method: .get, path: "nearby", expected: "404"),
        Row(method: .get, path: "x/nearby", expected: "GET /nearby"),
        Row(method: .get, path: "", expected: "404"),
        Row(method: .post, path: "/users", expected: "POST /users"),
        Row(method: .get, path: "/users", expected: "405 POST,OPTIONS"),
        Row(method: .delete, path: "/users/me", expected: "DELETE /users/me"),
        Row(method: .put, path: "/users/me", expected: "405 GET,DELETE,HEAD,OPTIONS"),
        Row(method: .get, path: "/photos/123", expected: "GET /photos/{photoID} photoID=123"),
        Row(method: .get, path: "/photos/", expected: "404"),
        Row(method: .get, path: "/photos/search", expected: "GET /photos/{photoID} photoID=search"),
        Row(method: .put, path: "/photos/search", expected: "PUT /photos/search"),
        Row(method: .post, path: "/photos/search", expected: "405 GET,PUT,HEAD,OPTIONS"),
        // HEAD runs the GET route a GET would: the earlier one.
        Row(method: .head, path: "/photos/search", expected: "GET /photos/{photoID} photoID=search"),
        Row(method: .get, path: "/photos/caf\u{E9}", expected: "GET /photos/{photoID} photoID=caf\u{E9}"),
        Row(method: .get, path: "/a/b/c", expected: "GET /a/{x}/c x=b"),
        Row(method: .get, path: "/a/b/d", expected: "404"),
        Row(method: .get, path: "/trailing/", expected: "GET /trailing/"),
        Row(method: .get, path: "/trailing", expected: "404"),
        Row(method: .get, path: "/en/about", expected: "GET /{lang}/about lang=en"),
        Row(method: .post, path: "/photos/about", expected: "POST /{lang}/about lang=photos"),
        // The earlier route of the two that bind it.
        Row(method: .get, path: "/photos/about", expected: "GET /photos/{photoID} photoID=about"),
        Row(method: .put, path: "/en/about", expected: "405 GET,POST,HEAD,OPTIONS"),
        // Non-ASCII segments compare by canonical equivalence, as Swift strings do.
        Row(method: .get, path: "/caf\u{E9}", expected: "GET /caf\u{E9}"),
        Row(method: .get, path: "/cafe\u{301}", expected: "GET /caf\u{E9}"),
        Row(method: .get, path: "/\u{212A}", expected: "GET /K"),
    ]

    @Test(arguments: rows)
    func resolves(_ row: Row) throws {
        #expect(try Self.resolve(Self.router(Self.routes), row.method, row.path) == row.expected)
    }

    /// A path only literal routes bind is answered from a table made when the routes are
    /// added; it must answer every method as walking the routes does, also after a route
    /// with parameters of as many segments (which may bind the path) comes in, and when
    /// that route came first.
    @Test func literalPathsAreAnsweredAsWalkingTheRoutesDoes() throws {
        let literal: [(HTTPMethod, String)] = [
            (.get, "/"), (.get, "/nearby"), (.post, "/users"), (.get, "/users/me"), (.delete, "/users/me"),
            (.head, "/probe"), (.options, "/users"), (.get, "/a/b/c"),
        ]
        let methods: [HTTPMethod] = [.get, .head, .post, .put, .delete, .patch, .options, HTTPMethod(rawValue: "BREW")]
        let paths = ["/", "/nearby", "/users", "/users/me", "/probe", "/a/b/c", "/Nearby", "/nearby/", "/en/about", "/x"]
        for extra in [[], [(HTTPMethod.get, "/{lang}")], [(HTTPMethod.post, "/{lang}/me")], [(HTTPMethod.get, "/a/{x}/c")]] {
            for routes in [literal + extra, extra + literal] {
                let router = Self.router(routes)
                for method in methods {
                    for path in paths {
                        let answered = try Self.describe(router.match(method, path: path), method, path)
                        let walked = try Self.describe(router.matchByWalking(method, path: path), method, path)
                        #expect(answered == walked, "\(method.rawValue) \(path) with \(extra.map(\.1))")
                    }
                }
            }
        }
        // And the answers themselves, for the plain table.
        let router = Self.router(literal)
        #expect(try Self.resolve(router, .head, "/nearby") == "GET /nearby")
        #expect(try Self.resolve(router, .post, "/nearby") == "405 GET,HEAD,OPTIONS")
        #expect(try Self.resolve(router, .head, "/probe") == "HEAD /probe")
        #expect(try Self.resolve(router, .get, "/probe") == "405 HEAD,OPTIONS")
        #expect(try Self.resolve(router, .options, "/users") == "OPTIONS /users")
        #expect(try Self.resolve(router, .get, "/users") == "405 POST,OPTIONS")
        #expect(try Self.resolve(Self.router(literal + [(.get, "/{lang}")]), .get, "/en") == "GET /{lang} lang=en")
        #expect(try Self.resolve(Self.router([(.get, "/{lang}")] + literal), .get, "/nearby") == "GET /{lang} lang=nearby")
    }

    /// Seeded random route tables and paths: `match` (the literal table, then the routes
    /// of the path's first segment, bound by bytes) answers every method as trying every
    /// route in order on the path split as a string does. Segments include parameters,
    /// a pattern that does not start with "/", and literals that are not ASCII, one of
    /// them canonically equal to an ASCII one (the Kelvin sign and K).
    @Test func groupedRoutesAnswerAsTryingEveryRouteDoes() throws {
        let patternPieces = ["a", "b", "me", "users", "photos", "{id}", "{x}", "", "K", "\u{212A}", "caf\u{E9}"]
        let pathPieces = ["a", "b", "me", "users", "photos", "", "K", "\u{212A}", "caf\u{E9}", "cafe\u{301}", "zz", "%"]
        let methods: [HTTPMethod] = [.get, .head, .post, .put, .delete, .options]
        var generator = SeededGenerator(seed: 41)
        func randomPath(_ pieces: [String], rooted: Bool) -> String {
            let count = Int.random(in: 1...3, using: &generator)
            let segments = (0..<count).map { _ in pieces.randomElement(using: &generator)! }
            return (rooted ? "/" : "x/") + segments.joined(separator: "/")
        }
        for table in 0..<60 {
            var routes: [(HTTPMethod, String)] = []
            for _ in 0..<Int.random(in: 1...14, using: &generator) {
                let route = (
                    methods.randomElement(using: &generator)!,
                    randomPath(patternPieces, rooted: Int.random(in: 0..<12, using: &generator) > 0))
                let segments = { (pattern: String) in pattern.split(separator: "/", omittingEmptySubsequences: false).dropFirst() }
                guard !routes.contains(where: { $0.0 == route.0 && segments($0.1).elementsEqual(segments(route.1)) }) else { continue }
                routes.append(route)
            }
            let router = Self.router(routes)
            for _ in 0..<60 {
                let path = Int.random(in: 0..<3, using: &generator) == 0
                    ? routes.randomElement(using: &generator)!.1 : randomPath(pathPieces, rooted: true)
                for method in methods {
                    let answered = try Self.describe(router.match(method, path: path), method, path)
                    let tried = try Self.describe(router.matchTryingEveryRoute(method, path: path), method, path)
                    #expect(answered == tried, "table \(table): \(method.rawValue) \(path) with \(routes.map { "\($0.0.rawValue) \($0.1)" })")
                }
            }
        }
    }

    /// Seeded random ASCII paths, which the router splits by bytes, against a binder
    /// written here on `String.split`: the GET route it finds, with its parameters, or none.
    @Test func randomASCIIPathsBindAsSplittingByCharacterDoes() throws {
        let router = Self.router(Self.routes)
        let getRoutes = Self.routes.filter { $0.0 == .get }.map(\.1)
        let pieces = ["", "a", "c", "x", "me", "users", "photos", "search", "nearby", "about", "%", "a.b"]
        var generator = SeededGenerator(seed: 19)
        for _ in 0..<2000 {
            let count = Int.random(in: 1...4, using: &generator)
            let path = "/" + (0..<count).map { _ in pieces.randomElement(using: &generator)! }.joined(separator: "/")
            let parts = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init)
            var expected: String?
            for pattern in getRoutes {
                let segments = pattern.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init)
                guard segments.count == parts.count else { continue }
                var parameters: [String] = []
                let binds = zip(segments, parts).allSatisfy { segment, part in
                    guard segment.hasPrefix("{") else { return segment == part }
                    parameters.append("\(segment.dropFirst().dropLast())=\(part)")
                    return !part.isEmpty
                }
                if binds {
                    expected = "GET \(pattern)" + (parameters.isEmpty ? "" : " " + parameters.sorted().joined(separator: ","))
                    break
                }
            }
            let resolved = try Self.resolve(router, .get, path)
            if let expected {
                #expect(resolved == expected, "\(path)")
            } else {
                #expect(resolved == "404" || resolved.hasPrefix("405 "), "\(path)")
            }
        }
    }
}
