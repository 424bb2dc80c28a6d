import Catalog
import Foundation
import Testing
import TestSupport

/// A two-hour walk through Manhattan over a real socket: every answer checked
/// against the brute-force oracle (its own haversine, its own scan of the whole
/// catalog), no photo twice, and a removed photo never coming back.
@Suite struct WalkJourneyTests {
    /// From the Battery up Broadway to Columbus Circle and on up Central Park West.
    static let waypoints: [(Double, Double)] = [
        (40.7033, -74.0170), (40.7075, -74.0113), (40.7127, -74.0059), (40.7195, -74.0021),
        (40.7290, -73.9937), (40.7359, -73.9911), (40.7411, -73.9897), (40.7580, -73.9855),
        (40.7681, -73.9819), (40.7794, -73.9738), (40.7851, -73.9697),
    ]

    /// A point every 20 m along the waypoints' legs (about 10 km: 500 points, as a
    /// phone walking two hours at 1.4 m/s sending a point every 15 s).
    static func path() -> [(Double, Double)] {
        var points: [(Double, Double)] = []
        for (from, to) in zip(waypoints, waypoints.dropFirst()) {
            let steps = max(1, Int((WalkOracle.haversine(from, to) / 20).rounded()))
            for step in 0..<steps {
                let t = Double(step) / Double(steps)
                points.append((from.0 + (to.0 - from.0) * t, from.1 + (to.1 - from.1) * t))
            }
        }
        points.append(waypoints.last!)
        return points
    }

    @Test func aTwoHourWalkMatchesTheOracle() throws {
        let catalog = try SharedCatalog.catalog()
        let oracle = WalkOracle(catalog: catalog)
        // Two hours of points sent as fast as the server answers: more than a user's burst
        // of writes (--user-write-rate, whose own tests are UserWriteRateTests), lifted alone.
        let app = try TestApplication { $0.userWriteRate = 0 }
        let client = try WalkClient(port: app.port, username: "two.hour.walker")
        let walkID = try client.startWalk()

        let path = Self.path()
        #expect(path.count >= 480 && path.count <= 540)
        var last: (Double, Double)?
        var distance = 0.0
        var pointCount = 0
        var taken: Set<String> = []
        var entries: [String] = []  // photo IDs, oldest first
        var removed: String?
        for (index, point) in path.enumerated() {
            let reply = try client.post(walkID, point.0, point.1)
            let leg = last.map { WalkOracle.haversine($0, point) }
            let accepted = leg.map { $0 >= 100 } ?? true
            try #require(reply.status == (accepted ? 201 : 200), "point \(index): \(reply.response.bodyText)")
            #expect(reply.json["accepted"] as? Bool == accepted)
            let walk = try #require(reply.json["walk"] as? [String: Any])
            if accepted {
                pointCount += 1
                distance += leg ?? 0
                last = point
                if let expected = oracle.choice(at: point, taken: taken) {
                    let entry = try #require(reply.json["entry"] as? [String: Any], "point \(index) gains a photo")
                    #expect(entry["photoID"] as? String == expected.photoID, "point \(index)")
                    #expect(entry["locationID"] as? String == expected.locationID, "point \(index)")
                    #expect(abs((entry["distanceMeters"] as? Double ?? -1) - expected.distance) <= 0.0051)
                    let pointJSON = try #require(entry["point"] as? [String: Any])
                    #expect(abs((pointJSON["latitude"] as? Double ?? 0) - point.0) < 1e-9)
                    #expect(abs((pointJSON["longitude"] as? Double ?? 0) - point.1) < 1e-9)
                    taken.insert(expected.photoID)
                    entries.append(expected.photoID)
                } else {
                    #expect(reply.json["entry"] is NSNull, "point \(index) has no free photo within 250 m")
                }
            } else {
                #expect(reply.json["entry"] is NSNull)
            }
            #expect(walk["pointCount"] as? Int == pointCount)
            #expect(abs((walk["distanceMeters"] as? Double ?? -1) - distance) <= 0.0051, "point \(index)")
            #expect(walk["photoCount"] as? Int == entries.count - (removed == nil ? 0 : 1))

            // Halfway, the walker removes the latest photo: it must never come back.
            if index == path.count / 2, removed == nil, let latest = entries.last {
                #expect(try client.send("DELETE", "/walks/\(walkID)/photos/\(latest)").status == 204)
                removed = latest
            }
        }
        #expect(pointCount > 80, "about one point in five is accepted")
        #expect(entries.count > 60)
        #expect(Set(entries).count == entries.count, "no photo twice")

        // The stream, paged to the end: most recently added first, the removed photo absent.
        let listed = try client.pageThrough("/walks/\(walkID)", limit: 7, list: "entries", id: "photoID")
        #expect(listed == entries.reversed().filter { $0 != removed })
    }
}
