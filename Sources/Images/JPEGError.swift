/// What TurboJPEG refused, with its own message.
public enum JPEGError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The bytes are not a whole JPEG that decodes (HTML, a truncated file, another format).
    case notAJPEG(String)
    /// Decodes, but is larger than any photograph here (`JPEGImage.maximumSide`).
    case tooLarge(width: Int, height: Int)
    /// The lossless turn failed.
    case turnFailed(String)
    /// Encoding a thumbnail failed.
    case encodeFailed(String)
    /// TurboJPEG could not make an instance (out of memory).
    case unavailable

    public var description: String {
        switch self {
        case .notAJPEG(let message): "not a JPEG that decodes: \(message)"
        case .tooLarge(let width, let height): "a \(width)×\(height) image is larger than \(JPEGImage.maximumSide) px a side"
        case .turnFailed(let message): "the lossless turn failed: \(message)"
        case .encodeFailed(let message): "encoding failed: \(message)"
        case .unavailable: "TurboJPEG could not make an instance"
        }
    }
}
