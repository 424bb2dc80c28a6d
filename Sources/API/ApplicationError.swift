/// Why the application could not start.
public enum ApplicationError: Error, CustomStringConvertible {
    case missingFile(path: String, purpose: String)

    public var description: String {
        switch self {
        case .missingFile(let path, let purpose):
            "cannot read \(path) (\(purpose)); run from the project folder or pass its location"
        }
    }
}
