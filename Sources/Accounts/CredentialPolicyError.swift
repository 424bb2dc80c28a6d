/// The common-password list could not be loaded at startup.
public enum CredentialPolicyError: Error, Sendable, Equatable, CustomStringConvertible {
    case cannotReadCommonPasswords(path: String, underlying: String)
    case noCommonPasswords(path: String)

    public var description: String {
        switch self {
        case .cannotReadCommonPasswords(let path, let underlying):
            "cannot read the common-password list \(path): \(underlying)"
        case .noCommonPasswords(let path):
            "the common-password list \(path) is empty"
        }
    }
}
