import Accounts
import Feedback
import Testing
import TestSupport

/// The rotation agreement against a brute-force twin: the rule as the contract states
/// it, worked out from scratch after every step over every feedback ever sent. First
/// the pure rule on random votes, then whole random sequences of sends, replacements
/// and moderators' decisions through `FeedbackDesk` on the store the tests run on: the
/// statuses of every feedback and the corrections appended must be the twin's.
@Suite struct RotationAgreementTests {
    static let degrees = [90, 180, 270]

    /// The contract's rule, spelled out: for each degrees value, are at least 2 distinct
    /// voters among the votes, and do more than 90 % of the votes name that value?
    static func twinAgreement(_ votes: [RotationVote]) -> Int? {
        let voters = Set(votes.map(\.voter))
        for candidate in degrees {
            let naming = votes.filter { $0.degrees == candidate }.count
            if voters.count >= 2, Double(naming) / Double(votes.count) > 0.9 { return candidate }
        }
        return nil
    }

    @Test func theRuleAgreesWithItsTwinOnRandomVotes() {
        var generator = SeededGenerator(seed: 0x7061_7374)
        var agreements = 0
        for _ in 0..<20_000 {
            let voters = Int.random(in: 1...4, using: &generator)
            let unanimous = Int.random(in: 0..<3, using: &generator) == 0
            let votes = (0..<Int.random(in: 0...25, using: &generator)).map { _ in
                RotationVote(
                    voter: Int64.random(in: 1...Int64(voters), using: &generator),
                    degrees: unanimous ? 90 : (Int.random(in: 0..<20, using: &generator) == 0 ? 270 : 90))
            }
            let agreed = RotationAgreement.agreedDegrees(votes)
            #expect(agreed == Self.twinAgreement(votes), "\(votes)")
            if agreed != nil { agreements += 1 }
        }
        #expect(agreements > 2_000, "the cases hold agreements")
        // The edges: exactly 90 % is not more than 90 %; one voter is not an agreement.
        let tenth = (0..<9).map { RotationVote(voter: Int64($0 + 1), degrees: 180) } + [RotationVote(voter: 99, degrees: 90)]
        #expect(RotationAgreement.agreedDegrees(tenth) == nil)
        #expect(RotationAgreement.agreedDegrees(tenth + [RotationVote(voter: 12, degrees: 180)]) == 180)
        #expect(RotationAgreement.agreedDegrees([RotationVote(voter: 1, degrees: 90), RotationVote(voter: 1, degrees: 90)]) == nil)
    }

    /// One rotation feedback as the twin keeps it.
    struct Record {
        let feedbackID: String
        let voter: Int
        let photo: Int
        var degrees: Int
        var status: FeedbackStatus
    }

    @Test(arguments: 0..<12)
    func randomSequencesEndAsTheTwinSays(seed: UInt64) throws {
        let fixture = try FeedbackFixture(prefix: "rotation-agreement")
        var generator = SeededGenerator(seed: 0x6167_7265_6500 + seed)
        let users = try (0..<4).map { try fixture.user("voter-\(seed)-\($0)") }
        let moderator = try fixture.moderator("moderator-\(seed)")
        let photos = (0..<3).map { fixture.photoID($0 * 11) }
        var records: [Record] = []
        var corrections: [(photoID: String, feedbackID: Int64)] = []

        /// The twin's step after a change to a photo's rotation feedback.
        func agree(photo: Int) {
            let counted = records.indices.filter { records[$0].photo == photo && records[$0].status != .rejected }
            let votes = counted.map { RotationVote(voter: Int64(records[$0].voter), degrees: records[$0].degrees) }
            guard let agreed = Self.twinAgreement(votes) else { return }
            for index in counted where records[index].status == .open && records[index].degrees == agreed {
                records[index].status = .accepted
                corrections.append((photos[photo], Int64(records[index].feedbackID)!))
            }
        }

        for step in 0..<30 {
            if records.isEmpty || Int.random(in: 0..<4, using: &generator) > 0 {
                let voter = Int.random(in: 0..<users.count, using: &generator)
                let photo = Int.random(in: 0..<photos.count, using: &generator)
                let degrees = Int.random(in: 0..<5, using: &generator) == 0 ? Self.degrees.randomElement(using: &generator)! : 90
                let receipt = try fixture.desk.send(users[voter], photoID: photos[photo], change: .rotation(degrees: degrees))
                if let open = records.firstIndex(where: { $0.voter == voter && $0.photo == photo && $0.status == .open }) {
                    #expect(!receipt.created && receipt.feedback.feedbackID == records[open].feedbackID, "step \(step)")
                    records[open].degrees = degrees
                } else {
                    #expect(receipt.created, "step \(step)")
                    records.append(Record(feedbackID: receipt.feedback.feedbackID, voter: voter, photo: photo, degrees: degrees, status: .open))
                }
                agree(photo: photo)
                #expect(receipt.feedback.status == records.first { $0.feedbackID == receipt.feedback.feedbackID }?.status)
            } else {
                let index = Int.random(in: 0..<records.count, using: &generator)
                let accept = Bool.random(using: &generator)
                let decided = Result { try fixture.desk.decide(moderator, feedbackID: records[index].feedbackID, accept: accept) }
                if records[index].status == .open {
                    records[index].status = accept ? .accepted : .rejected
                    if accept { corrections.append((photos[records[index].photo], Int64(records[index].feedbackID)!)) }
                    agree(photo: records[index].photo)
                    #expect((try? decided.get())?.status == records[index].status, "step \(step)")
                } else {
                    #expect(throws: FeedbackError.alreadyDecided(status: records[index].status), "step \(step)") { try decided.get() }
                }
            }
            let stored = try fixture.store.read { connection in
                try connection.query("SELECT id, degrees, status FROM feedback ORDER BY id", []) {
                    (String($0.int64(0)), $0.int(1), $0.text(2))
                }
            }
            let expected = records.map { ($0.feedbackID, $0.degrees, $0.status.rawValue) }
            #expect(stored.elementsEqual(expected) { $0 == $1 }, "seed \(seed), step \(step)")
        }
        let appended = try fixture.corrections()
        #expect(appended.map(\.kind).allSatisfy { $0 == "rotation" })
        #expect(appended.map(\.photoID) == corrections.map(\.photoID), "seed \(seed)")
        #expect(appended.map(\.feedbackID) == corrections.map(\.feedbackID), "seed \(seed)")
    }
}
