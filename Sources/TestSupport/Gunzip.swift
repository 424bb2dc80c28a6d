import Foundation
import Gzip

/// Decompresses a gzip response body through the production reader.
public func gunzip(_ bytes: [UInt8]) throws -> [UInt8] {
    let directory = try TemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let path = directory.file("body.gz")
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    let reader = try GzipFileReader(path: path)
    var output: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 16 * 1024)
    while true {
        let count = try chunk.withUnsafeMutableBytes { try reader.read(into: $0) }
        if count == 0 { return output }
        output += chunk[..<count]
    }
}
