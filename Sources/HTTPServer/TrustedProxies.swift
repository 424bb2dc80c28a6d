/// The proxies whose `X-Forwarded-For` the server believes (`--trusted-proxy`), and the
/// one rule that finds a request's client address behind them.
///
/// Why right to left: every proxy appends the address it received the request from, so
/// the list's right end was written by the proxies we trust and its left end by whoever
/// sent the request, who can write anything there. The right-most entry that is not a
/// trusted proxy is the last address a trusted proxy vouched for: the client. (The rule
/// of nginx's `real_ip_recursive on`.) No other header (`X-Real-IP`, `Forwarded`) is read.
public struct TrustedProxies: Sendable {
    public var ranges: [IPAddressRange]

    public init(_ ranges: [IPAddressRange] = []) {
        self.ranges = ranges
    }

    public var isEmpty: Bool { ranges.isEmpty }

    public func contains(_ address: IPAddress) -> Bool {
        ranges.contains { $0.contains(address) }
    }

    /// The client address of a request that `peer`, a trusted proxy, forwarded with
    /// `headers`: the right-most `X-Forwarded-For` entry that is not a trusted proxy;
    /// the left-most when every entry is one; `peer` when there is no entry, or when
    /// any entry is not an IP address (a list that is not what a proxy writes says
    /// nothing reliable). Several `X-Forwarded-For` fields are one list, in order
    /// (RFC 9110 §5.3); elements are comma-separated with optional spaces, and empty
    /// ones are ignored (RFC 9110 §5.6.1). The address comes back in `IPAddress`'s one
    /// spelling. Reads each element's bytes in place: no `String` but the answer.
    func clientAddress(forwardedBy peer: String, headers: HTTPHeaders) -> String {
        var leftMost: IPAddress?
        var rightMostUntrusted: IPAddress?
        for (name, value) in headers where name.caseInsensitiveEquals("x-forwarded-for") {
            var rest = Substring(value).utf8
            while !rest.isEmpty {
                let comma = rest.firstIndex(of: UInt8(ascii: ",")) ?? rest.endIndex
                let element = Self.trimmingSpacesAndTabs(rest[..<comma])
                rest = comma == rest.endIndex ? rest[comma...] : rest[rest.index(after: comma)...]
                guard !element.isEmpty else { continue }
                guard let address = IPAddress(utf8: element) else { return peer }
                if leftMost == nil { leftMost = address }
                if !contains(address) { rightMostUntrusted = address }
            }
        }
        return (rightMostUntrusted ?? leftMost)?.description ?? peer
    }

    private static func trimmingSpacesAndTabs(_ bytes: Substring.UTF8View) -> Substring.UTF8View {
        var bytes = bytes
        while let first = bytes.first, first == 0x20 || first == 0x09 { bytes = bytes.dropFirst() }
        while let last = bytes.last, last == 0x20 || last == 0x09 { bytes = bytes.dropLast() }
        return bytes
    }
}
