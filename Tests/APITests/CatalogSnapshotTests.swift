@testable import API
import Catalog
import Foundation
import Gzip
import Testing
import TestSupport

@testable import HTTPServer

/// `GET /catalog/snapshot` through the application's pipeline: its lines against the
/// catalog and the other endpoints, and resuming it with `Range` and `If-Range`.
@Suite struct CatalogSnapshotTests {
    /// The whole identity body, its tag and its lines (without their newlines), fetched once.
    struct Whole {
        let body: [UInt8]
        let etag: String
        let lines: [ArraySlice<UInt8>]
    }

    static let whole: Result<Whole, any Error> = Result {
        let response = try PipelineApplication.client().request("GET", "/catalog/snapshot")
        guard response.status == 200, let etag = response.header("ETag") else {
            throw RawHTTPClient.ClientError.malformedResponse("snapshot answered \(response.status)")
        }
        return Whole(body: response.body, etag: etag, lines: lines(response.body))
    }

    /// The body's lines, without their newlines, found with memchr: a generic byte loop
    /// over tens of megabytes takes seconds in a debug build.
    static func lines(_ body: [UInt8]) -> [ArraySlice<UInt8>] {
        let ends = body.withUnsafeBufferPointer { buffer -> [Int] in
            guard let base = buffer.baseAddress else { return [] }
            var ends: [Int] = []
            var start = 0
            while start < buffer.count, let found = memchr(base + start, Int32(UInt8(ascii: "\n")), buffer.count - start) {
                let end = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                ends.append(end)
                start = end + 1
            }
            return ends
        }
        return zip([-1] + ends, ends).map { body[($0 + 1)..<$1] }
    }

