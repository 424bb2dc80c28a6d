import Accounts
import Basics

/// A walk's public identifier: 16 random bytes (128 bits from the system's secure
/// generator), written as 22 characters of unpadded base64url. Not a row number, so
/// it tells nothing of how many walks exist and cannot be guessed; stored UNIQUE, so
/// never reused.
struct WalkID: Sendable, Equatable {
    static let byteCount = 16

    let bytes: [UInt8]

    var text: String { Base64.url.encode(bytes) }

    static func generate() -> WalkID {
        var generator = SystemRandomNumberGenerator()
        return WalkID(bytes: (0..<byteCount).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The ID written as `text`, or nil for any other string (wrong length or alphabet,
    /// a non-canonical spelling): such a walk cannot exist.
    init?(text: String) {
        guard text.utf8.count == 22, let bytes = Base64.url.decode(text), bytes.count == Self.byteCount else { return nil }
        self.bytes = bytes
    }
}
