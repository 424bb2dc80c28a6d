import Basics
import CCurl
import Glibc
import Synchronization

/// Fetches source images over HTTP(S) with libcurl's multi interface: one thread drives
/// every transfer at once (`curl_multi_poll`), so a source that hangs holds a socket,
/// never a thread, and the multi handle's connection cache reuses each host's
/// connections from one image to the next (TLS included).
///
/// Each transfer gets at most `Settings.timeout` (8 s; less when the request it answers
/// must be answered sooner) and `maximumBytes` (10 MiB: `CURLOPT_MAXFILESIZE_LARGE` stops
/// one that announces more, the write callback one that sends more). It follows up to
/// five redirects, over `http` and `https` only, sends a `User-Agent` naming the server,
/// and keeps the source's bytes only: its `Content-Type` is not believed, the bytes are
/// checked to be a JPEG by the caller.
///
/// **Gentle to the source.** At most `maxConcurrent` transfers run at once, background
/// ones (packs, prefetch) at most `maxBackground` of them, and a request's fetch goes
/// before every background one. A `429` (or a `503` with `Retry-After`) holds every
/// fetch from that host until the time it asked for (10 s without one, 5 minutes at
/// most): background fetches wait for it, a request's fetch that cannot wait fails.
///
/// `Sendable`: callers only post to `inbox` and wake the loop; everything else lives on
/// the loop's thread (`FetchLoop`).
public final class SourceFetcher: Sendable {
    /// The most a source image may weigh.
    public static let maximumBytes = 10 << 20
    /// The most a source gets to answer.
    public static let timeout: Duration = .seconds(8)
    /// What the fetches say they are: the server's name and version (openapi.yaml's).
    public static let userAgent = "past-nyc/0.1.0"

    public struct Settings: Sendable {
        /// Transfers at once, at most.
        public var maxConcurrent = 32
        /// Background transfers at once, at most (the contract's 8 for packs).
        public var maxBackground = 8
        public var timeout = SourceFetcher.timeout
        public var userAgent = SourceFetcher.userAgent

        public init() {}
    }

    /// How soon a fetch is wanted.
    public enum Urgency: Sendable {
        /// A request waits for it and must be answered by then: it goes first, and fails
        /// as `timedOut` rather than answer later.
        case answer(by: ContinuousClock.Instant)
        /// Nobody waits at a socket: a pack's or a prefetch's image.
        case background
    }

    public typealias Completion = @Sendable (Result<[UInt8], SourceFailure>) -> Void

    private let shared: FetchLoop.Shared

    public init(settings: Settings = Settings()) throws(SystemCallError) {
        shared = try FetchLoop.start(settings: settings)
    }

    deinit {
        shared.post(.stop)
    }

    /// Fetches `url`; `completion` runs on the fetcher's thread, so it must hand any
    /// real work elsewhere. Returns the fetch's number, for `hurry`.
    @discardableResult
    public func fetch(_ url: String, urgency: Urgency, completion: @escaping Completion) -> UInt64 {
        let id = shared.nextID.add(1, ordering: .relaxed).newValue
        shared.post(.fetch(FetchLoop.Job(id: id, url: url, urgency: urgency, completion: completion)))
        return id
    }

    /// A request now waits for fetch `id`: if it has not started, it goes first, to be
    /// answered by `deadline`.
    public func hurry(_ id: UInt64, answerBy deadline: ContinuousClock.Instant) {
        shared.post(.hurry(id: id, deadline: deadline))
    }
}

/// The fetcher's thread: the multi handle, the transfers running and the fetches waiting.
/// `@unchecked Sendable` only to be handed to its thread: from then on, that thread alone
/// touches it; other threads reach the loop through `Shared`.
private final class FetchLoop: @unchecked Sendable {
    /// `@unchecked Sendable`: made by the caller and handed over once, through the inbox;
    /// from then on only the loop touches it (`urgency` included).
    final class Job: @unchecked Sendable {
        let id: UInt64
        let url: String
        let host: String
        var urgency: SourceFetcher.Urgency
        let completion: SourceFetcher.Completion

