import Foundation
import Testing
import TestSupport
import TestSupportCore

/// `--metrics-listen` on the real executable: a second listener answers `GET /metrics`
/// in the Prometheus text format, counting requests by route template (never the raw
/// path), method and status, and refusals by rule; the public port has no `/metrics`.
@Suite struct MetricsListenerTests {
    @Test func theMetricsListenerCountsRequestsByRouteTemplateAndRefusalsByRule() throws {
        let directory = try TemporaryDirectory(prefix: "metrics")
        try SharedCatalog.copy(into: directory.path)
        let root = PackageRoot.path
        let server = try ServerProcess(arguments: [
            "--data-dir", directory.path, "--source-dir", root + "/Data", "--openapi", root + "/openapi.yaml",
            "--web-dir", root + "/Web", "--metrics-listen", "127.0.0.1:0",
        ])
        let metricsPort = try #require(server.metricsPort)
        #expect(metricsPort != server.port)
        let scraper = try RawHTTPClient(port: metricsPort)
        func scrape() throws -> PrometheusText {
            let response = try scraper.request("GET", "/metrics")
            try #require(response.status == 200)
            #expect(response.header("Content-Type") == "text/plain; version=0.0.4; charset=utf-8")
            return try PrometheusText(response.bodyText)
        }

        let before = try scrape()
        for family in [
            "past_nyc_http_requests_total", "past_nyc_http_request_duration_seconds", "past_nyc_connections_open",
            "past_nyc_sync_waits_held", "past_nyc_password_hashes_queued", "past_nyc_group_commit_size",
            "past_nyc_refusals_total", "past_nyc_image_cache_hits_total", "past_nyc_image_cache_misses_total",
            "past_nyc_image_cache_bytes", "past_nyc_catalog_generation", "process_cpu_seconds_total",
        ] {
            #expect(before.family(family) != nil, "no family \(family)")
        }
        #expect(before.family("past_nyc_http_request_duration_seconds")?.type == "histogram")
        #expect(before.value("past_nyc_catalog_generation") == 0)
        // Every rule is there from the start, at 0, so that rate() sees its first refusal.
        #expect(before.value("past_nyc_refusals_total", ["rule": "body-depth"]) == 0)

        let client = try RawHTTPClient(port: server.port)
        for _ in 0..<3 { #expect(try client.request("GET", "/healthz").status == 200) }
        #expect(try client.request("GET", "/photos/no-such-photo").status == 404)
        #expect(try client.request("GET", "/metrics").status == 404)
        let nested = String(repeating: "[", count: 40) + String(repeating: "]", count: 40)
        #expect(try client.requestJSON("POST", "/users", json: nested).status == 400)

        let after = try scrape()
        func increase(_ name: String, _ labels: [String: String]) -> Double {
            after.sum(name, labels) - before.sum(name, labels)
        }
        let requests = "past_nyc_http_requests_total"
        #expect(increase(requests, ["route": "/healthz", "method": "GET", "status": "200"]) == 3)
        #expect(increase(requests, ["route": "/photos/{photoID}", "method": "GET", "status": "404"]) == 1)
        #expect(increase(requests, ["route": "unmatched", "method": "GET", "status": "404"]) == 1)
        #expect(increase(requests, ["route": "/users", "method": "POST", "status": "400"]) == 1)
        #expect(increase("past_nyc_http_request_duration_seconds_count", ["route": "/healthz"]) == 3)
        #expect(increase("past_nyc_refusals_total", ["rule": "body-depth"]) == 1)
        let routes = Set(after.family(requests)?.samples.compactMap { $0.labels["route"] } ?? [])
        #expect(!routes.contains { $0.contains("no-such-photo") || $0 == "/metrics" }, "raw paths as routes: \(routes)")
        // The scrapes themselves are not counted: the listener of the metrics counts nothing.
        #expect(after.sum(requests, ["route": "/metrics"]) == 0)
        #expect(server.stop() == 0)
    }

    @Test func aMetricsListenAddressThatIsNotHostColonPortIsRefusedAtStart() throws {
        let run = try ServerProcess.runToExit(["serve", "--metrics-listen", "127.0.0.1"])
        #expect(run.status != 0)
        #expect(run.errorOutput.contains("--metrics-listen must be HOST:PORT"))
    }
}
