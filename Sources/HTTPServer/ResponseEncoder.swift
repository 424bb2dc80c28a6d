import Basics
import Gzip

/// Turns a handler's `HTTPResponse` into the bytes on the wire, adding what the server
/// owns: `Date`, `Server`, `X-Content-Type-Options`, `Content-Length`, `Connection`, `X-Request-ID`, CORS, `Vary`,
/// gzip, `ETag` and the 304 of a matching `If-None-Match`, the 206 and 416 of a `Range`
/// (`RangeSelection`), `Cache-Control` by the route's `CachePolicy`, and dropping the body for HEAD.
enum ResponseEncoder {
    /// What the encoder needs to know of the request being answered.
    struct Context {
        var method: HTTPMethod
        var requestHeaders: HTTPHeaders
        var requestID: String
        /// The connection closes after this response: send `Connection: close`.
        var closing: Bool
        /// HTTP/1.0 keep-alive: echo `Connection: keep-alive` (RFC 9112 §C.2.2).
        var echoKeepAlive: Bool
        /// What the route's answers tell caches.
        var caching: CachePolicy
    }

    /// The encoded response, with what the access log reports. The head and the body
    /// stay apart, so the body is written to the socket as the handler made it, uncopied.
    struct Encoded {
        /// The status line and header section, up to and including the empty line.
        var head: [UInt8]
        /// The body bytes to send: empty for HEAD, 204 and 304, and for a streamed body.
        var body: [UInt8]
        /// The part of the response's `StreamedBody` to send after the head, if any.
        var streamed: (body: any StreamedBody, range: Range<Int>)?
        var status: HTTPStatus

        /// The body bytes sent after the head, for the access log.
        var bodyBytes: Int { streamed?.range.count ?? body.count }
    }

    /// Bodies at or under this size are sent as they are: gzip would barely help.
    static let minimumGzipBytes = 1024

    static let exposedHeaders = "ETag, Retry-After, WWW-Authenticate, Location, X-Request-ID, Content-Range"

    /// The head's bytes besides the status and the header values and names: the status line's
    /// and each field's punctuation, the fixed names (the server's own, the CORS pair, and
    /// a range answer's `Content-Type` and `Content-Range`), a 20-digit status code and
    /// Content-Length, and `noSniffField`.
    private static let fixedHeadBytes = 288 + noSniffField.utf8CodeUnitCount

    /// On every response, errors, 304s and preflights included: browsers take each body
    /// as the `Content-Type` says and never guess another type from its bytes (Fetch
    /// §3.5, https://fetch.spec.whatwg.org/#x-content-type-options-header), so a
    /// user's text can never run as a script or a style sheet. One constant, written as it is.
    private static let noSniffField: StaticString = "\r\nX-Content-Type-Options: nosniff"

