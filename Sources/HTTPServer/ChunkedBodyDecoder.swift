import Basics

/// Decodes a chunked request body (RFC 9112 §7.1) incrementally, as bytes arrive.
/// Chunk extensions are checked for syntax and ignored; trailer fields are checked
/// and dropped (RFC 9112 §7.1.2 lets a recipient discard them).
struct ChunkedBodyDecoder {
    private enum State {
        case size
        case data(remaining: Int)
        case dataEnd
        case trailers
        case done
    }

    /// How far decoding got: done, or waiting for more; either way the bytes used.
    enum Progress {
        case complete(consumed: Int)
        case incomplete(consumed: Int)
        case invalid(HTTPStatus, reason: String)
    }

    private var state = State.size
    private let maxBodyBytes: Int
    private var trailerBytes = 0
    /// A chunk-size line longer than this is refused: nothing legitimate needs more.
    static let maxLineBytes = 4096

    init(maxBodyBytes: Int) {
        self.maxBodyBytes = maxBodyBytes
    }

    /// Consumes what it can of `buffer`, appending chunk data to `body`.
    mutating func decode(_ buffer: UnsafeBufferPointer<UInt8>, into body: inout [UInt8]) -> Progress {
        var index = 0
        while true {
            switch state {
            case .done:
                return .complete(consumed: index)
            case .size:
                guard let lineEnd = findCRLF(buffer, from: index) else {
                    return lineIncomplete(buffer, from: index, allowed: Self.maxLineBytes)
                }
                guard let size = Self.parseChunkSizeLine(UnsafeBufferPointer(rebasing: buffer[index..<lineEnd])) else {
                    return .invalid(.badRequest, reason: "a malformed chunk size line")
                }
                index = lineEnd + 2
                if size > maxBodyBytes - body.count {
                    return .invalid(.contentTooLarge, reason: "the body exceeds \(maxBodyBytes) bytes")
                }
                state = size == 0 ? .trailers : .data(remaining: size)
            case .data(let remaining):
                let available = min(remaining, buffer.count - index)
                guard available > 0 else { return .incomplete(consumed: index) }
                body.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[index..<(index + available)]))
                index += available
                state = remaining == available ? .dataEnd : .data(remaining: remaining - available)
            case .dataEnd:
                guard buffer.count - index >= 2 else { return .incomplete(consumed: index) }
                guard buffer[index] == 0x0D, buffer[index + 1] == 0x0A else {
                    return .invalid(.badRequest, reason: "chunk data is not followed by CRLF")
                }
                index += 2
                state = .size
            case .trailers:
                guard let lineEnd = findCRLF(buffer, from: index) else {
                    return lineIncomplete(buffer, from: index, allowed: Self.maxLineBytes)
                }
                let line = UnsafeBufferPointer(rebasing: buffer[index..<lineEnd])
                trailerBytes += line.count + 2
                if trailerBytes > Self.maxLineBytes {
                    return .invalid(.badRequest, reason: "the trailer section is too large")
                }
                index = lineEnd + 2
                if line.isEmpty {
                    state = .done
                } else if !Self.isValidTrailerLine(line) {
                    return .invalid(.badRequest, reason: "a malformed trailer field")
                }
            }
        }
    }

    private func lineIncomplete(_ buffer: UnsafeBufferPointer<UInt8>, from index: Int, allowed: Int) -> Progress {
        // A CR or LF in the pending part means a bare one: the line can never become valid.
        let pending = buffer[index...]
        if let cr = pending.firstIndex(of: 0x0D), cr != buffer.count - 1 {
            return .invalid(.badRequest, reason: "a bare CR in a chunk line")
        }
        if pending.contains(0x0A) {
            return .invalid(.badRequest, reason: "a bare LF in a chunk line")
        }
        if pending.count > allowed {
            return .invalid(.badRequest, reason: "a chunk line is too long")
        }
        return .incomplete(consumed: index)
    }

    private func findCRLF(_ buffer: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var index = start
        while index + 1 < buffer.count {
            if buffer[index] == 0x0D { return buffer[index + 1] == 0x0A ? index : nil }
            if buffer[index] == 0x0A { return nil }
            index += 1
        }
        return nil
    }

    /// `chunk-size [ chunk-ext ]` where `chunk-ext = *( BWS ";" BWS chunk-ext-name [ BWS "=" BWS chunk-ext-val ] )`.
    static func parseChunkSizeLine(_ line: UnsafeBufferPointer<UInt8>) -> Int? {
        var index = 0
        var size = 0
        while index < line.count, let digit = Hex.value(ofDigit: line[index]) {
            guard index < 15 else { return nil }
            size = size << 4 | Int(digit)
            index += 1
        }
        guard index > 0 else { return nil }
        func skipWhitespace() { while index < line.count, line[index] == 0x20 || line[index] == 0x09 { index += 1 } }
        func token() -> Bool {
            let start = index
            while index < line.count, HTTPToken.isToken(line[index]) { index += 1 }
            return index > start
        }
        while true {
            skipWhitespace()
            guard index < line.count else { return size }
            guard line[index] == UInt8(ascii: ";") else { return nil }
            index += 1
            skipWhitespace()
            guard token() else { return nil }
            skipWhitespace()
            guard index < line.count, line[index] == UInt8(ascii: "=") else { continue }
            index += 1
            skipWhitespace()
            if index < line.count, line[index] == UInt8(ascii: "\"") {
                index += 1
                while index < line.count, line[index] != UInt8(ascii: "\"") {
                    if line[index] == UInt8(ascii: "\\") { index += 1 }
                    guard index < line.count, HTTPToken.isFieldValueByte(line[index]) else { return nil }
                    index += 1
                }
                guard index < line.count else { return nil }
                index += 1
            } else {
                guard token() else { return nil }
            }
        }
    }

    /// A trailer line must look like a field line: `token ":" OWS value`.
    static func isValidTrailerLine(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > 0 else { return false }
        return line[..<colon].allSatisfy(HTTPToken.isToken) && line[(colon + 1)...].allSatisfy(HTTPToken.isFieldValueByte)
    }
}
