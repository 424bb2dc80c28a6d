import Basics
import Foundation
import Testing
import TestSupportCore

@Suite struct RFC3339TimeTests {
    @Test(arguments: [
        ("1970-01-01T00:00:00Z", 0),
        ("1970-01-01T00:00:00.001Z", 1),
        ("1969-12-31T23:59:59.999Z", -1),
        ("2026-11-22T03:07:23Z", 1_795_316_843_000),
        ("2026-11-22t03:07:23z", 1_795_316_843_000),
        ("2026-11-22T03:07:23.4Z", 1_795_316_843_400),
        ("2026-11-22T03:07:23.41Z", 1_795_316_843_410),
        // Beyond the millisecond: cut off, never rounded up.
        ("2026-11-22T03:07:23.417999999Z", 1_795_316_843_417),
        ("2026-11-22T04:07:23.417+01:00", 1_795_316_843_417),
        ("2026-11-21T22:37:23.417-04:30", 1_795_316_843_417),
        ("2026-11-22T03:07:23-00:00", 1_795_316_843_000),
        ("2000-02-29T00:00:00Z", 951_782_400_000),
        // A leap second: the first moment of the next minute.
        ("2016-12-31T23:59:60Z", 1_483_228_800_000),
        ("0000-01-01T00:00:00Z", -62_167_219_200_000),
        ("9999-12-31T23:59:59.999Z", 253_402_300_799_999),
    ])
    func validTimes(text: String, milliseconds: Int64) {
        #expect(RFC3339Time.milliseconds(text) == milliseconds, "\(text)")
    }

    @Test(arguments: [
        "", "2026-11-22", "2026-11-22T03:07:23", "2026-11-22T03:07:23.417", "2026-11-22 03:07:23Z",
        "2026-11-22T03:07Z", "2026-11-22T03:07:23.Z", "2026-11-22T03:07:23+0100", "2026-11-22T03:07:23+01",
        "2026-13-01T00:00:00Z", "2026-00-01T00:00:00Z", "2026-04-31T00:00:00Z", "2026-02-29T00:00:00Z",
        "1900-02-29T00:00:00Z", "2026-11-22T24:00:00Z", "2026-11-22T03:60:00Z", "2026-11-22T03:07:61Z",
        "2026-11-22T03:07:23+24:00", "2026-11-22T03:07:23+01:60", "26-11-22T03:07:23Z", "+2026-11-22T03:07:23Z",
        "2026-11-22T03:07:23Z ", " 2026-11-22T03:07:23Z", "2026-11-22T03:07:23ZZ", "２０２６-11-22T03:07:23Z",
        "2026-1-22T03:07:23Z", "1795316843", "2026-11-22T03:07:23.417Zjunk",
    ])
    func invalidTimes(text: String) {
        #expect(RFC3339Time.milliseconds(text) == nil, "\(text)")
    }

    /// What `UTCDateTime.iso8601(milliseconds:)` writes reads back to the same time, and
    /// agrees with Foundation's reading, on seeded random moments from 1900 to 2200,
    /// written in UTC and with a random offset.
    @Test func readsBackWhatIsWrittenAndAgreesWithFoundation() throws {
        var generator = SeededGenerator(seed: 3339)
        let foundation = ISO8601DateFormatter()
        foundation.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        for _ in 0..<2_000 {
            let milliseconds = Int64.random(in: -2_208_988_800_000...7_258_118_400_000, using: &generator)
            let text = UTCDateTime.iso8601(milliseconds: milliseconds)
            #expect(RFC3339Time.milliseconds(text) == milliseconds, "\(text)")
            let parsed = try #require(foundation.date(from: text), "\(text)")
            #expect(Int64((parsed.timeIntervalSince1970 * 1_000).rounded()) == milliseconds, "\(text)")

            let offset = Int.random(in: -(23 * 60 + 59)...(23 * 60 + 59), using: &generator)
            let local = String(UTCDateTime.iso8601(milliseconds: milliseconds + Int64(offset) * 60_000).dropLast())
            let shifted = local + (offset < 0 ? "-" : "+") + String(format: "%02d:%02d", abs(offset) / 60, abs(offset) % 60)
            #expect(RFC3339Time.milliseconds(shifted) == milliseconds, "\(shifted)")
        }
    }
}
