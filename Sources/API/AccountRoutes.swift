import Accounts
import HTTPServer

/// The account, favorite, profile and recently viewed endpoints (openapi.yaml tags
/// `accounts`, `favorites`, `profile`); the last two live in `AccountRoutes+Profile`
/// and `AccountRoutes+Recents`.
///
/// Every handler is `.blocking`: they touch SQLite (with an fsync per write) and
/// scrypt. Protected endpoints authenticate before they look at the body.
public struct AccountRoutes: Sendable {
    let accounts: Accounts
    let photos: any PhotoSummaryProvider

    /// `GET /favorites` page sizes.
    static let favoritesLimit = 1...200
    static let defaultFavoritesLimit = 50

    public init(accounts: Accounts, photos: any PhotoSummaryProvider) {
        self.accounts = accounts
        self.photos = photos
    }

    public func register(in router: inout Router) {
        router.add(.post, "/users", handler(registerUser))
        router.add(.post, "/users/login", handler(login))
        router.add(.get, "/users/me", handler(me))
        router.add(.post, "/users/logout", handler(logout))
        router.add(.put, "/users/me/password", handler(changePassword))
        router.add(.delete, "/users/me", handler(deleteUser))
        router.add(.get, "/favorites", handler(listFavorites))
        router.add(.put, "/favorites/{photoID}", handler(saveFavorite))
        router.add(.delete, "/favorites/{photoID}", handler(removeFavorite))
        router.add(.patch, "/users/me", handler(updateProfile))
        router.add(.delete, "/users/me/data", handler(eraseUserData))
        router.add(.get, "/recents", handler(listRecents))
        router.add(.put, "/recents/{photoID}", handler(recordView))
        router.add(.delete, "/recents", handler(clearRecents))
    }

    // MARK: Users

    private func registerUser(_ request: HTTPRequest) throws -> HTTPResponse {
        let body = try AccountRequestBody(request)
        let username = try body.string("username")
        let password = try body.string("password")
        let session = try accounts.register(username: username, password: password)
        return .json(AccountJSON.session(session), status: .created)
    }

    private func login(_ request: HTTPRequest) throws -> HTTPResponse {
        let body = try AccountRequestBody(request)
        let username = try body.string("username")
        let password = try body.string("password")
        let session = try accounts.login(username: username, password: password, clientAddress: request.remoteAddress)
        return .json(AccountJSON.session(session))
    }

    private func me(_ request: HTTPRequest) throws -> HTTPResponse {
        let user = try accounts.user(try authenticate(request))
        return .json(AccountJSON.user(user))
    }

    private func logout(_ request: HTTPRequest) throws -> HTTPResponse {
        try accounts.logout(try authenticate(request))
        return .empty(.noContent)
    }

    private func changePassword(_ request: HTTPRequest) throws -> HTTPResponse {
        let user = try authenticate(request)
        let body = try AccountRequestBody(request)
        let currentPassword = try body.string("currentPassword")
        let newPassword = try body.string("newPassword")
        try accounts.changePassword(user, currentPassword: currentPassword, newPassword: newPassword)
        return .empty(.noContent)
    }

    private func deleteUser(_ request: HTTPRequest) throws -> HTTPResponse {
        let user = try authenticate(request)
        let password = try AccountRequestBody(request).string("password")
        try accounts.deleteUser(user, password: password)
        return .empty(.noContent)
    }

    // MARK: Favorites

    private func listFavorites(_ request: HTTPRequest) throws -> HTTPResponse {
        let user = try authenticate(request)
        var limit = Self.defaultFavoritesLimit
        if let text = request.query("limit") {
            guard let value = Int(text), Self.favoritesLimit.contains(value) else {
                throw HTTPError(
                    .badRequest,
                    detail: "limit must be an integer from \(Self.favoritesLimit.lowerBound) to \(Self.favoritesLimit.upperBound)")
            }
            limit = value
        }
        let page = try accounts.favorites(user, limit: limit, cursor: request.query("cursor"))
        return .json(FavoriteJSON.page(page, photos: photos))
    }

    private func saveFavorite(_ request: HTTPRequest) throws -> HTTPResponse {
        let user = try authenticate(request)
        let photoID = request.pathParameters["photoID"] ?? ""
        guard photos.photoSummaryJSON(photoID: photoID) != nil else {
            throw HTTPError(.notFound, detail: "no photo has the id \(photoID)")
        }
        let saved = try accounts.saveFavorite(user, photoID: photoID)
        return .json(FavoriteJSON.favorite(saved.favorite, photos: photos), status: saved.created ? .created : .ok)
    }

    private func removeFavorite(_ request: HTTPRequest) throws -> HTTPResponse {
        let user = try authenticate(request)
        try accounts.removeFavorite(user, photoID: request.pathParameters["photoID"] ?? "")
        return .empty(.noContent)
    }

    // MARK: Plumbing

    func authenticate(_ request: HTTPRequest) throws -> AuthenticatedUser {
        try accounts.authenticate(request)
    }

    /// Runs `body` off the event loop and turns `AccountsError`s into their problems.
    func handler(_ body: @escaping @Sendable (HTTPRequest) throws -> HTTPResponse) -> RouteHandler {
        .blocking { request in
            do {
                return try body(request)
            } catch let error as AccountsError {
                throw error.httpError ?? error
            }
        }
    }
}
