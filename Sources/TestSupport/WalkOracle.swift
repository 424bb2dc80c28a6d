import Catalog
import Foundation

/// The walk rules written again the slow, obvious way, to check the real code
/// against: its own haversine, and a photo choice by brute force over every
/// location of the catalog. Shared by the walk unit and integration tests.
public struct WalkOracle {
    public let catalog: PhotoCatalog

    public init(catalog: PhotoCatalog) {
        self.catalog = catalog
    }

    public static let earthRadius = 6_371_008.8

    public static func haversine(_ a: (Double, Double), _ b: (Double, Double)) -> Double {
        let radians = Double.pi / 180
        let dPhi = (b.0 - a.0) * radians
        let dLambda = (b.1 - a.1) * radians
        let h = pow(sin(dPhi / 2), 2) + cos(a.0 * radians) * cos(b.0 * radians) * pow(sin(dLambda / 2), 2)
        return 2 * earthRadius * asin(min(1, sqrt(h)))
    }

    /// The photo ID, location ID and distance of the photo a walk that already holds
    /// `taken` gains at `point`; nil when no location within 250 m has a free photo.
    public func choice(at point: (Double, Double), taken: Set<String>) -> (photoID: String, locationID: String, distance: Double)? {
        var best: (photoID: String, locationID: String, distance: Double)?
        for location in catalog.locations {
            let distance = Self.haversine(point, (location.latitude, location.longitude))
            guard distance <= 250 else { continue }
            guard let free = location.photos.first(where: { !taken.contains(catalog.photos[$0].photoID) }) else { continue }
            if let current = best {
                let nearer = distance < current.distance
                let tieWins = distance == current.distance
                    && location.locationID.unicodeScalars.lexicographicallyPrecedes(current.locationID.unicodeScalars)
                guard nearer || tieWins else { continue }
            }
            best = (catalog.photos[free].photoID, location.locationID, distance)
        }
        return best
    }
}