        init(id: UInt64, url: String, urgency: SourceFetcher.Urgency, completion: @escaping SourceFetcher.Completion) {
            self.id = id
            self.url = url
            self.urgency = urgency
            self.completion = completion
            host = Self.host(of: url)
        }

        var isBackground: Bool {
            if case .background = urgency { return true }
            return false
        }

        /// The authority of an absolute URL, lowercased: what a `429` holds.
        static func host(of url: String) -> String {
            guard let start = url.firstRange(of: "://")?.upperBound else { return url }
            return String(url[start...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }).lowercased()
        }
    }

    enum Message: Sendable {
        case fetch(Job)
        case hurry(id: UInt64, deadline: ContinuousClock.Instant)
        case stop
    }

    /// What other threads touch: the inbox and the multi handle's wake-up.
    final class Shared: Sendable {
        let multi: MultiHandle
        let inbox = Mutex<[Message]>([])
        let nextID = Atomic<UInt64>(0)

        init(multi: MultiHandle) {
            self.multi = multi
        }

        func post(_ message: Message) {
            inbox.withLock { $0.append(message) }
            multi.wake()
        }
    }

    /// The `CURLM` handle, cleaned up once, when both the loop and the fetcher are gone.
    /// `Sendable`: other threads only call `curl_multi_wakeup`, which is thread-safe.
    final class MultiHandle: @unchecked Sendable {
        let raw: UnsafeMutableRawPointer

        init() throws(SystemCallError) {
            guard let raw = curl_multi_init() else { throw SystemCallError(name: "curl_multi_init", errno: ENOMEM) }
            self.raw = raw
        }

        deinit {
            curl_multi_cleanup(raw)
        }

        func wake() {
            curl_multi_wakeup(raw)
        }
    }

    private let settings: SourceFetcher.Settings
    private let shared: Shared
    private var waitingRequests: [Job] = []
    private var waitingBackground: [Job] = []
    private var running: [UnsafeMutableRawPointer: Transfer] = [:]
    private var runningBackground = 0
    /// Until when each host asked not to be asked (`429`, `Retry-After`).
    private var holds: [String: ContinuousClock.Instant] = [:]

    /// libcurl's global state, set up once before the first handle (`curl_global_init(3)`:
    /// not thread-safe, hence a lazily initialized global, which Swift runs once).
    private static let globalSetUp: Void = {
        curl_global_init(Int(CURL_GLOBAL_DEFAULT))
    }()

    private init(settings: SourceFetcher.Settings, shared: Shared) {
        self.settings = settings
        self.shared = shared
    }

    static func start(settings: SourceFetcher.Settings) throws(SystemCallError) -> Shared {
        _ = globalSetUp
        let shared = Shared(multi: try MultiHandle())
        let loop = FetchLoop(settings: settings, shared: shared)
        try NativeThread.spawn(name: "image-fetch") { loop.run() }.detach()
        return shared
    }

    private func run() {
        while true {
            let messages = shared.inbox.withLock { inbox in
                defer { inbox.removeAll(keepingCapacity: true) }
                return inbox
            }
            for message in messages {
                switch message {
                case .fetch(let job):
                    if job.isBackground { waitingBackground.append(job) } else { waitingRequests.append(job) }
                case .hurry(let id, let deadline):
                    hurry(id, deadline: deadline)
                case .stop:
                    stop()
                    return
                }
            }
            startWhatFits()
            var stillRunning: Int32 = 0
            curl_multi_perform(shared.multi.raw, &stillRunning)
            finishDone()
            startWhatFits()
            curl_multi_poll(shared.multi.raw, nil, 0, pollTimeout(), nil)
        }
    }

    private func hurry(_ id: UInt64, deadline: ContinuousClock.Instant) {
        if let index = waitingBackground.firstIndex(where: { $0.id == id }) {
            let job = waitingBackground.remove(at: index)
            job.urgency = .answer(by: deadline)
            waitingRequests.append(job)
        } else if let job = waitingRequests.first(where: { $0.id == id }), case .answer(let by) = job.urgency, deadline < by {
            job.urgency = .answer(by: deadline)
        }
    }

