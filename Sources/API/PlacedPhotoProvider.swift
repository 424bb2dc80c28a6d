/// What the user-data routes need of the catalog: whether a photo exists, and its
/// PlacedPhoto (openapi.yaml's schema: the PhotoSummary plus its location's `locationID`,
/// `latitude`, `longitude`, `borough` and `intersection`) already encoded as a JSON object.
/// Favorites, recents and walk entries are PlacedPhotos with members of their own.
public protocol PlacedPhotoProvider: Sendable {
    /// The PlacedPhoto object of `photoID`, or nil when the catalog has no such photo.
    func placedPhotoJSON(photoID: String) -> [UInt8]?
}
