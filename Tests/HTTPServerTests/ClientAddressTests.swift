import HTTPServer
import Testing
import TestSupport

@testable import HTTPServer

/// How an address is read and spelled, how a CIDR block is read and matched, and the
/// rule that finds the client behind trusted proxies (`TrustedProxies`).
@Suite struct ClientAddressTests {
    @Test(arguments: [
        ("192.0.2.1", "192.0.2.1"),
        ("0.0.0.0", "0.0.0.0"),
        ("255.255.255.255", "255.255.255.255"),
        ("::ffff:192.0.2.1", "192.0.2.1"),
        ("::FFFF:C000:0201", "192.0.2.1"),
        ("2001:DB8:0:0:0:0:0:1", "2001:db8::1"),
        ("2001:db8::1", "2001:db8::1"),
        ("::1", "::1"),
        ("::", "::"),
    ])
    func anAddressHasOneSpelling(_ text: String, _ spelled: String) throws {
        let address = try #require(IPAddress(text))
        #expect(address.description == spelled)
        #expect(IPAddress(spelled) == address)
        #expect(address.isIPv4 == spelled.contains("."))
    }

    @Test(arguments: [
        "", " 192.0.2.1", "192.0.2.1 ", "192.0.2", "192.0.2.256", "192.0.2.1.5", "192.0.2.1:80", "[::1]", "::1%lo",
        "2001:db8::1::2", "unknown", "example.com", "192.0.2.1/32", "12345", String(repeating: "1", count: 50),
    ])
    func notAnAddress(_ text: String) {
        #expect(IPAddress(text) == nil)
    }

    @Test(arguments: [
        ("10.0.0.0/8", "10.0.0.0/8"),
        ("10.1.2.3/8", "10.0.0.0/8"),
        ("127.0.0.1", "127.0.0.1/32"),
        ("0.0.0.0/0", "0.0.0.0/0"),
        ("192.0.2.128/25", "192.0.2.128/25"),
        ("::1", "::1/128"),
        ("2001:db8::/32", "2001:db8::/32"),
        ("2001:db8:ff::1/48", "2001:db8:ff::/48"),
        ("::/0", "::/0"),
        ("::ffff:10.0.0.0/104", "10.0.0.0/8"),
    ])
    func aBlockIsReadAndSpelled(_ text: String, _ spelled: String) throws {
        #expect(try #require(IPAddressRange(text)).description == spelled)
    }

    @Test(arguments: [
        "", "/8", "10.0.0.0/", "10.0.0.0/33", "10.0.0.0/-1", "10.0.0.0/+8", "10.0.0.0/ 8", "10.0.0.0/8/8", "10.0.0.0/1000",
        "::/129", "2001:db8::/x", "localhost", "10.0.0.0/8 ",
    ])
    func notABlock(_ text: String) {
        #expect(IPAddressRange(text) == nil)
    }

    /// A block's first and last addresses are in it, the ones just outside are not.
    @Test func aBlockEndsWhereItsPrefixSays() throws {
        let block = try #require(IPAddressRange("192.0.2.64/26"))
        #expect(!block.contains(try #require(IPAddress("192.0.2.63"))))
        #expect(block.contains(try #require(IPAddress("192.0.2.64"))))
        #expect(block.contains(try #require(IPAddress("::ffff:192.0.2.127"))))
        #expect(!block.contains(try #require(IPAddress("192.0.2.128"))))
        let everyIPv4 = try #require(IPAddressRange("0.0.0.0/0"))
        #expect(everyIPv4.contains(try #require(IPAddress("255.255.255.255"))))
        #expect(!everyIPv4.contains(try #require(IPAddress("2001:db8::1"))))
        let six = try #require(IPAddressRange("2001:db8::/127"))
        #expect(six.contains(try #require(IPAddress("2001:db8::1"))))
        #expect(!six.contains(try #require(IPAddress("2001:db8::2"))))
    }

