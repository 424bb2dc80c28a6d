import Catalog
import Testing

/// The source's `rotation` (the turn OldNYC gave the archive's scan; its URLs point at the
/// turned copy) is kept in the catalog, as the source has it, and served nowhere.
@Suite struct SourceRotationTests {
    @Test func everyRotationOfTheSourceIsKept() throws {
        let catalog = try CatalogFixture.load().catalog
        var counts: [Int: Int] = [:]
        for photo in catalog.photos where photo.sourceRotation != 0 { counts[photo.sourceRotation, default: 0] += 1 }
        #expect(counts == [90: 1941, 180: 10, 270: 158])
        let turned = try #require(catalog.photoIndex(photoID: "729011f-c"))
        #expect(catalog.photos[turned].sourceRotation == 90)
        #expect(catalog.photos[turned].photoURL == "https://www.oldnyc.org/rotated-assets/600px/729011f-c.90.jpg")
        #expect((catalog.photos[turned].width, catalog.photos[turned].height) == (600, 397), "the turned copy's, as given")
        #expect(catalog.photos[turned].acceptedRotation == 0)
    }
}
