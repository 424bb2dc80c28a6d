/// A whole file as a response body (`HTTPResponse.streamedBody`), sent with `sendfile(2)`.
public struct FileBody: StreamedBody {
    public let path: String
    public let length: Int

    /// - Parameter length: the file's size, known to the caller (a stat would be a system
    ///   call on the event loop for something the caller's index already holds).
    public init(path: String, length: Int) {
        self.path = path
        self.length = length
    }

    public var segmentCount: Int { 1 }

    public func segmentStart(_ index: Int) -> Int { 0 }

    public func segment(_ index: Int) -> StreamedSegment { .file(path: path, offset: 0) }
}
