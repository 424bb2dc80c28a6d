/// One photo of the catalog, with its fields already cleaned up as openapi.yaml's `Photo` schema describes them.
public struct CatalogPhoto: Sendable {
    public let photoID: String
    /// The record's `title`, nil when it was `""`; otherwise untrimmed.
    public let title: String?
    /// The record's `date`, nil when it was `""`.
    public private(set) var date: String?
    /// The archive's original title (`original_title`), nil when absent.
    public let folder: String?
    public let text: String?
    /// The record's `years` without `""` and repeats, in source order.
    public private(set) var years: [String]
    /// `years` as numbers, for year filters (entries that are not integers are left out).
    public private(set) var yearNumbers: [Int]
    public private(set) var width: Int
    public private(set) var height: Int
    /// The photo's thumbnail, `https://oldnyc-assets.nypl.org/thumb/<photoID>.jpg` for most.
    public var thumbnailURL: String {
        storedThumbnailURL ?? Self.assetURL(Self.thumbnailDirectory, photoID)
    }
    /// The photo itself, `https://oldnyc-assets.nypl.org/600px/<photoID>.jpg` for most.
    public var photoURL: String {
        storedPhotoURL ?? Self.assetURL(Self.photoDirectory, photoID)
    }
    public let nyplURL: String
    /// The photo's own label from its geocode, nil if it has none (and once a correction
    /// moved it: the geocode no longer says where it is).
    public private(set) var intersection: String?
    /// Index of its location in `PhotoCatalog.locations`.
    public private(set) var locationIndex: Int
    /// The source record's `rotation`: the clockwise turn (90, 180 or 270) OldNYC gave the
    /// archive's scan to make the copy that `photoURL` and `thumbnailURL` point at upright
    /// (`https://www.oldnyc.org/rotated-assets/…`), 0 when the record has none. Those copies
    /// are upright already and `width` and `height` are theirs, so nothing served turns by it.
    public var sourceRotation: Int { Int(storedSourceRotation) }
    /// The clockwise turn (0, 90, 180 or 270) of an accepted rotation correction: what makes
    /// the image at `photoURL` upright. `width` and `height` are swapped already for 90 and 270.
    public var acceptedRotation: Int { Int(storedAcceptedRotation) }

    /// The URLs, nil when they follow the archive's usual pattern (about 93% of photos):
    /// not keeping two ~50-byte strings per photo saves ~9 MB of heap.
    private let storedThumbnailURL: String?
    private let storedPhotoURL: String?
    /// The turns, small enough to share a word with each other.
    private let storedSourceRotation: UInt16
    private var storedAcceptedRotation: UInt16

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

    /// - Parameter sourceRotation: 0, 90, 180 or 270.
    init(
        photoID: String, title: String?, date: String?, folder: String?, text: String?, years: [String],
        width: Int, height: Int, thumbnailURL: String, photoURL: String, nyplURL: String,
        intersection: String?, locationIndex: Int, sourceRotation: Int
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
        self.storedSourceRotation = UInt16(sourceRotation)
        self.storedAcceptedRotation = 0
    }

    /// The photo as a generation has it (`PhotoCatalog(_:corrections:)`): at
    /// `locationIndex`, with its own label only where it was not moved, and its corrected
    /// year and turn, if any. Everything else, its strings included, is shared with `self`.
    /// - Parameters:
    ///   - moved: whether a correction placed it at another location than shipped.
    ///   - rotation: 0, 90, 180 or 270.
    func corrected(locationIndex: Int, moved: Bool, year: Int?, rotation: Int) -> CatalogPhoto {
        var photo = self
        photo.locationIndex = locationIndex
        if moved { photo.intersection = nil }
        if let year {
            let text = String(year)
            photo.date = text
            photo.years = [text]
            photo.yearNumbers = [year]
        }
        if rotation % 180 != 0 { (photo.width, photo.height) = (height, width) }
        photo.storedAcceptedRotation = UInt16(rotation)
        return photo
    }
}
