import Basics
import Gzip

/// Turns a handler's `HTTPResponse` into the bytes on the wire, adding what the server
/// owns: `Date`, `Server`, `Content-Length`, `Connection`, `X-Request-ID`, CORS, `Vary`,
/// gzip, `ETag` and the 304 of a matching `If-None-Match`, and dropping the body for HEAD.
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
    }

    /// The encoded response, with what the access log reports. The head and the body
    /// stay apart, so the body is written to the socket as the handler made it, uncopied.
    struct Encoded {
        /// The status line and header section, up to and including the empty line.
        var head: [UInt8]
        /// The body bytes to send: empty for HEAD, 204 and 304.
        var body: [UInt8]
        var status: HTTPStatus
    }

    /// Bodies at or under this size are sent as they are: gzip would barely help.
    static let minimumGzipBytes = 1024

    static let exposedHeaders = "ETag, Retry-After, WWW-Authenticate, Location, X-Request-ID"

    /// The head's bytes besides the status, the header values and names: the status line's
    /// and each field's punctuation, the fixed names, a 20-digit status code and Content-Length.
    private static let fixedHeadBytes = 160

    /// Header names the server sets itself; a handler's values for them are dropped.
    private static let serverOwned = ["Content-Length", "Connection", "Date", "Server", "Transfer-Encoding", "X-Request-ID"]

    static func encode(_ response: HTTPResponse, context: Context, serverName: String, date: [UInt8]) -> Encoded {
        var status = response.status
        var headers = response.headers
        var body = response.body
        for name in serverOwned where headers.contains(name) { headers.remove(name) }

        let compressible = isCompressible(headers)
        let wantsGzip = compressible && body.count > minimumGzipBytes && AcceptEncoding.allowsGzip(context.requestHeaders)
        if compressible { addVary(to: &headers) }

        if let etag = response.etag, status == .ok, context.method == .get || context.method == .head {
            let conditional = context.requestHeaders.contains("If-None-Match")
            let gzipTag = wantsGzip || conditional ? EntityTag.gzipVariant(of: etag) : etag
            headers.set("ETag", wantsGzip ? gzipTag : etag)
            if conditional, EntityTag.ifNoneMatch(context.requestHeaders, matchesAnyOf: [etag, gzipTag]) {
                // RFC 9110 §15.4.5: a 304 carries the validators and Vary, never a body.
                status = .notModified
                headers.remove("Content-Type")
                body = []
            }
        }
        if wantsGzip, status != .notModified, let compressed = response.gzippedBody?() ?? (try? Gzip.compress(body)) {
            body = compressed
            headers.set("Content-Encoding", "gzip")
        }
        if context.requestHeaders.contains("Origin") {
            headers.set("Access-Control-Allow-Origin", "*")
            headers.set("Access-Control-Expose-Headers", exposedHeaders)
        }

        // RFC 9110 §8.6: no Content-Length in 1xx and 204; in 304 it would describe the 200's body.
        let hasContentLength = status.code >= 200 && status != .noContent && status != .notModified
        var capacity =
            fixedHeadBytes + status.reasonPhrase.utf8.count + date.count + serverName.utf8.count
            + context.requestID.utf8.count
        for (name, value) in headers { capacity += name.utf8.count + value.utf8.count + 4 }
        let head = ByteWriter.bytes(capacity: capacity) { bytes in
            bytes.write("HTTP/1.1 ")
            bytes.write(decimal: status.code)
            bytes.write(UInt8(ascii: " "))
            bytes.write(utf8: status.reasonPhrase)
            bytes.write("\r\nDate: ")
            bytes.write(date)
            bytes.write("\r\nServer: ")
            bytes.write(utf8: serverName)
            for (name, value) in headers {
                bytes.write("\r\n")
                bytes.write(utf8: name)
                bytes.write(": ")
                bytes.write(utf8: value)
            }
            bytes.write("\r\nX-Request-ID: ")
            bytes.write(utf8: context.requestID)
            if hasContentLength {
                bytes.write("\r\nContent-Length: ")
                bytes.write(decimal: body.count)
            }
            if context.closing {
                bytes.write("\r\nConnection: close")
            } else if context.echoKeepAlive {
                bytes.write("\r\nConnection: keep-alive")
            }
            bytes.write("\r\n\r\n")
        }
        let sendsBody = context.method != .head && status != .notModified && status != .noContent
        return Encoded(head: head, body: sendsBody ? body : [], status: status)
    }

    /// The interim `100 Continue` (RFC 9110 §15.2.1).
    static let continueResponse = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    /// JSON, YAML and text bodies not already content-coded may be sent gzipped.
    private static func isCompressible(_ headers: HTTPHeaders) -> Bool {
        guard !headers.contains("Content-Encoding"), let type = headers["Content-Type"] else { return false }
        if type == HTTPResponse.jsonContentType { return true }
        let bytes = Array(type.utf8)
        return contains(bytes, "json") || contains(bytes, "yaml") || bytes.starts(with: "text/".utf8)
    }

    /// A byte search: `String.contains(String)` goes through grapheme-aware matching,
    /// which showed up in profiles for what is an ASCII media type.
    private static func contains(_ haystack: [UInt8], _ needle: StaticString) -> Bool {
        let needle = UnsafeBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount)
        guard haystack.count >= needle.count else { return false }
        for start in 0...(haystack.count - needle.count)
        where haystack[start] == needle[0] && haystack[start..<(start + needle.count)].elementsEqual(needle) {
            return true
        }
        return false
    }

    private static func addVary(to headers: inout HTTPHeaders) {
        guard let vary = headers["Vary"] else {
            headers.add("Vary", "Accept-Encoding")
            return
        }
        if !RequestSemantics.listElements(vary).contains(where: { $0.caseInsensitiveEquals("Accept-Encoding") || $0 == "*" }) {
            headers.set("Vary", vary + ", Accept-Encoding")
        }
    }
}
