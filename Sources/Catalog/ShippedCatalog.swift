/// The catalog as shipped in `Data/` and imported into `catalog.sqlite`, before any
/// correction: what every generation is made from (`PhotoCatalog(_:corrections:)`),
/// and what a correction's photo ID and place are looked up in. Plain arrays, no index:
/// a start builds the indexes of one generation only.
///
/// `Sendable`: immutable after `init`.
public final class ShippedCatalog: Sendable {
    /// Every location, ordered by `locationID`; their `photos` ranges index `photos`.
    public let locations: [CatalogLocation]
    /// Each location's line in the source file (0-based), in `locations` order.
    let lines: [Int]
    /// The locations (indices in `locations`) in the order of their lines.
    let locationsByLine: [Int]
    /// Every photo, in source order: by line, then as the line lists them. A photo's
    /// index here is its place in that order wherever a correction moves it.
    public let photos: [CatalogPhoto]
    /// The subject topics of `photos`, which each generation renumbers (`TopicIndex.renumbered`).
    let topicIndex: TopicIndex
    /// The tag of the source files and the catalog's format (`SourceFiles.dataVersion`).
    public let dataVersion: String
    /// For the borough of a point no shipped location has.
    let boroughs: BoroughMap
    private let photoIndexByID: [String: Int]
    private let locationIndexByID: [String: Int]

    /// - Parameters:
    ///   - locations: ordered by `locationID`.
    ///   - lines: each location's line, in `locations` order.
    ///   - photos: in source order; `locationIndex` indexes `locations`.
    ///   - topicSpellings: each photo's subject topics as spelled, in `photos` order.
    init(
        locations: [CatalogLocation], lines: [Int], photos: [CatalogPhoto], topicSpellings: [[String]],
        dataVersion: String, boroughs: BoroughMap
    ) {
        self.locations = locations
        self.lines = lines
        locationsByLine = locations.indices.sorted { lines[$0] < lines[$1] }
        self.photos = photos
        topicIndex = TopicIndex(
            spellings: topicSpellings, locationOfPhoto: photos.map(\.locationIndex), locationCount: locations.count)
        self.dataVersion = dataVersion
        self.boroughs = boroughs
        var photoIndexByID: [String: Int] = [:]
        photoIndexByID.reserveCapacity(photos.count)
        for offset in photos.indices { photoIndexByID[photos[offset].photoID] = offset }
        self.photoIndexByID = photoIndexByID
        locationIndexByID = Dictionary(uniqueKeysWithValues: locations.indices.map { (locations[$0].locationID, $0) })
    }

    /// How many photos it ships (no correction adds or removes one).
    public var photoCount: Int { photos.count }

    /// The index in `photos` of a photo ID, or nil.
    public func photoIndex(photoID: String) -> Int? {
        photoIndexByID[photoID]
    }

    /// The index in `locations` of a location ID, byte for byte, or nil.
    func locationIndex(locationID: String) -> Int? {
        guard let index = locationIndexByID[locationID], locations[index].locationID.utf8.elementsEqual(locationID.utf8)
        else { return nil }
        return index
    }

    /// What the search index holds as a photo's place, as shipped (`SearchIndex.placeColumn`).
    public func searchedPlace(ofPhoto photo: Int) -> String {
        SearchIndex.placeColumn(photo: photos[photo].intersection, location: locations[photos[photo].locationIndex].intersection)
    }
}
