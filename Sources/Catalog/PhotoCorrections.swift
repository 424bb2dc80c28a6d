import Foundation

/// What a list of accepted corrections makes of the shipped photos, laid over them in
/// `sequence` order: for each photo a correction names, where it is, its year and its
/// turn, as the last accepted correction of each kind says. A pure function of the
/// shipped catalog and the corrections, so every instance that reads the same
/// corrections makes the same generation (`PhotoCatalog(_:corrections:)`), and the
/// state of any earlier generation can be made again (`CatalogChanges`).
public struct PhotoCorrections: Sendable {
    /// Where a location correction put a photo: the location with this ID.
    struct Place: Sendable, Equatable {
        let locationID: String
        /// A shipped location's own point when the ID is one's, else the corrected point as
        /// its ID spells it (`%.6f`): corrections to points of one ID make one location.
        let latitude: Double
        let longitude: Double
        /// The shipped location of that ID (an index in `ShippedCatalog.locations`), if any.
        let shippedLocation: Int?
    }

    /// One photo's corrected fields; nil ones are as shipped.
    struct Fields: Sendable, Equatable {
        /// Where it is, when not at its shipped location.
        var place: Place?
        var year: Int?
        /// 0, 90, 180 or 270.
        var rotation: Int?
    }

    /// By index in `ShippedCatalog.photos`, the photos some correction names.
    let fields: [Int: Fields]
    /// The corrections left out: those naming no shipped photo, or holding what no
    /// photo can have (a point off the globe, a year out of -9999...9999, a turn that is
    /// not a multiple of 90 degrees in 0..<360). The feedback checks all of that first;
    /// this is what a row from elsewhere (an older catalog's photo) meets.
    public let skipped: [CatalogCorrection]

    /// No correction at all: the shipped catalog.
    public static let none = PhotoCorrections(fields: [:], skipped: [])

    private init(fields: [Int: Fields], skipped: [CatalogCorrection]) {
        self.fields = fields
        self.skipped = skipped
    }

    /// - Parameter corrections: in `sequence` order.
    public init(_ corrections: some Sequence<CatalogCorrection>, shipped: ShippedCatalog) {
        var fields: [Int: Fields] = [:]
        var skipped: [CatalogCorrection] = []
        for correction in corrections {
            guard let photo = shipped.photoIndex(photoID: correction.photoID) else {
                skipped.append(correction)
                continue
            }
            switch correction.change {
            case .location(let latitude, let longitude):
                guard latitude.isFinite, longitude.isFinite, (-90...90).contains(latitude), (-180...180).contains(longitude)
                else {
                    skipped.append(correction)
                    continue
                }
                let place = Self.place(latitude: latitude, longitude: longitude, shipped: shipped)
                // Back at its shipped location, the photo is as shipped there, its label included.
                fields[photo, default: Fields()].place = place.shippedLocation == shipped.photos[photo].locationIndex ? nil : place
            case .date(let year):
                guard (-9999...9999).contains(year) else {
                    skipped.append(correction)
                    continue
                }
                fields[photo, default: Fields()].year = year
            case .rotation(let degrees):
                guard degrees % 90 == 0, (0..<360).contains(degrees) else {
                    skipped.append(correction)
                    continue
                }
                fields[photo, default: Fields()].rotation = degrees
            }
        }
        self.init(fields: fields, skipped: skipped)
    }

    /// The location a corrected point belongs to.
    private static func place(latitude: Double, longitude: Double, shipped: ShippedCatalog) -> Place {
        let locationID = CatalogLocation.identifier(latitude: latitude, longitude: longitude)
        if let location = shipped.locationIndex(locationID: locationID) {
            return Place(
                locationID: locationID, latitude: shipped.locations[location].latitude,
                longitude: shipped.locations[location].longitude, shippedLocation: location)
        }
        // The ID's own text is the point rounded to 6 decimals; read back, it spells the same ID.
        let parts = locationID.split(separator: ",")
        return Place(locationID: locationID, latitude: Double(parts[0])!, longitude: Double(parts[1])!, shippedLocation: nil)
    }
}
