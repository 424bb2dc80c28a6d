import Basics
import Testing

@Suite struct ASCIITests {
    @Test(arguments: [
        ("", "", true), ("Content-Length", "content-length", true), ("HOST", "host", true), ("gzip", "GZIP", true),
        ("gzip", "gzi", false), ("gzip", "gzipx", false), ("a", "b", false),
        // Only ASCII letters fold: `@` (0x40) and `[` (0x5B) sit beside `A` and `Z`; é and É differ.
        ("@", "`", false), ("[", "{", false), ("caf\u{E9}", "CAF\u{C9}", false), ("caf\u{E9}", "CAF\u{E9}", true),
        // The Kelvin sign is not K.
        ("\u{212A}", "k", false),
    ])
    func caseInsensitiveEquality(lhs: String, rhs: String, equal: Bool) {
        #expect(lhs.caseInsensitiveEquals(rhs) == equal)
        #expect(rhs.caseInsensitiveEquals(lhs) == equal)
        #expect(lhs[...].caseInsensitiveEquals(rhs[...]) == equal, "as substrings")
    }

    /// Every pair of bytes against the obvious rule.
    @Test func lowercasingEveryByte() {
        for byte in UInt8.min...UInt8.max {
            let expected = (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
            #expect(ASCII.lowercased(byte) == expected)
        }
        for left in UInt8.min...0x7F {
            for right in UInt8.min...0x7F {
                let expected = String(UnicodeScalar(left)).lowercased() == String(UnicodeScalar(right)).lowercased()
                #expect(ASCII.caseInsensitiveEquals([left], [right]) == expected)
            }
        }
    }

    /// Contiguous and non-contiguous collections compare alike.
    @Test func nonContiguousCollections() {
        #expect(ASCII.caseInsensitiveEquals("Accept".utf8.reversed(), "TPECCA".utf8))
        #expect(!ASCII.caseInsensitiveEquals("Accept".utf8.reversed(), "TPECCB".utf8))
    }

    @Test(arguments: [
        ("", ""), ("   ", ""), ("\t \t", ""), ("x", "x"), (" x ", "x"), ("\t gzip ; q=0 \t", "gzip ; q=0"),
        // Only SP and HTAB: line breaks and Unicode spaces stay.
        ("\r\nx\r\n", "\r\nx\r\n"), ("\u{A0}x\u{A0}", "\u{A0}x\u{A0}"), (" \u{2003}x", "\u{2003}x"),
        // A space that starts a grapheme cluster with a combining mark is not a space alone.
        (" \u{301}x", " \u{301}x"),
    ])
    func trimming(text: String, expected: String) {
        #expect(text.trimmingSpacesAndTabs() == expected)
        #expect(("(" + text + ")").dropFirst().dropLast().trimmingSpacesAndTabs() == expected, "inside a substring")
    }
}