    @Test func wholeAnswerIsJSONLinesWithItsValidatorsAndRanges() throws {
        let client = try PipelineApplication.client()
        let response = try client.request("GET", "/catalog/snapshot")
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "application/x-ndjson")
        #expect(response.header("Accept-Ranges") == "bytes")
        #expect(response.header("ETag")?.hasPrefix("\"") == true)
        #expect(response.header("Cache-Control") == "public, max-age=300")
        #expect(response.body.last == UInt8(ascii: "\n"))
        let head = try client.request("HEAD", "/catalog/snapshot")
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
        #expect(head.header("Content-Length") == String(response.body.count))
        #expect(head.header("ETag") == response.header("ETag"))
    }

    @Test func everyLocationOnceInLocationIDOrderWithAllItsPhotos() throws {
        let catalog = try SharedCatalog.catalog()
        let lines = try Self.whole.get().lines
        #expect(lines.count == catalog.locations.count)
        var previous: [UInt32] = []
        for (index, line) in lines.enumerated() {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
            let locationID = try #require(object["locationID"] as? String)
            let codePoints = locationID.unicodeScalars.map(\.value)
            #expect(previous.lexicographicallyPrecedes(codePoints), "line \(index) is out of order")
            previous = codePoints
            #expect(locationID == catalog.locations[index].locationID)
            let photos = try #require(object["photos"] as? [[String: Any]])
            let expected = catalog.photoRange(location: index).map { catalog.photos[$0].photoID }
            #expect(photos.map { $0["photoID"] as? String } == expected)
            #expect(object["photoCount"] as? Int == expected.count)
        }
    }

    /// A seeded sample of lines, byte for byte: the location's members as
    /// `/locations/{locationID}` has them, then its photos exactly as `/photos/{photoID}` answers.
    @Test func sampledLinesAreTheOtherEndpointsAnswers() throws {
        let client = try PipelineApplication.client()
        let catalog = try SharedCatalog.catalog()
        let lines = try Self.whole.get().lines
        var random = SeededGenerator(seed: 29)
        let photosKey = Array(#","photos":["#.utf8)
        for _ in 0..<150 {
            let index = Int.random(in: 0..<lines.count, using: &random)
            let line = Array(lines[index])
            let locationID = catalog.locations[index].locationID
            var photos: [UInt8] = []
            for (offset, photo) in catalog.photoRange(location: index).enumerated() {
                let answer = try client.request("GET", "/photos/\(catalog.photos[photo].photoID)")
                #expect(answer.status == 200)
                if offset > 0 { photos.append(UInt8(ascii: ",")) }
                photos += answer.body
            }
            let tail = photosKey + photos + Array("]}".utf8)
            #expect(Array(line.suffix(tail.count)) == tail, "the photos of \(locationID)")
            let head = line.prefix(line.count - tail.count) + [UInt8(ascii: "}")]
            let members = try #require(try JSONSerialization.jsonObject(with: Data(head)) as? NSDictionary)
            let page = try client.request("GET", "/locations/\(locationID)")
            var expected = try #require(try JSONSerialization.jsonObject(with: Data(page.body)) as? [String: Any])
            expected["photos"] = nil
            expected["nextCursor"] = nil
            #expect(members == NSDictionary(dictionary: expected), "the members of \(locationID)")
        }
    }

    @Test func gzipIsTheSameBytesUnderItsOwnTagAndBothTagsAnswer304() throws {
        let client = try PipelineApplication.client()
        let whole = try Self.whole.get()
        let zipped = try client.request("GET", "/catalog/snapshot", headers: [("Accept-Encoding", "gzip")])
        #expect(zipped.header("Content-Encoding") == "gzip")
        #expect(zipped.header("ETag") == EntityTag.gzipVariant(of: whole.etag))
        #expect(Data(try gunzip(zipped.body)) == Data(whole.body))
        for tag in [whole.etag, EntityTag.gzipVariant(of: whole.etag)] {
            let conditional = try client.request("GET", "/catalog/snapshot", headers: [("If-None-Match", tag), ("Range", "bytes=0-9")])
            #expect(conditional.status == 304)
            #expect(conditional.body.isEmpty)
            #expect(conditional.header("Cache-Control") == "public, max-age=300")
        }
    }

    /// What the catalog build stored is what a start renders, so the start took it as it
    /// is: the gzip answer is the stored blocks, one after another, and nothing was
    /// compressed again.
    @Test func theBuildStoredTheGzipOfTheseBytes() throws {
        let whole = try Self.whole.get()
        let stored = try CatalogStore.storedSnapshotBlocks(dataDirectory: SharedCatalog.directory)
        #expect(stored.count > 100, "blocks of a few hundred kilobytes")
        let member = GzipBlock.member(of: stored)
        #expect(Data(try gunzip(member)) == Data(whole.body))
        let zipped = try PipelineApplication.client().request("GET", "/catalog/snapshot", headers: [("Accept-Encoding", "gzip")])
        #expect(Data(zipped.body) == Data(member))
        #expect(try SharedCatalog.content().generation.snapshot.compressedBlocks == 0)
    }

    @Test func seededRandomRangesAreThoseBytesAndReassembleTheBody() throws {
        let client = try PipelineApplication.client()
        let whole = try Self.whole.get()
        let length = whole.body.count
        var random = SeededGenerator(seed: 2029)
        for _ in 0..<200 {
            let first = Int.random(in: 0..<length, using: &random)
            let size = Int.random(in: 1...70_000, using: &random)
            let value: String
            let expected: Range<Int>
            // Open-ended ranges are the long ones: one in eight.
            switch random.next() % 8 {
            case 0: (value, expected) = ("bytes=\(first)-", first..<length)
            case 1, 2: (value, expected) = ("bytes=-\(size)", (length - size)..<length)
            default: (value, expected) = ("bytes=\(first)-\(first + size - 1)", first..<min(first + size, length))
            }
            let headers = [("Range", value), ("Accept-Encoding", "gzip")] + (Bool.random(using: &random) ? [("If-Range", whole.etag)] : [])
            let response = try client.request("GET", "/catalog/snapshot", headers: headers)
            #expect(response.status == 206)
            #expect(response.header("Content-Range") == "bytes \(expected.lowerBound)-\(expected.upperBound - 1)/\(length)")
            #expect(response.header("Content-Encoding") == nil)
            #expect(response.header("ETag") == whole.etag)
            #expect(response.header("Cache-Control") == "public, max-age=300")
            // Data compares with memcmp: a byte loop in a debug build takes seconds per range.
            #expect(Data(response.body) == Data(whole.body[expected]), "\(value)")
        }
        var reassembled: [UInt8] = []
        while reassembled.count < length {
            let size = Int.random(in: 1...(4 << 20), using: &random)
            let response = try client.request(
                "GET", "/catalog/snapshot",
                headers: [("Range", "bytes=\(reassembled.count)-\(reassembled.count + size - 1)"), ("If-Range", whole.etag)])
            #expect(response.status == 206)
            reassembled += response.body
        }
        #expect(Data(reassembled) == Data(whole.body))
    }

    @Test func aRangePastTheEndIs416WithTheLength() throws {
        let client = try PipelineApplication.client()
        let length = try Self.whole.get().body.count
        for value in ["bytes=\(length)-", "bytes=\(length + 1000)-\(length + 2000)", "bytes=-0"] {
            let response = try client.request("GET", "/catalog/snapshot", headers: [("Range", value)])
            #expect(response.status == 416, "\(value)")
            #expect(response.header("Content-Range") == "bytes */\(length)")
            #expect(response.header("Content-Type") == "application/problem+json")
        }
    }

    /// A resume against a snapshot that changed gets the whole new one (RFC 9110 §13.1.5).
    @Test func ifRangeWithAnotherValidatorAnswersTheWholeBody() throws {
        let client = try PipelineApplication.client()
        let whole = try Self.whole.get()
        let validators = [#""an-older-snapshot""#, EntityTag.gzipVariant(of: whole.etag), "W/" + whole.etag, "Tue, 24 Nov 2026 10:00:00 GMT"]
        for validator in validators {
            let response = try client.request(
                "GET", "/catalog/snapshot", headers: [("Range", "bytes=100-"), ("If-Range", validator), ("Accept-Encoding", "gzip")])
            #expect(response.status == 200, "If-Range: \(validator)")
            #expect(response.header("Content-Range") == nil)
            #expect(Data(try gunzip(response.body)) == Data(whole.body))
        }
        let several = try client.request("GET", "/catalog/snapshot", headers: [("Range", "bytes=0-9,20-29")])
        #expect(several.status == 200)
        #expect(Data(several.body) == Data(whole.body))
    }
}
