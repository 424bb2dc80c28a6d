/// Where a photo's images come from: the catalog record's `image_url` and `thumb_url`,
/// both rewritten onto `--image-origin` when one is set (`ImageOrigin`).
public struct PhotoSource: Sendable, Hashable {
    public let photoID: String
    /// The 600 px image.
    public let fullURL: String
    /// The source's thumbnail; nil when it has none of its own (its thumbnail URL is the
    /// full image's, as for the photos of `images.nypl.org`): the server makes one.
    public let thumbnailURL: String?

    public init(photoID: String, fullURL: String, thumbnailURL: String?) {
        self.photoID = photoID
        self.fullURL = fullURL
        self.thumbnailURL = thumbnailURL == fullURL ? nil : thumbnailURL
    }

    /// The source URL of `size`, or nil for a thumbnail the server makes.
    public func url(of size: ImageSize) -> String? {
        switch size {
        case .full: fullURL
        case .thumb: thumbnailURL
        }
    }
}
