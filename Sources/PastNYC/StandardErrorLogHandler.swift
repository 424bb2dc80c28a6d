import HTTPServer
import Logging

/// Formats each log event as one logfmt line (`ts=… level=info msg=… key=value …`, keys
/// sorted) and hands it to a `LogLineWriter`, so logging a request costs a little
/// formatting and no system call on the event loop. The access log's line is written
/// from the request's fields straight into the writer's batch (`AccessLogHandler`),
/// the same bytes as the event with those fields as metadata would give.
struct StandardErrorLogHandler: AccessLogHandler {
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]
    let writer: LogLineWriter

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        write(level: event.level, message: event.message.description, fields: event.metadata ?? [:])
    }

    func logRequest(_ record: AccessLogRecord) {
        // The handler's own fields sort in among the request's: the general path does that.
        guard metadata.isEmpty else {
            write(level: .info, message: "request", fields: record.metadata)
            return
        }
        let capacity =
            Self.requestLineBytes + Self.maxValueBytes(record.method.rawValue) + Self.maxValueBytes(record.path)
            + Self.maxValueBytes(record.remote) + Self.maxValueBytes(record.requestID)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
            var line = ByteWriter(buffer)
            // The fields in the order `appendFields` sorts their keys.
            line.write(" level=info msg=request bytes=")
            line.write(decimal: record.bytes)
            line.write(" duration_ms=")
            record.writeDurationMilliseconds(to: &line)
            line.write(" method=")
            Self.writeValue(record.method.rawValue, to: &line)
            line.write(" path=")
            Self.writeValue(record.path, to: &line)
            line.write(" remote=")
            Self.writeValue(record.remote, to: &line)
            line.write(" request_id=")
            Self.writeValue(record.requestID, to: &line)
            line.write(" status=")
            line.write(decimal: record.status)
            writer.appendLine(UnsafeBufferPointer(rebasing: buffer[..<line.count]))
        }
    }

    /// The bytes of a request's line besides its four string values: the fixed text, two
    /// 20-digit numbers and the duration.
    private static let requestLineBytes = 128 + AccessLogRecord.maxDurationBytes

    private func write(level: Logger.Level, message: String, fields: Logger.Metadata) {
        var rest: [UInt8] = []
        rest.reserveCapacity(256)
        rest += " level=".utf8
        rest += level.rawValue.utf8
        rest += " msg=".utf8
        Self.appendValue(message, to: &rest)
        Self.appendFields(metadata.isEmpty ? fields : metadata.merging(fields) { $1 }, to: &rest)
        rest.withUnsafeBufferPointer { writer.appendLine($0) }
    }

    /// Appends ` key=value` for every field, keys in ascending order. The order is found
    /// by an insertion sort of the dictionary's indices in a temporary buffer (a request
    /// has seven fields), not by sorting a copied array of key–value pairs.
    private static func appendFields(_ fields: Logger.Metadata, to line: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: Logger.Metadata.Index.self, capacity: fields.count) { order in
            var count = 0
            for index in fields.indices {
                order.initializeElement(at: count, to: index)
                var position = count
                while position > 0, fields.keys[index] < fields.keys[order[position - 1]] {
                    order.swapAt(position, position - 1)
                    position -= 1
                }
                count += 1
            }
            for index in order[..<count] {
                let (key, value) = fields[index]
                line.append(UInt8(ascii: " "))
                line += key.utf8
                line.append(UInt8(ascii: "="))
                if case .string(let string) = value {
                    appendValue(string, to: &line)
                } else {
                    appendValue(value.description, to: &line)
                }
            }
            _ = UnsafeMutableBufferPointer(rebasing: order[..<count]).deinitialize()
        }
    }

    /// Appends what `writeValue` writes.
    private static func appendValue(_ value: String, to line: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maxValueBytes(value)) { buffer in
            var writer = ByteWriter(buffer)
            writeValue(value, to: &writer)
            line.append(contentsOf: buffer[..<writer.count])
        }
    }

    /// The most bytes `writeValue` writes for `value`: every byte escaped, and the quotes.
    private static func maxValueBytes(_ value: String) -> Int {
        2 * value.utf8.count + 2
    }

    /// Writes `value`, quoted and escaped when it is empty or holds spaces, quotes, `=`,
    /// backslashes or control characters, as logfmt readers expect.
    private static func writeValue(_ value: String, to line: inout ByteWriter) {
        var value = value
        value.withUTF8 { bytes in
            let needsQuotes = bytes.isEmpty || bytes.contains { $0 <= 0x20 || $0 == 0x22 || $0 == 0x3D || $0 == 0x5C }
            guard needsQuotes else {
                line.write(bytes)
                return
            }
            line.write(UInt8(ascii: "\""))
            for byte in bytes {
                switch byte {
                case 0x22, 0x5C:
                    line.write(0x5C)
                    line.write(byte)
                case 0x0A:
                    line.write(0x5C)
                    line.write(UInt8(ascii: "n"))
                case 0x0D:
                    line.write(0x5C)
                    line.write(UInt8(ascii: "r"))
                case 0x09:
                    line.write(0x5C)
                    line.write(UInt8(ascii: "t"))
                default:
                    line.write(byte)
                }
            }
            line.write(UInt8(ascii: "\""))
        }
    }
}
