import Accounts
import HTTPServer

/// The recently viewed list: `PUT /recents/{photoID}`, `GET /recents`,
/// `DELETE /recents` (openapi.yaml tag `profile`).
extension AccountRoutes {
    /// `GET /recents` sizes: the list never holds more than `Recents.capacity`.
    static let recentsLimit = 1...Recents.capacity
    static let defaultRecentsLimit = 50

    /// Moves the photo to the top of the list (200 with the recent); 404 for a photo
    /// the catalog does not have. Checks the token in the view's own transaction
    /// (`Recents.record(token:…)`).
    func recordView(_ request: HTTPRequest, _ responder: HTTPResponder) throws {
        let token = try Sessions.bearerToken(request)
        let photoID = request.pathParameters["photoID"] ?? ""
        guard let placed = photos.placedPhotoJSON(photoID: photoID) else {
            // A token that does not work is a 401 first, as on every protected endpoint.
            _ = try accounts.sessions.authenticate(token: token)
            throw HTTPError.unknownPhoto(photoID)
        }
        accounts.recents.record(token: token, photoID: photoID) { outcome in
            responder.respond { .json(RecentJSON.recent(try outcome.get(), placed: placed)) }
        }
    }

    /// The most recently viewed first. Photos that have left the catalog since they
    /// were viewed are skipped, so the whole list is read and `limit` applied after.
    func listRecents(_ request: HTTPRequest) throws -> HTTPResponse {
        let user = try authenticate(request)
        let limit = try QueryParameters(request, known: ["limit"])
            .integer("limit", default: Self.defaultRecentsLimit, in: Self.recentsLimit)
        let recents = try accounts.recents.list(user, limit: Recents.capacity)
        let shown = recents.lazy.compactMap { recent in
            self.photos.placedPhotoJSON(photoID: recent.photoID).map { RecentJSON.recent(recent, placed: $0) }
        }.prefix(limit)
        return .json(RecentJSON.list(Array(shown)))
    }

    func clearRecents(_ request: HTTPRequest, _ responder: HTTPResponder) throws {
        accounts.recents.clear(try authenticate(request)) { outcome in
            responder.respond {
                try outcome.get()
                return .empty(.noContent)
            }
        }
    }
}
