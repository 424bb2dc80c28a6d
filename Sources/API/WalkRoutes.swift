import Accounts
import Basics
import HTTPServer
import Walks

/// The walk endpoints (a user's photo walks; see `openapi.yaml`, tag `walks`).
///
/// Every handler is `.blocking`: they touch SQLite (an fsync per accepted point,
/// shared by group commit). Each authenticates before it looks at the body; another
/// user's walk answers 404 like one that does not exist. Writes pass the user's write
/// rate first (`UserWriteLimiter`; nil when `--user-write-rate` is 0).
public struct WalkRoutes: Sendable {
    let accounts: Accounts
    let walks: Walks
    let json: WalkJSON
    let writeLimiter: UserWriteLimiter?
    let refusals: Refusals

    /// `GET /walks/{walkID}` entries per page.
    static let entriesLimit = 1...200
    static let defaultEntriesLimit = 50
    /// `GET /walks` walks per page.
    static let walksLimit = 1...100
    static let defaultWalksLimit = 20
    static let pageParameters: QueryParameterNames = ["limit", "cursor"]
    static let pointShape = #"{"latitude": number, "longitude": number}"#
    static let batchShape = #"{"points": [{"latitude": number, "longitude": number, "recordedAt": RFC 3339 time}]}"#

    public init(
        accounts: Accounts, walks: Walks, photos: any PlacedPhotoProvider, writeLimiter: UserWriteLimiter?,
        refusals: Refusals
    ) {
        self.accounts = accounts
        self.walks = walks
        json = WalkJSON(photos: photos)
        self.writeLimiter = writeLimiter
        self.refusals = refusals
    }

    public func register(in router: inout Router) {
        router.add(.post, "/walks", caching: .noStore, writeHandler(startWalk))
        router.add(.get, "/walks", caching: .noStore, handler(listWalks))
        router.add(.get, "/walks/{walkID}", caching: .noStore, handler(showWalk))
        router.add(.delete, "/walks/{walkID}", caching: .noStore, writeHandler(deleteWalk))
        router.add(.get, "/walks/{walkID}/route", caching: .noStore, handler(showRoute))
        router.add(.post, "/walks/{walkID}/points", caching: .noStore, writeHandler(addPoint))
        router.add(.post, "/walks/{walkID}/points/batch", caching: .noStore, writeHandler(addPoints))
        router.add(.delete, "/walks/{walkID}/photos/{photoID}", caching: .noStore, writeHandler(removePhoto))
    }

    private func startWalk(_ request: HTTPRequest) throws -> HTTPResponse {
        let user = try accounts.sessions.authenticate(request)
        try JSONBody.requireEmpty(request)
        let walk: Walk
        do {
            walk = try walks.start(user)
        } catch WalkError.walkLimitReached(let maximumWalks) {
            refusals.record(.walks, client: request.remoteAddress)
            throw WalkError.walkLimitReached(maximumWalks: maximumWalks)
        }
        var response = HTTPResponse.json(json.walk(walk), status: .created)
        response.headers.add("Location", "/walks/" + walk.walkID)
        return response
    }

    private func listWalks(_ request: HTTPRequest) throws -> HTTPResponse {
        let user = try accounts.sessions.authenticate(request)
        let parameters = try QueryParameters(request, known: Self.pageParameters)
        let limit = try parameters.integer("limit", default: Self.defaultWalksLimit, in: Self.walksLimit)
        let page = try walks.walks(user, limit: limit, cursor: parameters.string("cursor"))
        return .json(json.pinned().page(page))
    }

    private func showWalk(_ request: HTTPRequest) throws -> HTTPResponse {
        let user = try accounts.sessions.authenticate(request)
        let parameters = try QueryParameters(request, known: Self.pageParameters)
        let limit = try parameters.integer("limit", default: Self.defaultEntriesLimit, in: Self.entriesLimit)
        let page = try walks.walk(
            user, walkID: request.pathParameters["walkID"] ?? "", limit: limit, cursor: parameters.string("cursor"))
        return .json(json.pinned().page(page))
    }

    private func showRoute(_ request: HTTPRequest) throws -> HTTPResponse {
        let user = try accounts.sessions.authenticate(request)
        let walkID = request.pathParameters["walkID"] ?? ""
        return .json(json.route(walkID: walkID, points: try walks.route(user, walkID: walkID)))
    }

    private func deleteWalk(_ request: HTTPRequest) throws -> HTTPResponse {
        let user = try accounts.sessions.authenticate(request)
        try walks.delete(user, walkID: request.pathParameters["walkID"] ?? "")
        return .empty(.noContent)
    }

    private func addPoint(_ request: HTTPRequest) throws -> HTTPResponse {
        let user = try accounts.sessions.authenticate(request)
        let body = try JSONBody(request, shape: Self.pointShape)
        try body.rejectUnknownFields(known: ["latitude", "longitude"])
        let outcome = try walks.addPoint(user, walkID: request.pathParameters["walkID"] ?? "", point: try Self.point(body))
        let status: HTTPStatus = if case .accepted = outcome { .created } else { .ok }
        return .json(json.pointOutcome(outcome), status: status)
    }

    private func addPoints(_ request: HTTPRequest) throws -> HTTPResponse {
        let user = try accounts.sessions.authenticate(request)
        let body = try JSONBody(request, shape: Self.batchShape)
        try body.rejectUnknownFields(known: ["points"])
        let points = try body.objects("points", count: WalkRules.batchPoints).enumerated().map { index, item in
            try item.rejectUnknownFields(known: ["latitude", "longitude", "recordedAt"])
            let point = try Self.point(item)
            guard let recordedAt = RFC3339Time.milliseconds(try item.string("recordedAt")) else {
                throw HTTPError(
                    .badRequest,
                    detail: "points[\(index)].recordedAt must be an RFC 3339 time with an offset, such as 2026-11-22T09:41:07.250-05:00")
            }
            return RoutePoint(point: point, recordedAt: Walks.date(recordedAt))
        }
        let outcome = try walks.addPoints(user, walkID: request.pathParameters["walkID"] ?? "", points: points)
        return .json(json.pinned().batchOutcome(outcome))
    }

    /// The walker's position in `body`: `latitude` and `longitude`, validated.
    private static func point(_ body: JSONBody) throws -> WalkPoint {
        WalkPoint(latitude: try body.number("latitude", in: -90...90), longitude: try body.number("longitude", in: -180...180))
    }

    private func removePhoto(_ request: HTTPRequest) throws -> HTTPResponse {
        let user = try accounts.sessions.authenticate(request)
        try walks.removePhoto(
            user, walkID: request.pathParameters["walkID"] ?? "", photoID: request.pathParameters["photoID"] ?? "")
        return .empty(.noContent)
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
