import Basics
import Crypto
import Foundation

/// Opaque bearer tokens (RFC 6750): 32 bytes from the system CSPRNG, base64url
/// without padding (43 characters). Only their SHA-256 is stored, so a copy of the
/// database yields no usable token. Lookups by that digest need no constant-time
/// comparison: a client cannot steer the digest of its guesses byte by byte.
public enum AccessToken {
    static let byteCount = 32
    static let encodedLength = 43

    static func generate() -> String {
        Base64.url.encode(SecretBytes.random(count: byteCount))
    }

    /// The stored digest of `token`, or nil when it cannot be one of ours.
    public static func digest(_ token: String) -> [UInt8]? {
        guard token.utf8.count == encodedLength, Base64.url.decode(token)?.count == byteCount else { return nil }
        // Copied out through its bytes: `Array(digest)` walks the digest as a sequence, a
        // byte at a time (a quarter of this function's cost, on every authenticated request).
        return SHA256.hash(data: Array(token.utf8)).withUnsafeBytes { Array($0) }
    }
}
