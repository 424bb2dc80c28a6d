import HTTPServer

/// Routes about the service itself: health and its OpenAPI document.
struct ServiceRoutes {
    let openAPI: OpenAPIDocument

    func register(in router: inout Router) {
        // The application only starts listening once the catalog is loaded, so a
        // server that answers at all is healthy.
        let healthy = Array(#"{"status":"ok"}"#.utf8)
        router.add(.get, "/healthz", caching: .unspecified, .immediate { _ in .json(healthy) })

        let document = openAPI
        router.add(.get, "/openapi.yaml", caching: .catalog, .immediate { _ in
            HTTPResponse(
                status: .ok,
                headers: HTTPHeaders([("Content-Type", "application/yaml; charset=utf-8")]),
                body: document.bytes,
                etag: document.etag)
        })
    }
}
