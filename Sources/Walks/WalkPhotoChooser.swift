import Catalog

/// Chooses the photo a walk gains at an accepted point: of the locations within
/// `WalkRules.photoRadius` that still have a photo not yet in the walk, the nearest
/// (ties: the smallest `locationID`), and its first such photo in source order.
///
/// Pure over the catalog: what is "in the walk" is the caller's answer (stored
/// entries and removed photos alike), asked only about the photos of locations the
/// spatial index finds near enough to compete, never about the whole catalog.
public struct WalkPhotoChooser: Sendable {
    private let catalog: PhotoCatalog

    public init(catalog: PhotoCatalog) {
        self.catalog = catalog
    }

    /// - Parameter isInWalk: whether the photo with this ID is already in the walk
    ///   (or was removed from it).
    public func choose(near point: WalkPoint, isInWalk: (String) -> Bool) -> PhotoChoice? {
        // The first free photo of each location asked about, so the winner's is not looked up twice.
        var firstFree: [Int: Int] = [:]
        let nearest = catalog.nearestLocation(
            latitude: point.latitude, longitude: point.longitude, within: WalkRules.photoRadius
        ) { location in
            for photo in catalog.photoRange(location: location) where !isInWalk(catalog.photos[photo].photoID) {
                firstFree[location] = photo
                return true
            }
            return false
        }
        guard let nearest, let photo = firstFree[nearest.location] else { return nil }
        return PhotoChoice(
            photoID: catalog.photos[photo].photoID, photo: photo, location: nearest.location, distanceMeters: nearest.distance)
    }
}
