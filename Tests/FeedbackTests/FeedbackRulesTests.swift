import Catalog
import Feedback
import Testing
import TestSupport

/// Each kind's rules, at their edges, on the shipped catalog's places.
@Suite struct FeedbackRulesTests {
    @Test func theRulesOfEachKind() throws {
        let fixture = try FeedbackFixture(prefix: "feedback-rules")
        let user = try fixture.user("rules")
        let photoID = fixture.photoID
        let place = try #require(fixture.desk.shippedPlace(ofPhoto: photoID))
        // 50 km north is 0.4497 degrees of latitude (haversine, mean Earth radius).
        let fiftyKilometers = 50_000 / GreatCircle.earthRadius * 180 / .pi
        let accepted: [FeedbackChange] = [
            .location(latitude: place.latitude + fiftyKilometers * 0.999, longitude: place.longitude),
            .date(year: 1800), .date(year: 2025), .rotation(degrees: 90), .rotation(degrees: 180), .rotation(degrees: 270),
            .other(text: "x"), .other(text: String(repeating: "é", count: 1000)), .other(text: "two\nlines"),
            .other(text: "🇺🇸 flags are one character each"),
        ]
        for change in accepted {
            #expect(throws: Never.self, "\(change)") { try fixture.desk.send(user, photoID: photoID, change: change) }
        }
        let refused: [(FeedbackChange, String)] = [
            (.location(latitude: place.latitude + fiftyKilometers * 1.001, longitude: place.longitude), "latitude"),
            (.location(latitude: 91, longitude: place.longitude), "latitude"),
            (.location(latitude: place.latitude, longitude: -180.5), "longitude"),
            (.date(year: 1799), "year"), (.date(year: 2026), "year"),
            (.rotation(degrees: 0), "degrees"), (.rotation(degrees: 360), "degrees"), (.rotation(degrees: -90), "degrees"),
            (.other(text: ""), "text"), (.other(text: String(repeating: "a", count: 1001)), "text"),
            (.other(text: "a\rb"), "text"), (.other(text: "tab\there"), "text"), (.other(text: "nul\u{0}"), "text"),
        ]
        for (change, field) in refused {
            let error = #expect(throws: FeedbackError.self, "\(change)") {
                try fixture.desk.send(user, photoID: photoID, change: change)
            }
            guard case .invalidField(let named, _)? = error else {
                Issue.record("\(change): \(String(describing: error))")
                continue
            }
            #expect(named == field, "\(change)")
        }
        #expect(throws: FeedbackError.photoNotFound(photoID: "no-such-photo")) {
            try fixture.desk.send(user, photoID: "no-such-photo", change: .date(year: 1900))
        }
    }
}
