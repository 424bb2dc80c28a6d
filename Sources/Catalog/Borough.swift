import Basics

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