    static func encode(_ response: HTTPResponse, context: Context, serverName: String, date: [UInt8]) -> Encoded {
        let request = RequestFields(context.requestHeaders)
        let handler = HandlerFields(response.headers)
        var status = response.status
        var body = response.body
        /// The range of the streamed body to send; nil without one, or when it is not sent.
        var streamedRange = response.streamedBody.map { 0..<$0.length }
        // What the server adds after the handler's fields, in this order; `omit` names the
        // handler's fields that these replace (RFC 9110: a set field is one field).
        var omit = Omitted()
        var vary: String?
        var etag: String?
        var contentEncoding: String?
        /// Replaces the handler's `Content-Type` when the encoder replaces its body (a 416).
        var contentType: String?
        var contentRange: String?

        // A streamed body is a file's bytes, sent as they are (photographs, archives).
        let compressible = handler.isCompressible && response.streamedBody == nil
        var wantsGzip = compressible && body.count > minimumGzipBytes && request.hasAcceptEncoding
            && AcceptEncoding.allowsGzip(context.requestHeaders)
        if compressible {
            if let existing = handler.firstVary {
                if !RequestSemantics.listElements(existing).contains(where: { $0.caseInsensitiveEquals("Accept-Encoding") || $0 == "*" }) {
                    vary = existing + ", Accept-Encoding"
                    omit.vary = true
                }
            } else {
                vary = "Accept-Encoding"
            }
        }

        if let tag = response.etag, status == .ok, context.method == .get || context.method == .head {
            let gzipTag = wantsGzip || request.hasIfNoneMatch ? EntityTag.gzipVariant(of: tag) : tag
            etag = wantsGzip ? gzipTag : tag
            omit.etag = true
            if request.hasIfNoneMatch, EntityTag.ifNoneMatch(context.requestHeaders, matchesAnyOf: [tag, gzipTag]) {
                // RFC 9110 §15.4.5: a 304 carries the validators and Vary, never a body.
                status = .notModified
                omit.contentType = true
                body = []
                streamedRange = nil
            }
        }
        if response.acceptsRanges, status == .ok, request.hasRange, context.method == .get || context.method == .head {
            let length = response.streamedBody?.length ?? body.count
            switch RangeSelection.evaluate(context.requestHeaders, etag: response.etag, length: length) {
            case .whole:
                break
            case .partial(let range):
                // RFC 9110 §14.2: a range of the identity body, so with the identity's
                // tag (§15.3.7: a 206 carries the validators and Vary a 200 would).
                status = .partialContent
                if response.streamedBody != nil {
                    streamedRange = range
                } else {
                    body = Array(body[range])
                }
                wantsGzip = false
                etag = response.etag
                contentRange = "bytes \(range.lowerBound)-\(range.upperBound - 1)/\(length)"
            case .unsatisfiable:
                // RFC 9110 §15.5.17: the current length, so the client can ask again.
                let problem = HTTPError(
                    .rangeNotSatisfiable, detail: "the range starts past the end of the \(length) bytes of this resource"
                ).problemResponse
                status = problem.status
                body = problem.body
                streamedRange = nil
                contentType = HTTPResponse.problemContentType
                omit.contentType = true
                wantsGzip = false
                etag = nil
                omit.etag = true
                contentRange = "bytes */\(length)"
            }
        }
        if wantsGzip, status != .notModified, let compressed = response.gzippedBody?() ?? (try? Gzip.compress(body)) {
            body = compressed
            contentEncoding = "gzip"
            omit.contentEncoding = true
        }
        omit.cors = request.hasOrigin
        let cacheControl = cacheControl(for: status, context: context, request: request, handler: handler)
        omit.cacheControl = cacheControl != nil

        // RFC 9110 §8.6: no Content-Length in 1xx and 204; in 304 it would describe the 200's body.
        let hasContentLength = status.code >= 200 && status != .noContent && status != .notModified
        var capacity =
            fixedHeadBytes + status.reasonPhrase.utf8.count + date.count + serverName.utf8.count
            + context.requestID.utf8.count + handler.bytes + (vary?.utf8.count ?? 0) + (etag?.utf8.count ?? 0)
            + (contentEncoding?.utf8.count ?? 0) + (cacheControl?.utf8.count ?? 0) + (contentType?.utf8.count ?? 0)
            + (contentRange?.utf8.count ?? 0) + (response.acceptsRanges ? acceptRangesField.utf8CodeUnitCount : 0)
        if omit.cors { capacity += exposedHeaders.utf8.count }
        let head = ByteWriter.bytes(capacity: capacity) { bytes in
            bytes.write("HTTP/1.1 ")
            bytes.write(decimal: status.code)
            bytes.write(UInt8(ascii: " "))
            bytes.write(utf8: status.reasonPhrase)
            bytes.write("\r\nDate: ")
            bytes.write(date)
            bytes.write("\r\nServer: ")
            bytes.write(utf8: serverName)
            bytes.write(noSniffField)
            for (name, value) in response.headers where !omit.contains(name) {
                bytes.write("\r\n")
                bytes.write(utf8: name)
                bytes.write(": ")
                bytes.write(utf8: value)
            }
            bytes.write("\r\nVary: ", ifPresent: vary)
            bytes.write("\r\nETag: ", ifPresent: etag)
            bytes.write("\r\nContent-Type: ", ifPresent: contentType)
            if response.acceptsRanges {
                bytes.write(acceptRangesField)
            }
            bytes.write("\r\nContent-Range: ", ifPresent: contentRange)
            bytes.write("\r\nContent-Encoding: ", ifPresent: contentEncoding)
            bytes.write("\r\nCache-Control: ", ifPresent: cacheControl)
            if omit.cors {
                bytes.write("\r\nAccess-Control-Allow-Origin: *\r\nAccess-Control-Expose-Headers: ")
                bytes.write(utf8: exposedHeaders)
            }
            bytes.write("\r\nX-Request-ID: ")
            bytes.write(utf8: context.requestID)
            if hasContentLength {
                bytes.write("\r\nContent-Length: ")
                bytes.write(decimal: streamedRange?.count ?? body.count)
            }
            if context.closing {
                bytes.write("\r\nConnection: close")
            } else if context.echoKeepAlive {
                bytes.write("\r\nConnection: keep-alive")
            }
            bytes.write("\r\n\r\n")
        }
        let sendsBody = context.method != .head && status != .notModified && status != .noContent
        let streamed = sendsBody ? response.streamedBody.flatMap { body in streamedRange.map { (body, $0) } } : nil
        return Encoded(head: head, body: sendsBody && streamed == nil ? body : [], streamed: streamed, status: status)
    }

    /// The `Cache-Control` the server writes, replacing the handler's, or nil to write none
    /// (the handler's own, if any, stands). See `CachePolicy`.
    private static func cacheControl(
        for status: HTTPStatus, context: Context, request: RequestFields, handler: HandlerFields
    ) -> String? {
        if context.method == .options, context.requestHeaders.contains("Access-Control-Request-Method") {
            return nil  // A CORS preflight: exempt.
        }
        if request.hasAuthorization { return CachePolicy.noStore.value }
        switch context.caching.kind {
        case .unspecified:
            return nil
        case .noStore, .revalidate:
            return context.caching.value
        case .shared:
            guard !handler.hasCacheControl, context.method == .get || context.method == .head,
                status == .ok || status == .partialContent || status == .notModified
            else { return nil }
            return context.caching.value
        }
    }

    /// What a response that serves byte ranges announces (RFC 9110 §14.3).
    private static let acceptRangesField: StaticString = "\r\nAccept-Ranges: bytes"

    /// The interim `100 Continue` (RFC 9110 §15.2.1).
    static let continueResponse = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)
}
