import Basics
import Foundation
import Testing
import TestSupport

/// `POST /walks/{walkID}/points/batch` over a real socket: long seeded walks against
/// the brute-force oracle (results, entries and route with their times), the batch
/// sent twice, every bad input refused with nothing changed, the cap, and privacy.
@Suite struct WalkBatchRoutesTests {
    struct RecordedPoint {
        let latitude: Double
        let longitude: Double
        /// Milliseconds since 1970.
        let time: Int64
        /// How the time is written: its offset (minutes east of UTC) and fraction digits.
        let offsetMinutes: Int
        let fractionDigits: Int

        /// `recordedAt` as RFC 3339 in the point's offset, with its fraction digits
        /// (the time is chosen so that the digits written hold it whole).
        var recordedAt: String {
            let local = UTCDateTime.iso8601(milliseconds: time + Int64(offsetMinutes) * 60_000)
            let withoutFraction = local.prefix(19)
            let fraction = local.dropFirst(20).prefix(3)
            let written = fractionDigits == 0 ? "" : "." + fraction.prefix(fractionDigits) + String(repeating: "0", count: max(0, fractionDigits - 3))
            let offset = offsetMinutes == 0
                ? "Z"
                : (offsetMinutes < 0 ? "-" : "+") + String(format: "%02d:%02d", abs(offsetMinutes) / 60, abs(offsetMinutes) % 60)
            return withoutFraction + written + offset
        }

        var json: String {
            #"{"latitude":\#(latitude),"longitude":\#(longitude),"recordedAt":"\#(recordedAt)"}"#
        }
    }

    static func body(_ points: [RecordedPoint]) -> String {
        #"{"points":["# + points.map(\.json).joined(separator: ",") + "]}"
    }

    /// A seeded random walk from the Battery north, ending about now: steps of 0–200 m
    /// (about half under 100 m), now and then a jump; times 0–20 s apart, repeats
    /// included, each written with a random offset and 0–6 fraction digits.
    static func recordedWalk(seed: UInt64, count: Int, endingAt end: Int64) -> [RecordedPoint] {
        var random = SeededGenerator(seed: seed)
        var (latitude, longitude) = (40.7033, -74.0170)
        var time = end - Int64(count) * 20_000
        return (0..<count).map { _ in
            if Int.random(in: 0..<25, using: &random) == 0 {
                latitude = 40.70 + Double.random(in: 0...0.09, using: &random)
                longitude = -74.01 + Double.random(in: 0...0.05, using: &random)
            } else {
                latitude += Double.random(in: -0.0009...0.0018, using: &random)
                longitude += Double.random(in: -0.0017...0.0017, using: &random)
            }
            let fractionDigits = Int.random(in: 0...6, using: &random)
            var step = Int64.random(in: 0...3, using: &random) == 0 ? 0 : Int64.random(in: 1...20_000, using: &random)
            // A time the written digits hold whole.
            if fractionDigits < 3 {
                let unit: Int64 = fractionDigits == 0 ? 1_000 : fractionDigits == 1 ? 100 : 10
                step = (time + step + unit - 1) / unit * unit - time
            }
            time += step
            return RecordedPoint(
                latitude: (latitude * 1e6).rounded() / 1e6, longitude: (longitude * 1e6).rounded() / 1e6, time: time,
                offsetMinutes: [0, -300, -240, 60, 330, -570].randomElement(using: &random)!, fractionDigits: fractionDigits)
        }
    }

    private static var nowMilliseconds: Int64 { Int64(Date().timeIntervalSince1970 * 1_000) }

