import Catalog
import HTTPServer
import Images
import Synchronization

/// `GET /images/pack`: every photo of a box or of a list of IDs as one ustar archive for
/// offline use. While the server still fetches some of them, `202` with the progress;
/// then `200`, the same bytes for the same request while nothing in it changes, with a
/// strong tag and byte ranges: first streamed from the kept files (`ImagePack`,
/// `PackBody`) while it is assembled into one file (`PackFiles`), then from that file.
///
/// On a worker, a pack looks up to 10,000 images up and writes their index; a request
/// answered before with an assembled pack (the same target, the same catalog
/// generation) is answered on the event loop from its file.
struct PackRoutes {
    /// The current generation of the catalog, read once per request.
    let generation: @Sendable () -> CatalogGeneration
    let preparer: PackPreparer
    let files: PackFiles
    let sources: PhotoImageSources
    /// The packs served last, so that concurrent downloads of one pack share one layout.
    private let recent = RecentPacks()
    /// The tags of the assembled packs requests were answered with.
    private let answered = AnsweredPacks()

    init(
        generation: @escaping @Sendable () -> CatalogGeneration, preparer: PackPreparer, files: PackFiles,
        sources: PhotoImageSources
    ) {
        self.generation = generation
        self.preparer = preparer
        self.files = files
        self.sources = sources
    }

    static let parameters: QueryParameterNames = ["south", "west", "north", "east", "ids", "size"]
    static let contentType = "application/x-tar"
    /// At most this many IDs in `ids`.
    static let maximumIDs = 500

    /// The most photos of one pack at each size.
    static func maximumPhotos(_ size: ImageSize) -> Int {
        switch size {
        case .thumb: 10_000
        case .full: 2_000
        }
    }

    private static let tarHeaders = HTTPHeaders([("Content-Type", contentType)])

    func register(in router: inout Router) {
        router.add(.get, "/images/pack", caching: .catalog, .immediateUnlessBlocking({ assembled($0) }, blocking: { try pack($0) }))
    }

    /// The assembled pack this request was answered with before, if its file is still
    /// there and the catalog's generation the same; nil otherwise (then a worker looks).
    func assembled(_ request: HTTPRequest) -> HTTPResponse? {
        guard let etag = answered.etag(target: request.target, generation: generation().token),
            let file = files.file(etag: etag)
        else { return nil }
        return Self.response(etag: etag, body: FileBody(path: file.path, length: file.length))
    }

    func pack(_ request: HTTPRequest) throws -> HTTPResponse {
        let parameters = try QueryParameters(request, known: Self.parameters)
        let size = try ImageRoutes.size(parameters, default: .thumb)
        let generation = self.generation()
        let catalog = generation.catalog
        let photos = try self.photos(parameters, size: size, in: catalog)
        let items = photos.map { photo in
            PackPreparer.Item(
                variant: ImageVariant(photoID: catalog.photos[photo].photoID, size: size, turn: catalog.acceptedTurn(ofPhoto: photo)),
                source: sources.source(of: catalog.photos[photo]))
        }
        switch preparer.state(of: items) {
        case .preparing(let progress):
            var json = JSONWriter()
            json.beginObject()
            json.field("photoCount", progress.photoCount)
            json.field("readyCount", progress.readyCount)
            json.field("failedCount", progress.failedCount)
            json.endObject()
            var response = HTTPResponse.json(json.bytes, status: .accepted)
            let remaining = progress.photoCount - progress.readyCount - progress.failedCount
            response.headers.add("Retry-After", String(min(10, 1 + remaining / 80)))
            response.headers.add("Cache-Control", "no-store")
            return response
        case .ready(let kept, let missing):
            let pack = recent.pack(members: kept, index: Self.index(size: size, members: kept, missing: missing))
            // A pack with photos missing is not assembled: they are tried again later.
            guard missing.isEmpty else { return Self.response(etag: pack.etag, body: PackBody(pack: pack)) }
            guard let file = files.file(etag: pack.etag) else {
                files.assemble(pack)
                return Self.response(etag: pack.etag, body: PackBody(pack: pack))
            }
            answered.remember(etag: pack.etag, target: request.target, generation: generation.token)
            return Self.response(etag: pack.etag, body: FileBody(path: file.path, length: file.length))
        }
    }

