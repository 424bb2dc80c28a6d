/// The protocol version of a request line (RFC 9112 §2.3). Only 1.0 and 1.1 are served.
public enum HTTPVersion: String, Sendable {
    case http1_0 = "HTTP/1.0"
    case http1_1 = "HTTP/1.1"
}