    /// Seeded random IPv4 blocks, written as text, against the prefix compared on 32-bit
    /// numbers, with addresses picked at and around the block's ends as well as anywhere.
    @Test func anIPv4BlockMatchesAsItsPrefixOnThirtyTwoBits() throws {
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<5_000 {
            let network = UInt32.random(in: .min ... .max, using: &generator)
            let prefix = Int.random(in: 0...32, using: &generator)
            let mask: UInt32 = prefix == 0 ? 0 : .max << (32 - prefix)
            let block = try #require(IPAddressRange("\(Self.dotted(network))/\(prefix)"))
            let first = network & mask, last = first | ~mask
            for candidate in [
                first, last, first &- 1, last &+ 1, UInt32.random(in: .min ... .max, using: &generator),
                first | UInt32.random(in: 0...UInt32.max, using: &generator) & ~mask,
            ] {
                let address = try #require(IPAddress(Self.dotted(candidate)))
                #expect(block.contains(address) == (candidate & mask == first), "\(block) \(address)")
            }
        }
    }

    /// Seeded random IPv6 blocks against a bit-by-bit comparison of the 16 bytes.
    @Test func anIPv6BlockMatchesBitByBit() throws {
        var generator = SeededGenerator(seed: 11)
        for _ in 0..<2_000 {
            let network = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
            var candidate = network
            // Flip one bit (or none), so most candidates share a long prefix with the block.
            let flipped = Int.random(in: 0...128, using: &generator)
            if flipped < 128 { candidate[flipped / 8] ^= 0x80 >> UInt8(flipped % 8) }
            let prefix = Int.random(in: 0...128, using: &generator)
            let block = try #require(IPAddressRange("\(Self.colons(network))/\(prefix)"))
            let address = try #require(IPAddress(Self.colons(candidate)))
            let sharesPrefix = (0..<prefix).allSatisfy { Self.bit($0, of: network) == Self.bit($0, of: candidate) }
            #expect(block.contains(address) == sharesPrefix, "\(block) \(address)")
        }
    }

    /// Bit `index` of `bytes`, counted from the first byte's most significant bit.
    static func bit(_ index: Int, of bytes: [UInt8]) -> UInt8 {
        let shift = UInt8(7 - index % 8)
        return bytes[index / 8] >> shift & 1
    }

    static func dotted(_ address: UInt32) -> String {
        (0..<4).map { String(address >> (24 - 8 * $0) & 0xff) }.joined(separator: ".")
    }

