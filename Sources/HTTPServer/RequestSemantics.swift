import Basics

/// The checks on a syntactically valid head that decide framing and connection
/// handling; where request smuggling is prevented (RFC 9112 §6.1, §6.3).
enum RequestSemantics {
    struct Failure: Error {
        var status: HTTPStatus
        var reason: String
        /// The fair-use rule the head breaks, when it is one.
        var refusal: RefusalRule?
    }

    static func check(
        method: HTTPMethod, target: UnsafeBufferPointer<UInt8>, version: HTTPVersion, headers: HTTPHeaders,
        limits: ParseLimits
    ) -> Result<RequestHead, Failure> {
        // RFC 9112 §3.2: a client MUST send exactly one Host in HTTP/1.1; a server MUST answer 400 otherwise.
        var hostCount = 0
        var contentLengths: [Substring] = []
        var transferCodings: [Substring] = []
        var hasTransferEncoding = false
        var connectionClose = false
        var connectionKeepAlive = false
        var expectsContinue = false
        var authorizationCount = 0
        for (name, value) in headers {
            if name.caseInsensitiveEquals("host") {
                hostCount += 1
            } else if name.caseInsensitiveEquals("content-length") {
                // Empty elements are kept here, so "" and "5," are refused, not ignored.
                contentLengths += value.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingSpacesAndTabs() }
            } else if name.caseInsensitiveEquals("transfer-encoding") {
                hasTransferEncoding = true
                transferCodings += listElements(value)
            } else if name.caseInsensitiveEquals("connection") {
                for option in listElements(value) {
                    if option.caseInsensitiveEquals("close") { connectionClose = true }
                    if option.caseInsensitiveEquals("keep-alive") { connectionKeepAlive = true }
                }
            } else if name.caseInsensitiveEquals("expect") {
                expectsContinue = value.caseInsensitiveEquals("100-continue")
            } else if name.caseInsensitiveEquals("authorization") {
                authorizationCount += 1
            }
        }
        // Authorization is a singleton field (RFC 9110 §11.6.2 allows no list): of two, a
        // server and a proxy in front of it might each believe a different one.
        if authorizationCount > 1 {
            return .failure(
                Failure(status: .badRequest, reason: "more than one Authorization header", refusal: .authorizationHeaders))
        }
        if version == .http1_1, hostCount != 1 {
            return .failure(Failure(status: .badRequest, reason: "an HTTP/1.1 request needs exactly one Host header, it has \(hostCount)"))
        }
        if hostCount > 1 {
            return .failure(Failure(status: .badRequest, reason: "more than one Host header"))
        }

        var framing = BodyFraming.none
        if hasTransferEncoding {
            if !contentLengths.isEmpty {
                return .failure(Failure(status: .badRequest, reason: "both Transfer-Encoding and Content-Length are present"))
            }
            if version == .http1_0 {
                return .failure(Failure(status: .badRequest, reason: "Transfer-Encoding is not allowed in HTTP/1.0"))
            }
            let chunkedPositions = transferCodings.indices.filter { transferCodings[$0].caseInsensitiveEquals("chunked") }
            if transferCodings.isEmpty {
                return .failure(Failure(status: .badRequest, reason: "Transfer-Encoding is empty"))
            }
            if let first = chunkedPositions.first, first != transferCodings.count - 1 || chunkedPositions.count > 1 {
                return .failure(Failure(status: .badRequest, reason: "chunked must be the last transfer coding, applied once"))
            }
            if chunkedPositions.count != transferCodings.count {
                return .failure(Failure(status: .notImplemented, reason: "only the chunked transfer coding is supported"))
            }
            framing = .chunked
        } else if !contentLengths.isEmpty {
            guard contentLengths.count == 1 else {
                return .failure(Failure(status: .badRequest, reason: "more than one Content-Length"))
            }
            guard let length = parseContentLength(contentLengths[0]) else {
                return .failure(Failure(status: .badRequest, reason: "Content-Length is not a decimal number of bytes"))
            }
            if length > limits.maxBodyBytes {
                return .failure(Failure(status: .contentTooLarge, reason: "the body exceeds \(limits.maxBodyBytes) bytes"))
            }
            framing = length == 0 ? .none : .contentLength(length)
        }

        guard target.first == UInt8(ascii: "/") else {
            return .failure(Failure(status: .badRequest, reason: "the request-target must be a path starting with /"))
        }
        let queryStart = target.firstIndex(of: UInt8(ascii: "?"))
        guard let path = decode(target, 0..<(queryStart ?? target.count), plusIsSpace: false), !path.utf8.contains(0) else {
            return .failure(Failure(status: .badRequest, reason: "the path has an invalid percent-escape"))
        }
        let targetText = String(decoding: target, as: UTF8.self)
        var query = QueryString()
        if let queryStart {
            guard let valid = QueryString(validating: targetText, from: queryStart + 1) else {
                return .failure(Failure(status: .badRequest, reason: "the query has an invalid percent-escape"))
            }
            query = valid
        }

        // RFC 9112 §9.3: HTTP/1.1 persists unless "close"; HTTP/1.0 only with "keep-alive".
        let keepAlive = !connectionClose && (version == .http1_1 || connectionKeepAlive)
        return .success(
            RequestHead(
                method: method, target: targetText, path: path, query: query,
                version: version, headers: headers, framing: framing, keepAlive: keepAlive,
                expectsContinue: expectsContinue && version == .http1_1 && framing != .none))
    }

    private static func decode(_ target: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, plusIsSpace: Bool) -> String? {
        PercentDecoding.decode(UnsafeBufferPointer(rebasing: target[range]), plusIsSpace: plusIsSpace)
    }

    /// The elements of a comma-separated list field (RFC 9110 §5.6.1), trimmed, empty ones dropped.
    static func listElements(_ value: String) -> [Substring] {
        value.split(separator: ",").map { $0.trimmingSpacesAndTabs() }.filter { !$0.isEmpty }
    }

    /// `Content-Length = 1*DIGIT` (RFC 9110 §8.6), refusing signs, spaces and overflow.
    static func parseContentLength(_ value: Substring) -> Int? {
        guard !value.isEmpty, value.utf8.count <= 18 else { return nil }
        var result = 0
        for byte in value.utf8 {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            result = result * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return result
    }
}
