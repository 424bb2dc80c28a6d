import Foundation
import OpenAPIRuntime

/// The API's times: RFC 3339 in UTC, whole seconds for accounts and favorites,
/// milliseconds for walks. OpenAPIRuntime's default transcoder reads only the first
/// and writes whole seconds, which would cut the milliseconds off a batch point's
/// `recordedAt`: this one reads both and writes milliseconds.
struct RFC3339DateTranscoder: DateTranscoder {
    private static let withMilliseconds = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
    private static let wholeSeconds = Date.ISO8601FormatStyle()

    func encode(_ date: Date) throws -> String {
        date.formatted(Self.withMilliseconds)
    }

    func decode(_ text: String) throws -> Date {
        // Either spelling is valid; the fractional one is tried first, and the error of
        // the other is the one reported.
        if let date = try? Self.withMilliseconds.parse(text) { return date }
        return try Self.wholeSeconds.parse(text)
    }
}
