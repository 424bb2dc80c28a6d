import Catalog
import Images

/// Where each photo's images are fetched from: the catalog record's `image_url` and
/// `thumb_url` (which no correction changes), onto `--image-origin` when one is set.
public struct PhotoImageSources: Sendable {
    let origin: ImageOrigin?

    public init(origin: ImageOrigin?) {
        self.origin = origin
    }

    public func source(of record: CatalogPhoto) -> PhotoSource {
        let full = record.photoURL, thumbnail = record.thumbnailURL
        // Compared before any rewriting: a thumbnail URL that is the full image's means
        // the source has no thumbnail of its own.
        return PhotoSource(
            photoID: record.photoID, fullURL: origin?.rewrite(full) ?? full,
            thumbnailURL: thumbnail == full ? nil : origin?.rewrite(thumbnail) ?? thumbnail)
    }
}
