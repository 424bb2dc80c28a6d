import Dispatch
import Foundation
import Glibc
import Images
import Synchronization
import Testing
import TestSupport

/// Making images against a local origin: one source request however many ask, the
/// failures a source can give, a kept copy whatever the source does, turns and thumbnails.
@Suite struct ImageMakerTests {
    /// A maker over a fresh copy, fetching from `origin` with `timeout`.
    struct Rig {
        let directory: TemporaryDirectory
        let maker: ImageMaker

        init(timeout: Duration = .seconds(8), capacity: Int = 1 << 26) throws {
            directory = try TemporaryDirectory()
            var settings = SourceFetcher.Settings()
            settings.timeout = timeout
            maker = try ImageMaker(
                copy: try ImageCopy(directory: directory.path, capacity: capacity), fetcher: try SourceFetcher(settings: settings))
        }

        /// Asks for `variant` and waits for the outcome.
        func image(_ variant: ImageVariant, source: PhotoSource, urgency: SourceFetcher.Urgency? = nil) -> ImageMaker.Outcome {
            let outcome = Mutex<ImageMaker.Outcome?>(nil)
            let done = DispatchSemaphore(value: 0)
            maker.image(variant, source: source, urgency: urgency ?? .answer(by: .now + .seconds(9))) { result in
                outcome.withLock { $0 = result }
                done.signal()
            }
            done.wait()
            return outcome.withLock { $0! }
        }
    }

    static func source(_ origin: TestImageOrigin, _ photoID: String = "729683f-a", ownThumbnail: Bool = true) -> PhotoSource {
        PhotoSource(
            photoID: photoID, fullURL: origin.url + "/600px/\(photoID).jpg",
            thumbnailURL: ownThumbnail ? origin.url + "/thumb/\(photoID).jpg" : nil)
    }

    static func keptBytes(_ outcome: ImageMaker.Outcome) throws -> [UInt8] {
        guard case .kept(let image) = outcome else { throw SourceFailure.unreachable("not kept: \(outcome)") }
        return try Array(Data(contentsOf: URL(fileURLWithPath: image.path)))
    }

    @Test func manyAtOnceForAnImageNotKeptMakeOneSourceRequest() throws {
        let origin = try TestImageOrigin()
        origin.setDefault(.slow(.milliseconds(300)))
        let rig = try Rig()
        let source = Self.source(origin)
        let outcomes = Mutex<[ImageMaker.Outcome]>([])
        DispatchQueue.concurrentPerform(iterations: 40) { index in
            // Both sizes and a turn of one source URL: the thumbnail is the source's own,
            // the 600 px image and its turn share one fetch.
            let variant = ImageVariant(photoID: source.photoID, size: index % 4 == 0 ? .thumb : .full, turn: index % 3 == 0 ? .quarter : .none)
            let outcome = rig.image(variant, source: source)
            outcomes.withLock { $0.append(outcome) }
        }
        #expect(outcomes.withLock { $0 }.allSatisfy { if case .kept = $0 { true } else { false } })
        #expect(origin.requests(for: "/600px/729683f-a.jpg") == 1)
        #expect(origin.requests(for: "/thumb/729683f-a.jpg") == 1)
        #expect(try Self.keptBytes(rig.image(ImageVariant(photoID: source.photoID, size: .full), source: source)) == TestImageOrigin.full)
    }

    @Test func aThumbnailOfASourceWithoutOneIsMadeFromTheFullImageFetchedOnce() throws {
        let origin = try TestImageOrigin()
        let rig = try Rig()
        let source = Self.source(origin, ownThumbnail: false)
        let thumbnail = try Self.keptBytes(rig.image(ImageVariant(photoID: source.photoID, size: .thumb), source: source))
        #expect(ImageSize.thumbnailSides.contains(try JPEGImage.check(thumbnail).longestSide))
        #expect(try Self.keptBytes(rig.image(ImageVariant(photoID: source.photoID, size: .full), source: source)) == TestImageOrigin.full)
        #expect(origin.totalRequests == 1)
    }

