import Accounts
import Dispatch
import HTTPServer
import Walks

/// `GET /sync?since=&limit=&wait=` (openapi.yaml tag `sync`): the caller's
/// favorites, recents, walks, walk entries and profile as changes to apply to a
/// local copy, read from the change log (`ChangeLog`) and each item's own table.
///
/// `.deferred`: a request with `wait` and nothing new is held in the `SyncWaitRoom`
/// and answered when its user's next change commits or its wait runs out, holding no
/// thread meanwhile.
struct SyncRoutes: Sendable {
    let accounts: Accounts
    let walks: Walks
    let photos: any PlacedPhotoProvider
    let waitRoom: SyncWaitRoom

    static let limits = 1...1000
    static let defaultLimit = 500
    static let waitSeconds = 0...30
    static let parameters: QueryParameterNames = ["since", "limit", "wait"]

    init(accounts: Accounts, walks: Walks, photos: any PlacedPhotoProvider) {
        self.accounts = accounts
        self.walks = walks
        self.photos = photos
        waitRoom = SyncWaitRoom(feed: accounts.database.changeFeed)
    }

    func register(in router: inout Router) {
        router.add(.get, "/sync", caching: .noStore, .accountsDeferred { request, responder in try sync(request, responder) })
    }

    private func sync(_ request: HTTPRequest, _ responder: HTTPResponder) throws {
        let user = try accounts.authenticate(request)
        let parameters = try QueryParameters(request, known: Self.parameters)
        let since = parameters.string("since")
        let limit = try parameters.integer("limit", default: Self.defaultLimit, in: Self.limits)
        let wait = try parameters.integer("wait", default: 0, in: Self.waitSeconds)
        guard let since, wait > 0 else {
            let page = try accounts.changes(user, since: since, limit: limit)
            responder.respondMappingAccountsErrors { .json(try body(page, of: user)) }
            return
        }
        answerOrHold(user, since: since, limit: limit, until: .now() + .seconds(wait), responder)
    }

    /// Answers at once when something changed after `since`; otherwise holds the
    /// request. It is held before the log is read, so a change committed between the
    /// read and the hold still wakes it.
    private func answerOrHold(
        _ user: AuthenticatedUser, since: String, limit: Int, until deadline: DispatchTime, _ responder: HTTPResponder
    ) {
        let ticket = waitRoom.hold(user.userID, until: deadline) { wake in
            switch wake {
            case .changed: answerOrHold(user, since: since, limit: limit, until: deadline, responder)
            case .deadline: answer(user, since: since, limit: limit, responder)
            }
        }
        do {
            let page = try accounts.changes(user, since: since, limit: limit)
            guard !page.changes.isEmpty else { return }
            waitRoom.release(user.userID, ticket: ticket)
            responder.respondMappingAccountsErrors { .json(try body(page, of: user)) }
        } catch {
            waitRoom.release(user.userID, ticket: ticket)
            responder.respondMappingAccountsErrors { throw error }
        }
    }

    private func answer(_ user: AuthenticatedUser, since: String, limit: Int, _ responder: HTTPResponder) {
        responder.respondMappingAccountsErrors { .json(try body(try accounts.changes(user, since: since, limit: limit), of: user)) }
    }

    /// `{"changes": [Change], "next", "more"}`, each change with its item's state now
    /// (an item gone meanwhile is listed as deleted; its own change comes later).
    private func body(_ page: ChangesPage, of user: AuthenticatedUser) throws -> [UInt8] {
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
                let favorite = change.deleted ? nil : try accounts.favoriteIfSaved(user, photoID: change.photoID)
                Self.writeState("favorite", favorite.map { FavoriteJSON.favorite($0, photos: photos) }, to: &writer)
            case .recent:
                writer.field("photoID", change.photoID)
                let recent = change.deleted ? nil : try accounts.recent(user, photoID: change.photoID)
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
                Self.writeState("user", AccountJSON.user(try accounts.user(user)), to: &writer)
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
