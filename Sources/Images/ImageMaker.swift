import Basics
import Descriptors
import Dispatch
import Glibc
import Synchronization

/// Makes the images the copy lacks: fetches each from its source once, checks it is a
/// JPEG, makes a thumbnail where the source has none that fits, turns it by a turn, and
/// keeps the result (`ImageCopy`). All off the caller's thread: the fetch on the
/// fetcher's, the rest on a small pool of its own, the answer through a completion.
///
/// **One source request per image, however many ask.** Each variant being made is a
/// flight that later askers join; a turned variant is made from its unturned flight and
/// a made thumbnail from the 600 px flight, so one source URL is fetched once for all of
/// them. A flight a request joins hurries its fetch (`SourceFetcher.hurry`).
///
/// `Sendable`: `flights` is behind a lock; the rest is immutable or `Sendable`.
public final class ImageMaker: Sendable {
    public let copy: ImageCopy
    private let fetcher: SourceFetcher
    private let workers: WorkerPool
    private let flights = Mutex<[ImageVariant: Flight]>([:])

    /// What asking for an image gives.
    public enum Outcome: Sendable, Equatable {
        case kept(KeptImage)
        /// Made but not kept (a full disk or copy): these bytes, this once.
        case unkept(bytes: [UInt8], etag: String)
        case failed(SourceFailure)
    }

    public typealias Completion = @Sendable (Outcome) -> Void

    private struct Flight {
        var waiters: [Completion]
        /// The source fetch this flight started itself, if any.
        var fetch: UInt64?
        /// The flight this one waits for (a turn's unturned image, a made thumbnail's 600 px one).
        var upstream: ImageVariant?
    }

    /// - Parameter workerThreads: threads that check, turn, shrink and write images.
    public init(copy: ImageCopy, fetcher: SourceFetcher, workerThreads: Int = 4) throws(SystemCallError) {
        self.copy = copy
        self.fetcher = fetcher
        workers = try WorkerPool(threadCount: workerThreads, name: "image-work")
    }

    deinit {
        workers.stop()
    }

    /// The image of `variant`, kept or made; `completion` runs on another thread.
    public func image(
        _ variant: ImageVariant, source: PhotoSource, urgency: SourceFetcher.Urgency, completion: @escaping Completion
    ) {
        enum Step {
            case done(KeptImage)
            case joined
            case start
        }
        let step = flights.withLock { flights -> Step in
            if let kept = copy.kept(variant, serving: false) { return .done(kept) }
            if flights[variant] != nil {
                flights[variant]!.waiters.append(completion)
                return .joined
            }
            flights[variant] = Flight(waiters: [completion])
            return .start
        }
        switch step {
        case .done(let kept):
            completion(.kept(kept))
        case .joined:
            if case .answer(let deadline) = urgency { hurry(variant, deadline: deadline) }
        case .start:
            make(variant, source: source, urgency: urgency)
        }
    }

