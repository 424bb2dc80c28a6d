import Catalog
import Images

/// Where each photo's images are fetched from: the catalog record's `image_url` and
/// `thumb_url`, onto `--image-origin` when one is set.
public struct PhotoImageSources: Sendable {
    let catalog: PhotoCatalog
    let origin: ImageOrigin?

    public init(catalog: PhotoCatalog, origin: ImageOrigin?) {
        self.catalog = catalog
        self.origin = origin
    }

    public func source(ofPhoto photo: Int) -> PhotoSource {
        let record = catalog.photos[photo]
        let full = record.photoURL, thumbnail = record.thumbnailURL
        // Compared before any rewriting: a thumbnail URL that is the full image's means
        // the source has no thumbnail of its own.
        return PhotoSource(
            photoID: record.photoID, fullURL: origin?.rewrite(full) ?? full,
            thumbnailURL: thumbnail == full ? nil : origin?.rewrite(thumbnail) ?? thumbnail)
    }
}
