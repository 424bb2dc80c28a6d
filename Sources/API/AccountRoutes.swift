import Accounts
import HTTPServer

/// The account, favorite, profile and recently viewed endpoints (openapi.yaml tags
/// `accounts`, `favorites`, `profile`); the sessions, the email, the password reset,
/// the profile and the recents live in `AccountRoutes+Sessions`, `+Email`,
/// `+PasswordReset`, `+Profile` and `+Recents`.
///
/// Every handler runs off the event loop: they touch the user-data store and scrypt.
/// The frequent writes are `.deferred`: they answer once their group commit is durable,
/// holding no worker thread while they wait for it. Protected endpoints authenticate
/// before they look at the body; their writes pass the user's write rate first
/// (`UserWriteLimiter`; nil when `--user-write-rate` is 0).
public struct AccountRoutes: Sendable {
    let accounts: Accounts
    let photos: any PlacedPhotoProvider
    /// Where the refusals of the accounts' fair-use rules are counted and logged.
    let writeLimiter: UserWriteLimiter?
    let refusals: Refusals

    /// `GET /favorites` page sizes.
    static let favoritesLimit = 1...200
    static let defaultFavoritesLimit = 50

    public init(accounts: Accounts, photos: any PlacedPhotoProvider, writeLimiter: UserWriteLimiter?, refusals: Refusals) {
        self.accounts = accounts
        self.photos = photos
        self.writeLimiter = writeLimiter
        self.refusals = refusals
    }

    public func register(in router: inout Router) {
        router.add(.post, "/users", caching: .noStore, handler(registerUser))
        router.add(.post, "/users/login", caching: .noStore, handler(login))
        router.add(.get, "/users/me", caching: .noStore, handler(me))
        router.add(.post, "/users/logout", caching: .noStore, writeHandler(logout))
        router.add(.put, "/users/me/password", caching: .noStore, writeHandler(changePassword))
        router.add(.delete, "/users/me", caching: .noStore, writeHandler(deleteUser))
        router.add(.get, "/users/me/sessions", caching: .noStore, handler(listSessions))
        router.add(.delete, "/users/me/sessions/{sessionID}", caching: .noStore, writeHandler(revokeSession))
        router.add(.post, "/users/me/email/verify", caching: .noStore, writeHandler(verifyEmail))
        router.add(.post, "/users/me/email/verify/resend", caching: .noStore, writeHandler(resendEmailCode))
        router.add(.post, "/users/password-reset", caching: .noStore, handler(requestPasswordReset))
        router.add(.post, "/users/password-reset/confirm", caching: .noStore, handler(confirmPasswordReset))
        router.add(.get, "/favorites", caching: .noStore, handler(listFavorites))
        router.add(.get, "/favorites/{photoID}", caching: .noStore, handler(showFavorite))
        router.add(.put, "/favorites/{photoID}", caching: .noStore, deferredWriteHandler(saveFavorite))
        router.add(.delete, "/favorites/{photoID}", caching: .noStore, deferredWriteHandler(removeFavorite))
        router.add(.patch, "/users/me", caching: .noStore, deferredWriteHandler(updateProfile))
        router.add(.delete, "/users/me/data", caching: .noStore, writeHandler(eraseUserData))
        router.add(.get, "/recents", caching: .noStore, handler(listRecents))
        router.add(.put, "/recents/{photoID}", caching: .noStore, deferredWriteHandler(recordView))
        router.add(.delete, "/recents", caching: .noStore, deferredWriteHandler(clearRecents))
    }

    // MARK: Users

    static let credentialsShape = #"{"username": string, "password": string}"#
    static let passwordChangeShape = #"{"currentPassword": string, "newPassword": string}"#
    static let passwordShape = #"{"password": string}"#

    private func registerUser(_ request: HTTPRequest) throws -> HTTPResponse {
        let body = try JSONBody(request, shape: Self.credentialsShape)
        try body.rejectUnknownFields(known: ["username", "password"])
        let username = try body.string("username")
        let password = try body.string("password")
        let session = try accounts.register(
            username: username, password: password, clientAddress: request.remoteAddress,
            userAgent: request.headers["User-Agent"])
        return .json(AccountJSON.session(session), status: .created)
    }

    private func login(_ request: HTTPRequest) throws -> HTTPResponse {
        let body = try JSONBody(request, shape: Self.credentialsShape)
        try body.rejectUnknownFields(known: ["username", "password"])
        let username = try body.string("username")
        let password = try body.string("password")
        let session = try accounts.login(
            username: username, password: password, clientAddress: request.remoteAddress,
            userAgent: request.headers["User-Agent"])
        return .json(AccountJSON.session(session))
    }

    private func me(_ request: HTTPRequest) throws -> HTTPResponse {
        let user = try accounts.profiles.user(try authenticate(request))
        return .json(AccountJSON.user(user))
    }

    private func logout(_ request: HTTPRequest) throws -> HTTPResponse {
        try accounts.sessions.logout(try authenticate(request))
        return .empty(.noContent)
    }

    private func changePassword(_ request: HTTPRequest) throws -> HTTPResponse {
        let user = try authenticate(request)
        let body = try JSONBody(request, shape: Self.passwordChangeShape)
        try body.rejectUnknownFields(known: ["currentPassword", "newPassword"])
        let currentPassword = try body.string("currentPassword")
        let newPassword = try body.string("newPassword")
        try accounts.changePassword(
            user, currentPassword: currentPassword, newPassword: newPassword, clientAddress: request.remoteAddress)
        return .empty(.noContent)
    }

