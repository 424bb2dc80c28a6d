/// Why the catalog could not be built or loaded, with the file (and line) at fault.
public enum CatalogError: Error, CustomStringConvertible, Sendable, Equatable {
    /// A source file is missing or cannot be read.
    case unreadableFile(path: String, reason: String)
    /// A line of the locations file is not a valid location record.
    case malformedLine(path: String, line: Int, reason: String)
    /// The boroughs file is not the GeoJSON the catalog expects.
    case malformedBoroughs(path: String, reason: String)
    /// A catalog database exists but does not hold what this build wrote.
    case malformedDatabase(path: String, reason: String)
    /// A file-system call failed while writing the catalog.
    case fileSystem(operation: String, path: String, errno: Int32)

    public var description: String {
        switch self {
        case .unreadableFile(let path, let reason):
            return "cannot read \(path): \(reason)"
        case .malformedLine(let path, let line, let reason):
            return "\(path), line \(line): \(reason)"
        case .malformedBoroughs(let path, let reason):
            return "\(path): \(reason)"
        case .malformedDatabase(let path, let reason):
            return "\(path): \(reason)"
        case .fileSystem(let operation, let path, let errno):
            return "\(operation) \(path) failed: errno \(errno)"
        }
    }
}
