import Catalog
import Gzip
import HTTPServer
import UserData

/// The catalog for offline copies: `GET /catalog/snapshot`, the whole catalog of the
/// current generation, and `GET /catalog/changes?since=`, the locations that differ
/// between a generation a client holds and the current one, so a phone that holds the
/// snapshot applies only those.
///
/// The snapshot is answered from memory on the event loop, with its generation's token
/// in `Catalog-Generation`; ETag and 304, gzip (the copy made with the generation),
/// HEAD and byte ranges are the encoder's (`HTTPResponse.acceptsRanges`). A changes
/// answer is made once per generation and `since`, on a worker (`CatalogChanges` finds
/// the locations from the corrections; their lines are the generation's snapshot lines),
/// then sent from the generation's cache on the event loop. So applying the answer to
/// the snapshot of `since` gives the current snapshot, byte for byte.
struct SnapshotRoutes {
    let generations: CatalogGenerations

    static let contentType = "application/x-ndjson"
    /// The response field naming the snapshot's generation, for `GET /catalog/changes?since=`.
    static let generationField = "Catalog-Generation"
    static let changesParameters: QueryParameterNames = ["since"]
    /// Answers of at least this many bytes are compressed when they are made, on the
    /// worker, so the event loop never compresses a large one.
    static let compressedWhenMade = 16 << 10

    func register(in router: inout Router) {
        let generations = self.generations
        router.add(.get, "/catalog/snapshot", caching: .catalog, .immediate { _ in Self.snapshot(of: generations.current) })
        router.add(
            .get, "/catalog/changes", caching: .revalidate,
            .immediateUnlessBlocking(
                { try Self.changes($0, of: generations.current, worker: nil) },
                blocking: { try Self.changes($0, of: generations.current, worker: generations)! }))
    }

    static func snapshot(of generation: CatalogGeneration) -> HTTPResponse {
        let snapshot = generation.snapshot
        var response = HTTPResponse(
            headers: HTTPHeaders([("Content-Type", contentType), (generationField, generation.token)]), body: snapshot.body,
            etag: snapshot.etag)
        response.gzippedBody = { snapshot.gzipped }
        response.acceptsRanges = true
        return response
    }

    /// The changes since the request's `since`; nil on the event loop when they are not
    /// made yet, or when only the store can tell what `since` is (then a worker does).
    /// - Parameter worker: on a worker, the generations: it makes the changes, and asks
    ///   the store whether a `since` past `generation` is of corrections accepted already
    ///   (another instance's newer generation); nil on the event loop.
    static func changes(
        _ request: HTTPRequest, of generation: CatalogGeneration, worker: CatalogGenerations?
    ) throws -> HTTPResponse? {
        let parameters = try QueryParameters(request, known: changesParameters)
        guard let since = parameters.string("since") else {
            return respond(with: try answer(generation, changes: [], etag: "\"\(generation.token)-c\""))
        }
        switch generation.history.lookUp(since) {
        case .unknown:
            throw QueryParameters.invalid("since", "is not a catalog generation this server issued")
        case .ahead(let sequence):
            guard let generations = worker else { return nil }
            guard try generations.isAccepted(sequence: sequence) else { throw QueryParameters.invalid("since", "is not a catalog generation this server issued") }
            // Another instance built it first: this one is about to.
            generations.refresh()
            throw HTTPError(
                .serviceUnavailable, detail: "this instance is still building catalog generation \(sequence); try again in 1 s",
                headers: HTTPHeaders([("Retry-After", "1")]))
        case .forgotten:
            throw HTTPError(
                .gone,
                detail: "since names a catalog generation older than the kept history; download GET /catalog/snapshot again")
        case .generation(let count):
            if let made = generation.changes.answer(since: since) { return respond(with: made) }
            guard worker != nil else { return nil }
            let made = try changes(since: since, count: count, of: generation)
            generation.changes.keep(made, since: since)
            return respond(with: made)
        }
    }

    /// The answer for `since`, the token of the generation of the first `count` of
    /// `generation`'s corrections: seconds of CPU at most, for a worker.
    static func changes(since: String, count: Int, of generation: CatalogGeneration) throws -> CatalogChangesCache.Answer {
        let shipped = generation.catalog.shipped
        let before = PhotoCorrections(generation.history.corrections.prefix(count), shipped: shipped)
        let changes = CatalogChanges.between(before, generation.corrections, shipped: shipped)
        return try answer(generation, changes: changes, etag: "\"\(generation.token)-c-\(since)\"")
    }

    /// `{"generation", "changes": [{"locationID", "deleted", "location"?}]}`, each present
    /// location as its line of the generation's snapshot (without the newline).
    private static func answer(
        _ generation: CatalogGeneration, changes: [CatalogChanges.Change], etag: String
    ) throws -> CatalogChangesCache.Answer {
        let catalog = generation.catalog
        // A location a change keeps is one the generation's photos are at: it has a line.
        let lines = changes.map { change in
            change.isDeleted ? nil : generation.snapshot.line(catalog.locationIndex(locationID: change.locationID)!)
        }
        var body: [UInt8] = []
        body.reserveCapacity(64 + lines.reduce(0) { $0 + 96 + ($1?.count ?? 0) })
        body.append(contentsOf: #"{"generation":"#.utf8)
        JSONString.append(generation.token, to: &body)
        body.append(contentsOf: #","changes":["#.utf8)
        for (offset, (change, line)) in zip(changes, lines).enumerated() {
            if offset > 0 { body.append(UInt8(ascii: ",")) }
            body.append(contentsOf: #"{"locationID":"#.utf8)
            JSONString.append(change.locationID, to: &body)
            if let line {
                body.append(contentsOf: #","deleted":false,"location":"#.utf8)
                body.append(contentsOf: line.dropLast())  // its newline
            } else {
                body.append(contentsOf: #","deleted":true"#.utf8)
            }
            body.append(UInt8(ascii: "}"))
        }
        body.append(contentsOf: "]}".utf8)
        let gzipped = body.count >= compressedWhenMade ? try Gzip.compress(body) : nil
        return CatalogChangesCache.Answer(body: body, gzipped: gzipped, etag: etag)
    }

    private static func respond(with answer: CatalogChangesCache.Answer) -> HTTPResponse {
        var response = HTTPResponse.json(answer.body, etag: answer.etag)
        if let gzipped = answer.gzipped { response.gzippedBody = { gzipped } }
        return response
    }
}
