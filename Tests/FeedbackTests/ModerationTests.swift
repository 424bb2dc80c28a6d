import Accounts
import Dispatch
import Feedback
import Foundation
import Synchronization
import Testing
import TestSupport
import UserData

/// The moderation queue and decisions, and what an accepted decision leaves in
/// `catalog_corrections`, on the store the tests run on.
@Suite struct ModerationTests {
    let fixture: FeedbackFixture

    init() throws {
        fixture = try FeedbackFixture(prefix: "moderation")
    }

    @Test func anAcceptedCorrectionIsAppendedWithItsDecisionAndOtherNeverIs() throws {
        let author = try fixture.user("reporter")
        let moderator = try fixture.moderator("decider")
        let photo = fixture.photoID
        let place = try #require(fixture.desk.shippedPlace(ofPhoto: photo))
        let location = try fixture.desk.send(
            author, photoID: photo, change: .location(latitude: place.latitude + 0.001, longitude: place.longitude - 0.002))
        let date = try fixture.desk.send(author, photoID: photo, change: .date(year: 1932))
        let other = try fixture.desk.send(author, photoID: photo, change: .other(text: "a car from the 1950s"))
        let rejected = try fixture.desk.send(author, photoID: fixture.photoID(1), change: .date(year: 1890))
        fixture.clock.advance(by: 30)

        let accepted = try fixture.desk.decide(moderator, feedbackID: location.feedback.feedbackID, accept: true)
        #expect(accepted.status == .accepted && accepted.decidedAt == fixture.clock.now)
        #expect(accepted.createdAt == location.feedback.createdAt && accepted.change == location.feedback.change)
        _ = try fixture.desk.decide(moderator, feedbackID: date.feedback.feedbackID, accept: true)
        #expect(try fixture.desk.decide(moderator, feedbackID: other.feedback.feedbackID, accept: true).status == .accepted)
        #expect(try fixture.desk.decide(moderator, feedbackID: rejected.feedback.feedbackID, accept: false).status == .rejected)
        let corrections = try fixture.corrections()
        #expect(corrections.map(\.kind) == ["location", "date"])
        #expect(corrections.map(\.photoID) == [photo, photo])
        #expect(corrections.map(\.feedbackID) == [Int64(location.feedback.feedbackID), Int64(date.feedback.feedbackID)])

        // The correction's values are the feedback's, and it leads to the feedback, its
        // author and the moderator who decided it.
        let traced = try fixture.store.read { connection in
            try connection.query(
                """
                SELECT c.latitude, c.longitude, c.year, c.accepted_at, a.username, m.username, f.decided_through
                FROM catalog_corrections AS c JOIN feedback AS f ON f.id = c.feedback_id
                JOIN users AS a ON a.id = f.user_id JOIN users AS m ON m.id = f.decided_by ORDER BY c.sequence
                """, []
            ) { row in
                (row.isNull(0) ? nil : row.double(0), row.isNull(1) ? nil : row.double(1), row.isNull(2) ? nil : row.int(2),
                 row.int64(3), row.text(4), row.text(5), row.text(6))
            }
        }
        let now = Int64(fixture.clock.now.timeIntervalSince1970)
        #expect(traced.count == 2)
        #expect(traced[0].0 == place.latitude + 0.001 && traced[0].1 == place.longitude - 0.002 && traced[0].2 == nil)
        #expect(traced[1].0 == nil && traced[1].2 == 1932)
        #expect(traced.allSatisfy { $0.3 == now && $0.4 == "reporter" && $0.5 == "decider" && $0.6 == "moderator" })
    }

