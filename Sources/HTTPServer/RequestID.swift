import Basics

/// `X-Request-ID`: the client's, when it is a sane token, else one made here.
enum RequestID {
    static let maxLength = 128

    /// 1…128 characters of `A-Z a-z 0-9 - _ . : + / =`: enough for UUIDs, hex and
    /// base64 ids, and nothing that could forge a log line or another header.
    static func isAcceptable(_ value: String) -> Bool {
        let bytes = value.utf8
        guard !bytes.isEmpty, bytes.count <= maxLength else { return false }
        return bytes.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."),
                UInt8(ascii: ":"), UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "="):
                true
            default:
                false
            }
        }
    }
}

/// Makes request ids without a system call per request: a random 64-bit prefix chosen
/// once per event loop, then a counter. Unique across loops and restarts in practice;
/// not a secret and not meant to be unguessable. One per loop, not `Sendable`.
struct RequestIDGenerator {
    /// The prefix's sixteen hex digits and the `-` after them.
    private let prefix: [UInt8]
    private var counter: UInt64 = 0

    init() {
        var generator = SystemRandomNumberGenerator()
        var prefix: [UInt8] = []
        Hex.append(generator.next() as UInt64, to: &prefix)
        prefix.append(UInt8(ascii: "-"))
        self.prefix = prefix
    }

    /// `<prefix>-<counter in hex>`, written into the string's own storage: one allocation,
    /// where concatenating `String(counter, radix: 16)` made three.
    mutating func next() -> String {
        counter &+= 1
        let value = counter
        let digits = max(1, (UInt64.bitWidth - value.leadingZeroBitCount + 3) / 4)
        return String(unsafeUninitializedCapacity: prefix.count + digits) { buffer in
            var end = buffer.initialize(fromContentsOf: prefix)
            end += digits
            var remaining = value
            for position in stride(from: end - 1, through: prefix.count, by: -1) {
                let nibble = UInt8(truncatingIfNeeded: remaining & 0x0F)
                buffer[position] = nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") - 10 + nibble
                remaining >>= 4
            }
            return end
        }
    }
}
