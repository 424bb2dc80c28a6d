import Basics
import Foundation
import Testing
import TestSupportCore

@Suite struct UTCDateTimeTests {
    @Test(arguments: [
        // RFC 9110 §5.6.7's own example.
        (784_111_777, "Sun, 06 Nov 1994 08:49:37 GMT", "1994-11-06T08:49:37Z"),
        (0, "Thu, 01 Jan 1970 00:00:00 GMT", "1970-01-01T00:00:00Z"),
        (-1, "Wed, 31 Dec 1969 23:59:59 GMT", "1969-12-31T23:59:59Z"),
        // A leap day, and the last second of a leap year.
        (951_782_400, "Tue, 29 Feb 2000 00:00:00 GMT", "2000-02-29T00:00:00Z"),
        (1_609_459_199, "Thu, 31 Dec 2020 23:59:59 GMT", "2020-12-31T23:59:59Z"),
        (1_795_316_843, "Sun, 22 Nov 2026 03:07:23 GMT", "2026-11-22T03:07:23Z"),
    ])
    func knownMoments(seconds: Int, httpDate: String, iso8601: String) {
        let time = UTCDateTime(secondsSince1970: seconds)
        #expect(time.httpDate == httpDate)
        #expect(time.iso8601 == iso8601)
        #expect(time.iso8601WithoutOffset + "Z" == iso8601)
    }

    /// Byte for byte what Foundation writes, on seeded random moments from 1900 to 2200:
    /// `Date.formatted(.iso8601)` (what the JSON timestamps were) and an RFC 9110 date formatter.
    @Test func matchesFoundationOnRandomMoments() {
        let httpDates = DateFormatter()
        httpDates.locale = Locale(identifier: "en_US_POSIX")
        httpDates.timeZone = TimeZone(identifier: "GMT")
        httpDates.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        var generator = SeededGenerator(seed: 9110)
        for _ in 0..<2_000 {
            let seconds = Int.random(in: -2_208_988_800...7_258_118_400, using: &generator)
            let date = Date(timeIntervalSince1970: TimeInterval(seconds))
            let time = UTCDateTime(secondsSince1970: seconds)
            #expect(time.iso8601 == date.formatted(.iso8601), "\(seconds)")
            #expect(time.httpDate == httpDates.string(from: date), "\(seconds)")
            let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .weekday], from: date)
            #expect(
                [time.year, time.month, time.day, time.hour, time.minute, time.second, time.weekday + 1]
                    == [parts.year, parts.month, parts.day, parts.hour, parts.minute, parts.second, parts.weekday])
            #expect(ISO8601DateFormatter().date(from: time.iso8601) == date, "parses back to the same moment")
        }
    }
}
