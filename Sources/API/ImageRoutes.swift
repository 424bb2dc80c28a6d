import Basics
import Catalog
import HTTPServer
import Images

/// `GET /photos/{photoID}/image?size=`: the photograph, from the disk copy. A kept image
/// is answered on the event loop, its file sent with `sendfile(2)` (`FileBody`); one not
/// kept is handed to the `ImageMaker`, which fetches it off the loop and answers through
/// the responder, by the contract's 10 s.
struct ImageRoutes {
    /// The current generation of the catalog, read once per request.
    let catalog: @Sendable () -> PhotoCatalog
    let maker: ImageMaker
    let sources: PhotoImageSources

    static let parameters: QueryParameterNames = ["size"]
    static let contentType = "image/jpeg"
    /// How long a request may wait for its source: the contract's 10 s for every answer,
    /// less room to answer.
    static let answerWithin: Duration = .milliseconds(9500)

    private static let headers = HTTPHeaders([("Content-Type", contentType)])

    func register(in router: inout Router) {
        router.add(
            .get, "/photos/{photoID}/image", caching: .images,
            .immediateUnlessHandOff({ try kept($0) }, handOff: { make($0, $1) }))
    }

    /// `/photos/<photoID>/image`, the photo ID percent-encoded where it is not an
    /// unreserved character (RFC 3986 §2.3): what PhotoSummary's `imageURL` says.
    static func path(ofPhoto photoID: String) -> String {
        var path = Array("/photos/".utf8)
        for byte in photoID.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                path.append(byte)
            default:
                path.append(UInt8(ascii: "%"))
                Hex.append(byte: byte, to: &path)
            }
        }
        path += "/image".utf8
        return String(decoding: path, as: UTF8.self)
    }

    /// The image asked for and where its source is: 404 for an unknown photo, 400 for a bad `size`.
    func variant(_ request: HTTPRequest) throws -> (variant: ImageVariant, source: PhotoSource) {
        let catalog = self.catalog()
        let photoID = request.pathParameters["photoID"] ?? ""
        guard let photo = catalog.photoIndex(photoID: photoID) else { throw HTTPError.unknownPhoto(photoID) }
        let parameters = try QueryParameters(request, known: Self.parameters)
        let size = try Self.size(parameters, default: .full)
        let variant = ImageVariant(photoID: photoID, size: size, turn: catalog.acceptedTurn(ofPhoto: photo))
        return (variant, sources.source(of: catalog.photos[photo]))
    }

    /// `size`: `thumb` or `600`.
    static func size(_ parameters: QueryParameters, default defaultSize: ImageSize) throws -> ImageSize {
        guard let text = parameters.value("size") else { return defaultSize }
        guard let size = ImageSize(rawValue: text) else {
            throw QueryParameters.invalid("size", "must be 'thumb' or '600'")
        }
        return size
    }

    /// The kept image's answer, on the event loop; nil when it is not kept.
    private func kept(_ request: HTTPRequest) throws -> HTTPResponse? {
        let (variant, _) = try variant(request)
        guard let image = maker.copy.kept(variant) else {
            maker.copy.counters.countMiss()
            return nil
        }
        maker.copy.counters.countHit()
        var response = HTTPResponse(headers: Self.headers, etag: image.etag)
        response.streamedBody = FileBody(path: image.path, length: image.bytes)
        response.acceptsRanges = true
        return response
    }

    /// Has the image made, and answers when it is.
    private func make(_ request: HTTPRequest, _ responder: HTTPResponder) {
        let deadline = ContinuousClock.now + Self.answerWithin
        let variant: ImageVariant, source: PhotoSource
        do {
            (variant, source) = try self.variant(request)
        } catch {
            return responder.respond { throw error }
        }
        maker.image(variant, source: source, urgency: .answer(by: deadline)) { outcome in
            responder.respond { try Self.response(to: outcome) }
        }
    }

    static func response(to outcome: ImageMaker.Outcome) throws -> HTTPResponse {
        var response: HTTPResponse
        switch outcome {
        case .kept(let image):
            response = HTTPResponse(headers: headers, etag: image.etag)
            response.streamedBody = FileBody(path: image.path, length: image.bytes)
        case .unkept(let bytes, let etag):
            response = HTTPResponse(headers: headers, body: bytes, etag: etag)
        case .failed(let failure):
            throw HTTPError(
                failure.isTimeout ? .gatewayTimeout : .badGateway, detail: "the photo's source gave no image: \(failure)")
        }
        response.acceptsRanges = true
        return response
    }
}
