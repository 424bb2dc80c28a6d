/// A zlib call that failed, with zlib's return code and message.
public struct GzipError: Error, CustomStringConvertible, Sendable {
    public let operation: String
    public let code: Int32
    public let message: String

    public var description: String { "\(operation) failed (zlib \(code)): \(message)" }
}
