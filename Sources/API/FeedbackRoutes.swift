import Accounts
import Feedback
import HTTPServer

/// The feedback and moderation endpoints (openapi.yaml tag `feedback`): a user reports
/// what is wrong with a photo and reads their own reports; a moderator reads the queue
/// and decides. docs/MODERATION.md has the rules.
///
/// Every handler is `.blocking` (the user-data store) and authenticates before it looks
/// at anything else; the moderation endpoints then check the caller's role (403) before
/// their parameters' values or body, reading it anew for every request. Another user's
/// feedback answers 404 like one that does not exist. Writes pass the user's write rate
/// first (`UserWriteLimiter`; nil when `--user-write-rate` is 0).
public struct FeedbackRoutes: Sendable {
    let accounts: Accounts
    let desk: FeedbackDesk
    let writeLimiter: UserWriteLimiter?
    let refusals: Refusals

    /// `GET /feedback/mine` and `GET /feedback` page sizes.
    static let pageLimit = 1...200
    static let defaultPageLimit = 50
    static let mineParameters: QueryParameterNames = ["limit", "cursor"]
    static let queueParameters: QueryParameterNames = ["status", "kind", "limit", "cursor"]
    static let feedbackShape =
        #"{"kind": "location" | "date" | "rotation" | "other", and its fields: "latitude" and "longitude", "year", "degrees" or "text"}"#
    static let decisionShape = #"{"accept": boolean}"#

    public init(accounts: Accounts, desk: FeedbackDesk, writeLimiter: UserWriteLimiter?, refusals: Refusals) {
        self.accounts = accounts
        self.desk = desk
        self.writeLimiter = writeLimiter
        self.refusals = refusals
    }

    public func register(in router: inout Router) {
        router.add(.post, "/photos/{photoID}/feedback", caching: .noStore, writeHandler(send))
        // Before `/feedback/{feedbackID}`: the first route of a method that binds a path wins.
        router.add(.get, "/feedback/mine", caching: .noStore, handler(mine))
        router.add(.get, "/feedback/{feedbackID}", caching: .noStore, handler(show))
        router.add(.get, "/feedback", caching: .noStore, handler(queue))
        router.add(.post, "/feedback/{feedbackID}/decision", caching: .noStore, writeHandler(decide))
    }

    /// `201` for a new feedback (with `Location`), `200` for the sender's open one of
    /// the same photo and kind with its fields replaced.
    private func send(_ request: HTTPRequest) throws -> HTTPResponse {
        let user = try accounts.sessions.authenticate(request)
        let photoID = request.pathParameters["photoID"] ?? ""
        guard desk.shippedPlace(ofPhoto: photoID) != nil else { throw FeedbackError.photoNotFound(photoID: photoID) }
        let change = try Self.change(JSONBody(request, shape: Self.feedbackShape))
        let receipt: FeedbackReceipt
        do {
            receipt = try desk.send(user, photoID: photoID, change: change)
        } catch let error as FeedbackError {
            if case .dailyLimitReached = error { refusals.record(.feedbacks, client: request.remoteAddress) }
            throw error
        }
        guard receipt.created else { return .json(FeedbackJSON.feedback(receipt.feedback)) }
        var response = HTTPResponse.json(FeedbackJSON.feedback(receipt.feedback), status: .created)
        response.headers.add("Location", "/feedback/" + receipt.feedback.feedbackID)
        return response
    }

    /// The body as a change: `kind` first, then only that kind's fields (any other is
    /// unknown), each of its JSON type; `FeedbackRules` checks their values.
    static func change(_ body: JSONBody) throws -> FeedbackChange {
        let name = try body.string("kind")
        guard let kind = FeedbackKind(rawValue: name) else {
            let kinds = FeedbackKind.allCases.map(\.rawValue).joined(separator: ", ")
            throw HTTPError(.badRequest, detail: "kind must be one of \(kinds)")
        }
        try body.rejectUnknownFields(known: Set(["kind"] + kind.fields))
        return switch kind {
        case .location:
            .location(latitude: try body.number("latitude", in: -90...90), longitude: try body.number("longitude", in: -180...180))
        case .date: .date(year: try body.integer("year"))
        case .rotation: .rotation(degrees: try body.integer("degrees"))
        case .other: .other(text: try body.string("text"))
        }
    }

    private func show(_ request: HTTPRequest) throws -> HTTPResponse {
        let user = try accounts.sessions.authenticate(request)
        return .json(FeedbackJSON.feedback(try desk.feedback(user, feedbackID: request.pathParameters["feedbackID"] ?? "")))
    }

    private func mine(_ request: HTTPRequest) throws -> HTTPResponse {
        let user = try accounts.sessions.authenticate(request)
        let parameters = try QueryParameters(request, known: Self.mineParameters)
        let limit = try parameters.integer("limit", default: Self.defaultPageLimit, in: Self.pageLimit)
        return .json(FeedbackJSON.page(try desk.mine(user, limit: limit, cursor: parameters.string("cursor"))))
    }

    /// A parameter given twice is refused before the role is read, as on every endpoint;
    /// the values only after it.
    private func queue(_ request: HTTPRequest) throws -> HTTPResponse {
        let user = try accounts.sessions.authenticate(request)
        let parameters = try QueryParameters(request, known: Self.queueParameters)
        let moderator = try desk.moderator(user)
        let status = try Self.named("status", parameters, as: FeedbackStatus.self) ?? .open
        let kind = try Self.named("kind", parameters, as: FeedbackKind.self)
        let limit = try parameters.integer("limit", default: Self.defaultPageLimit, in: Self.pageLimit)
        let page = try desk.queue(moderator, status: status, kind: kind, limit: limit, cursor: parameters.string("cursor"))
        return .json(FeedbackJSON.page(page))
    }

    private func decide(_ request: HTTPRequest) throws -> HTTPResponse {
        let moderator = try desk.moderator(try accounts.sessions.authenticate(request))
        let body = try JSONBody(request, shape: Self.decisionShape)
        try body.rejectUnknownFields(known: ["accept"])
        let accept = try body.bool("accept")
        let feedback = try desk.decide(moderator, feedbackID: request.pathParameters["feedbackID"] ?? "", accept: accept)
        return .json(FeedbackJSON.feedback(feedback))
    }

    /// The query parameter `name` as one of `Value`'s cases; nil when absent.
    private static func named<Value: RawRepresentable & CaseIterable>(
        _ name: StaticString, _ parameters: QueryParameters, as: Value.Type
    ) throws -> Value? where Value.RawValue == String {
        guard let text = parameters.string(name) else { return nil }
        guard let value = Value(rawValue: text) else {
            throw QueryParameters.invalid(name, "must be one of \(Value.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return value
    }

    /// A write with a token: `handler`, after the user's write rate admits it.
    private func writeHandler(_ body: @escaping @Sendable (HTTPRequest) throws -> HTTPResponse) -> RouteHandler {
        handler { [writeLimiter] request in
            try writeLimiter?.admit(request)
            return try body(request)
        }
    }

    /// Runs `body` off the event loop.
    private func handler(_ body: @escaping @Sendable (HTTPRequest) throws -> HTTPResponse) -> RouteHandler {
        .blocking(body)
    }
}