    /// As `image`, trying up to `tries` times with a pause between (the source's
    /// `Retry-After` when it gave one, else a second, then two): for packs and prefetch,
    /// which nobody waits for at a socket.
    public func image(_ variant: ImageVariant, source: PhotoSource, tries: Int, completion: @escaping Completion) {
        image(variant, source: source, urgency: .background) { outcome in
            guard case .failed(let failure) = outcome, tries > 1 else { return completion(outcome) }
            var pause = 3 - min(tries, 3) + 1
            if case .status(_, let retryAfter?) = failure { pause = min(max(retryAfter, 1), 60) }
            DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(pause)) {
                self.image(variant, source: source, tries: tries - 1, completion: completion)
            }
        }
    }

    // MARK: Flights

    private func make(_ variant: ImageVariant, source: PhotoSource, urgency: SourceFetcher.Urgency) {
        if variant.turn != .none {
            wait(for: variant.unturned, in: variant, source: source, urgency: urgency) { [self] bytes in
                try keep(variant, JPEGImage.turned(bytes, by: variant.turn))
            }
            return
        }
        switch variant.size {
        case .full:
            fetch(source.fullURL, for: variant, urgency: urgency) { [self] bytes in try keep(variant, bytes) }
        case .thumb:
            guard let url = source.thumbnailURL else {
                return makeThumbnail(variant, source: source, urgency: urgency)
            }
            fetch(url, for: variant, urgency: urgency) { [self] bytes in
                let info = try JPEGImage.check(bytes)
                guard ImageSize.thumbnailSides.contains(info.longestSide) else { return nil }
                return keep(variant, bytes, info: info)
            } otherwise: { [self] failure in
                // The source's own thumbnail failed or does not fit: made from the 600 px
                // image instead, unless the time is up already.
                guard !(failure?.isTimeout ?? false) else { return false }
                makeThumbnail(variant, source: source, urgency: urgency)
                return true
            }
        }
    }

    private func makeThumbnail(_ variant: ImageVariant, source: PhotoSource, urgency: SourceFetcher.Urgency) {
        wait(for: ImageVariant(photoID: variant.photoID, size: .full), in: variant, source: source, urgency: urgency) { [self] bytes in
            try keep(variant, JPEGImage.thumbnail(of: bytes))
        }
    }

    /// Makes `variant` from the image of `upstream` (turned, or shrunk): `derive` runs on
    /// a worker with the upstream's bytes.
    private func wait(
        for upstream: ImageVariant, in variant: ImageVariant, source: PhotoSource, urgency: SourceFetcher.Urgency,
        derive: @escaping @Sendable ([UInt8]) throws -> Outcome
    ) {
        flights.withLock { $0[variant]?.upstream = upstream }
        image(upstream, source: source, urgency: urgency) { [self] outcome in
            let bytes: [UInt8]
            switch outcome {
            case .failed(let failure):
                return finish(variant, .failed(failure))
            case .unkept(let unkept, _):
                bytes = unkept
            case .kept(let kept):
                do {
                    bytes = try Self.read(kept.path, bytes: kept.bytes)
                } catch {
                    // Evicted between the lookup and the read: rare enough to fail this once.
                    return finish(variant, .failed(.unreachable("the kept image went before it was read: \(error)")))
                }
            }
            workers.submit { [self] in
                do {
                    finish(variant, try derive(bytes))
                } catch {
                    finish(variant, .failed(.notAJPEG("\(error)")))
                }
            }
        }
    }

    /// Fetches `url` for `variant`, then `accept`s its bytes on a worker: a thrown error is
    /// the failure `.notAJPEG`; nil, or a failed fetch, goes to `otherwise`, which returns
    /// whether it took over the flight (else the flight fails).
    private func fetch(
        _ url: String, for variant: ImageVariant, urgency: SourceFetcher.Urgency,
        accept: @escaping @Sendable ([UInt8]) throws -> Outcome?,
        otherwise: @escaping @Sendable (SourceFailure?) -> Bool = { _ in false }
    ) {
        let id = fetcher.fetch(url, urgency: urgency) { [self] result in
            switch result {
            case .failure(let failure):
                copy.counters.countFailure(failure)
                if !otherwise(failure) { finish(variant, .failed(failure)) }
            case .success(let bytes):
                workers.submit { [self] in
                    do {
                        if let outcome = try accept(bytes) {
                            finish(variant, outcome)
                        } else if !otherwise(nil) {
                            finish(variant, .failed(.notAJPEG("a thumbnail of no usable size")))
                        }
                    } catch {
                        let failure = SourceFailure.notAJPEG("\(error)")
                        copy.counters.countFailure(failure)
                        if !otherwise(failure) { finish(variant, .failed(failure)) }
                    }
                }
            }
        }
        flights.withLock { $0[variant]?.fetch = id }
    }

    private func keep(_ variant: ImageVariant, _ bytes: [UInt8]) throws -> Outcome {
        keep(variant, bytes, info: try JPEGImage.check(bytes))
    }

    private func keep(_ variant: ImageVariant, _ bytes: [UInt8], info: JPEGImage.Info) -> Outcome {
        switch copy.keep(variant, bytes: bytes, info: info) {
        case .kept(let kept): .kept(kept)
        case .notKept: .unkept(bytes: bytes, etag: ImageCopy.etag(of: bytes))
        }
    }

    private func finish(_ variant: ImageVariant, _ outcome: Outcome) {
        let waiters = flights.withLock { $0.removeValue(forKey: variant)?.waiters ?? [] }
        for waiter in waiters { waiter(outcome) }
    }

    private func hurry(_ variant: ImageVariant, deadline: ContinuousClock.Instant) {
        let flight = flights.withLock { $0[variant] }
        if let fetch = flight?.fetch { fetcher.hurry(fetch, answerBy: deadline) }
        if let upstream = flight?.upstream { hurry(upstream, deadline: deadline) }
    }

    /// A kept file's bytes, all `bytes` of them.
    static func read(_ path: String, bytes count: Int) throws(SystemCallError) -> [UInt8] {
        let raw = open(path, O_RDONLY | O_CLOEXEC)
        guard raw >= 0 else { throw SystemCallError(name: "open \(path)", errno: errno) }
        let file = FileDescriptor(raw)
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let read = bytes.withUnsafeMutableBytes { pread(file.rawValue, $0.baseAddress! + done, count - done, off_t(done)) }
            if read < 0, errno == EINTR { continue }
            guard read > 0 else { throw SystemCallError(name: "read \(path)", errno: read < 0 ? errno : EIO) }
            done += read
        }
        return bytes
    }
}
