import Foundation
import Testing

@testable import API

/// `JSONReader` against `JSONSerialization` (`.fragmentsAllowed`), the parser it
/// replaced, on seeded random documents: valid ones must read to the same value, code
/// point for code point; broken ones (a byte removed, added or changed, cut short, a
/// slice repeated) must be refused by both, or read by both to the same value, but
/// for the reader's documented refusals that `JSONSerialization` accepts: a repeated
/// member name, a name with more than 30 combining marks in a row, a body that begins
/// like UTF-16 or UTF-32, and the limits. Where the two
/// read different values, the reader is right: `JSONSerialization` rounds some numbers
/// wrongly (`JSONValue.matchesFoundation(_:)`) and drops a U+FEFF sent raw at the start
/// of a string or after an escape (so values are not compared for texts holding one).
@Suite struct JSONReaderTwinTests {
    enum Outcome {
        case value(JSONValue)
        case refused(JSONReaderError?)
    }

    static func reader(_ bytes: [UInt8]) -> Outcome {
        do {
            return .value(try JSONReader.read(bytes))
        } catch {
            return .refused(error)
        }
    }

    static func foundation(_ bytes: [UInt8]) -> Outcome {
        guard let parsed = try? JSONSerialization.jsonObject(with: Data(bytes), options: .fragmentsAllowed) else {
            return .refused(nil)
        }
        return .value(JSONValue(foundation: parsed))
    }

    /// Whether `text` holds U+FEFF unescaped, which `JSONSerialization` may drop.
    static func holdsRawByteOrderMark(_ text: [UInt8]) -> Bool {
        text.indices.dropLast(2).contains { text[$0...].starts(with: [0xEF, 0xBB, 0xBF]) }
    }

    @Test func validDocumentsReadAsJSONSerializationReadsThem() {
        var random = RandomJSONText(seed: 8259)
        for index in 0..<3_000 {
            let (expected, text) = random.document(depth: index % 8)
            let shown = String(decoding: text, as: UTF8.self).debugDescription
            guard case .value(let read) = Self.reader(text) else {
                Issue.record("refused \(shown): \(Self.reader(text))")
                continue
            }
            #expect(read.exactlyEquals(expected), "\(shown)")
            guard case .value(let twin) = Self.foundation(text) else {
                Issue.record("JSONSerialization refused \(shown)")
                continue
            }
            #expect(Self.holdsRawByteOrderMark(text) || read.matchesFoundation(twin), "\(shown)")
        }
    }

    @Test func brokenDocumentsAreRefusedAsJSONSerializationRefusesThem() {
        var random = RandomJSONText(seed: 4627)
        var (bothRefused, bothRead, documented) = (0, 0, 0)
        for index in 0..<6_000 {
            let text = random.mutated(random.document(depth: 1 + index % 6).text)
            let shown = String(decoding: text, as: UTF8.self).debugDescription
            switch (Self.reader(text), Self.foundation(text)) {
            case (.refused, .refused):
                bothRefused += 1
            case (.value(let read), .value(let twin)):
                bothRead += 1
                #expect(Self.holdsRawByteOrderMark(text) || read.matchesFoundation(twin), "\(shown)")
            case (.refused(let error), .value):
                switch error {
                case .repeatedName?, .nameNotStreamSafe?, .tooDeep?, .tooManyValues?:
                    documented += 1
                case .notUTF8? where text.withUnsafeBufferPointer(JSONReader.startsInAnotherEncoding):
                    documented += 1
                default:
                    Issue.record("refused what JSONSerialization reads: \(shown): \(String(describing: error))")
                }
            case (.value, .refused):
                Issue.record("read what JSONSerialization refuses: \(shown)")
            }
        }
        // The mutations reach every outcome.
        #expect(bothRefused > 1_000 && bothRead > 500, "\(bothRefused) refused, \(bothRead) read, \(documented) documented")
    }
}
