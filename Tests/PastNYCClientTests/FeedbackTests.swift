import Foundation
import PastNYCClient
import Testing
import TestSupport

extension EndToEndTests {
    /// Feedback on a photo, the user's list, and its moderation by a moderator the
    /// operator named.
    @Suite struct Feedback {
        /// A user of the suite's server made a moderator, as the operator does it.
        private func moderator() async throws -> TestUser {
            let user = try await TestUser.register("moderator")
            try RunningServer.makeModerator(user.username)
            return user
        }

        @Test func feedbackAndModeration() async throws {
            let reporter = try await TestUser.register("reporter")
            let id = try await photoIDsNearUnionSquare(count: 1)[0]
            let photo = try await makeClient().getPhoto(path: .init(photoID: id)).ok.body.json
            #expect(try await reporter.client.getMe().ok.body.json.role == .user)

            let place = Components.Schemas.LocationFeedbackRequest(
                kind: .location, latitude: photo.value2.latitude + 0.001, longitude: photo.value2.longitude)
            let created = try await reporter.client.sendFeedback(path: .init(photoID: id), body: .json(.location(place))).created
            guard case .location(let sent) = try created.body.json else {
                Issue.record("a location feedback came back as another kind")
                return
            }
            #expect(created.headers.location == "/feedback/\(sent.value1.feedbackID)")
            #expect(sent.value1.status == .open && sent.value1.decidedAt == nil && sent.value2.latitude == place.latitude)
            let moved = Components.Schemas.LocationFeedbackRequest(
                kind: .location, latitude: photo.value2.latitude, longitude: photo.value2.longitude + 0.001)
            guard case .location(let replaced) = try await reporter.client.sendFeedback(
                path: .init(photoID: id), body: .json(.location(moved))
            ).ok.body.json else {
                Issue.record("the replaced feedback came back as another kind")
                return
            }
            #expect(replaced.value1.feedbackID == sent.value1.feedbackID && replaced.value1.createdAt == sent.value1.createdAt)
            let far = Components.Schemas.LocationFeedbackRequest(kind: .location, latitude: 45, longitude: -73.99)
            let refused = try await reporter.client.sendFeedback(path: .init(photoID: id), body: .json(.location(far))).badRequest
            #expect(try refused.body.applicationProblemJson.detail.contains("latitude"))
            _ = try await reporter.client.sendFeedback(
                path: .init(photoID: "no-such-photo"), body: .json(.date(.init(kind: .date, year: 1931)))
            ).notFound
            _ = try await makeClient().sendFeedback(path: .init(photoID: id), body: .json(.date(.init(kind: .date, year: 1931))))
                .unauthorized
            let dated = try await reporter.client.sendFeedback(
                path: .init(photoID: id), body: .json(.date(.init(kind: .date, year: 1931)))
            ).created.body.json
            _ = try await reporter.client.sendFeedback(
                path: .init(photoID: id), body: .json(.rotation(.init(kind: .rotation, degrees: ._90)))
            ).created
            _ = try await reporter.client.sendFeedback(
                path: .init(photoID: id), body: .json(.other(.init(kind: .other, text: "The sign says Broadway.")))
            ).created

            let mine = try await reporter.client.listMyFeedback(query: .init(limit: 3)).ok.body.json
            #expect(mine.feedback.count == 3 && mine.nextCursor != nil)
            let rest = try await reporter.client.listMyFeedback(query: .init(cursor: mine.nextCursor)).ok.body.json
            #expect(rest.feedback.count == 1 && rest.nextCursor == nil)
            _ = try await reporter.client.listMyFeedback(query: .init(limit: 0)).badRequest
            _ = try await reporter.client.getFeedback(path: .init(feedbackID: sent.value1.feedbackID)).ok
            let stranger = try await TestUser.register("stranger")
            _ = try await stranger.client.getFeedback(path: .init(feedbackID: sent.value1.feedbackID)).notFound
            _ = try await stranger.client.listFeedbackQueue().forbidden
            _ = try await stranger.client.decideFeedback(path: .init(feedbackID: sent.value1.feedbackID), body: .json(.init(accept: true)))
                .forbidden

            let moderator = try await moderator()
            #expect(try await moderator.client.getMe().ok.body.json.role == .moderator)
            let queue = try await moderator.client.listFeedbackQueue(query: .init(kind: .location, limit: 200)).ok.body.json
            #expect(queue.feedback.contains { if case .location(let item) = $0 { item.value1.feedbackID == sent.value1.feedbackID } else { false } })
            _ = try await moderator.client.listFeedbackQueue(query: .init(limit: 201)).badRequest
            _ = try await moderator.client.getFeedback(path: .init(feedbackID: sent.value1.feedbackID)).ok
            guard case .location(let accepted) = try await moderator.client.decideFeedback(
                path: .init(feedbackID: sent.value1.feedbackID), body: .json(.init(accept: true))
            ).ok.body.json else {
                Issue.record("the decided feedback came back as another kind")
                return
            }
            #expect(accepted.value1.status == .accepted && accepted.value1.decidedAt != nil)
            _ = try await moderator.client.decideFeedback(path: .init(feedbackID: sent.value1.feedbackID), body: .json(.init(accept: false)))
                .conflict
            _ = try await moderator.client.decideFeedback(path: .init(feedbackID: "999999999"), body: .json(.init(accept: true)))
                .notFound
            guard case .date(let date) = dated else {
                Issue.record("a date feedback came back as another kind")
                return
            }
            _ = try await moderator.client.decideFeedback(path: .init(feedbackID: date.value1.feedbackID), body: .json(.init(accept: false)))
                .ok
            let rejected = try await moderator.client.listFeedbackQueue(query: .init(status: .rejected)).ok.body.json
            #expect(rejected.feedback.contains { if case .date(let item) = $0 { item.value1.feedbackID == date.value1.feedbackID } else { false } })
        }
    }
}
