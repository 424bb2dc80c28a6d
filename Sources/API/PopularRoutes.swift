import Accounts
import HTTPServer

/// `GET /photos/popular` (openapi.yaml): what people are saving now. Public; answered on
/// the event loop from the window's list in memory, or on the worker pool when the list
/// must be read from the user-data store again (`PopularPhotos`). No ETag and no
/// caching: the list follows the favorites within seconds.
struct PopularRoutes {
    let popular: PopularPhotos
    let photos: any PlacedPhotoProvider

    static let parameters: QueryParameterNames = ["days", "limit"]

    /// Registered before `/photos/{photoID}`, which would otherwise bind the path.
    func register(in router: inout Router) {
        router.add(
            .get, "/photos/popular", caching: .unspecified,
            .immediateUnlessBlocking(
                { request in try answer(request) { popular.recent(days: $0) } },
                blocking: { request in
                    try answer(request) { try popular.popular(days: $0) }!
                }))
    }

    /// The body for the request's window and limit, from `list`; nil when `list` has none.
    private func answer(_ request: HTTPRequest, list: (Int) throws -> [PopularPhoto]?) throws -> HTTPResponse? {
        let parameters = try QueryParameters(request, known: Self.parameters)
        let days = try parameters.integer("days", default: 30, in: 1...365)
        let limit = try parameters.integer("limit", default: 20, in: 1...PopularPhotos.maximumListed)
        guard let popular = try list(days) else { return nil }
        let photos = self.photos.pinned()
        var body: [UInt8] = []
        body.reserveCapacity(64 + 600 * min(limit, popular.count))
        body.append(contentsOf: #"{"days":"#.utf8)
        CatalogJSONNumber.append(days, to: &body)
        body.append(contentsOf: #","photos":["#.utf8)
        var listed = 0
        for photo in popular where listed < limit {
            let start = body.count
            if listed > 0 { body.append(UInt8(ascii: ",")) }
            // A photo that left the catalog is not listed: its separator goes too.
            guard photos.appendOpenPlacedPhoto(photoID: photo.photoID, to: &body) else {
                body.removeSubrange(start...)
                continue
            }
            body.append(contentsOf: #","saveCount":"#.utf8)
            CatalogJSONNumber.append(photo.saveCount, to: &body)
            body.append(UInt8(ascii: "}"))
            listed += 1
        }
        body.append(contentsOf: "]}".utf8)
        return .json(body)
    }
}
