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

extension WalkOracle {
    /// A walk replayed by the rules, the slow way: what each point, sent alone or in a
    /// batch at its time, should do, and what the walk then holds.
    public struct Replay {
        public struct Entry: Equatable {
            public let photoID: String
            public let locationID: String
            public let distance: Double
            /// Milliseconds since 1970.
            public let addedAt: Int64
            public let point: (Double, Double)

            public static func == (a: Entry, b: Entry) -> Bool {
                a.photoID == b.photoID && a.locationID == b.locationID && a.distance == b.distance
                    && a.addedAt == b.addedAt && a.point == b.point
            }
        }

        public let oracle: WalkOracle
        public let maximumPoints: Int
        /// The accepted points with their times (milliseconds since 1970), first to last.
        public private(set) var route: [(point: (Double, Double), recordedAt: Int64)] = []
        public private(set) var distance = 0.0
        /// Oldest first.
        public private(set) var entries: [Entry] = []

        public init(oracle: WalkOracle, maximumPoints: Int = 5_000) {
            self.oracle = oracle
            self.maximumPoints = maximumPoints
        }

        /// Sends `point` at `time`; returns whether it was accepted and the entry it
        /// gained. A point of a batch recorded no later than the last accepted point is
        /// not accepted, nor is one past the cap (where a point sent alone is a 409).
        public mutating func send(_ point: (Double, Double), at time: Int64, inBatch: Bool) -> (accepted: Bool, entry: Entry?) {
            if let last = route.last {
                guard route.count < maximumPoints, !inBatch || time > last.recordedAt,
                    WalkOracle.haversine(last.point, point) >= 100
                else { return (false, nil) }
                distance += WalkOracle.haversine(last.point, point)
            }
            route.append((point, time))
            guard let choice = oracle.choice(at: point, taken: Set(entries.map(\.photoID))) else { return (true, nil) }
            let entry = Entry(
                photoID: choice.photoID, locationID: choice.locationID, distance: choice.distance, addedAt: time, point: point)
            entries.append(entry)
            return (true, entry)
        }
    }
}
