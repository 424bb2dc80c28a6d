import Basics
import Foundation
import Testing
import TestSupportCore

@Suite struct Base64Tests {
    /// RFC 4648 §10's test vectors, in the padded standard spelling.
    @Test(arguments: [
        ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="),
        ("foobar", "Zm9vYmFy"),
    ])
    func rfc4648Vectors(text: String, encoded: String) {
        #expect(Base64.standard.encode(Array(text.utf8)) == encoded)
        #expect(Base64.standard.decode(encoded) == Array(text.utf8))
        let unpadded = String(encoded.prefix { $0 != "=" })
        #expect(Base64.standardUnpadded.encode(Array(text.utf8)) == unpadded)
        #expect(Base64.standardUnpadded.decode(unpadded) == Array(text.utf8))
        #expect(Base64.url.decode(unpadded) == Array(text.utf8))
    }

    /// The two alphabets differ only in the last two symbols.
    @Test func alphabets() {
        let bytes: [UInt8] = [0xFB, 0xFF, 0xBF]
        #expect(Base64.standard.encode(bytes) == "+/+/")
        #expect(Base64.url.encode(bytes) == "-_-_")
        #expect(Base64.url.decode("-_-_") == bytes)
        #expect(Base64.standard.decode("+/+/") == bytes)
    }

    /// Against Foundation on seeded random bytes: the same text, and each decodes the other's.
    @Test func matchesFoundationOnRandomInput() {
        var generator = SeededGenerator(seed: 4648)
        for length in 0..<300 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let reference = Data(bytes).base64EncodedString()
            let referenceURL = String(
                reference.filter { $0 != "=" }.map { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 })
            #expect(Base64.standard.encode(bytes) == reference)
            #expect(Base64.url.encode(bytes) == referenceURL)
            #expect(Base64.standard.decode(reference) == bytes)
            #expect(Base64.url.decode(referenceURL) == bytes)
            #expect(Base64.standardUnpadded.decode(Base64.standardUnpadded.encode(bytes)) == bytes)
            let viaFoundation = Data(base64Encoded: Base64.standard.encode(bytes)).map { [UInt8]($0) }
            #expect(viaFoundation == bytes)
        }
    }

    struct Refused: CustomTestStringConvertible, Sendable {
        let name: String
        let codec: Base64
        let text: String
        var testDescription: String { name }
    }

    @Test(arguments: [
        Refused(name: "one symbol left over", codec: .url, text: "Zm9vY"),
        Refused(name: "stray bits in the last of two symbols", codec: .url, text: "Zh"),
        Refused(name: "stray bits in the last of three symbols", codec: .url, text: "Zm9"),
        Refused(name: "padding where the variant has none", codec: .url, text: "Zg=="),
        Refused(name: "standard symbol in the url alphabet", codec: .url, text: "+/+/"),
        Refused(name: "url symbol in the standard alphabet", codec: .standard, text: "-_-_"),
        Refused(name: "space", codec: .url, text: "Zm9v Yg"),
        Refused(name: "non-ASCII", codec: .url, text: "Zm9vé"),
        Refused(name: "missing padding", codec: .standard, text: "Zg"),
        Refused(name: "short padding", codec: .standard, text: "Zg="),
        Refused(name: "three padding characters", codec: .standard, text: "Z==="),
        Refused(name: "padding in the middle", codec: .standard, text: "Zg==Zg=="),
        Refused(name: "padding only", codec: .standard, text: "===="),
        Refused(name: "stray bits before padding", codec: .standard, text: "Zh=="),
        Refused(name: "unpadded standard with padding", codec: .standardUnpadded, text: "Zm8="),
    ])
    func refusesNonCanonicalSpellings(_ row: Refused) {
        #expect(row.codec.decode(row.text) == nil)
    }
}
