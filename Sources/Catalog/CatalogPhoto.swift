/// One photo of the catalog, with its fields already cleaned up per CONTRACT.md.
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
    public let thumbnailURL: String
    public let photoURL: String
    public let nyplURL: String
    /// The photo's own label from its geocode, nil if it has none.
    public let intersection: String?
    /// Index of its location in `PhotoCatalog.locations`.
    public let locationIndex: Int

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
        self.thumbnailURL = thumbnailURL
        self.photoURL = photoURL
        self.nyplURL = nyplURL
        self.intersection = intersection
        self.locationIndex = locationIndex
    }

    func relocated(to locationIndex: Int) -> CatalogPhoto {
        CatalogPhoto(
            photoID: photoID, title: title, date: date, folder: folder, text: text, years: years,
            width: width, height: height, thumbnailURL: thumbnailURL, photoURL: photoURL, nyplURL: nyplURL,
            intersection: intersection, locationIndex: locationIndex)
    }
}
