import Catalog
import Dispatch
import Foundation
import Synchronization
import Testing
import TestSupport

/// Durability of walks: several clients feed one walk, the server is killed with
/// `kill -9` mid-stream and started again. Every point and entry acknowledged with
/// a 2xx is there, in order, and the next point continues the walk correctly.
@Suite(.serialized) struct WalkCrashTests {
    static let clients = 4
    static let pointsPerClient = 35
    /// Acknowledged points after which the server is killed (while clients keep sending).
    static let killAfter = 50

    /// An acknowledged accepted point: its number in the walk and the entry it gained.
    struct Acknowledged {
        let pointCount: Int
        let photoID: String
        let latitude: Double
        let longitude: Double
    }

    /// Catalog locations in Midtown at least 150 m from each other: every one of them is
    /// accepted whatever order the clients' points arrive in, and each gains a photo
    /// (its own location, at distance 0, is the nearest and has a free photo: the other
    /// points take photos from their own locations).
    static func points(_ catalog: PhotoCatalog) -> [(Double, Double)] {
        var chosen: [(Double, Double)] = []
        for location in catalog.locations
        where (40.735...40.765).contains(location.latitude) && (-73.995 ... -73.975).contains(location.longitude) {
            let point = (location.latitude, location.longitude)
            if chosen.allSatisfy({ WalkOracle.haversine($0, point) >= 150 }) { chosen.append(point) }
        }
        return chosen
    }

    @Test func acknowledgedPointsSurviveKill9() throws {
        let catalog = try SharedCatalog.catalog()
        let oracle = WalkOracle(catalog: catalog)
        let points = Self.points(catalog)
        try #require(points.count >= Self.clients * Self.pointsPerClient + 1)

        let directory = try TemporaryDirectory(prefix: "walks-crash")
        // The catalog built once for the tests, so the server starts without importing it.
        try SharedCatalog.copy(into: directory.path)
        var server = try ServerProcess(dataDirectory: directory.path)
        let client = try WalkClient(port: server.port, username: "crash-walker")
        let walkID = try client.startWalk()
        let token = client.token

        let acknowledged = Mutex<[Acknowledged]>([])
        let enough = DispatchSemaphore(value: 0)
        let group = DispatchGroup()
        let port = server.port
        for lane in 0..<Self.clients {
            let mine = (0..<Self.pointsPerClient).map { points[$0 * Self.clients + lane] }
            DispatchQueue.global().async(group: group) {
                // Sends until the connection dies with the server; a point counts only
                // once its 2xx response has arrived.
                guard let connection = try? WalkClient(port: port, token: token) else { return }
                for point in mine {
                    guard let reply = try? connection.post(walkID, point.0, point.1), reply.status == 201,
                        let walk = reply.json["walk"] as? [String: Any], let number = walk["pointCount"] as? Int,
                        let entry = reply.json["entry"] as? [String: Any], let photoID = entry["photoID"] as? String
                    else { return }
                    let count = acknowledged.withLock { list in
                        list.append(Acknowledged(pointCount: number, photoID: photoID, latitude: point.0, longitude: point.1))
                        return list.count
                    }
                    if count == Self.killAfter { enough.signal() }
                }
            }
        }
        try #require(enough.wait(timeout: .now() + 120) == .success, "the clients could not send \(Self.killAfter) points")
        server.kill9()
        group.wait()
        let acks = acknowledged.withLock { $0 }
        #expect(acks.count >= Self.killAfter)
        #expect(acks.count < Self.clients * Self.pointsPerClient, "the kill came while points were still arriving")

        server = try ServerProcess(dataDirectory: directory.path)
        let restarted = try WalkClient(port: server.port, token: token)
        var stream: [[String: Any]] = []  // newest first
        var cursor: String?
        var walk: [String: Any] = [:]
        repeat {
            let page = try restarted.send("GET", "/walks/\(walkID)?limit=200" + (cursor.map { "&cursor=\($0)" } ?? ""))
            try #require(page.status == 200)
            walk = try #require(page.json["walk"] as? [String: Any])
            stream += try #require(page.json["entries"] as? [[String: Any]])
            cursor = page.json["nextCursor"] as? String
        } while cursor != nil
        let oldestFirst = Array(stream.reversed())
        let pointCount = try #require(walk["pointCount"] as? Int)
        #expect(oldestFirst.count == pointCount, "every accepted point gained a photo")
        #expect(pointCount >= acks.count)

        // Each acknowledged point is there, at its number, with its entry.
        for ack in acks {
            try #require(ack.pointCount <= oldestFirst.count, "point \(ack.pointCount) lost")
            let entry = oldestFirst[ack.pointCount - 1]
            let point = entry["point"] as? [String: Any]
            #expect(entry["photoID"] as? String == ack.photoID, "point \(ack.pointCount)")
            #expect(abs((point?["latitude"] as? Double ?? 0) - ack.latitude) < 1e-9)
            #expect(abs((point?["longitude"] as? Double ?? 0) - ack.longitude) < 1e-9)
        }
        let photoIDs = oldestFirst.compactMap { $0["photoID"] as? String }
        #expect(Set(photoIDs).count == photoIDs.count, "no photo twice")

        // The distance is the sum of the legs between the points in their stored order.
        let walked = oldestFirst.map { entry -> (Double, Double) in
            let point = entry["point"] as? [String: Any]
            return (point?["latitude"] as? Double ?? 0, point?["longitude"] as? Double ?? 0)
        }
        let distance = zip(walked, walked.dropFirst()).reduce(0) { $0 + WalkOracle.haversine($1.0, $1.1) }
        #expect(abs((walk["distanceMeters"] as? Double ?? -1) - distance) <= 0.0051)

        // The next point goes back to where the walk began: it continues from the last
        // stored point and skips the photos the walk already holds.
        let next = try #require(walked.first)
        let last = try #require(walked.last)
        try #require(WalkOracle.haversine(last, next) >= 100)
        let reply = try restarted.post(walkID, next.0, next.1)
        #expect(reply.status == 201)
        let after = try #require(reply.json["walk"] as? [String: Any])
        #expect(after["pointCount"] as? Int == pointCount + 1)
        #expect(abs((after["distanceMeters"] as? Double ?? -1) - (distance + WalkOracle.haversine(last, next))) <= 0.0051)
        let expected = oracle.choice(at: next, taken: Set(photoIDs))
        #expect((reply.json["entry"] as? [String: Any])?["photoID"] as? String == expected?.photoID)
        #expect(expected != nil && !photoIDs.contains(expected!.photoID))
        server.stop()
    }
}
