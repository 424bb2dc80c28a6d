import Logging

/// Formats each log event as one logfmt line (`ts=… level=info msg=… key=value …`, keys
/// sorted) and hands it to a `LogLineWriter`, so logging a request costs a little
/// formatting and no system call on the event loop.
struct StandardErrorLogHandler: LogHandler {
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]
    let writer: LogLineWriter

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var line: [UInt8] = []
        line.reserveCapacity(256)
        line += "ts=".utf8
        writer.appendTimestamp(to: &line)
        line += " level=".utf8
        line += event.level.rawValue.utf8
        line += " msg=".utf8
        Self.appendValue(event.message.description, to: &line)
        let eventMetadata = event.metadata ?? [:]
        Self.appendFields(metadata.isEmpty ? eventMetadata : metadata.merging(eventMetadata) { $1 }, to: &line)
        line.append(UInt8(ascii: "\n"))
        writer.append(line)
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

    /// Appends `value`, quoted and escaped when it is empty or holds spaces, quotes, `=`,
    /// backslashes or control characters, as logfmt readers expect.
    private static func appendValue(_ value: String, to line: inout [UInt8]) {
        var value = value
        value.withUTF8 { bytes in
            let needsQuotes = bytes.isEmpty || bytes.contains { $0 <= 0x20 || $0 == 0x22 || $0 == 0x3D || $0 == 0x5C }
            guard needsQuotes else {
                line.append(contentsOf: bytes)
                return
            }
            line.append(UInt8(ascii: "\""))
            for byte in bytes {
                switch byte {
                case 0x22, 0x5C:
                    line.append(0x5C)
                    line.append(byte)
                case 0x0A:
                    line.append(0x5C)
                    line.append(UInt8(ascii: "n"))
                case 0x0D:
                    line.append(0x5C)
                    line.append(UInt8(ascii: "r"))
                case 0x09:
                    line.append(0x5C)
                    line.append(UInt8(ascii: "t"))
                default:
                    line.append(byte)
                }
            }
            line.append(UInt8(ascii: "\""))
        }
    }
}
