import Glibc

/// An open directory stream (`opendir(3)`), closed exactly once, when the value goes.
final class DirectoryStream {
    private let handle: OpaquePointer

    /// Nil when the directory cannot be opened.
    init?(path: String) {
        guard let handle = opendir(path) else { return nil }
        self.handle = handle
    }

    deinit {
        closedir(handle)
    }

    /// How many entries the directory holds, `.` and `..` not counted.
    func entryCount() -> Int {
        var count = 0
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            if name != [UInt8(ascii: ".")] && name != [UInt8(ascii: "."), UInt8(ascii: ".")] { count += 1 }
        }
        return count
    }
}
