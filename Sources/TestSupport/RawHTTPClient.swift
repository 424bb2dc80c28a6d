import Basics
import Descriptors
import Foundation
import Glibc

/// A test client speaking HTTP/1.1 over a plain blocking socket, byte for byte as the
/// test writes it, so malformed and pipelined requests reach the server unaltered.
/// Every read has a timeout: a test fails instead of hanging.
///
/// Not `Sendable`: one test task owns it.
public final class RawHTTPClient {
    public struct Response {
        public var version: String
        public var status: Int
        public var reason: String
        public var headers: [(name: String, value: String)]
        public var body: [UInt8]

        /// The first value of `name`, compared case-insensitively.
        public func header(_ name: String) -> String? {
            headers.first { $0.name.caseInsensitiveEquals(name) }?.value
        }

        public func headerValues(_ name: String) -> [String] {
            headers.filter { $0.name.caseInsensitiveEquals(name) }.map(\.value)
        }

        public var bodyText: String { String(decoding: body, as: UTF8.self) }

        /// The body as a JSON object; throws when it is not one.
        public func object() throws -> [String: Any] {
            guard let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] else {
                throw ClientError.notAJSONObject(String(bodyText.prefix(200)))
            }
            return object
        }

        /// The `detail` of a problem body (RFC 9457); empty when there is none.
        public var problemDetail: String {
            (try? object())?["detail"] as? String ?? ""
        }

        /// Removes the first whole response from the front of `bytes`; nil while it is
        /// incomplete. `forHead` as in `readResponse`.
        public static func take(from bytes: inout [UInt8], forHead: Bool = false) throws -> Response? {
            guard let headEnd = headEnd(in: bytes) else { return nil }
            let headText = String(decoding: bytes[..<headEnd], as: UTF8.self)
            var lines = headText.split(separator: "\r\n", omittingEmptySubsequences: false)
            let statusLine = lines.removeFirst().split(separator: " ", maxSplits: 2)
            guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
                throw ClientError.malformedResponse("status line \(headText.prefix(80))")
            }
            var headers: [(name: String, value: String)] = []
            for line in lines {
                guard let colon = line.firstIndex(of: ":") else { throw ClientError.malformedResponse("field \(line)") }
                headers.append((String(line[..<colon]), String(line[line.index(after: colon)...].trimmingSpacesAndTabs())))
            }
            var response = Response(
                version: String(statusLine[0]), status: status, reason: statusLine.count > 2 ? String(statusLine[2]) : "",
                headers: headers, body: [])
            var length = 0
            if !forHead, let lengthText = response.header("Content-Length") {
                guard let declared = Int(lengthText) else { throw ClientError.malformedResponse("Content-Length \(lengthText)") }
                length = declared
            }
            let bodyStart = headEnd + 4
            guard bytes.count - bodyStart >= length else { return nil }
            response.body = Array(bytes[bodyStart..<(bodyStart + length)])
            bytes.removeFirst(bodyStart + length)
            return response
        }

        /// Where the header section's closing empty line starts.
        private static func headEnd(in bytes: [UInt8]) -> Int? {
            guard bytes.count >= 4 else { return nil }
            return (0...(bytes.count - 4)).first { index in
                bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10
            }
        }
    }

    public enum ClientError: Error, CustomStringConvertible {
        case systemCall(String, errno: Int32)
        case timedOut
        case closedBeforeResponse(received: Int)
        case malformedResponse(String)
        case notAJSONObject(String)

        public var description: String {
            switch self {
            case .systemCall(let name, let code): "\(name) failed with errno \(code)"
            case .timedOut: "no response before the timeout"
            case .closedBeforeResponse(let received): "the server closed the connection after \(received) bytes"
            case .malformedResponse(let what): "malformed response: \(what)"
            case .notAJSONObject(let body): "the body is not a JSON object: \(body)"
            }
        }
    }

    private let socket: FileDescriptor
    private var descriptor: Int32 { socket.rawValue }
    private var buffer: [UInt8] = []
    private var closedByPeer = false

    /// Connects to 127.0.0.1:`port` from `localAddress`, an IPv4 address of this host
    /// (any of 127.0.0.0/8 is one, so 127.0.0.2 and 127.0.0.3 are two more clients to the
    /// server), or from 127.0.0.1 when nil; reads give up after `timeout`.
    public convenience init(port: Int, from localAddress: String? = nil, timeout: Duration = .seconds(5)) throws {
        // Close-on-exec: a server process another test spawns must not inherit this connection.
        let descriptor = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw ClientError.systemCall("socket", errno: errno) }
        try self.init(socket: FileDescriptor(descriptor), port: port, from: localAddress, timeout: timeout)
    }

    /// Connects `socket` (owning it from now on), bound first to `localAddress` when
    /// given. Every stored property is set before anything can throw, so `deinit` runs on
    /// failure too and alone closes the socket: `init` must not (it once did, and `deinit`
    /// closed the number a second time).
    init(socket: FileDescriptor, port: Int, from localAddress: String? = nil, timeout: Duration) throws {
        self.socket = socket
        let descriptor = socket.rawValue
        let (seconds, attoseconds) = timeout.components
        var interval = timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &interval, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &interval, socklen_t(MemoryLayout<timeval>.size))
        if let localAddress {
            // Bound before connecting, so the connection leaves from this address (port 0: any free one).
            var local = try Self.address(localAddress, port: 0)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else { throw ClientError.systemCall("bind", errno: errno) }
        }
        var address = try Self.address("127.0.0.1", port: port)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else { throw ClientError.systemCall("connect", errno: errno) }
    }

    private static func address(_ text: String, port: Int) throws -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        guard inet_pton(AF_INET, text, &address.sin_addr) == 1 else { throw ClientError.systemCall("inet_pton(\(text))", errno: EINVAL) }
        return address
    }

    deinit {
        socket.close()
    }

    public func send(_ text: String) throws {
        try send(Array(text.utf8))
    }

    public func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { raw in
                Glibc.send(descriptor, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
            }
            if written < 0 {
                if errno == EINTR { continue }
                throw ClientError.systemCall("send", errno: errno)
            }
            offset += written
        }
    }

    /// Reads one response. `forHead`: the request was HEAD, so no body follows whatever
    /// `Content-Length` says. Responses without `Content-Length` (1xx, 204, 304) have no body.
    public func readResponse(forHead: Bool = false) throws -> Response {
        while true {
            if let response = try Response.take(from: &buffer, forHead: forHead) { return response }
            guard !closedByPeer else { throw ClientError.closedBeforeResponse(received: buffer.count) }
            try receive()
        }
    }

    /// Waits until the server closes the connection; true if it did before the timeout.
    /// Any bytes received meanwhile are kept for `readResponse`.
    public func waitForClose() throws -> Bool {
        while !closedByPeer {
            do {
                try receive()
            } catch ClientError.timedOut {
                return false
            } catch ClientError.systemCall(_, let code) where code == ECONNRESET {
                return true
            }
        }
        return true
    }

    /// Bytes received but not yet consumed by `readResponse`.
    public var unreadBytes: [UInt8] { buffer }

    private func receive() throws {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                buffer.append(contentsOf: chunk[..<count])
                return
            }
            if count == 0 {
                closedByPeer = true
                return
            }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: throw ClientError.timedOut
            default: throw ClientError.systemCall("recv", errno: errno)
            }
        }
    }
}