    /// Starts waiting fetches while there is room: requests first, in order; then
    /// background ones up to their share. A request that can no longer be answered in
    /// time, or whose host holds it past its deadline, fails now.
    private func startWhatFits() {
        let now = ContinuousClock.now
        var index = 0
        while index < waitingRequests.count {
            let job = waitingRequests[index]
            guard case .answer(let deadline) = job.urgency else { index += 1; continue }
            if deadline - now < Self.shortestTransfer {
                waitingRequests.remove(at: index)
                job.completion(.failure(.timedOut))
                continue
            }
            if let hold = holds[job.host], hold > now {
                guard hold >= deadline else { index += 1; continue }
                waitingRequests.remove(at: index)
                job.completion(.failure(.status(429, retryAfter: Int((hold - now).components.seconds) + 1)))
                continue
            }
            guard running.count < settings.maxConcurrent else { return }
            waitingRequests.remove(at: index)
            start(job, timeout: min(settings.timeout, deadline - now))
        }
        index = 0
        while index < waitingBackground.count, running.count < settings.maxConcurrent, runningBackground < settings.maxBackground {
            let job = waitingBackground[index]
            if let hold = holds[job.host], hold > now {
                index += 1
                continue
            }
            waitingBackground.remove(at: index)
            start(job, timeout: settings.timeout)
        }
    }

    /// Less than this left before a request's deadline: not worth asking the source.
    private static let shortestTransfer: Duration = .milliseconds(250)

    /// How long the loop may sleep: until the next deadline or hold ends (curl shortens
    /// it for its own timeouts, and a post wakes it).
    private func pollTimeout() -> Int32 {
        let now = ContinuousClock.now
        var wake = now + .seconds(1)
        for job in waitingRequests { if case .answer(let deadline) = job.urgency { wake = min(wake, deadline - Self.shortestTransfer) } }
        for hold in holds.values where hold > now { wake = min(wake, hold) }
        let milliseconds = (wake - now).components.seconds * 1000 + (wake - now).components.attoseconds / 1_000_000_000_000_000
        return Int32(max(1, min(1000, milliseconds)))
    }

    private func start(_ job: Job, timeout: Duration) {
        let transfer: Transfer
        do {
            transfer = try Transfer(job: job, timeout: timeout, settings: settings)
        } catch {
            job.completion(.failure(.unreachable("\(error)")))
            return
        }
        guard curl_multi_add_handle(shared.multi.raw, transfer.easy) == CURLM_OK else {
            job.completion(.failure(.unreachable("curl_multi_add_handle failed")))
            return
        }
        running[transfer.easy] = transfer
        if job.isBackground { runningBackground += 1 }
    }

    /// Completes every transfer libcurl reports done.
    private func finishDone() {
        var left: Int32 = 0
        while let message = curl_multi_info_read(shared.multi.raw, &left) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle,
                let transfer = running.removeValue(forKey: easy)
            else { continue }
            let code = message.pointee.data.result
            curl_multi_remove_handle(shared.multi.raw, easy)
            if transfer.job.isBackground { runningBackground -= 1 }
            let outcome = transfer.outcome(code)
            if case .failure(.status(let status, let retryAfter)) = outcome, status == 429 || (status == 503 && retryAfter != nil) {
                holds[transfer.job.host] = ContinuousClock.now + .seconds(min(retryAfter ?? 10, 300))
            }
            transfer.job.completion(outcome)
        }
    }

    private func stop() {
        for transfer in running.values {
            curl_multi_remove_handle(shared.multi.raw, transfer.easy)
            transfer.job.completion(.failure(.unreachable("the server is stopping")))
        }
        running.removeAll()
        for job in waitingRequests + waitingBackground { job.completion(.failure(.unreachable("the server is stopping"))) }
        waitingRequests.removeAll()
        waitingBackground.removeAll()
    }
}

/// One transfer: its easy handle, the bytes received so far, and what the answer's
/// head said. The callbacks reach it through an unretained pointer: `FetchLoop.running`
/// holds it for as long as libcurl may call them.
private final class Transfer {
    let job: FetchLoop.Job
    let easy: UnsafeMutableRawPointer
    private var headers: UnsafeMutablePointer<curl_slist>?
    private var body: [UInt8] = []
    private var exceeded = false
    private var retryAfter: Int?

