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
        line += writer.timestamp()
        line += " level=".utf8
        line += event.level.rawValue.utf8
        line += " msg=".utf8
        Self.appendValue(event.message.description, to: &line)
        let eventMetadata = event.metadata ?? [:]
        let merged = metadata.isEmpty ? eventMetadata : metadata.merging(eventMetadata) { $1 }
        for (key, value) in merged.sorted(by: { $0.key < $1.key }) {
            line.append(UInt8(ascii: " "))
            line += key.utf8
            line.append(UInt8(ascii: "="))
            Self.appendValue(value.description, to: &line)
        }
        line.append(UInt8(ascii: "\n"))
        writer.append(line)
    }

    /// Appends `value`, quoted and escaped when it holds spaces, quotes, `=` or control
    /// characters, as logfmt readers expect.
    private static func appendValue(_ value: String, to line: inout [UInt8]) {
        let needsQuotes = value.isEmpty || value.utf8.contains { $0 <= 0x20 || $0 == 0x22 || $0 == 0x3D || $0 == 0x5C }
        guard needsQuotes else {
            line += value.utf8
            return
        }
        line.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case 0x22, 0x5C: line += [0x5C, byte]
            case 0x0A: line += [0x5C, UInt8(ascii: "n")]
            case 0x0D: line += [0x5C, UInt8(ascii: "r")]
            case 0x09: line += [0x5C, UInt8(ascii: "t")]
            default: line.append(byte)
            }
        }
        line.append(UInt8(ascii: "\""))
    }
}