    @Test(arguments: [ImageTurn.quarter, .half, .threeQuarters])
    func aTurnedImageIsKeptTurnedWithATagOfItsOwn(_ turn: ImageTurn) throws {
        let origin = try TestImageOrigin()
        let rig = try Rig()
        let source = Self.source(origin)
        let turned = rig.image(ImageVariant(photoID: source.photoID, size: .full, turn: turn), source: source)
        let plain = rig.image(ImageVariant(photoID: source.photoID, size: .full), source: source)
        guard case .kept(let turnedImage) = turned, case .kept(let plainImage) = plain else {
            Issue.record("not kept: \(turned), \(plain)")
            return
        }
        #expect(turnedImage.etag != plainImage.etag)
        #expect((turnedImage.width, turnedImage.height) == (turn.swapsSides ? (400, 608) : (608, 400)))
        #expect(try Self.keptBytes(turned) == JPEGImage.turned(TestImageOrigin.full, by: turn))
        #expect(origin.totalRequests == 1)
    }

    @Test(arguments: [
        (TestImageOrigin.Behaviour.status(500, retryAfter: nil), SourceFailure.status(500, retryAfter: nil)),
        (.status(404, retryAfter: nil), .status(404, retryAfter: nil)),
        (.oversized, .tooLarge),
    ])
    func aFailingSourceIsAFailureAndNothingIsKept(_ behaviour: TestImageOrigin.Behaviour, _ failure: SourceFailure) throws {
        let origin = try TestImageOrigin()
        origin.setDefault(behaviour)
        let rig = try Rig()
        let source = Self.source(origin)
        #expect(rig.image(ImageVariant(photoID: source.photoID, size: .full), source: source) == .failed(failure))
        #expect(rig.maker.copy.keptCount == 0)
        #expect(rig.maker.copy.counters.badGatewayFailures == 1)
    }

    @Test func htmlIsNotAJPEGWhateverItsContentType() throws {
        let origin = try TestImageOrigin()
        origin.setDefault(.html)
        let rig = try Rig()
        let source = Self.source(origin)
        guard case .failed(.notAJPEG) = rig.image(ImageVariant(photoID: source.photoID, size: .full), source: source) else {
            Issue.record("HTML was taken for a JPEG")
            return
        }
        #expect(rig.maker.copy.keptCount == 0)
    }

    @Test func aSourceThatDoesNotAnswerInTimeIsATimeout() throws {
        let origin = try TestImageOrigin()
        origin.setDefault(.hang)
        let rig = try Rig(timeout: .milliseconds(500))
        let source = Self.source(origin)
        #expect(rig.image(ImageVariant(photoID: source.photoID, size: .full), source: source) == .failed(.timedOut))
        #expect(rig.maker.copy.counters.gatewayTimeoutFailures == 1)
    }

    @Test func aRequestWhoseDeadlinePassesWhileItWaitsIsATimeout() throws {
        let origin = try TestImageOrigin()
        origin.setDefault(.hang)
        let rig = try Rig()
        let source = Self.source(origin)
        let outcome = rig.image(ImageVariant(photoID: source.photoID, size: .full), source: source, urgency: .answer(by: .now + .milliseconds(600)))
        #expect(outcome == .failed(.timedOut))
    }

    @Test func aKeptImageIsServedWhateverTheSourceDoesNow() throws {
        let origin = try TestImageOrigin()
        let rig = try Rig()
        let source = Self.source(origin)
        let variant = ImageVariant(photoID: source.photoID, size: .full)
        let first = rig.image(variant, source: source)
        origin.setDefault(.status(503, retryAfter: nil))
        #expect(rig.image(variant, source: source) == first)
        #expect(origin.totalRequests == 1)
    }

    @Test func aSourceThatSaysRetryLaterIsAskedAgainAfterThePauseItAskedFor() throws {
        let origin = try TestImageOrigin()
        origin.setDefault(.status(429, retryAfter: 1))
        let rig = try Rig()
        let source = Self.source(origin)
        let done = DispatchSemaphore(value: 0)
        let outcome = Mutex<ImageMaker.Outcome?>(nil)
        let started = ContinuousClock.now
        rig.maker.image(ImageVariant(photoID: source.photoID, size: .full), source: source, tries: 3) { result in
            outcome.withLock { $0 = result }
            done.signal()
        }
        // Answered once the first try has failed: the second one finds a working source.
        while origin.totalRequests == 0 { usleep(10_000) }
        origin.setDefault(.jpeg)
        done.wait()
        guard case .kept = outcome.withLock({ $0 }) else {
            Issue.record("not kept after a 429: \(String(describing: outcome.withLock { $0 }))")
            return
        }
        #expect(origin.totalRequests == 2)
        #expect(ContinuousClock.now - started >= .seconds(1), "the second try waited for Retry-After")
    }
}
