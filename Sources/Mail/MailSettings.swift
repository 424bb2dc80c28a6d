/// How the server sends mail (`--smtp-url`, `--mail-from`): the relay, the sender's
/// address, and how long the sender waits and retries. Without them (`nil` in the
/// application's configuration) the server sends no mail.
public struct MailSettings: Sendable, Equatable {
    /// `smtp://host[:port][/ehlo-name]` (STARTTLS when the relay offers it) or
    /// `smtps://…` (TLS from the first byte), with credentials, if any, as the URL's
    /// user information. A secret: never logged (`relayDescription` is).
    public var smtpURL: String
    /// The envelope sender (`MAIL FROM`) and the `From` header.
    public var from: String
    /// A PEM file of the certificate authorities that sign the relay's certificate, for
    /// a relay whose certificate the system's store does not vouch for; nil: the system's.
    public var certificateAuthorities: String?
    /// The wait between the attempts of one message.
    public var retry = RetrySchedule()
    /// How long one instance's claim on a message holds: longer than one attempt
    /// (`transferTimeoutMilliseconds`) can take, so no other instance sends it meanwhile;
    /// the claim of an instance that died runs out after this.
    public var leaseMilliseconds: Int64 = 5 * 60_000
    public var connectTimeoutMilliseconds = 10_000
    /// One whole attempt, from connecting to the relay's answer to the message.
    public var transferTimeoutMilliseconds = 60_000
    /// The longest the sender sleeps without being woken: it then looks for messages
    /// that another instance wrote and could not send (it died), whose claims ran out.
    public var pollMilliseconds: Int64 = 30_000

    public init(smtpURL: String, from: String) {
        self.smtpURL = smtpURL
        self.from = from
    }

    /// The URL's scheme, host and port, without credentials or path: what logs show.
    public var relayDescription: String {
        guard let schemeEnd = smtpURL.range(of: "://") else { return "?" }
        let authority = smtpURL[schemeEnd.upperBound...].prefix { $0 != "/" }
        let hostAndPort = authority.lastIndex(of: "@").map { authority[authority.index(after: $0)...] } ?? authority
        return String(smtpURL[..<schemeEnd.upperBound]) + hostAndPort
    }

    /// The part of `from` after its `@`: the domain of every `Message-ID` (RFC 5322 §3.6.4).
    var domain: String {
        from.lastIndex(of: "@").map { String(from[from.index(after: $0)...]) } ?? from
    }

    /// Why `url` cannot be a relay's URL, nil when it can: `smtp://` or `smtps://`, a
    /// host, no whitespace or control characters.
    public static func problem(withURL url: String) -> String? {
        guard url.hasPrefix("smtp://") || url.hasPrefix("smtps://") else { return "must start with smtp:// or smtps://" }
        guard !url.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.properties.generalCategory == .control })
        else { return "must not contain whitespace or control characters" }
        let authority = url[url.range(of: "://")!.upperBound...].prefix { $0 != "/" }
        let host = authority.lastIndex(of: "@").map { authority[authority.index(after: $0)...] } ?? authority
        guard !host.isEmpty, host.first != ":" else { return "must name a host" }
        return nil
    }

    /// Why `address` cannot be the sender's address, nil when it can: printable ASCII,
    /// one `@` with text on both sides, none of `<>()[],;:\"` (it is written bare into
    /// `MAIL FROM` and `From`).
    public static func problem(withSender address: String) -> String? {
        guard address.utf8.allSatisfy({ (0x21...0x7E).contains($0) && !Self.senderSpecials.contains($0) }) else {
            return "must be printable ASCII without spaces or any of <>()[],;:\\\""
        }
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
            return "must hold exactly one @ with text on both sides"
        }
        return nil
    }

    private static let senderSpecials = Set("<>()[],;:\\\"".utf8)
}
