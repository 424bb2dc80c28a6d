import Descriptors
import Glibc
import Testing

@testable import TestSupport

@Suite struct FileDescriptorTests {
    static func socketPair() throws -> (FileDescriptor, FileDescriptor) {
        var ends: [Int32] = [0, 0]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0, &ends) == 0)
        return (FileDescriptor(ends[0]), FileDescriptor(ends[1]))
    }

    @Test func closesOnceHoweverOftenAsked() throws {
        let (first, firstPeer) = try Self.socketPair()
        first.close()
        #expect(!first.isOpen)
        var byte: UInt8 = 0
        #expect(recv(firstPeer.rawValue, &byte, 1, Int32(MSG_DONTWAIT)) == 0)
        // The kernel hands out the lowest free number, most likely `first`'s again: a
        // second close of `first` must not close whoever holds the number now.
        let (second, secondPeer) = try Self.socketPair()
        first.close()
        #expect(fcntl(second.rawValue, F_GETFD) != -1)
        #expect(fcntl(secondPeer.rawValue, F_GETFD) != -1)
    }

    @Test func releasingTheLastReferenceCloses() throws {
        var (end, peer): (FileDescriptor?, FileDescriptor) = try Self.socketPair()
        #expect(end?.isOpen == true)
        end = nil
        var byte: UInt8 = 0
        #expect(recv(peer.rawValue, &byte, 1, Int32(MSG_DONTWAIT)) == 0)
    }

    /// A refused connect must leave the client's socket closed, once (it once closed it
    /// in `init` and again in `deinit`).
    @Test func aRawHTTPClientWhoseConnectFailsClosesItsSocketOnce() throws {
        // A bound socket that does not listen: connecting to its port is refused.
        let bound = FileDescriptor(Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let port = try withUnsafeMutablePointer(to: &address) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                try #require(bind(bound.rawValue, raw, length) == 0)
                try #require(getsockname(bound.rawValue, raw, &length) == 0)
                return Int(UInt16(bigEndian: pointer.pointee.sin_port))
            }
        }
        let socket = FileDescriptor(Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0))
        #expect(throws: RawHTTPClient.ClientError.self) {
            try RawHTTPClient(socket: socket, port: port, timeout: .seconds(1))
        }
        #expect(!socket.isOpen)
    }
}