    @Test(arguments: [29 as UInt64, 33]) func aLongWalkInBatchesMatchesTheOracle(seed: UInt64) throws {
        let catalog = try SharedCatalog.catalog()
        var replay = WalkOracle.Replay(oracle: WalkOracle(catalog: catalog))
        let app = try TestApplication()
        let client = try WalkClient(port: app.port, username: "offline.walker.\(seed)")
        let walkID = try client.startWalk()
        let points = Self.recordedWalk(seed: seed, count: 900, endingAt: Self.nowMilliseconds)
        var random = SeededGenerator(seed: seed + 1)
        var rest = points[...]
        while !rest.isEmpty {
            let batch = Array(rest.prefix(Int.random(in: 0..<3, using: &random) == 0 ? 500 : Int.random(in: 1...80, using: &random)))
            rest = rest.dropFirst(batch.count)
            let reply = try client.send("POST", "/walks/\(walkID)/points/batch", json: Self.body(batch))
            try #require(reply.status == 200, "\(reply.response.bodyText)")
            #expect(reply.response.header("Cache-Control") == "no-store")
            let results = try #require(reply.json["results"] as? [[String: Any]])
            try #require(results.count == batch.count)
            for (point, result) in zip(batch, results) {
                let expected = replay.send((point.latitude, point.longitude), at: point.time, inBatch: true)
                #expect(result["accepted"] as? Bool == expected.accepted, "\(point.json)")
                if let entry = expected.entry {
                    let got = try #require(result["entry"] as? [String: Any], "\(point.json) gains a photo")
                    #expect(got["photoID"] as? String == entry.photoID)
                    #expect(got["locationID"] as? String == entry.locationID)
                    #expect(got["addedAt"] as? String == UTCDateTime.iso8601(milliseconds: point.time))
                    #expect(abs((got["distanceMeters"] as? Double ?? -1) - entry.distance) <= 0.0051)
                } else {
                    #expect(result["entry"] is NSNull, "\(point.json)")
                }
            }
            let walk = try #require(reply.json["walk"] as? [String: Any])
            #expect(walk["pointCount"] as? Int == replay.route.count)
            #expect(walk["photoCount"] as? Int == replay.entries.count)
            #expect(abs((walk["distanceMeters"] as? Double ?? -1) - replay.distance) <= 0.0051)
            if let last = replay.route.last {
                #expect(walk["updatedAt"] as? String == UTCDateTime.iso8601(milliseconds: last.recordedAt))
            }

            // Sent again (a phone that never saw the answer): nothing accepted, nothing changed.
            if Int.random(in: 0..<4, using: &random) == 0 {
                let again = try client.send("POST", "/walks/\(walkID)/points/batch", json: Self.body(batch))
                #expect(again.status == 200)
                #expect((again.json["results"] as? [[String: Any]])?.allSatisfy { $0["accepted"] as? Bool == false } == true)
                #expect(NSDictionary(dictionary: again.json["walk"] as? [String: Any] ?? [:]) == NSDictionary(dictionary: walk))
            }
        }
        #expect(replay.route.count > 150 && replay.entries.count > 80, "a long walk with many photos")

        let route = try client.send("GET", "/walks/\(walkID)/route")
        let routePoints = try #require(route.json["points"] as? [[String: Any]])
        #expect(routePoints.count == replay.route.count)
        for (point, expected) in zip(routePoints, replay.route) {
            #expect(abs((point["latitude"] as? Double ?? 0) - expected.point.0) < 1e-12)
            #expect(abs((point["longitude"] as? Double ?? 0) - expected.point.1) < 1e-12)
            #expect(point["recordedAt"] as? String == UTCDateTime.iso8601(milliseconds: expected.recordedAt))
        }

        var listed: [(String, String)] = []
        var cursor: String?
        repeat {
            let page = try client.send("GET", "/walks/\(walkID)?limit=200" + (cursor.map { "&cursor=\($0)" } ?? ""))
            let entries = try #require(page.json["entries"] as? [[String: Any]])
            listed += entries.map { ($0["photoID"] as? String ?? "", $0["addedAt"] as? String ?? "") }
            cursor = page.json["nextCursor"] as? String
        } while cursor != nil
        let expected = replay.entries.reversed().map { ($0.photoID, UTCDateTime.iso8601(milliseconds: $0.addedAt)) }
        #expect(listed.map(\.0) == expected.map(\.0))
        #expect(listed.map(\.1) == expected.map(\.1))
        let shown = try #require(try client.send("GET", "/walks/\(walkID)").json["walk"] as? [String: Any])
        #expect(shown["startedAt"] as? String != shown["updatedAt"] as? String)
    }