    /// Answers once the account and all its data are erased (`Accounts.deleteUser`, in slices).
    private func deleteUser(_ request: HTTPRequest) throws -> HTTPResponse {
        let user = try authenticate(request)
        let body = try JSONBody(request, shape: Self.passwordShape)
        try body.rejectUnknownFields(known: ["password"])
        let password = try body.string("password")
        try accounts.deleteUser(user, password: password, clientAddress: request.remoteAddress)
        return .empty(.noContent)
    }

    // MARK: Favorites

    static let favoritesParameters: QueryParameterNames = ["limit", "cursor", "ids"]

    /// A page of favorites, or with `ids` the caller's favorites among those photos (the
    /// hearts of a list screen), newest first and never paged.
    private func listFavorites(_ request: HTTPRequest) throws -> HTTPResponse {
        let user = try authenticate(request)
        let parameters = try QueryParameters(request, known: Self.favoritesParameters)
        if let ids = parameters.string("ids") {
            for other: StaticString in ["limit", "cursor"] where parameters.string(other) != nil {
                throw QueryParameters.invalid(other, "cannot be combined with 'ids'")
            }
            let favorites = try accounts.favorites.among(user, photoIDs: try FavoriteIDs.parse(ids))
            return .json(FavoriteJSON.page(FavoritesPage(favorites: favorites, nextCursor: nil), photos: photos.pinned()))
        }
        let limit = try parameters.integer("limit", default: Self.defaultFavoritesLimit, in: Self.favoritesLimit)
        let page = try accounts.favorites.page(user, limit: limit, cursor: parameters.string("cursor"))
        return .json(FavoriteJSON.page(page, photos: photos.pinned()))
    }

    private func showFavorite(_ request: HTTPRequest) throws -> HTTPResponse {
        let user = try authenticate(request)
        let favorite = try accounts.favorites.favorite(user, photoID: request.pathParameters["photoID"] ?? "")
        return .json(FavoriteJSON.favorite(favorite, photos: photos))
    }

    /// Checks the token in the save's own transaction (`Favorites.save(token:…)`).
    private func saveFavorite(_ request: HTTPRequest, _ responder: HTTPResponder) throws {
        let token = try Sessions.bearerToken(request)
        let photoID = request.pathParameters["photoID"] ?? ""
        guard photos.placedPhotoJSON(photoID: photoID) != nil else {
            // A token that does not work is a 401 first, as on every protected endpoint.
            _ = try accounts.sessions.authenticate(token: token)
            throw HTTPError.unknownPhoto(photoID)
        }
        accounts.favorites.save(token: token, photoID: photoID) { [photos, refusals] outcome in
            if case .failure(AccountsError.favoriteLimitReached) = outcome {
                refusals.record(.favorites, client: request.remoteAddress)
            }
            responder.respond {
                let saved = try outcome.get()
                return .json(FavoriteJSON.favorite(saved.favorite, photos: photos), status: saved.created ? .created : .ok)
            }
        }
    }

    private func removeFavorite(_ request: HTTPRequest, _ responder: HTTPResponder) throws {
        let user = try authenticate(request)
        accounts.favorites.remove(user, photoID: request.pathParameters["photoID"] ?? "") { outcome in
            responder.respond {
                try outcome.get()
                return .empty(.noContent)
            }
        }
    }

    // MARK: Plumbing

    /// The user of the request's bearer token (see `Sessions.authenticate(token:)`).
    func authenticate(_ request: HTTPRequest) throws -> AuthenticatedUser {
        try accounts.sessions.authenticate(request)
    }

    /// Runs `body` off the event loop; the refusals of a fair-use rule are recorded in
    /// `refusals` on the way.
    func handler(_ body: @escaping @Sendable (HTTPRequest) throws -> HTTPResponse) -> RouteHandler {
        .blocking(recordingRefusals(body))
    }

    /// A write with a token: `handler`, after the user's write rate admits it.
    func writeHandler(_ body: @escaping @Sendable (HTTPRequest) throws -> HTTPResponse) -> RouteHandler {
        .blocking(
            recordingRefusals { [writeLimiter] request in
                try writeLimiter?.admit(request)
                return try body(request)
            })
    }

    /// `body`, recording in `refusals` the fair-use refusal (`AccountsError.refusalRule`) it throws.
    private func recordingRefusals(
        _ body: @escaping @Sendable (HTTPRequest) throws -> HTTPResponse
    ) -> @Sendable (HTTPRequest) throws -> HTTPResponse {
        { [refusals] request in
            do {
                return try body(request)
            } catch let error as AccountsError {
                if let rule = error.refusalRule { refusals.record(rule, client: request.remoteAddress) }
                throw error
            }
        }
    }

    /// A write with a token that answers through the responder once it has committed,
    /// after the user's write rate admits it.
    func deferredWriteHandler(_ body: @escaping @Sendable (HTTPRequest, HTTPResponder) throws -> Void) -> RouteHandler {
        .deferred { [writeLimiter] request, responder in
            try writeLimiter?.admit(request)
            try body(request, responder)
        }
    }
}
