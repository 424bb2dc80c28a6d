import Accounts
import Feedback
import Foundation
import Testing
import TestSupport
import UserData

/// Sending, reading and listing feedback on the store the tests run on (SQLite, or
/// PostgreSQL with PAST_NYC_TEST_DATABASE_URL).
@Suite struct FeedbackStoreTests {
    let fixture: FeedbackFixture

    init() throws {
        fixture = try FeedbackFixture(prefix: "feedback-store")
    }

    @Test func sendingAgainReplacesTheOpenFeedbackOfThatPhotoAndKind() throws {
        let user = try fixture.user("resender")
        let photo = fixture.photoID
        let first = try fixture.desk.send(user, photoID: photo, change: .date(year: 1901))
        #expect(first.created)
        #expect(first.feedback.status == .open && first.feedback.decidedAt == nil)
        fixture.clock.advance(by: 600)
        let again = try fixture.desk.send(user, photoID: photo, change: .date(year: 1902))
        #expect(!again.created)
        #expect(again.feedback.feedbackID == first.feedback.feedbackID)
        #expect(again.feedback.createdAt == first.feedback.createdAt)
        #expect(again.feedback.change == .date(year: 1902))
        // Another kind, or another photo, is another feedback.
        let rotation = try fixture.desk.send(user, photoID: photo, change: .rotation(degrees: 90))
        let elsewhere = try fixture.desk.send(user, photoID: fixture.photoID(1), change: .date(year: 1902))
        #expect(rotation.created && elsewhere.created)
        #expect(Set([first, rotation, elsewhere].map(\.feedback.feedbackID)).count == 3)
        // Another user's feedback of the same photo and kind is theirs.
        let other = try fixture.desk.send(try fixture.user("bystander"), photoID: photo, change: .date(year: 1950))
        #expect(other.created)
        #expect(try fixture.desk.feedback(user, feedbackID: first.feedback.feedbackID).change == .date(year: 1902))

        // Once decided, sending again opens a new one.
        let moderator = try fixture.moderator("mod")
        _ = try fixture.desk.decide(moderator, feedbackID: first.feedback.feedbackID, accept: false)
        let afterDecision = try fixture.desk.send(user, photoID: photo, change: .date(year: 1903))
        #expect(afterDecision.created && afterDecision.feedback.feedbackID != first.feedback.feedbackID)
        #expect(try fixture.desk.feedback(user, feedbackID: first.feedback.feedbackID).status == .rejected)
    }

