import Accounts
import Dispatch
import HTTPServer
import Logging
import Walks

/// `GET /sync?since=&limit=&wait=` (openapi.yaml tag `sync`): the caller's
/// favorites, recents, walks, walk entries and profile as changes to apply to a
/// local copy, read from the change log (`ChangeLog`) and each item's own table.
///
/// `.deferred`: a request with `wait` and nothing new is held in the `SyncWaitRoom`
/// and answered when its user's next change commits or its wait runs out, holding no
/// thread meanwhile; `401` when its token stops working first. One more than a user
/// may hold (`--max-held-waits-per-user`) is `429`, unless it can be answered at once.
struct SyncRoutes: Sendable {
    let accounts: Accounts
    let walks: Walks
    let photos: any PlacedPhotoProvider
    let waitRoom: SyncWaitRoom
    let refusals: Refusals
    let maximumHeldPerUser: Int

    static let limits = 1...1000
    static let defaultLimit = 500
    static let waitSeconds = 0...30
    static let parameters: QueryParameterNames = ["since", "limit", "wait"]

    /// - Parameter maximumHeldPerUser: `GET /sync?wait=` requests one user holds at
    ///   most (`ApplicationConfiguration.maxHeldWaitsPerUser`); 0 lifts the limit.
    init(
        accounts: Accounts, walks: Walks, photos: any PlacedPhotoProvider, maximumHeldPerUser: Int, refusals: Refusals,
        logger: Logger
    ) {
        self.accounts = accounts
        self.walks = walks
        self.photos = photos
        self.refusals = refusals
        self.maximumHeldPerUser = maximumHeldPerUser
        waitRoom = SyncWaitRoom(feed: accounts.database.changeFeed, maximumPerUser: maximumHeldPerUser, logger: logger) {
            try accounts.sessions.stillAuthenticated($0)
        }
    }

    func register(in router: inout Router) {
        router.add(.get, "/sync", caching: .noStore, .deferred { request, responder in try sync(request, responder) })
    }

    private func sync(_ request: HTTPRequest, _ responder: HTTPResponder) throws {
        let user = try accounts.sessions.authenticate(request)
        let parameters = try QueryParameters(request, known: Self.parameters)
        let since = parameters.string("since")
        let limit = try parameters.integer("limit", default: Self.defaultLimit, in: Self.limits)
        let wait = try parameters.integer("wait", default: 0, in: Self.waitSeconds)
        guard let since, wait > 0 else {
            let page = try accounts.changeLog.changes(user, since: since, limit: limit)
            responder.respond { .json(try body(page, of: user)) }
            return
        }
        let held = Held(user: user, since: since, limit: limit, deadline: .now() + .seconds(wait), client: request.remoteAddress)
        answerOrHold(held, counted: true, responder)
    }

    /// What a held request needs to be answered later.
    private struct Held: Sendable {
        let user: AuthenticatedUser
        let since: String
        let limit: Int
        let deadline: DispatchTime
        let client: String
    }

    /// Answers at once when something changed after `since`; otherwise holds the
    /// request. It is held before the log is read, so a change committed between the
    /// read and the hold still wakes it. When the user holds as many as they may, a
    /// request with nothing to answer is refused with `429`.
    /// - Parameter counted: false when a change woke the request: it was let in already.
    private func answerOrHold(_ held: Held, counted: Bool, _ responder: HTTPResponder) {
        let hold = waitRoom.hold(held.user, until: held.deadline, counted: counted) { wake in
            switch wake {
            case .changed: answerOrHold(held, counted: false, responder)
            case .deadline: answer(held, responder)
            // As a request with this token is answered now (`Sessions.authenticate(token:)`).
            case .tokenStopped: responder.respond { throw AccountsError.invalidToken }
            }
        }
        do {
            if !counted { try requireWorkingToken(held) }
            let page = try accounts.changeLog.changes(held.user, since: held.since, limit: held.limit)
            switch hold {
            case .held(let ticket):
                guard !page.changes.isEmpty else { return waitRoom.settle(held.user.userID, ticket: ticket) }
                waitRoom.release(held.user.userID, ticket: ticket)
            case .full(let retryAfterSeconds) where page.changes.isEmpty:
                refusals.record(.heldWaits, client: held.client)
                return responder.respond { throw tooManyHeld(retryAfterSeconds: retryAfterSeconds) }
            case .full:
                break
            }
            responder.respond { .json(try body(page, of: held.user)) }
        } catch {
            if case .held(let ticket) = hold { waitRoom.release(held.user.userID, ticket: ticket) }
            responder.respond { throw stoppedTokenFirst(error, held) }
        }
    }

