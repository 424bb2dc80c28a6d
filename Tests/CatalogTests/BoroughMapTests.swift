import Foundation
import Testing

@testable import Catalog

@Suite struct BoroughMapTests {
    /// A square with a square hole (Polygon), and two squares (MultiPolygon).
    static let geojson = """
        {"type":"FeatureCollection","features":[
          {"type":"Feature","id":"Queens","geometry":{"type":"Polygon","coordinates":[
            [[0,0],[10,0],[10,10],[0,10],[0,0]],
            [[4,4],[6,4],[6,6],[4,6],[4,4]]]}},
          {"type":"Feature","id":"Manhattan","geometry":{"type":"MultiPolygon","coordinates":[
            [[[20,0],[22,0],[22,2],[20,2],[20,0]]],
            [[[30,0],[32,0],[32,2],[30,2],[30,0]]]]}},
          {"type":"Feature","id":"Bronx","geometry":{"type":"Polygon","coordinates":[
            [[4.5,4.5],[5.5,4.5],[5.5,5.5],[4.5,5.5],[4.5,4.5]]]}}
        ]}
        """

    @Test(arguments: [
        (1.0, 1.0, Borough?.some(.queens)), (5.0, 3.0, .queens), (5.2, 5.2, .bronx), (4.2, 4.2, nil),
        (1.0, 21.0, .manhattan), (1.0, 31.0, .manhattan), (1.0, 26.0, nil), (11.0, 5.0, nil), (-1.0, -1.0, nil),
    ])
    func pointInPolygonHonoursHolesAndParts(latitude: Double, longitude: Double, expected: Borough?) throws {
        let path = try CatalogFixture.temporaryDirectory() + "/boroughs.geojson"
        try Self.geojson.write(toFile: path, atomically: true, encoding: .utf8)
        let map = try BoroughMap(contentsOf: path)
        #expect(map.borough(latitude: latitude, longitude: longitude) == expected)
    }

    @Test(arguments: [
        (40.758, -73.9855, Borough?.some(.manhattan)), (40.6782, -73.9442, .brooklyn), (40.8448, -73.8648, .bronx),
        (40.7282, -73.7949, .queens), (40.5795, -74.1502, .statenIsland), (40.7282, -74.0776, nil), (40.0, -74.0, nil),
    ])
    func realBoroughs(latitude: Double, longitude: Double, expected: Borough?) throws {
        let map = try BoroughMap(contentsOf: CatalogFixture.boroughsPath)
        #expect(map.borough(latitude: latitude, longitude: longitude) == expected)
    }

    @Test(arguments: [
        #"{"type":"FeatureCollection"}"#,
        #"{"type":"FeatureCollection","features":[{"id":"Gotham","geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}}]}"#,
        #"{"type":"FeatureCollection","features":[{"id":"Bronx","geometry":{"type":"Point","coordinates":[0,0]}}]}"#,
        #"{"type":"FeatureCollection","features":[{"id":"Bronx","geometry":{"type":"Polygon","coordinates":[[[0,0],["a",1]]]}}]}"#,
        "not json",
    ])
    func malformedBoroughFilesAreTypedErrors(text: String) throws {
        let path = try CatalogFixture.temporaryDirectory() + "/boroughs.geojson"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        #expect {
            try BoroughMap(contentsOf: path)
        } throws: { error in
            guard case CatalogError.malformedBoroughs(let failing, _) = error else { return false }
            return failing == path
        }
    }
}
