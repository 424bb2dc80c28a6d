import Dispatch
import Glibc
import HTTPServer
import Images
import Logging
import Synchronization

/// A local image source for tests, on 127.0.0.1 and a port the kernel picks: our own
/// `HTTPServer` answering the paths of the catalog's three photo hosts (`/600px/…`,
/// `/thumb/…`, `/rotated-assets/…`, and `/?id=…` of images.nypl.org) with JPEGs made
/// here by TurboJPEG, and on demand a source that fails, hangs, answers HTML or too much.
/// Point an application at it with `--image-origin` (`url`). It counts every request by
/// path, so a test sees how often the source was asked. Shut down on release.
///
/// `Sendable`: its state is behind locks.
public final class TestImageOrigin: Sendable {
    /// How the origin answers a path.
    public enum Behaviour: Sendable, Equatable {
        /// The JPEG of the path: `/thumb/` paths get `thumbnail`, the images.nypl.org
        /// path (`/`) `wide`, every other `full`.
        case jpeg
        /// The JPEG after this long.
        case slow(Duration)
        /// This status, with a `Retry-After` when given, and a short text body.
        case status(Int, retryAfter: Int?)
        /// No answer, until the origin shuts down.
        case hang
        /// An HTML page with `Content-Type: image/jpeg`.
        case html
        /// 11 MiB that start like a JPEG.
        case oversized
    }

    /// A 608×400 colour JPEG (whole 16-px blocks, so a turn moves every pixel) whose
    /// quarters differ (`pixels`).
    public static let full: [UInt8] = jpeg(width: 608, height: 400)
    /// A 150×100 colour JPEG, a source thumbnail.
    public static let thumbnail: [UInt8] = jpeg(width: 150, height: 100)
    /// A 760×512 JPEG: images.nypl.org's image, which is also its "thumbnail".
    public static let wide: [UInt8] = jpeg(width: 760, height: 512)

    /// What the handlers and the test share: the behaviours, the counts, the hung requests.
    private final class State: Sendable {
        let lock = Mutex<(default: Behaviour, byPath: [String: Behaviour], counts: [String: Int], hung: [HTTPResponder])>(
            (.jpeg, [:], [:], []))
    }

    private let server: HTTPServer
    private let state = State()

    public init() throws {
        var configuration = HTTPServerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.workerThreads = 2
        configuration.maxConnectionsPerClient = 0
        var router = Router()
        let handler = RouteHandler.deferred { [state] request, responder in
            Self.answer(request, responder, state: state)
        }
        for path in ["/", "/600px/{name}", "/thumb/{name}", "/rotated-assets/600px/{name}", "/rotated-assets/thumb/{name}"] {
            router.add(.get, path, caching: .unspecified, handler)
        }
        signal(SIGPIPE, SIG_IGN)
        server = HTTPServer(configuration: configuration, router: router, logger: Logger(label: "origin", factory: { _ in SwiftLogNoOpLogHandler() }))
        try server.start()
    }

    deinit {
        shutdown()
    }

    /// `http://127.0.0.1:<port>`, for `--image-origin`.
    public var url: String { "http://127.0.0.1:\(server.port)" }

    /// How every path answers from now on, but those given their own.
    public func setDefault(_ behaviour: Behaviour) {
        state.lock.withLock { $0.default = behaviour }
    }

    /// How `path` (with its query, as requested) answers from now on.
    public func set(_ behaviour: Behaviour, for path: String) {
        state.lock.withLock { $0.byPath[path] = behaviour }
    }

    /// Requests for `path` (with its query) so far.
    public func requests(for path: String) -> Int {
        state.lock.withLock { $0.counts[path] ?? 0 }
    }

    /// Requests for any path so far.
    public var totalRequests: Int {
        state.lock.withLock { $0.counts.values.reduce(0, +) }
    }

    /// Answers every hung request (`503`) and stops.
    public func shutdown() {
        let hung = state.lock.withLock { state in
            defer { state.hung = [] }
            return state.hung
        }
        for responder in hung { responder.respond { throw HTTPError(.serviceUnavailable, detail: "The origin stops.") } }
        server.shutdown()
    }

    private static func answer(
        _ request: HTTPRequest, _ responder: HTTPResponder,
        state: State
    ) {
        let path = request.target
        let behaviour = state.lock.withLock { state -> Behaviour in
            state.counts[path, default: 0] += 1
            return state.byPath[path] ?? state.default
        }
        let image = request.path.hasPrefix("/thumb/") || request.path.hasPrefix("/rotated-assets/thumb/") ? thumbnail
            : request.path == "/" ? wide : full
        switch behaviour {
        case .jpeg:
            responder.respond { jpegResponse(image) }
        case .slow(let delay):
            DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(delay.components.seconds * 1_000_000_000 + delay.components.attoseconds / 1_000_000_000))) {
                responder.respond { jpegResponse(image) }
            }
        case .status(let code, let retryAfter):
            responder.respond {
                var response = HTTPResponse(
                    status: HTTPStatus(code: code, reasonPhrase: "Test"), headers: HTTPHeaders([("Content-Type", "text/plain")]),
                    body: Array("no image today".utf8))
                if let retryAfter { response.headers.add("Retry-After", String(retryAfter)) }
                return response
            }
        case .hang:
            state.lock.withLock { $0.hung.append(responder) }
        case .html:
            responder.respond {
                HTTPResponse(headers: HTTPHeaders([("Content-Type", "image/jpeg")]), body: Array("<!doctype html><title>Not found</title>".utf8))
            }
        case .oversized:
            responder.respond { jpegResponse(Array(full.prefix(2)) + [UInt8](repeating: 0x20, count: 11 << 20)) }
        }
    }

    private static func jpegResponse(_ bytes: [UInt8]) -> HTTPResponse {
        HTTPResponse(headers: HTTPHeaders([("Content-Type", "image/jpeg")]), body: bytes)
    }

    /// A colour gradient, red across and green down, blue in the top-left quarter only:
    /// a turn moves each of those somewhere a test can find.
    public static func pixels(width: Int, height: Int) -> JPEGImage.Pixels {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                bytes += [UInt8(x * 255 / max(width - 1, 1)), UInt8(y * 255 / max(height - 1, 1)), x < width / 2 && y < height / 2 ? 255 : 0]
            }
        }
        return JPEGImage.Pixels(width: width, height: height, isGray: false, bytes: bytes)
    }

    public static func jpeg(width: Int, height: Int) -> [UInt8] {
        // Made from pixels built here: a failure is a broken TurboJPEG, which no test survives.
        try! JPEGImage.encode(pixels(width: width, height: height), quality: 90)
    }
}
