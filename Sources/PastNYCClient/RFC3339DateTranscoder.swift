import Foundation
import OpenAPIRuntime

/// The API's times: RFC 3339 in UTC, whole seconds for accounts and favorites,
/// milliseconds for walks. OpenAPIRuntime's default transcoder reads only the first
/// and writes whole seconds, which would cut the milliseconds off a batch point's
/// `recordedAt`: this one reads both and writes milliseconds.
struct RFC3339DateTranscoder: DateTranscoder {
    private static let withMilliseconds = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
    private static let wholeSeconds = Date.ISO8601FormatStyle()

    /// To the nearest millisecond. The fractional format style truncates, and a time
    /// at a whole millisecond is often a hair below it as a binary fraction, so it
    /// would be written one millisecond early: the milliseconds are written here.
    func encode(_ date: Date) throws -> String {
        let (seconds, millisecond) = Int64((date.timeIntervalSince1970 * 1_000).rounded())
            .quotientAndRemainder(dividingBy: 1_000)
        // Before 1970 the remainder is negative: borrow a second.
        let (wholeSeconds, fraction) = millisecond < 0 ? (seconds - 1, millisecond + 1_000) : (seconds, millisecond)
        let text = Date(timeIntervalSince1970: TimeInterval(wholeSeconds)).formatted(Self.wholeSeconds)
        let digits = String(fraction)
        return text.dropLast() + "." + String(repeating: "0", count: 3 - digits.count) + digits + "Z"
    }

    func decode(_ text: String) throws -> Date {
        // Either spelling is valid; the fractional one is tried first, and the error of
        // the other is the one reported.
        if let date = try? Self.withMilliseconds.parse(text) { return date }
        return try Self.wholeSeconds.parse(text)
    }
}
