/// One of the five boroughs of New York City, as named in `Data/boroughs.geojson`.
public enum Borough: String, CaseIterable, Sendable {
    case manhattan = "Manhattan"
    case bronx = "Bronx"
    case brooklyn = "Brooklyn"
    case queens = "Queens"
    case statenIsland = "Staten Island"

    /// The borough called `name`, compared ignoring ASCII case (`"staten island"` works).
    public init?(name: String) {
        guard let borough = Borough.allCases.first(where: { $0.rawValue.caseInsensitiveEquals(name) }) else {
            return nil
        }
        self = borough
    }
}

extension String {
    /// ASCII case-insensitive equality.
    fileprivate func caseInsensitiveEquals(_ other: String) -> Bool {
        let lhs = utf8, rhs = other.utf8
        guard lhs.count == rhs.count else { return false }
        return zip(lhs, rhs).allSatisfy { lower($0) == lower($1) }
    }
}

private func lower(_ byte: UInt8) -> UInt8 {
    (byte >= 0x41 && byte <= 0x5A) ? byte | 0x20 : byte
}
