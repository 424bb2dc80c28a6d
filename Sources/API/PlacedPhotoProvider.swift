/// What the user-data routes need of the catalog: whether a photo exists, and its
/// PlacedPhoto (openapi.yaml's schema: the PhotoSummary plus its location's `locationID`,
/// `latitude`, `longitude`, `borough` and `intersection`) already encoded as a JSON object.
/// Favorites, recents and walk entries are PlacedPhotos with members of their own.
public protocol PlacedPhotoProvider: Sendable {
    /// The PlacedPhoto object of `photoID`, or nil when the catalog has no such photo.
    func placedPhotoJSON(photoID: String) -> [UInt8]?
    /// Appends the PlacedPhoto of `photoID` without its closing brace, so that members may
    /// follow; false (and nothing appended) when the catalog has no such photo.
    func appendOpenPlacedPhoto(photoID: String, to body: inout [UInt8]) -> Bool
    /// A provider that answers from one generation of the catalog, for a response made of
    /// many PlacedPhotos (a page of favorites, a sync, a walk): `self` where that is so
    /// already, the current generation's for the catalog that changes (`CatalogGenerations`).
    func pinned() -> any PlacedPhotoProvider
}

extension PlacedPhotoProvider {
    public func pinned() -> any PlacedPhotoProvider {
        self
    }

    /// `placedPhotoJSON` copied without its closing brace, for a provider that makes its
    /// PlacedPhotos anew each time (a catalog keeping them made writes them in place).
    public func appendOpenPlacedPhoto(photoID: String, to body: inout [UInt8]) -> Bool {
        guard let placed = placedPhotoJSON(photoID: photoID) else { return false }
        body.append(contentsOf: placed.dropLast())
        return true
    }
}
