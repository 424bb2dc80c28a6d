/// One photo of the catalog, with its fields already cleaned up as openapi.yaml's `Photo` schema describes them.
public struct CatalogPhoto: Sendable {
    public let photoID: String
    /// The record's `title`, nil when it was `""`; otherwise untrimmed.
    public let title: String?
    /// The record's `date`, nil when it was `""`.
    public let date: String?
    /// The archive's original title (`original_title`), nil when absent.
    public let folder: String?
    public let text: String?
    /// The record's `years` without `""` and repeats, in source order.
    public let years: [String]
    /// `years` as numbers, for year filters (entries that are not integers are left out).
    public let yearNumbers: [Int]
    public let width: Int
    public let height: Int
    /// The photo's thumbnail, `https://oldnyc-assets.nypl.org/thumb/<photoID>.jpg` for most.
    public var thumbnailURL: String {
        storedThumbnailURL ?? Self.assetURL(Self.thumbnailDirectory, photoID)
    }
    /// The photo itself, `https://oldnyc-assets.nypl.org/600px/<photoID>.jpg` for most.
    public var photoURL: String {
        storedPhotoURL ?? Self.assetURL(Self.photoDirectory, photoID)
    }
    public let nyplURL: String
    /// The photo's own label from its geocode, nil if it has none.
    public let intersection: String?
    /// Index of its location in `PhotoCatalog.locations`.
    public let locationIndex: Int

    /// The URLs, nil when they follow the archive's usual pattern (about 93% of photos):
    /// not keeping two ~50-byte strings per photo saves ~9 MB of heap.
    private let storedThumbnailURL: String?
    private let storedPhotoURL: String?

    private static let assetsPrefix = "https://oldnyc-assets.nypl.org/"
    private static let thumbnailDirectory = "thumb"
    private static let photoDirectory = "600px"

    private static func assetURL(_ directory: String, _ photoID: String) -> String {
        assetsPrefix + directory + "/" + photoID + ".jpg"
    }

    /// `url`, or nil when it is the usual URL of the photo in `directory`
    /// (compared piece by piece, without building that URL).
    private static func unusual(_ url: String, directory: String, photoID: String) -> String? {
        var text = url
        let usual = text.withUTF8 { bytes in
            var offset = 0
            func consume(_ part: String) -> Bool {
                var part = part
                return part.withUTF8 { part in
                    guard bytes.count - offset >= part.count, bytes[offset..<(offset + part.count)].elementsEqual(part) else {
                        return false
                    }
                    offset += part.count
                    return true
                }
            }
            return consume(assetsPrefix) && consume(directory) && consume("/") && consume(photoID) && consume(".jpg")
                && offset == bytes.count
        }
        return usual ? nil : url
    }

    init(
        photoID: String, title: String?, date: String?, folder: String?, text: String?, years: [String],
        width: Int, height: Int, thumbnailURL: String, photoURL: String, nyplURL: String,
        intersection: String?, locationIndex: Int
    ) {
        self.photoID = photoID
        self.title = title
        self.date = date
        self.folder = folder
        self.text = text
        self.years = years
        self.yearNumbers = years.compactMap { Int($0) }
        self.width = width
        self.height = height
        self.storedThumbnailURL = Self.unusual(thumbnailURL, directory: Self.thumbnailDirectory, photoID: photoID)
        self.storedPhotoURL = Self.unusual(photoURL, directory: Self.photoDirectory, photoID: photoID)
        self.nyplURL = nyplURL
        self.intersection = intersection
        self.locationIndex = locationIndex
    }
}
