import Testing

@testable import HTTPServer

/// Where `RouteHandler.placement(for:)` runs a request, and what it then answers.
@Suite struct RouteHandlerTests {
    static let request = HTTPRequest(method: .get, target: "/search?q=a", path: "/search")

    /// A handler that answers from memory when `fast` is set, else only from the worker pool.
    static func handler(fast: HTTPResponse?, throwing: Bool = false) -> RouteHandler {
        .immediateUnlessBlocking(
            { _ in
                if throwing { throw HTTPError(.badRequest, detail: "bad q") }
                return fast
            },
            blocking: { _ in HTTPResponse(body: Array("slow".utf8)) })
    }

    @Test func answersOnTheEventLoopWhenTheFastPathCan() throws {
        let placement = Self.handler(fast: HTTPResponse(body: Array("fast".utf8))).placement(for: Self.request)
        guard case .immediate(let run) = placement else { Issue.record("expected immediate"); return }
        #expect(try run(Self.request).body == Array("fast".utf8))
    }

    @Test func goesToTheWorkersWhenTheFastPathCannot() throws {
        let placement = Self.handler(fast: nil).placement(for: Self.request)
        guard case .blocking(let run) = placement else { Issue.record("expected blocking"); return }
        #expect(try run(Self.request).body == Array("slow".utf8))
    }

    @Test func anErrorOfTheFastPathIsItsAnswer() {
        let placement = Self.handler(fast: nil, throwing: true).placement(for: Self.request)
        guard case .immediate(let run) = placement else { Issue.record("expected immediate"); return }
        #expect(throws: HTTPError.self) { try run(Self.request) }
    }

    @Test func plainHandlersKeepTheirPlace() {
        let response = HTTPResponse(body: [1])
        guard case .immediate = RouteHandler.immediate({ _ in response }).placement(for: Self.request) else {
            Issue.record("expected immediate")
            return
        }
        guard case .blocking = RouteHandler.blocking({ _ in response }).placement(for: Self.request) else {
            Issue.record("expected blocking")
            return
        }
    }
}
