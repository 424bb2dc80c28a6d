import Basics

/// One message as it goes to the relay: an Internet Message Format text (RFC 5322)
/// with a plain-text MIME body (RFC 2045), lines ending in CRLF. libcurl sends it
/// after `DATA` as it is, doubling a leading "." of a line (RFC 5321 §4.5.2) itself.
public struct MailMessage: Sendable {
    public let from: String
    public let recipient: String
    public let content: MailContent
    /// `<…@domain>`: the same at every attempt of one outbox row, so a relay or a reader
    /// can tell the rare second copy (a crash between the relay's acceptance and our
    /// record of it) from a new message.
    public let messageID: String
    /// Seconds since 1970 of the `Date` header.
    public let date: Int

    public init(from: String, recipient: String, content: MailContent, messageID: String, date: Int) {
        self.from = from
        self.recipient = recipient
        self.content = content
        self.messageID = messageID
        self.date = date
    }

    /// The message's bytes: the header fields, an empty line, the body.
    public var rendered: [UInt8] {
        var lines = [
            "Date: " + Self.rfc5322Date(date),
            "From: " + from,
            "To: " + (Self.isPlainAddress(recipient) ? recipient : "undisclosed-recipients:;"),
            "Subject: " + Self.headerText(content.subject),
            "Message-ID: " + messageID,
            "MIME-Version: 1.0",
            "Content-Type: text/plain; charset=utf-8",
        ]
        let body = content.text.split(separator: "\n", omittingEmptySubsequences: false)
        if content.text.utf8.allSatisfy({ $0 < 0x80 }) && body.allSatisfy({ $0.utf8.count <= Self.lineLimit }) {
            lines.append("Content-Transfer-Encoding: 7bit")
            lines.append("")
            lines += body.map(String.init)
        } else {
            // Anything else travels as base64 (RFC 2045 §6.8), which no relay rewrites:
            // 8-bit bodies need the relay's 8BITMIME, and long lines break RFC 5322's 998.
            lines.append("Content-Transfer-Encoding: base64")
            lines.append("")
            let encoded = Base64.standard.encode(Array(content.text.replacingOccurrences(of: "\n", with: "\r\n").utf8))
            var start = encoded.startIndex
            while start < encoded.endIndex {
                let end = encoded.index(start, offsetBy: Self.base64LineLength, limitedBy: encoded.endIndex) ?? encoded.endIndex
                lines.append(String(encoded[start..<end]))
                start = end
            }
        }
        return Array((lines.joined(separator: "\r\n") + "\r\n").utf8)
    }

    /// RFC 5322 §2.1.1: a line holds at most 998 characters.
    static let lineLimit = 998
    /// RFC 2045 §6.8: encoded lines of at most 76 characters.
    static let base64LineLength = 76

    /// `Sat, 28 Nov 2026 19:00:00 +0000` (RFC 5322 §3.3): HTTP's IMF-fixdate with the
    /// numeric zone RFC 5322 asks writers for, where HTTP writes the obsolete "GMT".
    static func rfc5322Date(_ seconds: Int) -> String {
        String(UTCDateTime(secondsSince1970: seconds).httpDate.dropLast("GMT".count)) + "+0000"
    }

    /// An address written bare into `To:`: printable ASCII without RFC 5322's specials
    /// (§3.2.3) around one `@`. Any other (quoted local parts, non-ASCII, commas) gets
    /// the empty group instead (§3.6.3): the envelope's `RCPT TO` alone says where a
    /// message goes, and a header built from such text could say something else.
    static func isPlainAddress(_ address: String) -> Bool {
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return false }
        return parts.allSatisfy { part in
            !part.isEmpty && !part.hasPrefix(".") && !part.hasSuffix(".") && !part.contains("..")
                && part.utf8.allSatisfy { (0x21...0x7E).contains($0) && !Self.specials.contains($0) }
        }
    }

    private static let specials = Set("()<>[]:;@\\,\"".utf8)

    /// `text` as it may stand in a header: as it is when printable ASCII, else one
    /// encoded word per 45 bytes of UTF-8 (RFC 2047 §4.1, "B" encoding), never
    /// splitting a character.
    static func headerText(_ text: String) -> String {
        guard !text.utf8.allSatisfy({ (0x20...0x7E).contains($0) }) else { return text }
        var words: [String] = []
        var chunk: [UInt8] = []
        for character in text {
            let bytes = Array(String(character).utf8)
            if chunk.count + bytes.count > 45 {
                words.append("=?utf-8?B?" + Base64.standard.encode(chunk) + "?=")
                chunk = []
            }
            chunk += bytes
        }
        if !chunk.isEmpty { words.append("=?utf-8?B?" + Base64.standard.encode(chunk) + "?=") }
        return words.joined(separator: "\r\n ")
    }
}
