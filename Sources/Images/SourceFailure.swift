/// Why a source gave no usable image. Every case but `timedOut` is the API's `502`;
/// `timedOut` is its `504`.
public enum SourceFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// No answer: the host is unknown, refused the connection, or the connection broke.
    case unreachable(String)
    /// An answer other than 2xx; `retryAfter` is its `Retry-After` in seconds, if any.
    case status(Int, retryAfter: Int?)
    /// More than `SourceFetcher.maximumBytes`.
    case tooLarge
    /// Bytes that are not a whole JPEG (`JPEGImage.check`).
    case notAJPEG(String)
    /// No whole answer within the time allowed (`SourceFetcher.timeout`).
    case timedOut

    public var isTimeout: Bool { self == .timedOut }

    public var description: String {
        switch self {
        case .unreachable(let reason): "the source could not be reached: \(reason)"
        case .status(let code, _): "the source answered \(code)"
        case .tooLarge: "the source's image is larger than \(SourceFetcher.maximumBytes / (1 << 20)) MiB"
        case .notAJPEG(let reason): "the source's answer is not a JPEG: \(reason)"
        case .timedOut: "the source did not answer within \(SourceFetcher.timeout.components.seconds) s"
        }
    }
}
