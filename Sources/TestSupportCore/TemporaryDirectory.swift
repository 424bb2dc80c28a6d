import Foundation

/// A fresh directory under the system's temporary directory, removed with everything in
/// it when the value is released. One per test, so tests never share files.
public final class TemporaryDirectory: Sendable {
    public let path: String

    public init(prefix: String = "past-nyc-test") throws {
        var template = Array((NSTemporaryDirectory() + "/\(prefix)-XXXXXX").utf8CString)
        guard let created = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw CocoaError(.fileWriteUnknown)
        }
        path = String(decoding: Array(UnsafeBufferPointer(start: created, count: strlen(created))).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// The path of `name` inside this directory.
    public func file(_ name: String) -> String {
        path + "/" + name
    }
}
