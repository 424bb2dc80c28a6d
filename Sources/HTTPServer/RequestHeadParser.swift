/// Parses a request line and header section (RFC 9112 §2–§5) from raw bytes: a pure
/// function in the manner of picohttpparser, so every malformed or truncated input can
/// be tested without a socket.
///
/// Choices where the RFCs leave room, all on the strict side because this server sits
/// behind nothing that would normalise requests for it:
/// - Lines end in CRLF; a bare LF or CR anywhere in the head is refused (400).
/// - Only origin-form targets (`/path?query`) are served; absolute-form and the
///   asterisk-form are refused (400). No proxy ever talks to us in absolute-form.
/// - More than one `Content-Length` field or list element is refused (400), even when
///   the values are identical (RFC 9112 §6.3 ¶5 allows either).
/// - `Transfer-Encoding` on HTTP/1.0 is refused (400, RFC 9112 §6.1 ¶16).
enum RequestHeadParser {
    /// The longest method accepted; the registered ones are at most 17 bytes.
    static let maxMethodBytes = 32

    static func parse(_ bytes: [UInt8], limits: ParseLimits = .default) -> ParseResult<RequestHead> {
        bytes.withUnsafeBufferPointer { parse($0, limits: limits) }
    }

    static func parse(_ buffer: UnsafeBufferPointer<UInt8>, limits: ParseLimits) -> ParseResult<RequestHead> {
        var scanner = Scanner(buffer: buffer, limits: limits)
        return scanner.parseHead()
    }

    private struct Scanner {
        let buffer: UnsafeBufferPointer<UInt8>
        let limits: ParseLimits
        var index = 0

        init(buffer: UnsafeBufferPointer<UInt8>, limits: ParseLimits) {
            self.buffer = buffer
            self.limits = limits
        }

        /// Incomplete, unless the head already exceeds its limit.
        private func incomplete() -> ParseResult<RequestHead> {
            if buffer.count > limits.maxHeadBytes {
                return .invalid(.requestHeaderFieldsTooLarge, reason: "the request head exceeds \(limits.maxHeadBytes) bytes")
            }
            return .incomplete
        }

        /// Reads a request-line part that ends with one space (the method, the
        /// request-target): the bytes from `index` that `isPart` accepts. Sets `part` and
        /// moves past the space, returning nil; otherwise returns what to answer. Its
        /// length is checked whether or not the space has arrived, so a head sent in pieces
        /// is refused exactly when the same head sent whole is (found by fuzzing).
        private mutating func readSpaceEndedPart(
            into part: inout Range<Int>, maxBytes: Int, tooLong status: HTTPStatus, _ tooLong: @autoclosure () -> String,
            malformed: StaticString, _ isPart: (UInt8) -> Bool
        ) -> ParseResult<RequestHead>? {
            let start = index
            while index < buffer.count, isPart(buffer[index]) { index += 1 }
            if index - start > maxBytes { return .invalid(status, reason: tooLong()) }
            guard index < buffer.count else { return incomplete() }
            guard index > start, buffer[index] == 0x20 else { return .invalid(.badRequest, reason: malformed.description) }
            part = start..<index
            index += 1
            return nil
        }