    private static func response(etag: String, body: some StreamedBody) -> HTTPResponse {
        var response = HTTPResponse(headers: tarHeaders, etag: etag)
        response.streamedBody = body
        response.acceptsRanges = true
        return response
    }

    /// The photos asked for, in photoID order (by code point): those of the locations in
    /// the box, or the known ones of `ids`; a 400 for both, neither, or too many.
    func photos(_ parameters: QueryParameters, size: ImageSize, in catalog: PhotoCatalog) throws -> [Int] {
        let boxGiven =
            parameters.value("south") != nil || parameters.value("west") != nil || parameters.value("north") != nil
            || parameters.value("east") != nil
        let ids = parameters.value("ids")
        var photos: [Int] = []
        if let ids {
            guard !boxGiven else { throw QueryParameters.invalid("ids", "must not come with a box (south, west, north, east)") }
            photos = try FavoriteIDs.parse(ids, capacity: Self.maximumIDs).compactMap { catalog.photoIndex(photoID: $0.photoID) }
        } else {
            guard boxGiven else {
                throw QueryParameters.invalid("ids", "or a box (south, west, north, east) is required")
            }
            let (south, west, north, east) = try parameters.box()
            let result = catalog.region(RegionQuery(south: south, west: west, north: north, east: east, limit: .max))
            for match in result.matches { photos += catalog.photoRange(location: match.location) }
        }
        let maximum = Self.maximumPhotos(size)
        guard photos.count <= maximum else {
            throw QueryParameters.invalid(
                ids == nil ? "south" : "ids",
                "asks for \(photos.count) photos; a pack holds at most \(maximum) at size=\(size.rawValue): make the box smaller")
        }
        return photos.sorted { catalog.photos[$0].photoID.utf8.lexicographicallyPrecedes(catalog.photos[$1].photoID.utf8) }
    }

    /// `index.json`: the size, the kept photos with their files, dimensions and bytes,
    /// and the photo IDs left out.
    static func index(size: ImageSize, members: [ImagePack.Member], missing: [String]) -> [UInt8] {
        var json = JSONWriter(reservingCapacity: 64 + members.count * 100)
        json.beginObject()
        json.field("size", size.rawValue)
        json.key("photos")
        json.beginArray()
        for member in members {
            json.beginObject()
            json.field("photoID", member.photoID)
            json.field("file", member.fileName)
            json.field("width", member.image.width)
            json.field("height", member.image.height)
            json.field("bytes", member.image.bytes)
            json.endObject()
        }
        json.endArray()
        json.key("missing")
        json.beginArray()
        for photoID in missing { json.string(photoID) }
        json.endArray()
        json.endObject()
        return json.bytes
    }
}

/// The last few packs served, by tag: a pack downloaded by many at once is laid out
/// once and shared, instead of once per download for as long as each lasts.
final class RecentPacks: Sendable {
    private let packs = Mutex<[ImagePack]>([])
    private static let kept = 8

    /// The pack of `members` and `index`: a recent one with the same tag, or a new one.
    func pack(members: [ImagePack.Member], index: [UInt8]) -> ImagePack {
        let made = ImagePack(members: members, index: index)
        return packs.withLock { packs in
            if let known = packs.first(where: { $0.etag == made.etag }) { return known }
            packs.append(made)
            if packs.count > Self.kept { packs.removeFirst() }
            return made
        }
    }
}

/// The tags of the last assembled packs answered, by request target and catalog
/// generation: what `PackRoutes` answers on the event loop.
final class AnsweredPacks: Sendable {
    private struct Answer {
        let key: String
        let etag: String
    }

    private let answers = Mutex<[Answer]>([])
    private static let kept = 64

    func etag(target: String, generation: String) -> String? {
        let key = generation + " " + target
        return answers.withLock { answers in answers.last(where: { $0.key == key })?.etag }
    }

    func remember(etag: String, target: String, generation: String) {
        let key = generation + " " + target
        answers.withLock { answers in
            answers.removeAll { $0.key == key }
            answers.append(Answer(key: key, etag: etag))
            if answers.count > Self.kept { answers.removeFirst() }
        }
    }
}
