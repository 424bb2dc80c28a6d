import Glibc

/// An IP address as one 128-bit number: an IPv6 address as it is, an IPv4 address in
/// its IPv4-mapped IPv6 form (`::ffff:a.b.c.d`, RFC 4291 §2.5.5.2). So `1.2.3.4` and
/// `::ffff:1.2.3.4`, from a socket or from a header, are one value, one dictionary key
/// and one `description`, and the rules keyed on client addresses agree.
public struct IPAddress: Hashable, Sendable, CustomStringConvertible {
    /// The address's 16 bytes, the first one the most significant.
    public let bits: UInt128

    /// The longest text `inet_pton` can accept: `INET6_ADDRSTRLEN` less the terminating NUL.
    private static let maxTextBytes = 45
    private static let ipv4MappedPrefix: UInt128 = 0xffff << 32

    public init(bits: UInt128) {
        self.bits = bits
    }

    /// An address written as text, IPv4 (`192.0.2.1`) or IPv6 (`2001:db8::1`,
    /// `::ffff:192.0.2.1`), as `inet_pton` reads it; nil for anything else (a zone
    /// index, a port, spaces, a host name).
    public init?(_ text: some StringProtocol) {
        self.init(utf8: text.utf8)
    }

    /// The same from the bytes of the text, e.g. one element of a header value, without
    /// making a `String` of it.
    public init?(utf8 text: some Collection<UInt8>) {
        guard text.count <= Self.maxTextBytes else { return nil }
        let isIPv6 = text.contains(UInt8(ascii: ":"))
        let parsed: UInt128? = withUnsafeTemporaryAllocation(of: CChar.self, capacity: Self.maxTextBytes + 1) { buffer in
            var end = 0
            for byte in text {
                guard byte != 0 else { return nil }
                buffer[end] = CChar(bitPattern: byte)
                end += 1
            }
            buffer[end] = 0
            if isIPv6 {
                var address = in6_addr()
                guard inet_pton(AF_INET6, buffer.baseAddress, &address) == 1 else { return nil }
                return Self.bits(of: address)
            }
            var address = in_addr()
            guard inet_pton(AF_INET, buffer.baseAddress, &address) == 1 else { return nil }
            return Self.bits(of: address)
        }
        guard let parsed else { return nil }
        bits = parsed
    }

    /// The address of a socket's peer, as `accept` fills it in; nil for a family other
    /// than IPv4 and IPv6.
    init?(_ address: sockaddr_storage) {
        var address = address
        switch Int32(address.ss_family) {
        case AF_INET:
            bits = withUnsafeBytes(of: &address) { Self.bits(of: $0.load(as: sockaddr_in.self).sin_addr) }
        case AF_INET6:
            bits = withUnsafeBytes(of: &address) { Self.bits(of: $0.load(as: sockaddr_in6.self).sin6_addr) }
        default:
            return nil
        }
    }

    /// Whether this is an IPv4 address (written as such, or IPv4-mapped).
    public var isIPv4: Bool { bits >> 32 == 0xffff }

    /// The one spelling of the address, as `inet_ntop` writes it: dotted IPv4 for an
    /// IPv4 address, however it was written, else IPv6 with zeros compressed (RFC 5952).
    public var description: String {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(INET6_ADDRSTRLEN)) { buffer in
            var written: UnsafePointer<CChar>?
            if isIPv4 {
                var address = in_addr(s_addr: UInt32(truncatingIfNeeded: bits).bigEndian)
                written = inet_ntop(AF_INET, &address, buffer.baseAddress, socklen_t(buffer.count))
            } else {
                var address = in6_addr()
                withUnsafeMutableBytes(of: &address) { bytes in
                    for index in 0..<16 { bytes[index] = UInt8(truncatingIfNeeded: bits >> (120 - 8 * index)) }
                }
                written = inet_ntop(AF_INET6, &address, buffer.baseAddress, socklen_t(buffer.count))
            }
            guard let written else { return "" }
            return String(cString: written)
        }
    }

    private static func bits(of address: in_addr) -> UInt128 {
        ipv4MappedPrefix | UInt128(UInt32(bigEndian: address.s_addr))
    }

    private static func bits(of address: in6_addr) -> UInt128 {
        var address = address
        return withUnsafeBytes(of: &address) { bytes in bytes.reduce(UInt128(0)) { $0 << 8 | UInt128($1) } }
    }
}
