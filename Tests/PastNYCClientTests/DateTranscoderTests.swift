import Foundation
import Testing

@testable import PastNYCClient

/// The client's times on the wire: every whole millisecond is written as itself (the
/// fractional format style truncated some of them to the millisecond before) and read
/// back to the same millisecond.
@Suite struct DateTranscoderTests {
    @Test func wholeMillisecondsAreWrittenAsThemselves() throws {
        let transcoder = RFC3339DateTranscoder()
        #expect(try transcoder.encode(Date(timeIntervalSince1970: 1.001)) == "1970-01-01T00:00:01.001Z")
        #expect(try transcoder.encode(Date(timeIntervalSince1970: -0.5)) == "1969-12-31T23:59:59.500Z")
        var random = SystemRandomNumberGenerator()
        for _ in 0..<10_000 {
            let milliseconds = Int64.random(in: 0...4_102_444_800_000, using: &random)
            let date = Date(timeIntervalSince1970: Double(milliseconds) / 1_000)
            let text = try transcoder.encode(date)
            #expect(text.hasSuffix(String(format: ".%03dZ", Int(milliseconds % 1_000))), "\(milliseconds) → \(text)")
            let decoded = try transcoder.decode(text)
            #expect(Int64((decoded.timeIntervalSince1970 * 1_000).rounded()) == milliseconds, "\(text)")
        }
    }
}
