import Catalog
import HTTPServer

/// `GET /topics` (openapi.yaml): the archive's subject topics with their photo and
/// location counts, most photos first. The body is written once per generation of the
/// catalog, with its entity tag.
struct TopicRoutes: Sendable {
    private let body: [UInt8]
    private let etag: String

    init(catalog: PhotoCatalog) {
        var writer = JSONWriter(reservingCapacity: 64 * catalog.topicIndex.topics.count + 16)
        writer.beginObject()
        writer.key("topics")
        writer.beginArray()
        for topic in catalog.topicIndex.topics {
            writer.beginObject()
            writer.field("name", topic.name)
            writer.field("photoCount", topic.photoCount)
            writer.field("locationCount", topic.locationCount)
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
        body = writer.bytes
        etag = CatalogEntityTag.value(dataVersion: catalog.dataVersion, endpoint: "t")
    }

    /// Registers the route, answered by the routes `current` gives when its request starts.
    static func register(in router: inout Router, current: @escaping @Sendable () -> TopicRoutes) {
        router.add(.get, "/topics", caching: .catalog, .immediate { _ in
            let routes = current()
            return .json(routes.body, etag: routes.etag)
        })
    }
}