    /// The token stopping outranks whatever else went wrong: its expiry may have
    /// happened between the request's authentication and its read of the log, which
    /// then found `since` aged past the kept history with it. When the check itself
    /// fails, the read's own error stands.
    private func stoppedTokenFirst(_ error: any Error, _ held: Held) -> any Error {
        guard let working = try? accounts.sessions.stillAuthenticated([held.user]), !working.contains(held.user) else {
            return error
        }
        return AccountsError.invalidToken
    }

    /// The `429` of a request one more than its user may hold.
    private func tooManyHeld(retryAfterSeconds: Int) -> HTTPError {
        HTTPError(
            .tooManyRequests,
            detail: "this user already has \(maximumHeldPerUser) GET /sync requests waiting, the most held at once "
                + "(max-held-waits-per-user); try again in \(retryAfterSeconds) s",
            headers: HTTPHeaders([("Retry-After", String(retryAfterSeconds))]))
    }

    private func answer(_ held: Held, _ responder: HTTPResponder) {
        responder.respond {
            try requireWorkingToken(held)
            return .json(try body(try accounts.changeLog.changes(held.user, since: held.since, limit: held.limit), of: held.user))
        }
    }

    /// A request woken after it was held is answered as one sent now with its token:
    /// `401` when the token stopped working meanwhile, even before the room's next check
    /// finds it (its `since` may have aged past the kept history with it).
    private func requireWorkingToken(_ held: Held) throws {
        guard try accounts.sessions.stillAuthenticated([held.user]).contains(held.user) else {
            throw AccountsError.invalidToken
        }
    }

    /// `{"changes": [Change], "next", "more"}`, each change with its item's state now
    /// (an item gone meanwhile is listed as deleted; its own change comes later).
    private func body(_ page: ChangesPage, of user: AuthenticatedUser) throws -> [UInt8] {
        let photos = self.photos.pinned()
        let walkJSON = WalkJSON(photos: photos)
        var writer = JSONWriter(reservingCapacity: 64 + 700 * page.changes.count)
        writer.beginObject()
        writer.key("changes")
        writer.beginArray()
        for change in page.changes {
            writer.beginObject()
            writer.field("type", change.kind.rawValue)
            switch change.kind {
            case .favorite:
                writer.field("photoID", change.photoID)
                let favorite = change.deleted ? nil : try accounts.favorites.favoriteIfSaved(user, photoID: change.photoID)
                Self.writeState("favorite", favorite.map { FavoriteJSON.favorite($0, photos: photos) }, to: &writer)
            case .recent:
                writer.field("photoID", change.photoID)
                let recent = change.deleted ? nil : try accounts.recents.view(user, photoID: change.photoID)
                let encoded = recent.flatMap { recent in
                    photos.placedPhotoJSON(photoID: change.photoID).map { RecentJSON.recent(recent, placed: $0) }
                }
                Self.writeState("recent", encoded, to: &writer)
            case .walk:
                writer.field("walkID", change.walkID)
                let walk = change.deleted ? nil : try walks.summary(user, walkID: change.walkID)
                Self.writeState("walk", walk.map(walkJSON.walk), to: &writer)
            case .walkEntry:
                writer.field("walkID", change.walkID)
                writer.field("photoID", change.photoID)
                let entry = change.deleted ? nil : try walks.entry(user, walkID: change.walkID, photoID: change.photoID)
                Self.writeState("entry", entry.map(walkJSON.entry), to: &writer)
            case .profile:
                Self.writeState("user", AccountJSON.user(try accounts.profiles.user(user)), to: &writer)
            }
            writer.endObject()
        }
        writer.endArray()
        writer.field("next", page.next)
        writer.field("more", page.more)
        writer.endObject()
        return writer.bytes
    }

    /// A changed item's state now: `"deleted": true`, or `"deleted": false` and the item
    /// (already encoded) under `key`.
    private static func writeState(_ key: String, _ encoded: [UInt8]?, to writer: inout JSONWriter) {
        writer.field("deleted", encoded == nil)
        if let encoded {
            writer.key(key)
            writer.raw(encoded)
        }
    }
}
