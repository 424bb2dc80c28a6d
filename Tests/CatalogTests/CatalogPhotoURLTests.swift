import Testing

@testable import Catalog

/// `CatalogPhoto` keeps its URLs only when they differ from the archive's usual ones;
/// either way they must read back exactly as given.
@Suite struct CatalogPhotoURLTests {
    @Test(arguments: [
        ("729683f-a", "https://oldnyc-assets.nypl.org/thumb/729683f-a.jpg", "https://oldnyc-assets.nypl.org/600px/729683f-a.jpg"),
        ("729683f-a", "https://oldnyc-assets.nypl.org/thumb/729683f-b.jpg", "https://oldnyc-assets.nypl.org/600px/729683f-a.png"),
        ("729683f-a", "https://oldnyc-assets.nypl.org/thumb/729683f-a.jpg?x", "http://oldnyc-assets.nypl.org/600px/729683f-a.jpg"),
        ("729683f-a", "https://oldnyc-assets.nypl.org/600px/729683f-a.jpg", "https://oldnyc-assets.nypl.org/thumb/729683f-a.jpg"),
        ("x", "https://oldnyc-assets.nypl.org/thumb/", ""),
        ("", "https://oldnyc-assets.nypl.org/thumb/.jpg", "https://oldnyc-assets.nypl.org/600px/.jpg"),
        ("é/ü", "https://oldnyc-assets.nypl.org/thumb/é/ü.jpg", "https://oldnyc-assets.nypl.org/600px/é/ü.jpeg"),
    ])
    func urlsReadBackAsGiven(_ photoID: String, _ thumbnailURL: String, _ photoURL: String) {
        let photo = CatalogPhoto(
            photoID: photoID, title: nil, date: nil, folder: nil, text: nil, years: [], width: 600, height: 400,
            thumbnailURL: thumbnailURL, photoURL: photoURL, nyplURL: "https://digitalcollections.nypl.org/items/x",
            intersection: nil, locationIndex: 0, sourceRotation: 0)
        #expect(photo.thumbnailURL == thumbnailURL)
        #expect(photo.photoURL == photoURL)
    }
}