    @Test func aDecidedFeedbackCannotBeDecidedAgain() throws {
        let author = try fixture.user("twice")
        let moderator = try fixture.moderator("first-moderator")
        let second = try fixture.moderator("second-moderator")
        let sent = try fixture.desk.send(author, photoID: fixture.photoID, change: .date(year: 1920))
        _ = try fixture.desk.decide(moderator, feedbackID: sent.feedback.feedbackID, accept: true)
        for accept in [true, false] {
            #expect(throws: FeedbackError.alreadyDecided(status: .accepted)) {
                try fixture.desk.decide(second, feedbackID: sent.feedback.feedbackID, accept: accept)
            }
        }
        #expect(throws: FeedbackError.feedbackNotFound) { try fixture.desk.decide(second, feedbackID: "424242", accept: true) }
        #expect(try fixture.corrections().count == 1, "the refused decisions appended nothing")
        // Sent again after the decision: a new feedback, which a newer decision may accept.
        let again = try fixture.desk.send(author, photoID: fixture.photoID, change: .date(year: 1921))
        _ = try fixture.desk.decide(second, feedbackID: again.feedback.feedbackID, accept: true)
        #expect(try fixture.corrections().map(\.feedbackID) == [sent, again].map { Int64($0.feedback.feedbackID) })
    }

    @Test func concurrentDecisionsOfOneFeedbackDecideItOnce() throws {
        let author = try fixture.user("raced")
        let moderators = try (0..<4).map { try fixture.moderator("racer-\($0)") }
        let sent = try fixture.desk.send(author, photoID: fixture.photoID, change: .date(year: 1911))
        let outcomes = Mutex<[Result<Feedback, any Error>]>([])
        DispatchQueue.concurrentPerform(iterations: moderators.count) { index in
            let outcome = Result { try fixture.desk.decide(moderators[index], feedbackID: sent.feedback.feedbackID, accept: true) }
            outcomes.withLock { $0.append(outcome) }
        }
        let results = outcomes.withLock { $0 }
        #expect(results.filter { (try? $0.get()) != nil }.count == 1)
        #expect(results.filter { if case .failure(FeedbackError.alreadyDecided) = $0 { true } else { false } }.count == 3)
        #expect(try fixture.corrections().count == 1)
    }

    @Test func theQueueListsOldestFirstByStatusAndKindInPages() throws {
        let moderator = try fixture.moderator("queue-keeper")
        var sent: [Feedback] = []
        for index in 0..<9 {
            let user = try fixture.user("sender-\(index)")
            let change: FeedbackChange = [.date(year: 1900 + index), .rotation(degrees: 90), .other(text: "note \(index)")][index % 3]
            sent.append(try fixture.desk.send(user, photoID: fixture.photoID(index), change: change).feedback)
            fixture.clock.advance(by: 1)
        }
        _ = try fixture.desk.decide(moderator, feedbackID: sent[0].feedbackID, accept: false)
        _ = try fixture.desk.decide(moderator, feedbackID: sent[4].feedbackID, accept: true)

        func all(_ status: FeedbackStatus, _ kind: FeedbackKind?, pageSize: Int) throws -> [String] {
            var listed: [String] = []
            var cursor: String?
            repeat {
                let page = try fixture.desk.queue(moderator, status: status, kind: kind, limit: pageSize, cursor: cursor)
                #expect(page.feedback.count <= pageSize)
                #expect(page.feedback.allSatisfy { $0.status == status && (kind == nil || $0.change.kind == kind) })
                listed += page.feedback.map(\.feedbackID)
                cursor = page.nextCursor
            } while cursor != nil
            return listed
        }
        let open = sent.indices.filter { ![0, 4].contains($0) }.map { sent[$0].feedbackID }
        for pageSize in [1, 2, 50] {
            #expect(try all(.open, nil, pageSize: pageSize) == open)
        }
        #expect(try all(.open, .rotation, pageSize: 1) == [sent[1], sent[7]].map(\.feedbackID))
        #expect(try all(.rejected, nil, pageSize: 2) == [sent[0].feedbackID])
        #expect(try all(.accepted, .rotation, pageSize: 2) == [sent[4].feedbackID])
        #expect(try all(.accepted, .date, pageSize: 2) == [])

        // A cursor continues after its page's last item, whatever was decided meanwhile.
        let first = try fixture.desk.queue(moderator, status: .open, kind: nil, limit: 2, cursor: nil)
        _ = try fixture.desk.decide(moderator, feedbackID: open[2], accept: true)
        let next = try fixture.desk.queue(moderator, status: .open, kind: nil, limit: 2, cursor: first.nextCursor)
        #expect(next.feedback.map(\.feedbackID) == [open[3], open[4]])
    }

    @Test func anAccountsDeletionKeepsTheCorrectionsAndWhatLeadsToThem() throws {
        let store = fixture.store
        let accounts = try Accounts(
            store: store, commonPasswordsPath: PackageRoot.path + "/Data/common-passwords.txt", passwordCost: .test,
            erasureSliceRows: 2)
        let session = try accounts.register(username: "leaving", password: "the photo is sideways", clientAddress: "192.0.2.9")
        let author = try accounts.sessions.authenticate(token: session.token)
        let moderatorSession = try accounts.register(username: "retiring", password: "the photo is sideways", clientAddress: "192.0.2.9")
        let moderatorUser = try accounts.sessions.authenticate(token: moderatorSession.token)
        try UserRoles.assign(.moderator, toUsername: "retiring", in: store)
        let moderator = try fixture.desk.moderator(moderatorUser)
        let stayer = try fixture.user("stayer")

        var kept: [String] = []
        var erased: [String] = []
        for index in 0..<3 {
            let photo = fixture.photoID(index)
            let date = try fixture.desk.send(author, photoID: photo, change: .date(year: 1910 + index)).feedback.feedbackID
            let other = try fixture.desk.send(author, photoID: photo, change: .other(text: "note")).feedback.feedbackID
            let rotation = try fixture.desk.send(author, photoID: photo, change: .rotation(degrees: 180)).feedback.feedbackID
            _ = try fixture.desk.decide(moderator, feedbackID: date, accept: true)
            _ = try fixture.desk.decide(moderator, feedbackID: other, accept: true)
            _ = try fixture.desk.decide(moderator, feedbackID: rotation, accept: false)
            kept.append(date)
            erased += [other, rotation, try fixture.desk.send(author, photoID: photo, change: .date(year: 1950)).feedback.feedbackID]
        }
        let stayers = try fixture.desk.send(stayer, photoID: fixture.photoID(7), change: .rotation(degrees: 90)).feedback.feedbackID
        _ = try fixture.desk.decide(moderator, feedbackID: stayers, accept: true)
        let correctionsBefore = try fixture.corrections()

        try accounts.deleteUser(author, password: "the photo is sideways", clientAddress: "192.0.2.9")
        try accounts.deleteUser(moderatorUser, password: "the photo is sideways", clientAddress: "192.0.2.9")

        let rows = try store.read { connection in
            try connection.query("SELECT id, user_id, status, decided_by, decided_through FROM feedback ORDER BY id", []) {
                (id: String($0.int64(0)), author: $0.isNull(1) ? nil : $0.int64(1), status: $0.text(2),
                 decider: $0.isNull(3) ? nil : $0.int64(3), through: $0.isNull(4) ? nil : $0.text(4))
            }
        }
        #expect(Set(rows.map(\.id)) == Set(kept + [stayers]))
        #expect(rows.filter { kept.contains($0.id) }.allSatisfy { $0.author == nil && $0.status == "accepted" })
        #expect(rows.allSatisfy { $0.decider == nil && $0.through == "moderator" }, "the decisions stay a moderator's")
        #expect(rows.first { $0.id == stayers }?.author == stayer.userID)
        #expect(erased.allSatisfy { id in !rows.contains { $0.id == id } })
        #expect(try fixture.corrections().map(\.feedbackID) == correctionsBefore.map(\.feedbackID))
        #expect(try fixture.desk.feedback(stayer, feedbackID: stayers).status == .accepted)
        #expect(try UserRoles.usernames(holding: .moderator, in: store) == [], "a deleted account holds no role")
    }
}
