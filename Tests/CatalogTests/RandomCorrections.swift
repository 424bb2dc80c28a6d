import Catalog
import Foundation
import TestSupportCore

/// Seeded random lists of accepted corrections over a shipped catalog, made to meet the
/// cases that matter: a few photos corrected again and again (the last of each kind
/// wins), moves to another shipped location, to new points shared by several photos (one
/// `locationID`, a hair apart), back to the photo's own location, and away from every
/// photo of a small location (which empties it); years, turns of each size, and rows the
/// catalog must leave out (no such photo, values no photo can have).
enum RandomCorrections {
    static func make(count: Int, shipped: ShippedCatalog, seed: UInt64) -> [CatalogCorrection] {
        var random = SeededGenerator(seed: seed)
        let catalog = PhotoCatalog(shipped)
        // A handful of locations whose photos the corrections keep coming back to; the
        // smallest first, so that moving all their photos away happens.
        let chosen = (0..<8).map { _ in Int.random(in: catalog.locations.indices, using: &random) }
            .sorted { catalog.photoRange(location: $0).count < catalog.photoRange(location: $1).count }
        var photos = chosen.flatMap { catalog.photoRange(location: $0).prefix(12) }.map { catalog.photos[$0].photoID }
        photos += (0..<4).map { _ in catalog.photos[Int.random(in: catalog.photos.indices, using: &random)].photoID }
        let newPoints = (0..<5).map { _ in
            (Double.random(in: 40.5...40.9, using: &random), Double.random(in: -74.25 ... -73.7, using: &random))
        }
        var sequence: Int64 = 0
        var corrections: [CatalogCorrection] = []
        for index in 0..<count {
            sequence += Int64.random(in: 1...3, using: &random)
            let photoID = photos.randomElement(using: &random)!
            let change: CatalogCorrection.Change
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<20:
                // To a new point, or a hair from one (the same ID): several photos meet there.
                let point = newPoints.randomElement(using: &random)!
                let hair = Double.random(in: -2e-7...2e-7, using: &random)
                change = .location(latitude: point.0 + hair, longitude: point.1 - hair)
            case 20..<35:
                let location = catalog.locations[chosen.randomElement(using: &random)!]
                change = .location(latitude: location.latitude, longitude: location.longitude)
            case 35..<45:
                let location = catalog.locations.randomElement(using: &random)!
                change = .location(latitude: location.latitude, longitude: location.longitude)
            case 45..<52:
                // Back to where it was shipped.
                let shippedLocation = catalog.locations[catalog.photos[catalog.photoIndex(photoID: photoID)!].locationIndex]
                change = .location(latitude: shippedLocation.latitude, longitude: shippedLocation.longitude)
            case 52..<57:
                // Away from the smallest chosen location, all of it in time.
                let first = catalog.photos[catalog.photoRange(location: chosen[0]).randomElement(using: &random)!].photoID
                let point = newPoints[0]
                corrections.append(
                    CatalogCorrection(sequence: sequence, photoID: first, change: .location(latitude: point.0, longitude: point.1)))
                continue
            case 57..<77:
                change = .date(year: Int.random(in: 1850...2000, using: &random))
            case 77..<95:
                change = .rotation(degrees: [0, 90, 180, 270].randomElement(using: &random)!)
            default:
                // Rows the catalog leaves out.
                let invalid: [CatalogCorrection.Change] = [
                    .location(latitude: 91, longitude: 0), .location(latitude: .nan, longitude: 0), .date(year: 12_000),
                    .rotation(degrees: 45), .rotation(degrees: 360),
                ]
                let unknown = index % 2 == 0
                corrections.append(
                    CatalogCorrection(
                        sequence: sequence, photoID: unknown ? "no-such-photo-\(index)" : photoID,
                        change: unknown ? .date(year: 1900) : invalid.randomElement(using: &random)!))
                continue
            }
            corrections.append(CatalogCorrection(sequence: sequence, photoID: photoID, change: change))
        }
        return corrections
    }
}
