import HTTPServer

/// `GET /catalog/snapshot`: the whole catalog for an offline copy, from memory on the
/// event loop; ETag and 304, gzip (the copy made once), HEAD and byte ranges are the
/// encoder's (`HTTPResponse.acceptsRanges`).
struct SnapshotRoutes {
    let snapshot: CatalogSnapshot

    static let contentType = "application/x-ndjson"

    func register(in router: inout Router) {
        let snapshot = self.snapshot
        let headers = HTTPHeaders([("Content-Type", Self.contentType)])
        let gzipped: @Sendable () -> [UInt8]? = { snapshot.gzipped }
        router.add(.get, "/catalog/snapshot", caching: .catalog, .immediate { _ in
            var response = HTTPResponse(headers: headers, body: snapshot.body, etag: snapshot.etag)
            response.gzippedBody = gzipped
            response.acceptsRanges = true
            return response
        })
    }
}