    /// Every malformed batch is a 400 naming the field, and changes nothing.
    @Test func badBatchesAreRefusedAndChangeNothing() throws {
        let app = try TestApplication()
        let client = try WalkClient(port: app.port, username: "careless")
        let walkID = try client.startWalk()
        let now = Self.nowMilliseconds / 1_000 * 1_000
        func point(_ step: Int, at time: Int64, offsetMinutes: Int = 0) -> RecordedPoint {
            RecordedPoint(
                latitude: 40.7359 + Double(step) * 0.0015, longitude: -73.9911, time: time, offsetMinutes: offsetMinutes,
                fractionDigits: 3)
        }
        let first = try client.send("POST", "/walks/\(walkID)/points/batch", json: Self.body([point(0, at: now - 60_000)]))
        try #require(first.status == 200)
        let good = point(1, at: now).json
        let many = Self.body((0..<501).map { point($0 % 3, at: now - 600_000 + Int64($0)) })
        let cases: [(String, String)] = [
            ("{}", "points"),
            (#"{"points":null}"#, "points"),
            (#"{"points":[]}"#, "points"),
            (#"{"points":{}}"#, "points"),
            (many, "points"),
            (#"{"points":[1]}"#, "points[0]"),
            (#"{"points":[\#(good)],"walkID":"x"}"#, "walkID"),
            ("[\(good)]", "points"),
            (#"{"points":[\#(good),{"latitude":40.74,"longitude":-73.99}]}"#, "points[1].recordedAt"),
            (#"{"points":[\#(good),{"latitude":40.74,"longitude":-73.99,"recordedAt":12}]}"#, "points[1].recordedAt"),
            (#"{"points":[{"latitude":40.74,"longitude":-73.99,"recordedAt":"2026-11-22T03:07:23"}]}"#, "points[0].recordedAt"),
            (#"{"points":[{"latitude":40.74,"longitude":-73.99,"recordedAt":"2026-11-22 03:07:23Z"}]}"#, "points[0].recordedAt"),
            (#"{"points":[{"latitude":40.74,"longitude":-73.99,"recordedAt":"2026-02-30T03:07:23Z"}]}"#, "points[0].recordedAt"),
            (#"{"points":[{"latitude":40.74,"longitude":-73.99,"recordedAt":"yesterday"}]}"#, "points[0].recordedAt"),
            (Self.body([point(1, at: now), point(2, at: now - 1)]), "points[1].recordedAt"),
            (Self.body([point(1, at: now), point(2, at: now + 1, offsetMinutes: 60), point(3, at: now)]), "points[2].recordedAt"),
            (Self.body([point(1, at: now), point(2, at: now + 10 * 60_000)]), "points[1].recordedAt"),
            (#"{"points":[{"latitude":91,"longitude":-73.99,"recordedAt":"2026-11-22T03:07:23Z"}]}"#, "points[0].latitude"),
            (#"{"points":[{"latitude":"40.7","longitude":-73.99,"recordedAt":"2026-11-22T03:07:23Z"}]}"#, "points[0].latitude"),
            (#"{"points":[{"latitude":40.7,"longitude":-181,"recordedAt":"2026-11-22T03:07:23Z"}]}"#, "points[0].longitude"),
            (#"{"points":[{"latitude":40.7,"recordedAt":"2026-11-22T03:07:23Z"}]}"#, "points[0].longitude"),
            (#"{"points":[{"latitude":40.7,"longitude":1e999,"recordedAt":"2026-11-22T03:07:23Z"}]}"#, "longitude"),
            (#"{"points":[\#(good),{"latitude":40.7,"longitude":-73.9,"recordedAt":"2026-11-22T03:07:23Z","accuracy":5}]}"#,
             "points[1].accuracy"),
            ("nope", "points"),
        ]
        let walkBefore = try client.send("GET", "/walks/\(walkID)").response.bodyText
        let routeBefore = try client.send("GET", "/walks/\(walkID)/route").response.bodyText
        for (body, field) in cases {
            let reply = try client.send("POST", "/walks/\(walkID)/points/batch", json: body)
            #expect(reply.status == 400, "body \(body.prefix(200))")
            #expect(reply.detail.contains(field), "body \(body.prefix(200)): \(reply.detail)")
            #expect(reply.response.header("Content-Type") == "application/problem+json")
        }
        #expect(try client.send("GET", "/walks/\(walkID)").response.bodyText == walkBefore)
        #expect(try client.send("GET", "/walks/\(walkID)/route").response.bodyText == routeBefore)

        let untyped = try client.connection.request(
            "POST", "/walks/\(walkID)/points/batch", headers: [("Authorization", "Bearer \(client.token)")],
            body: Array(Self.body([point(1, at: now)]).utf8))
        #expect(untyped.status == 415)
        #expect(try client.send("POST", "/walks/\(walkID)/points/batch", json: Self.body([point(1, at: now)]), authorized: false).status == 401)
        #expect(try client.send("GET", "/walks/\(walkID)/points/batch").status == 405)
    }

    /// Another user's walk, a deleted walk, or no walk at all: 404, nothing changed.
    @Test func anotherUsersWalkIsNotFound() throws {
        let app = try TestApplication()
        let owner = try WalkClient(port: app.port, username: "owner")
        let intruder = try WalkClient(port: app.port, username: "intruder")
        let walkID = try owner.startWalk()
        let body = Self.body([RecordedPoint(
            latitude: 40.7359, longitude: -73.9911, time: Self.nowMilliseconds, offsetMinutes: 0, fractionDigits: 3)])
        #expect(try intruder.send("POST", "/walks/\(walkID)/points/batch", json: body).status == 404)
        #expect(try owner.send("POST", "/walks/AAAAAAAAAAAAAAAAAAAAAA/points/batch", json: body).status == 404)
        #expect((try owner.send("GET", "/walks/\(walkID)").json["walk"] as? [String: Any])?["pointCount"] as? Int == 0)
        #expect(try owner.send("DELETE", "/walks/\(walkID)").status == 204)
        #expect(try owner.send("POST", "/walks/\(walkID)/points/batch", json: body).status == 404)
    }

    /// The server's cap lowered to 40: a batch of 50 acceptable points (off shore, no
    /// photos, 120 m apart) fills the walk and leaves the last 10 unaccepted; the next
    /// batch is a 409 and changes nothing.
    @Test func aFullWalkRefusesTheNextBatch() throws {
        let app = try TestApplication(maximumWalkPoints: 40)
        let client = try WalkClient(port: app.port, username: "marathon")
        let walkID = try client.startWalk()
        let start = Self.nowMilliseconds - 3_600_000
        let points = (0..<50).map {
            RecordedPoint(
                latitude: 39.5 + Double($0) * 0.0011, longitude: -71.0, time: start + Int64($0) * 1_000, offsetMinutes: 0,
                fractionDigits: 3)
        }
        let filled = try client.send("POST", "/walks/\(walkID)/points/batch", json: Self.body(points))
        #expect(filled.status == 200)
        let results = (filled.json["results"] as? [[String: Any]])?.map { $0["accepted"] as? Bool }
        #expect(results == Array(repeating: true, count: 40) + Array(repeating: false, count: 10))
        #expect((filled.json["walk"] as? [String: Any])?["pointCount"] as? Int == 40)

        let later = points.map {
            RecordedPoint(
                latitude: $0.latitude + 0.1, longitude: $0.longitude, time: $0.time + 60_000, offsetMinutes: 0, fractionDigits: 3)
        }
        let before = try client.send("GET", "/walks/\(walkID)/route").response.bodyText
        let full = try client.send("POST", "/walks/\(walkID)/points/batch", json: Self.body(later))
        #expect(full.status == 409)
        #expect(full.detail.contains("40 accepted points"))
        #expect(try client.send("GET", "/walks/\(walkID)/route").response.bodyText == before)
    }
}
