import Foundation
import OpenAPIRuntime
import PastNYCClient
import Testing

extension EndToEndTests {
    /// The photographs: one image (200, 304, a range, 400, 404) and a pack (202 until
    /// ready, then the archive; 400).
    @Suite struct Images {
        @Test func anImageItsRevalidationARangeAndItsErrors() async throws {
            let client = try makeClient()
            let photoID = try await photoIDsNearUnionSquare(count: 1)[0]
            let ok = try await client.getPhotoImage(path: .init(photoID: photoID), query: .init(size: .thumb)).ok
            let image = try await Data(collecting: ok.body.jpeg, upTo: 10 << 20)
            #expect(image.starts(with: [0xFF, 0xD8]))
            let etag = ok.headers.eTag

            let again = try await client.getPhotoImage(path: .init(photoID: photoID), query: .init(size: .thumb), headers: .init(ifNoneMatch: etag))
            #expect(try again.notModified.headers.eTag == etag)

            let part = try await client.getPhotoImage(
                path: .init(photoID: photoID), query: .init(size: .thumb), headers: .init(range: "bytes=2-", ifRange: etag)
            ).partialContent
            #expect(try await Data(collecting: part.body.jpeg, upTo: 10 << 20) == image.dropFirst(2))

            let full = try await client.getPhotoImage(path: .init(photoID: photoID)).ok
            #expect(try await Data(collecting: full.body.jpeg, upTo: 10 << 20).count > image.count)

            #expect(try await client.getPhotoImage(path: .init(photoID: "no-such-photo")).notFound.body.applicationProblemJson.status == 404)
        }

        @Test func aPackIsPreparedThenServed() async throws {
            let client = try makeClient()
            let ids = try await photoIDsNearUnionSquare(count: 3)
            let query = Operations.GetImagePack.Input.Query(ids: ids)
            var archive: Data?
            for _ in 0..<300 where archive == nil {
                switch try await client.getImagePack(query: query) {
                case .accepted(let accepted):
                    let progress = try accepted.body.json
                    #expect(progress.photoCount == ids.count)
                    try await Task.sleep(for: .milliseconds(100))
                case let other:
                    archive = try await Data(collecting: other.ok.body.applicationXTar, upTo: 10 << 20)
                }
            }
            let bytes = try #require(archive)
            // The first member is index.json, its name at the start of the first header.
            #expect(bytes.starts(with: Array("index.json".utf8)))
            #expect(bytes.count % 10240 == 0)

            let problem = try await client.getImagePack(query: .init(south: 40.70, west: -74.0, ids: ids)).badRequest
            #expect(try problem.body.applicationProblemJson.detail.contains("ids"))
        }
    }
}
