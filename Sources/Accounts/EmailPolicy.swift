/// The rule for an account's email address (openapi.yaml `EmailAddress`): at most 254
/// characters (RFC 5321 §4.5.3.1.3's limit of a path, counted in Unicode scalars as
/// JSON Schema's `maxLength` counts), exactly one `@` with text on both sides, no
/// whitespace (Unicode White_Space) and no control character (general category Cc).
/// Nothing more is asked of it: only the code sent to it proves an address works.
enum EmailPolicy {
    static let maximumLength = 254

    /// - Throws: `invalidField(field)` naming the rule `address` breaks.
    static func validate(_ address: String, field: String) throws {
        guard address.unicodeScalars.count <= maximumLength else {
            throw AccountsError.invalidField(field: field, reason: "must be at most \(maximumLength) characters long")
        }
        guard !address.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.properties.generalCategory == .control })
        else {
            throw AccountsError.invalidField(field: field, reason: "must not contain whitespace or control characters")
        }
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
            throw AccountsError.invalidField(field: field, reason: "must hold exactly one @ with text on both sides")
        }
    }

    /// What addresses are compared by: lowercased, so any case of one address is the same.
    static func key(_ address: String) -> String {
        address.lowercased()
    }
}
