import Foundation
import OpenAPIRuntime
import PastNYCClient
import Testing

extension EndToEndTests {
    /// Walks: starting, feeding points, reading the stream, removing photos, deleting.
    @Suite struct Walks {
        @Test func walk() async throws {
            let user = try await TestUser.register("walker")
            let started = try await user.client.startWalk().created
            let walk = try started.body.json
            #expect(started.headers.location == "/walks/\(walk.walkID)")
            let path = Operations.AddWalkPoint.Input.Path(walkID: walk.walkID)
            let withAField = try OpenAPIObjectContainer(unvalidatedValue: ["name": "evening walk"])
            _ = try await user.client.startWalk(body: .json(withAField)).badRequest

            let accepted = try await user.client.addWalkPoint(
                path: path, body: .json(.init(latitude: unionSquare.latitude, longitude: unionSquare.longitude))
            ).created.body.json
            #expect(accepted.accepted && accepted.walk.pointCount == 1)
            let entry = try #require(accepted.entry, "a point at Union Square gains a photo")

            let rejected = try await user.client.addWalkPoint(
                path: path, body: .json(.init(latitude: unionSquare.latitude + 0.0001, longitude: unionSquare.longitude))
            ).ok.body.json
            #expect(!rejected.accepted && rejected.entry == nil && rejected.walk.pointCount == 1)
            _ = try await user.client.addWalkPoint(path: path, body: .json(.init(latitude: 91, longitude: 0))).badRequest

            let page = try await user.client.getWalk(path: .init(walkID: walk.walkID)).ok.body.json
            #expect(page.walk.photoCount == 1 && page.nextCursor == nil)
            guard case .Entry(let listed) = try #require(page.entries.first) else {
                Issue.record("the walk's photo is missing from the catalog")
                return
            }
            #expect(listed == entry)
            _ = try await user.client.getWalk(path: .init(walkID: walk.walkID), query: .init(limit: 0)).badRequest

            let route = try await user.client.getWalkRoute(path: .init(walkID: walk.walkID)).ok.body.json
            #expect(route.walkID == walk.walkID)
            #expect(route.points.map(\.latitude) == [unionSquare.latitude], "the rejected point is not on the route")

            let walks = try await user.client.listWalks().ok.body.json
            #expect(walks.walks.map(\.walkID) == [walk.walkID])
            _ = try await user.client.listWalks(query: .init(cursor: "not a cursor")).badRequest

            let photo = Operations.RemoveWalkPhoto.Input.Path(walkID: walk.walkID, photoID: entry.value1.photoID)
            _ = try await user.client.removeWalkPhoto(path: photo).noContent
            _ = try await user.client.removeWalkPhoto(path: photo).notFound

            _ = try await user.client.deleteWalk(path: .init(walkID: walk.walkID)).noContent
            _ = try await user.client.deleteWalk(path: .init(walkID: walk.walkID)).notFound
            _ = try await user.client.getWalk(path: .init(walkID: walk.walkID)).notFound
            _ = try await user.client.getWalkRoute(path: .init(walkID: walk.walkID)).notFound
            _ = try await user.client.addWalkPoint(path: path, body: .json(.init(latitude: 40.7, longitude: -74))).notFound
        }

        /// Points recorded offline, sent as one batch and then again: their times come
        /// back to the millisecond, and the second send accepts nothing.
        @Test func offlineBatch() async throws {
            let user = try await TestUser.register("subway")
            let walkID = try await user.client.startWalk().created.body.json.walkID
            let path = Operations.AddWalkPoints.Input.Path(walkID: walkID)
            let recorded = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 * 1_000).rounded(.down) / 1_000 - 600)
            let points = (0..<3).map { index in
                Components.Schemas.RecordedPoint(
                    latitude: unionSquare.latitude + Double(index) * 0.0015, longitude: unionSquare.longitude,
                    recordedAt: recorded.addingTimeInterval(Double(index) * 60.25))
            }
            let sent = try await user.client.addWalkPoints(path: path, body: .json(.init(points: points))).ok.body.json
            #expect(sent.results.map(\.accepted) == [true, true, true])
            #expect(sent.walk.pointCount == 3)
            #expect(abs(sent.walk.updatedAt.timeIntervalSince(points[2].recordedAt)) < 0.0005)
            let again = try await user.client.addWalkPoints(path: path, body: .json(.init(points: points))).ok.body.json
            #expect(again.results.map(\.accepted) == [false, false, false] && again.walk == sent.walk)
            let route = try await user.client.getWalkRoute(path: .init(walkID: walkID)).ok.body.json
            #expect(zip(route.points.map(\.recordedAt), points.map(\.recordedAt)).allSatisfy { abs($0.timeIntervalSince($1)) < 0.0005 })
            _ = try await user.client.addWalkPoints(path: path, body: .json(.init(points: []))).badRequest
            let other = try await TestUser.register("snoop")
            _ = try await other.client.addWalkPoints(path: path, body: .json(.init(points: points))).notFound
        }

        /// 5,000 accepted points fill a walk; the next one is 409. The points lie on a
        /// meridian 0.001° (111 m) apart, so each is accepted whatever order they arrive
        /// in, and they are sent eight at a time.
        @Test func aFullWalkAnswers409() async throws {
            let user = try await TestUser.register("longwalk")
            let walkID = try await user.client.startWalk().created.body.json.walkID
            let path = Operations.AddWalkPoint.Input.Path(walkID: walkID)
            let client = user.client
            func point(_ index: Int) -> Operations.AddWalkPoint.Input.Body {
                .json(.init(latitude: 30 + Double(index) * 0.001, longitude: -100))
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for worker in 0..<8 {
                    group.addTask {
                        for index in stride(from: worker, to: 5_000, by: 8) {
                            _ = try await client.addWalkPoint(path: path, body: point(index)).created
                        }
                    }
                }
                try await group.waitForAll()
            }
            let full = try await client.addWalkPoint(path: path, body: point(5_000)).conflict
            #expect(try full.body.applicationProblemJson.status == 409)
            let walk = try await client.getWalk(path: .init(walkID: walkID), query: .init(limit: 1)).ok.body.json.walk
            #expect(walk.pointCount == 5_000)
        }
    }
}
