import CCurl

/// Why the relay did not take a message: libcurl's result code, the relay's last
/// reply code (0 when it gave none: no connection, a timeout, a TLS failure), and
/// libcurl's words for it (`CURLOPT_ERRORBUFFER`, which never holds the credentials).
public struct SMTPFailure: Error, Sendable, CustomStringConvertible {
    /// A `CURLcode`.
    public let code: Int
    /// The relay's last reply (RFC 5321 §4.2), 0 without one.
    public let reply: Int
    public let detail: String

    /// Whether trying the same message again is useless: the relay answered 5yz, a
    /// permanent refusal (RFC 5321 §4.2.1: no recipient there, a message refused), but
    /// not to our credentials (535, `CURLE_LOGIN_DENIED`), which the operator fixes
    /// without the message changing.
    public var isPermanent: Bool {
        (500..<600).contains(reply) && code != Int(CURLE_LOGIN_DENIED.rawValue)
    }

    /// Whether the relay refused this message (a 4yz or 5yz to it): not an outage (no
    /// connection, a timeout, TLS, our credentials) that every other message would meet too.
    public var relayAnswered: Bool { (400..<600).contains(reply) && code != Int(CURLE_LOGIN_DENIED.rawValue) }

    public var description: String {
        "curl \(code)" + (reply != 0 ? ", reply \(reply)" : "") + (detail.isEmpty ? "" : ": \(detail)")
    }
}
