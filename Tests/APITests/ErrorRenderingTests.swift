import Accounts
import Explore
import Feedback
import HTTPServer
import Testing
import TestSupport
import UserData
import Walks

@testable import API

/// Every error a route can throw is rendered in one place (`RequestPipeline.run`, through
/// `HTTPResponseError`), thrown as it is from a handler of any placement: each case of
/// each domain error answers its documented status, as problem+json, with the headers
/// its status needs; a server fault is a 500 that tells nothing of it.
///
/// The expected statuses are switches over every case: a new case does not compile until
/// it is given its status here.
@Suite struct ErrorRenderingTests {
    /// What a client must see for one thrown error.
    struct Expected: Sendable, CustomStringConvertible {
        let error: any Error & Sendable
        let status: Int
        /// A header the answer must carry (`Retry-After`, `WWW-Authenticate`), if any.
        let header: String?

        var description: String { "\(error) → \(status)" }
    }

    static func expected(_ error: AccountsError) -> Expected {
        let status: Int
        let header: String?
        switch error {
        case .invalidField, .invalidCursor, .invalidSyncToken: (status, header) = (400, nil)
        case .invalidCredentials, .invalidToken: (status, header) = (401, "WWW-Authenticate")
        case .wrongPassword: (status, header) = (403, nil)
        case .favoriteNotFound: (status, header) = (404, nil)
        case .usernameTaken, .favoriteLimitReached: (status, header) = (409, nil)
        case .expiredSyncToken: (status, header) = (410, nil)
        case .tooManyFailedLogins, .tooManyFailedLoginsFromClient, .tooManyHashes, .tooManyRegistrations:
            (status, header) = (429, "Retry-After")
        case .hasherBusy: (status, header) = (503, "Retry-After")
        case .corruptPasswordHash: (status, header) = (500, nil)
        }
        return Expected(error: error, status: status, header: header)
    }

    static func expected(_ error: WalkError) -> Expected {
        let status: Int
        switch error {
        case .recordedOutOfOrder, .recordedInTheFuture: status = 400
        case .walkNotFound, .photoNotInWalk: status = 404
        case .walkFull, .walkLimitReached: status = 409
        }
        return Expected(error: error, status: status, header: nil)
    }

    static func expected(_ error: SearchError) -> Expected {
        switch error {
        case .queryLength, .noWords, .tooManyWords, .invalidCursor: Expected(error: error, status: 400, header: nil)
        }
    }

    static func expected(_ error: FeedbackError) -> Expected {
        let status: Int
        let header: String?
        switch error {
        case .invalidField: (status, header) = (400, nil)
        case .notModerator: (status, header) = (403, nil)
        case .photoNotFound, .feedbackNotFound: (status, header) = (404, nil)
        case .alreadyDecided: (status, header) = (409, nil)
        case .dailyLimitReached: (status, header) = (429, "Retry-After")
        }
        return Expected(error: error, status: status, header: header)
    }

    static func expected(_ error: UserDataError) -> Expected {
        switch error.kind {
        case .storageFailure, .unavailable: Expected(error: error, status: 503, header: "Retry-After")
        case .constraintViolation, .failed: Expected(error: error, status: 500, header: nil)
        }
    }

    static let cases: [Expected] =
        [
            AccountsError.invalidField(field: "username", reason: "must hold 3 to 32 characters"), .usernameTaken,
            .invalidCredentials, .tooManyFailedLogins(retryAfterSeconds: 900),
            .tooManyFailedLoginsFromClient(retryAfterSeconds: 60), .tooManyHashes(retryAfterSeconds: 1),
            .tooManyRegistrations(retryAfterSeconds: 3000), .hasherBusy(retryAfterSeconds: 1), .invalidToken,
            .wrongPassword(field: "currentPassword"), .favoriteNotFound, .favoriteLimitReached(maximum: 10_000),
            .invalidCursor, .invalidSyncToken, .expiredSyncToken, .corruptPasswordHash(userID: 7),
        ].map(expected)
        + [
            WalkError.walkNotFound, .photoNotInWalk, .walkFull(maximumPoints: 5000), .walkLimitReached(maximumWalks: 1000),
            .recordedOutOfOrder(index: 2), .recordedInTheFuture(index: 1),
        ].map(expected)
        + [SearchError.queryLength(0), .noWords, .tooManyWords(40), .invalidCursor].map(expected)
        + [
            FeedbackError.photoNotFound(photoID: "nope"), .invalidField(field: "year", reason: "must be from 1800 to 2025"),
            .dailyLimitReached(maximum: 100, retryAfterSeconds: 3600), .feedbackNotFound, .notModerator,
            .alreadyDecided(status: .accepted),
        ].map(expected)
        + [
            UserDataError(.storageFailure, detail: "disk full"), UserDataError(.unavailable(retryAfterSeconds: 2), detail: "down"),
            UserDataError(.constraintViolation, detail: "UNIQUE"), UserDataError(.failed, detail: "no such table"),
        ].map(expected)

    /// A router whose routes throw the error of `expected`: one on the worker pool, one
    /// deferred (thrown before it answers), one deferred that answers with it later.
    static func router(throwing error: any Error & Sendable) -> Router {
        var router = Router()
        router.add(.get, "/blocking", caching: .noStore, .blocking { _ in throw error })
        router.add(.get, "/deferred", caching: .noStore, .deferred { _, _ in throw error })
        router.add(.get, "/answered", caching: .noStore, .deferred { _, responder in responder.respond { throw error } })
        return router
    }

    @Test(arguments: cases)
    func eachErrorAnswersItsDocumentedStatus(_ expected: Expected) throws {
        let client = InMemoryHTTPClient(router: Self.router(throwing: expected.error))
        for path in ["/blocking", "/deferred", "/answered"] {
            let response = try client.send("GET \(path) HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(response.status == expected.status, "\(path)")
            #expect(response.header("Content-Type") == "application/problem+json", "\(path)")
            let problem = try response.object()
            #expect(problem["status"] as? Int == expected.status)
            #expect((problem["detail"] as? String)?.isEmpty == false)
            if let header = expected.header {
                #expect(response.header(header) != nil, "\(path) lacks \(header)")
            }
            if expected.status == 500 {
                #expect(problem["detail"] as? String == "the server could not complete the request", "a fault tells nothing")
            }
        }
    }
}
