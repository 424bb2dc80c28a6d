/// The two sizes of a photograph the server keeps and serves.
public enum ImageSize: String, Sendable, Hashable, CaseIterable {
    /// A thumbnail, its longest side 100–200 px: the source's own when it has one of
    /// that size, else made here from the 600 px image (`JPEGImage.thumbnail`).
    case thumb
    /// The source's 600 px image, as it serves it.
    case full = "600"

    /// The longest side a thumbnail may have.
    public static let thumbnailSides = 100...200
}
