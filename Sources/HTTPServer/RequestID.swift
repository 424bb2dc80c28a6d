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
    private let prefix: String
    private var counter: UInt64 = 0

    init() {
        var generator = SystemRandomNumberGenerator()
        let value = generator.next() as UInt64
        prefix = Hex.string(value)
    }

    mutating func next() -> String {
        counter &+= 1
        return prefix + "-" + String(counter, radix: 16)
    }
}