    static func colons(_ bytes: [UInt8]) -> String {
        stride(from: 0, to: 16, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
            .joined(separator: ":")
    }

    // MARK: The client behind trusted proxies

    struct Forwarded: CustomTestStringConvertible, Sendable {
        let name: String
        let peer: String
        /// Header fields besides Host.
        let fields: [String]
        let client: String
        var testDescription: String { name }
    }

    static let proxies = TrustedProxies(
        ["127.0.0.1", "10.0.0.0/8", "2001:db8::/32"].map { IPAddressRange($0)! })

    static let forwarded: [Forwarded] = [
        Forwarded(name: "no header", peer: "127.0.0.1", fields: [], client: "127.0.0.1"),
        Forwarded(name: "one hop", peer: "127.0.0.1", fields: ["X-Forwarded-For: 203.0.113.7"], client: "203.0.113.7"),
        Forwarded(
            name: "two hops", peer: "127.0.0.1", fields: ["X-Forwarded-For: 203.0.113.7, 10.1.2.3"], client: "203.0.113.7"),
        Forwarded(
            name: "three hops", peer: "10.0.0.9", fields: ["X-Forwarded-For: 203.0.113.7,10.0.0.5,  10.255.255.255"],
            client: "203.0.113.7"),
        Forwarded(
            name: "spoofed left entry", peer: "127.0.0.1", fields: ["X-Forwarded-For: 198.51.100.1, 203.0.113.7"],
            client: "203.0.113.7"),
        Forwarded(
            name: "spoofed trusted-looking left entry", peer: "127.0.0.1",
            fields: ["X-Forwarded-For: 10.0.0.1, 203.0.113.7, 10.0.0.2"], client: "203.0.113.7"),
        Forwarded(
            name: "several lines are one list", peer: "127.0.0.1",
            fields: ["X-Forwarded-For: 198.51.100.1", "Accept: */*", "x-forwarded-for: 203.0.113.7, 10.0.0.1"],
            client: "203.0.113.7"),
        Forwarded(
            name: "several lines, in order", peer: "127.0.0.1",
            fields: ["X-Forwarded-For: 10.0.0.9", "X-Forwarded-For: 198.51.100.2"], client: "198.51.100.2"),
        Forwarded(
            name: "empty elements ignored", peer: "127.0.0.1", fields: ["X-Forwarded-For: , 203.0.113.7 ,, 10.0.0.1,"],
            client: "203.0.113.7"),
        Forwarded(name: "empty header", peer: "127.0.0.1", fields: ["X-Forwarded-For: "], client: "127.0.0.1"),
        Forwarded(
            name: "garbage entry", peer: "127.0.0.1", fields: ["X-Forwarded-For: unknown, 203.0.113.7"], client: "127.0.0.1"),
        Forwarded(
            name: "entry with a port", peer: "127.0.0.1", fields: ["X-Forwarded-For: 203.0.113.7:443"], client: "127.0.0.1"),
        Forwarded(
            name: "garbage on a second line", peer: "127.0.0.1",
            fields: ["X-Forwarded-For: 203.0.113.7", "X-Forwarded-For: 203.0.113.7 10.0.0.1"], client: "127.0.0.1"),
        Forwarded(
            name: "IPv6 client behind an IPv6 proxy", peer: "127.0.0.1",
            fields: ["X-Forwarded-For: 2001:DB9:0:0::1, 2001:db8::5"], client: "2001:db9::1"),
        Forwarded(
            name: "IPv4-mapped client", peer: "127.0.0.1", fields: ["X-Forwarded-For: ::ffff:203.0.113.7"],
            client: "203.0.113.7"),
        Forwarded(
            name: "IPv4-mapped proxy is trusted", peer: "127.0.0.1",
            fields: ["X-Forwarded-For: 203.0.113.7, ::ffff:10.0.0.1"], client: "203.0.113.7"),
        Forwarded(
            name: "just outside a block", peer: "127.0.0.1", fields: ["X-Forwarded-For: 203.0.113.7, 11.0.0.0, 10.255.255.255"],
            client: "11.0.0.0"),
        Forwarded(
            name: "just before a block", peer: "127.0.0.1", fields: ["X-Forwarded-For: 9.255.255.255, 10.0.0.0"],
            client: "9.255.255.255"),
        Forwarded(
            name: "every entry trusted", peer: "127.0.0.1", fields: ["X-Forwarded-For: 10.0.0.1, 2001:db8::1, 10.0.0.2"],
            client: "10.0.0.1"),
        Forwarded(
            name: "other headers are not believed", peer: "127.0.0.1",
            fields: ["X-Real-IP: 203.0.113.7", "Forwarded: for=203.0.113.7", "X-Forwarded-Host: 203.0.113.7"],
            client: "127.0.0.1"),
    ]

    @Test(arguments: forwarded)
    func theClientIsTheRightMostUntrustedEntry(_ row: Forwarded) {
        let headers = HTTPHeaders(
            row.fields.map { field in
                let colon = field.firstIndex(of: ":")!
                return (String(field[..<colon]), String(field[field.index(after: colon)...].drop { $0 == " " }))
            })
        #expect(Self.proxies.clientAddress(forwardedBy: row.peer, headers: headers) == row.client)
    }

    /// Through a connection: the handler's `remoteAddress` is the forwarded client only
    /// when the peer itself is trusted.
    @Test(arguments: [
        ("127.0.0.1", "203.0.113.7"),
        ("10.9.8.7", "203.0.113.7"),
        ("192.0.2.1", "192.0.2.1"),
    ])
    func onlyATrustedPeerIsBelieved(_ peer: String, _ client: String) {
        var configuration = HTTPServerConfiguration()
        configuration.trustedProxies = Self.proxies
        let connection = InMemoryConnection(
            router: TestServer.router(signals: TestServer.Signals()), configuration: configuration, remoteAddress: peer)
        let answer = connection.send("GET /remote HTTP/1.1\r\nHost: t\r\nX-Forwarded-For: 198.51.100.1, 203.0.113.7\r\n\r\n")
        #expect(String(decoding: answer, as: UTF8.self).hasSuffix("\r\n\r\n" + client))
    }

    @Test func withoutTrustedProxiesTheHeaderIsIgnored() {
        let connection = InMemoryConnection(router: TestServer.router(signals: TestServer.Signals()), remoteAddress: "127.0.0.1")
        let answer = connection.send("GET /remote HTTP/1.1\r\nHost: t\r\nX-Forwarded-For: 203.0.113.7\r\n\r\n")
        #expect(String(decoding: answer, as: UTF8.self).hasSuffix("\r\n\r\n127.0.0.1"))
    }
}
