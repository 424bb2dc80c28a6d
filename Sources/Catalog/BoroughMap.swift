import Foundation

/// The borough polygons of `boroughs.geojson`, for point-in-polygon lookups.
struct BoroughMap: Sendable {
    /// A polygon: its outer ring, then its holes, each ring as (longitude, latitude) pairs.
    private typealias Polygon = [[SIMD2<Double>]]

    private struct Area: Sendable {
        let borough: Borough
        let polygons: [Polygon]
        /// Bounding box (min, max) of all rings, to skip most polygon tests.
        let minimum: SIMD2<Double>
        let maximum: SIMD2<Double>
    }

    private let areas: [Area]

    /// Reads a GeoJSON FeatureCollection whose features have a borough name as `id`
    /// and a Polygon or MultiPolygon geometry (RFC 7946 §3.1.6, §3.1.7).
    init(contentsOf path: String) throws {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw CatalogError.unreadableFile(path: path, reason: "\(error)")
        }
        func fail(_ reason: String) -> CatalogError { .malformedBoroughs(path: path, reason: reason) }
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw fail("not JSON: \(error)")
        }
        guard let collection = root as? [String: Any], let features = collection["features"] as? [[String: Any]] else {
            throw fail("not a GeoJSON FeatureCollection")
        }
        var areas: [Area] = []
        for (offset, feature) in features.enumerated() {
            guard let name = feature["id"] as? String, let borough = Borough(rawValue: name) else {
                throw fail("feature \(offset) has no borough name as id")
            }
            guard let geometry = feature["geometry"] as? [String: Any], let type = geometry["type"] as? String,
                let coordinates = geometry["coordinates"]
            else {
                throw fail("feature \(name) has no geometry")
            }
            let polygons: [Polygon]
            switch type {
            case "Polygon":
                guard let polygon = Self.polygon(coordinates) else { throw fail("feature \(name) has a malformed Polygon") }
                polygons = [polygon]
            case "MultiPolygon":
                guard let list = coordinates as? [Any] else { throw fail("feature \(name) has a malformed MultiPolygon") }
                polygons = try list.map {
                    guard let polygon = Self.polygon($0) else { throw fail("feature \(name) has a malformed MultiPolygon") }
                    return polygon
                }
            default:
                throw fail("feature \(name) is a \(type), not a (Multi)Polygon")
            }
            let points = polygons.joined().joined()
            guard let first = points.first else { throw fail("feature \(name) has no coordinates") }
            var minimum = first, maximum = first
            for point in points {
                minimum = pointwiseMin(minimum, point)
                maximum = pointwiseMax(maximum, point)
            }
            areas.append(Area(borough: borough, polygons: polygons, minimum: minimum, maximum: maximum))
        }
        self.areas = areas
    }

    /// The first borough whose polygon contains the point, or nil.
    func borough(latitude: Double, longitude: Double) -> Borough? {
        let point = SIMD2(longitude, latitude)
        for area in areas {
            guard all(point .>= area.minimum), all(point .<= area.maximum) else { continue }
            if area.polygons.contains(where: { Self.contains($0, point) }) {
                return area.borough
            }
        }
        return nil
    }

    /// Even-odd ray casting over all rings, so a point inside a hole is outside.
    private static func contains(_ polygon: Polygon, _ point: SIMD2<Double>) -> Bool {
        var inside = false
        for ring in polygon {
            var previous = ring[ring.count - 1]
            for current in ring {
                if (current.y > point.y) != (previous.y > point.y) {
                    let crossing = (previous.x - current.x) * (point.y - current.y) / (previous.y - current.y) + current.x
                    if point.x < crossing { inside.toggle() }
                }
                previous = current
            }
        }
        return inside
    }

    private static func polygon(_ value: Any) -> Polygon? {
        guard let rings = value as? [Any], !rings.isEmpty else { return nil }
        var polygon: Polygon = []
        for ring in rings {
            guard let positions = ring as? [Any], positions.count >= 3 else { return nil }
            var points: [SIMD2<Double>] = []
            for position in positions {
                guard let pair = position as? [Any], pair.count >= 2,
                    let x = (pair[0] as? NSNumber)?.doubleValue, let y = (pair[1] as? NSNumber)?.doubleValue
                else { return nil }
                points.append(SIMD2(x, y))
            }
            polygon.append(points)
        }
        return polygon
    }
}
