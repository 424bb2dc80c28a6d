import Explore
import HTTPServer

/// The body of `GET /tours` and `GET /tours/favorites`: `{"start":{"latitude","longitude"},
/// "stops":[Location + "legMeters" + "photos"],"distanceMeters","durationMinutes","photoCount"}`.
enum TourJSON {
    /// - Parameter photos: appends a stop's PhotoSummaries, comma-separated.
    static func body(_ tour: Tour, json: CatalogJSON, photos: (TourStop, inout [UInt8]) -> Void) -> [UInt8] {
        var body: [UInt8] = []
        body.reserveCapacity(160 + tour.stops.count * (260 + 3 * 340))
        body.append(#"{"start":{"latitude":"#)
        CatalogJSONNumber.append(tour.startLatitude, to: &body)
        body.append(#","longitude":"#)
        CatalogJSONNumber.append(tour.startLongitude, to: &body)
        body.append(#"},"stops":["#)
        for (offset, stop) in tour.stops.enumerated() {
            if offset > 0 { body.append(UInt8(ascii: ",")) }
            json.appendLocationHead(stop.site.location, to: &body)
            CatalogJSONNumber.append(stop.site.photoCount, to: &body)
            body.append(#","legMeters":"#)
            CatalogJSONNumber.appendCentimetres(stop.legMeters, to: &body)
            body.append(#","photos":["#)
            photos(stop, &body)
            body.append("]}")
        }
        body.append(#"],"distanceMeters":"#)
        CatalogJSONNumber.appendCentimetres(tour.distanceMeters, to: &body)
        body.append(#","durationMinutes":"#)
        CatalogJSONNumber.append((tour.durationMinutes * 10).rounded() / 10, to: &body)
        body.append(#","photoCount":"#)
        CatalogJSONNumber.append(tour.photoCount, to: &body)
        body.append(UInt8(ascii: "}"))
        return body
    }
}
