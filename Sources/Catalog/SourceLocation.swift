/// One line of `oldnyc-locations.jsonl.gz` as published by OldNYC: a point and its photos.
/// Fields the catalog does not keep (`dates_from_text`, and of `nypl_fields` all but the
/// subject topics) are skipped.
struct SourceLocation: Decodable {
    struct Photo: Decodable {
        let id: String
        let title: String
        let originalTitle: String?
        let date: String
        let years: [String]
        let text: String?
        let width: Int
        let height: Int
        let imageURL: String
        let thumbURL: String
        let nyplURL: String
        let geocode: Geocode?
        let nyplFields: NYPLFields?
        /// The clockwise turn OldNYC gave the archive's scan to make the copy its URLs
        /// point at upright (`CatalogPhoto.sourceRotation`); absent for most photos.
        let rotation: Int?

        enum CodingKeys: String, CodingKey {
            case id, title, date, years, text, width, height, geocode, rotation
            case nyplFields = "nypl_fields"
            case originalTitle = "original_title"
            case imageURL = "image_url"
            case thumbURL = "thumb_url"
            case nyplURL = "nypl_url"
        }
    }

    /// Where OldNYC placed a photo: a street crossing, an address or a bare point,
    /// plus the archive text it was read from.
    struct Geocode: Decodable {
        struct Location: Decodable {
            let str1: String?
            let str2: String?
            let num: Int?
            let street: String?
        }

        let location: Location?
        let source: String?
    }

    /// The archive's catalogue fields of a photo; only its subject topics are read.
    struct NYPLFields: Decodable {
        struct Subjects: Decodable {
            /// Subject topics ("Elevated railroads"), as the archive spells them.
            let topic: [String]?
        }

        let subjects: Subjects?
    }

    let latitude: Double
    let longitude: Double
    let photos: [Photo]
}