    init(job: FetchLoop.Job, timeout: Duration, settings: SourceFetcher.Settings) throws(SystemCallError) {
        guard let easy = curl_easy_init() else { throw SystemCallError(name: "curl_easy_init", errno: ENOMEM) }
        self.job = job
        self.easy = easy
        headers = curl_slist_append(nil, "Accept: image/jpeg")
        let context = Unmanaged.passUnretained(self).toOpaque()
        let milliseconds = Int(timeout.components.seconds) * 1000 + Int(timeout.components.attoseconds / 1_000_000_000_000_000)
        curl_setopt_string(easy, CURLOPT_URL, job.url)
        curl_setopt_string(easy, CURLOPT_PROTOCOLS_STR, "http,https")
        curl_setopt_string(easy, CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        curl_setopt_long(easy, CURLOPT_FOLLOWLOCATION, 1)
        curl_setopt_long(easy, CURLOPT_MAXREDIRS, 5)
        curl_setopt_long(easy, CURLOPT_NOSIGNAL, 1)
        curl_setopt_long(easy, CURLOPT_TIMEOUT_MS, max(1, milliseconds))
        curl_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, max(1, min(milliseconds, 4000)))
        curl_setopt_offset(easy, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(SourceFetcher.maximumBytes))
        curl_setopt_string(easy, CURLOPT_USERAGENT, settings.userAgent)
        curl_setopt_slist(easy, CURLOPT_HTTPHEADER, headers)
        curl_setopt_data_callback(easy, CURLOPT_WRITEFUNCTION, { buffer, size, count, context in
            Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue().received(buffer, size * count)
        })
        curl_setopt_pointer(easy, CURLOPT_WRITEDATA, context)
        curl_setopt_data_callback(easy, CURLOPT_HEADERFUNCTION, { buffer, size, count, context in
            Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue().header(buffer, size * count)
        })
        curl_setopt_pointer(easy, CURLOPT_HEADERDATA, context)
    }

    deinit {
        curl_easy_cleanup(easy)
        curl_slist_free_all(headers)
    }

    /// Keeps a piece of the body; 0 (libcurl then stops) past `maximumBytes`.
    private func received(_ buffer: UnsafeMutablePointer<CChar>?, _ count: Int) -> Int {
        guard body.count + count <= SourceFetcher.maximumBytes else {
            exceeded = true
            return 0
        }
        if let buffer { body.append(contentsOf: UnsafeRawBufferPointer(start: UnsafeRawPointer(buffer), count: count)) }
        return count
    }

    /// One header line: a status line starts a new answer (after a redirect), and
    /// `Retry-After` in whole seconds is kept.
    private func header(_ buffer: UnsafeMutablePointer<CChar>?, _ count: Int) -> Int {
        guard let buffer else { return count }
        let line = String(decoding: UnsafeRawBufferPointer(start: UnsafeRawPointer(buffer), count: count), as: UTF8.self)
        if line.hasPrefix("HTTP/") {
            retryAfter = nil
        } else if let colon = line.firstIndex(of: ":"), line[..<colon].caseInsensitiveEquals("Retry-After") {
            retryAfter = Int(line[line.index(after: colon)...].trimmingSpacesAndTabs().prefix { $0.isASCII && $0.isNumber })
        }
        return count
    }

    /// What the finished transfer gave.
    func outcome(_ code: CURLcode) -> Result<[UInt8], SourceFailure> {
        switch code {
        case CURLE_OK:
            var status = 0
            curl_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
            guard (200..<300).contains(status) else { return .failure(.status(status, retryAfter: retryAfter)) }
            return .success(body)
        case CURLE_OPERATION_TIMEDOUT:
            return .failure(.timedOut)
        case CURLE_FILESIZE_EXCEEDED:
            return .failure(.tooLarge)
        case CURLE_WRITE_ERROR where exceeded:
            return .failure(.tooLarge)
        default:
            return .failure(.unreachable(String(cString: curl_easy_strerror(code))))
        }
    }
}
