/// A block of IP addresses in CIDR notation (RFC 4632 §3.1; RFC 4291 §2.3): `10.0.0.0/8`,
/// `2001:db8::/32`, or one address (`127.0.0.1`, `::1`). IPv4 blocks are held as blocks
/// of IPv4-mapped IPv6 addresses (`IPAddress`), so a block matches an address however
/// either was written; an IPv6 block that covers `::ffff:0:0/96` covers IPv4 addresses too.
public struct IPAddressRange: Hashable, Sendable, CustomStringConvertible {
    /// The first address of the block: `network.bits & mask == network.bits`.
    public let network: IPAddress
    /// How many leading bits of the 128 every address of the block shares with `network`.
    public let prefixLength: Int

    /// Parses `address` or `address/prefix`, the address as `IPAddress` reads it (with
    /// `inet_pton`), the prefix a decimal of at most 32 after an IPv4 address and at
    /// most 128 after an IPv6 one. Bits below the prefix are ignored, as nginx's
    /// `set_real_ip_from` does: `10.1.2.3/8` is `10.0.0.0/8`. Nil for anything else.
    public init?(_ text: some StringProtocol) {
        let utf8 = text.utf8
        let slash = utf8.firstIndex(of: UInt8(ascii: "/"))
        guard let address = IPAddress(utf8: utf8[..<(slash ?? utf8.endIndex)]) else { return nil }
        let writtenAsIPv6 = utf8[..<(slash ?? utf8.endIndex)].contains(UInt8(ascii: ":"))
        let widthWritten = writtenAsIPv6 ? 128 : 32
        var written = widthWritten
        if let slash {
            let digits = utf8[utf8.index(after: slash)...]
            guard (1...3).contains(digits.count), digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
                return nil
            }
            written = digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
            guard written <= widthWritten else { return nil }
        }
        prefixLength = 128 - widthWritten + written
        network = IPAddress(bits: address.bits & Self.mask(prefixLength))
    }

    /// Whether `address` lies in the block.
    public func contains(_ address: IPAddress) -> Bool {
        address.bits & Self.mask(prefixLength) == network.bits
    }

    /// `network/prefix` in the network's own notation: an IPv4 prefix after an IPv4 network.
    public var description: String {
        "\(network)/\(network.isIPv4 ? prefixLength - 96 : prefixLength)"
    }

    /// The `prefixLength` leading bits set, the others clear.
    private static func mask(_ prefixLength: Int) -> UInt128 {
        prefixLength == 0 ? 0 : UInt128.max << (128 - prefixLength)
    }
}
