import Foundation
import HTTPServer
import Testing
import TestSupport

/// A query parameter given twice is a 400 problem naming it, on every endpoint: which
/// value was meant is ambiguous. The parameters are the ones `openapi.yaml` documents,
/// route by route, so an endpoint whose query is read some other way fails here.
@Suite struct DuplicateQueryParameterTests {
    /// The query parameters `openapi.yaml` documents, by "METHOD /path": inline ones and
    /// those of `components/parameters` an operation refers to. The document's layout is
    /// fixed (paths at two spaces, methods at four, parameter lists at eight), so a
    /// line scan reads it.
    static func documentedQueryParameters() throws -> [String: Set<String>] {
        let text = try String(contentsOfFile: PackageRoot.path + "/openapi.yaml", encoding: .utf8)
        var section = "", subsection = "", path = "", operation = "", component = ""
        var name: String?
        var inline: [String: Set<String>] = [:]
        var references: [String: [String]] = [:]
        var componentNames: [String: String] = [:]
        for line in text.split(separator: "\n").map(String.init) {
            let indent = line.prefix { $0 == " " }.count
            let content = line.dropFirst(indent)
            if indent == 0 { section = String(content) }
            if indent == 2 { subsection = String(content) }
            if content.hasPrefix("- ") || (section == "components:" && indent == 4) { name = nil }
            switch (section, indent) {
            case ("paths:", 2): path = String(content.dropLast())
            case ("paths:", 4): operation = content.dropLast().uppercased() + " " + path
            case ("components:", 4) where subsection == "parameters:": component = String(content.dropLast())
            default: break
            }
            if content.hasPrefix("- name: ") {
                name = String(content.dropFirst("- name: ".count))
            } else if content.hasPrefix("name: "), section == "components:" {
                name = String(content.dropFirst("name: ".count))
            } else if content == "in: query", let name {
                if section == "paths:" { inline[operation, default: []].insert(name) } else { componentNames[component] = name }
            } else if content.hasPrefix("- $ref: '#/components/parameters/"), section == "paths:" {
                references[operation, default: []].append(String(content.dropFirst("- $ref: '#/components/parameters/".count).dropLast()))
            }
        }
        for (operation, referred) in references {
            inline[operation, default: []].formUnion(referred.compactMap { componentNames[$0] })
        }
        return inline.filter { !$0.value.isEmpty }
    }

    @Test func theScanFindsTheDocumentedParameters() throws {
        let documented = try Self.documentedQueryParameters()
        #expect(documented["GET /nearby"] == ["lat", "lon", "limit", "radius", "photos", "heading", "fov", "from", "to", "topic", "borough"])
        #expect(documented["GET /recents"] == ["limit"])
        #expect(documented["GET /users/me"] == nil)
    }

    @Test func everyDocumentedQueryParameterGivenTwiceIsA400NamingIt() throws {
        let (client, _, token, walkID) = try PipelineApplication.userWithAWalk("twice")
        let documented = try Self.documentedQueryParameters()
        let routes = try PipelineApplication.shared.get().application.router.entries.map(CacheControlTests.key)
        #expect(Set(documented.keys).isSubset(of: Set(routes)), "a documented operation that no route serves")
        #expect(documented.count >= 13)
        for (route, parameters) in documented {
            let example = try #require(CacheControlTests.examples[route], "\(route)")
            let target = example.target.replacingOccurrences(of: "{walkID}", with: walkID)
            for parameter in parameters.sorted() {
                let twice = target + (target.contains("?") ? "&" : "?") + "\(parameter)=1&\(parameter)=2"
                let response = try client.requestJSON(String(route.prefix { $0 != " " }), twice, token: token)
                #expect(response.status == 400, "\(route) \(twice): \(response.status)")
                #expect(response.header("Content-Type") == "application/problem+json", "\(route) \(twice)")
                #expect(
                    response.bodyText.contains("query parameter '\(parameter)' must be given only once"),
                    "\(route) \(twice): \(response.bodyText)")
            }
        }
    }
}
