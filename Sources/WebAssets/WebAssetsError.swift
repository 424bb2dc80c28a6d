/// Why the web folder could not be loaded, with the file at fault.
public enum WebAssetsError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The folder does not exist or is not a folder.
    case missingFolder(path: String)
    case unreadableFile(path: String)
    /// A file whose kind has no media type in `WebMediaType`.
    case unknownFileType(path: String)
    /// A file or folder name with a character outside `A-Z a-z 0-9 . _ @ -`: paths stay
    /// plain, the same written in a page and on the wire.
    case unplainName(path: String)
    /// Two files (or a file and an added asset) would be served at the same path.
    case duplicatePath(String)

    public var description: String {
        switch self {
        case .missingFolder(let path): "no web folder at \(path)"
        case .unreadableFile(let path): "cannot read \(path)"
        case .unknownFileType(let path): "\(path): no media type for this kind of file"
        case .unplainName(let path): "\(path): names in the web folder are A-Z a-z 0-9 . _ @ - only"
        case .duplicatePath(let path): "two files would be served at \(path)"
        }
    }
}