        mutating func parseHead() -> ParseResult<RequestHead> {
            // RFC 9112 §2.2: ignore empty lines received before the request-line.
            while index + 1 < buffer.count, buffer[index] == 0x0D, buffer[index + 1] == 0x0A { index += 2 }
            // A last CR may be the start of one more empty line: wait for what follows it,
            // so a head whose empty lines arrive split between CR and LF is read as whole.
            if index + 1 == buffer.count, buffer[index] == 0x0D { return incomplete() }
            let headStart = index

            // method = token
            var methodRange = 0..<0
            if let refused = readSpaceEndedPart(
                into: &methodRange, maxBytes: RequestHeadParser.maxMethodBytes, tooLong: .badRequest, "the method is too long",
                malformed: "the request line does not start with a method token and one space", HTTPToken.isToken)
            {
                return refused
            }

            // request-target: visible ASCII only (RFC 3986 characters are a subset).
            var target = 0..<0
            let maxURIBytes = limits.maxURIBytes
            if let refused = readSpaceEndedPart(
                into: &target, maxBytes: maxURIBytes, tooLong: .uriTooLong, "the request-target exceeds \(maxURIBytes) bytes",
                malformed: "the request-target contains a byte that is not visible ASCII", { $0 > 0x20 && $0 < 0x7F })
            {
                return refused
            }

            // HTTP-version = "HTTP/" DIGIT "." DIGIT, then CRLF.
            let versionStart = index
            while index < buffer.count, buffer[index] != 0x0D, buffer[index] != 0x0A, index - versionStart <= 8 {
                index += 1
            }
            guard index < buffer.count else { return incomplete() }
            let versionEnd = index
            guard buffer[index] == 0x0D else {
                return .invalid(.badRequest, reason: "the request line does not end with CRLF")
            }
            guard index + 1 < buffer.count else { return incomplete() }
            guard buffer[index + 1] == 0x0A else {
                return .invalid(.badRequest, reason: "the request line does not end with CRLF")
            }
            index += 2
            let version: HTTPVersion
            switch versionOf(versionStart..<versionEnd) {
            case .supported(let parsed):
                version = parsed
            case .malformed:
                return .invalid(.badRequest, reason: "the HTTP version is malformed")
            case .unsupported:
                return .invalid(.httpVersionNotSupported, reason: "only HTTP/1.0 and HTTP/1.1 are supported")
            }

            // Header fields.
            var headers = HTTPHeaders()
            while true {
                guard index < buffer.count else { return incomplete() }
                if buffer[index] == 0x0D {
                    guard index + 1 < buffer.count else { return incomplete() }
                    guard buffer[index + 1] == 0x0A else {
                        return .invalid(.badRequest, reason: "a bare CR in the header section")
                    }
                    index += 2
                    break
                }
                if buffer[index] == 0x20 || buffer[index] == 0x09 {
                    // RFC 9112 §5.2: obs-fold is refused; so is whitespace before the first field.
                    return .invalid(.badRequest, reason: "obsolete line folding or leading whitespace in the header section")
                }
                let nameStart = index
                while index < buffer.count, HTTPToken.isToken(buffer[index]) { index += 1 }
                guard index < buffer.count else { return incomplete() }
                guard buffer[index] == UInt8(ascii: ":") else {
                    if buffer[index] == 0x20 || buffer[index] == 0x09 {
                        // RFC 9112 §5.1: no whitespace between field name and colon.
                        return .invalid(.badRequest, reason: "whitespace between a header field name and the colon")
                    }
                    return .invalid(.badRequest, reason: "a header field name contains a byte that is not a token character")
                }
                guard index > nameStart else {
                    return .invalid(.badRequest, reason: "a header field has an empty name")
                }
                let nameEnd = index
                index += 1
                while index < buffer.count, buffer[index] == 0x20 || buffer[index] == 0x09 { index += 1 }
                let valueStart = index
                while index < buffer.count, HTTPToken.isFieldValueByte(buffer[index]) { index += 1 }
                guard index < buffer.count else { return incomplete() }
                guard buffer[index] == 0x0D else {
                    return .invalid(.badRequest, reason: "a header field value contains a control character")
                }
                guard index + 1 < buffer.count else { return incomplete() }
                guard buffer[index + 1] == 0x0A else {
                    return .invalid(.badRequest, reason: "a bare CR in a header field value")
                }
                var valueEnd = index
                while valueEnd > valueStart, buffer[valueEnd - 1] == 0x20 || buffer[valueEnd - 1] == 0x09 { valueEnd -= 1 }
                index += 2
                if index - headStart > limits.maxHeadBytes { return incomplete() }
                headers.add(string(nameStart..<nameEnd), string(valueStart..<valueEnd))
            }
            if index - headStart > limits.maxHeadBytes {
                return .invalid(.requestHeaderFieldsTooLarge, reason: "the request head exceeds \(limits.maxHeadBytes) bytes")
            }

            let method = HTTPMethod(rawValue: string(methodRange))
            switch RequestSemantics.check(
                method: method, target: UnsafeBufferPointer(rebasing: buffer[target]),
                version: version, headers: headers, limits: limits)
            {
            case .success(let head):
                return .complete(head, consumed: index)
            case .failure(let failure):
                return .invalid(failure.status, reason: failure.reason, refusal: failure.refusal)
            }
        }

        private enum VersionCheck {
            case supported(HTTPVersion)
            case malformed
            /// Well-formed (RFC 9112 §2.3) but not 1.0 or 1.1: 505.
            case unsupported
        }

        private func versionOf(_ range: Range<Int>) -> VersionCheck {
            let bytes = buffer[range]
            guard bytes.count == 8, bytes.starts(with: "HTTP/".utf8) else { return .malformed }
            let major = bytes[range.lowerBound + 5], dot = bytes[range.lowerBound + 6], minor = bytes[range.lowerBound + 7]
            guard isDigit(major), dot == UInt8(ascii: "."), isDigit(minor) else { return .malformed }
            switch (major, minor) {
            case (UInt8(ascii: "1"), UInt8(ascii: "1")): return .supported(.http1_1)
            case (UInt8(ascii: "1"), UInt8(ascii: "0")): return .supported(.http1_0)
            default: return .unsupported
            }
        }

        private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

        private func string(_ range: Range<Int>) -> String {
            String(decoding: UnsafeBufferPointer(rebasing: buffer[range]), as: UTF8.self)
        }
    }
}
