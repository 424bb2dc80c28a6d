/// One line of `oldnyc-locations.jsonl.gz` as published by OldNYC: a point and its photos.
/// Fields the catalog does not serve (`nypl_fields`, `dates_from_text`, `rotation`) are skipped.
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

        enum CodingKeys: String, CodingKey {
            case id, title, date, years, text, width, height, geocode
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

    let latitude: Double
    let longitude: Double
    let photos: [Photo]
}