    @Test func aFeedbackIsSeenByItsAuthorAndTheModeratorsOnly() throws {
        let author = try fixture.user("author")
        let stranger = try fixture.user("stranger")
        let sent = try fixture.desk.send(author, photoID: fixture.photoID, change: .other(text: "the sign says 1911"))
        let id = sent.feedback.feedbackID
        #expect(try fixture.desk.feedback(author, feedbackID: id) == sent.feedback)
        #expect(throws: FeedbackError.feedbackNotFound) { try fixture.desk.feedback(stranger, feedbackID: id) }
        for unknown in ["999999", "0", "-1", "+\(id)", "0\(id)", "\(id) ", "abc", ""] {
            #expect(throws: FeedbackError.feedbackNotFound, "\(unknown)") { try fixture.desk.feedback(author, feedbackID: unknown) }
        }
        #expect(throws: FeedbackError.notModerator) { try fixture.desk.moderator(stranger) }
        let synced = try fixture.accounts.changeLog.changes(stranger, since: nil, limit: 10).next
        try UserRoles.assign(.moderator, toUsername: "STRANGER", in: fixture.store)
        #expect(try fixture.desk.feedback(stranger, feedbackID: id) == sent.feedback)
        #expect(try fixture.desk.moderator(stranger).userID == stranger.userID)
        #expect(try fixture.accounts.profiles.user(stranger).role == .moderator)
        // The role is the profile's: a device syncing learns of it.
        let changed = try fixture.accounts.changeLog.changes(stranger, since: synced, limit: 10)
        #expect(changed.changes.map(\.kind) == [.profile])
        try UserRoles.assign(.moderator, toUsername: "stranger", in: fixture.store)
        #expect(try fixture.accounts.changeLog.changes(stranger, since: changed.next, limit: 10).changes == [], "no change, nothing logged")
        try UserRoles.assign(.user, toUsername: "stranger", in: fixture.store)
        #expect(throws: FeedbackError.feedbackNotFound) { try fixture.desk.feedback(stranger, feedbackID: id) }
        #expect(try fixture.accounts.profiles.user(stranger).role == .user)
        #expect(throws: UnknownUsername(username: "nobody")) {
            try UserRoles.assign(.moderator, toUsername: "nobody", in: fixture.store)
        }
    }

    @Test func mineListsTheUsersOwnNewestFirstInPages() throws {
        let user = try fixture.user("lister")
        let other = try fixture.user("other")
        var sent: [String] = []
        for index in 0..<7 {
            sent.append(try fixture.desk.send(user, photoID: fixture.photoID(index), change: .rotation(degrees: 180)).feedback.feedbackID)
            _ = try fixture.desk.send(other, photoID: fixture.photoID(index), change: .date(year: 1900 + index))
            fixture.clock.advance(by: 1)
        }
        // A replacement keeps its place.
        _ = try fixture.desk.send(user, photoID: fixture.photoID(2), change: .rotation(degrees: 270))
        var listed: [String] = []
        var cursor: String?
        repeat {
            let page = try fixture.desk.mine(user, limit: 3, cursor: cursor)
            #expect(page.feedback.count <= 3)
            listed += page.feedback.map(\.feedbackID)
            cursor = page.nextCursor
        } while cursor != nil
        #expect(listed == sent.reversed())
        #expect(try fixture.desk.mine(user, limit: 50, cursor: nil).feedback.map(\.feedbackID) == sent.reversed())
        #expect(throws: AccountsError.invalidCursor) { try fixture.desk.mine(user, limit: 3, cursor: "bogus") }
        // A queue cursor is not a cursor of mine.
        let moderator = try fixture.moderator("queue-reader")
        let queueCursor = try #require(try fixture.desk.queue(moderator, status: .open, kind: nil, limit: 1, cursor: nil).nextCursor)
        #expect(throws: AccountsError.invalidCursor) { try fixture.desk.mine(user, limit: 3, cursor: queueCursor) }
    }

    @Test func theHundredAndFirstNewFeedbackOfADayIsRefusedUntilTheOldestIsADayOld() throws {
        let user = try fixture.user("prolific")
        let start = fixture.clock.now
        for index in 0..<FeedbackRules.dailyLimit {
            _ = try fixture.desk.send(user, photoID: fixture.photoID(index), change: .date(year: 1900))
            if index == 0 { fixture.clock.advance(by: 3_600) }
        }
        #expect(FeedbackRules.dailyLimit == 100)
        fixture.clock.advance(by: 60)
        #expect(throws: FeedbackError.dailyLimitReached(maximum: 100, retryAfterSeconds: 86_400 - 3_660)) {
            try fixture.desk.send(user, photoID: fixture.photoID(500), change: .date(year: 1900))
        }
        // Replacing an open one is no new feedback; another user has a day of their own.
        #expect(!(try fixture.desk.send(user, photoID: fixture.photoID(3), change: .date(year: 1901)).created))
        #expect(try fixture.desk.send(try fixture.user("fresh"), photoID: fixture.photoID(500), change: .date(year: 1900)).created)
        // The first leaves the window a day after it was sent: one more fits, then none.
        fixture.clock.set(start.addingTimeInterval(86_400))
        #expect(try fixture.desk.send(user, photoID: fixture.photoID(500), change: .date(year: 1900)).created)
        #expect(throws: FeedbackError.dailyLimitReached(maximum: 100, retryAfterSeconds: 3_600)) {
            try fixture.desk.send(user, photoID: fixture.photoID(501), change: .date(year: 1900))
        }
        #expect(try fixture.desk.mine(user, limit: 200, cursor: nil).feedback.count == 101)
    }
}
