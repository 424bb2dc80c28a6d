import Logging

/// What the access log says of one answered request. Never headers, bodies or the
/// query: they may carry tokens and personal data.
public struct AccessLogRecord: Sendable {
    public var method: HTTPMethod
    /// The percent-decoded path, without the query.
    public var path: String
    public var status: Int
    /// Body bytes sent.
    public var bytes: Int
    /// From the parsed head to the encoded response.
    public var durationMicroseconds: UInt64
    public var requestID: String
    public var remote: String

    /// The fields as swift-log metadata, keyed as the log line names them. Every value is
    /// a `.string`: handlers print it as is, without a `description` call.
    public var metadata: Logger.Metadata {
        [
            "method": .string(method.rawValue),
            "path": .string(path),
            "status": .string(String(status)),
            "bytes": .string(String(bytes)),
            "duration_ms": .string(String(decoding: durationMilliseconds, as: UTF8.self)),
            "request_id": .string(requestID),
            "remote": .string(remote),
        ]
    }

    /// The duration as milliseconds with three decimals (`0.042`), without Foundation formatting.
    public var durationMilliseconds: [UInt8] {
        ByteWriter.bytes(capacity: Self.maxDurationBytes) { writeDurationMilliseconds(to: &$0) }
    }

    /// The most bytes `durationMilliseconds` takes: 17 digits of whole milliseconds, a dot, three decimals.
    package static let maxDurationBytes = 21

    /// Writes `durationMilliseconds`, for a handler that writes the line as bytes.
    package func writeDurationMilliseconds(to text: inout ByteWriter) {
        let fraction = durationMicroseconds % 1000
        text.write(decimal: durationMicroseconds / 1000)
        text.write(UInt8(ascii: "."))
        text.write(UInt8(ascii: "0") + UInt8(fraction / 100))
        text.write(UInt8(ascii: "0") + UInt8(fraction / 10 % 10))
        text.write(UInt8(ascii: "0") + UInt8(fraction % 10))
    }
}
