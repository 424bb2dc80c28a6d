import Basics
import Foundation

/// The rules for usernames and new passwords (openapi.yaml's `Username` and `Password` schemas; NIST SP
/// 800-63B §5.1.1.2: length and a blocklist of common passwords, no composition rules,
/// never truncated).
struct CredentialPolicy: Sendable {
    static let usernameLength = 3...32
    /// Counted in Characters (extended grapheme clusters), not bytes.
    static let passwordLength = 8...256

    /// Lowercased, for case-insensitive comparison.
    private let commonPasswords: Set<String>

    init(commonPasswordsPath: String) throws {
        let text: String
        do {
            text = try String(contentsOfFile: commonPasswordsPath, encoding: .utf8)
        } catch {
            throw CredentialPolicyError.cannotReadCommonPasswords(path: commonPasswordsPath, underlying: "\(error)")
        }
        var passwords = Set<String>()
        for line in text.split(whereSeparator: \.isNewline) {
            let password = line.trimmingSpacesAndTabs()
            if !password.isEmpty { passwords.insert(password.lowercased()) }
        }
        guard !passwords.isEmpty else { throw CredentialPolicyError.noCommonPasswords(path: commonPasswordsPath) }
        commonPasswords = passwords
    }

    /// The username in Unicode NFC, or `invalidField("username")`.
    func normalizedUsername(_ username: String) throws -> String {
        let normalized = Self.normalize(username)
        guard Self.usernameLength.contains(normalized.unicodeScalars.count) else {
            throw AccountsError.invalidField(
                field: "username",
                reason: "must be \(Self.usernameLength.lowerBound) to \(Self.usernameLength.upperBound) characters long")
        }
        guard normalized.unicodeScalars.allSatisfy(Self.isUsernameCharacter) else {
            throw AccountsError.invalidField(
                field: "username", reason: "may contain only letters a-z and A-Z, digits, '_', '.' and '-'")
        }
        return normalized
    }

    /// Throws `invalidField(field)` unless `password` is acceptable as a new password.
    func validateNewPassword(_ password: String, field: String) throws {
        guard Self.passwordLength.contains(password.count) else {
            throw AccountsError.invalidField(
                field: field,
                reason: "must be \(Self.passwordLength.lowerBound) to \(Self.passwordLength.upperBound) characters long")
        }
        guard !commonPasswords.contains(password.lowercased()) else {
            throw AccountsError.invalidField(field: field, reason: "is one of the most common passwords; choose another")
        }
    }

    /// NFC, the form usernames are stored and compared in.
    static func normalize(_ username: String) -> String {
        username.precomposedStringWithCanonicalMapping
    }

    /// The uniqueness key: NFC, then lowercased (only ASCII survives validation).
    static func key(forUsername username: String) -> String {
        normalize(username).lowercased()
    }

    private static func isUsernameCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "_", ".", "-": true
        default: false
        }
    }
}
