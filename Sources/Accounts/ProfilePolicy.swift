/// The rules for profile fields (see `PATCH /users/me` in openapi.yaml).
enum ProfilePolicy {
    /// Counted in Characters (extended grapheme clusters), like passwords, after trimming.
    static let displayNameLength = 1...64
    static let latitudes = -90.0...90.0
    static let longitudes = -180.0...180.0

    /// The name as stored: surrounding whitespace (Unicode White_Space) trimmed.
    /// - Throws: `invalidField("displayName")` when it holds a control character
    ///   (general category Cc, anywhere, even where trimming would drop it) or is not
    ///   1 to 64 characters long once trimmed.
    static func normalizedDisplayName(_ name: String) throws -> String {
        guard !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw AccountsError.invalidField(field: "displayName", reason: "must not contain control characters")
        }
        let scalars = name.unicodeScalars
        let start = scalars.firstIndex { !$0.properties.isWhitespace } ?? scalars.endIndex
        let end = scalars.lastIndex { !$0.properties.isWhitespace }.map(scalars.index(after:)) ?? start
        let trimmed = String(scalars[start..<end])
        guard displayNameLength.contains(trimmed.count) else {
            throw AccountsError.invalidField(
                field: "displayName",
                reason: "must be \(displayNameLength.lowerBound) to \(displayNameLength.upperBound) characters long "
                    + "once surrounding whitespace is trimmed")
        }
        return trimmed
    }

    /// - Throws: `invalidField("home")` unless both coordinates are finite and in range.
    static func validate(_ home: HomePlace) throws {
        guard latitudes.contains(home.latitude) else {
            throw AccountsError.invalidField(field: "home", reason: "latitude must be a number from -90 to 90")
        }
        guard longitudes.contains(home.longitude) else {
            throw AccountsError.invalidField(field: "home", reason: "longitude must be a number from -180 to 180")
        }
    }
}
