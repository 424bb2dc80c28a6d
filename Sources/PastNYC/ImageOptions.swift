import API
import ArgumentParser
import Images

/// Where the photographs come from and how much of them the disk copy keeps: shared by
/// `serve` and `images prefetch`.
struct ImageOptions: ParsableArguments {
    @Option(
        help: """
            Fetch every source image from this base URL (scheme, host, port, optional path prefix) followed by \
            the source URL's path and query: a mirror, or a test's origin. Default: the catalog's URLs as they are.
            """)
    var imageOrigin: String?

    @Option(
        help: """
            Bytes the disk copy of the photographs keeps at most; the least recently served go first. At least 1048576. \
            Whole packs assembled for GET /images/pack take up to a quarter more.
            """)
    var imageCacheSize = ApplicationConfiguration().imageCacheSize

    /// The smallest `--image-cache-size`: room for a few photographs at least.
    static let minimumCacheSize = 1 << 20

    func validate() throws {
        if let imageOrigin, ImageOrigin(imageOrigin) == nil {
            throw ValidationError(
                "--image-origin must be an http:// or https:// URL with a host and no query or fragment, got '\(imageOrigin)'")
        }
        guard imageCacheSize >= Self.minimumCacheSize else {
            throw ValidationError("--image-cache-size must be at least \(Self.minimumCacheSize) bytes, got \(imageCacheSize)")
        }
    }

    /// `--image-origin`, checked by `validate()`.
    var origin: ImageOrigin? { imageOrigin.flatMap(ImageOrigin.init) }
}
