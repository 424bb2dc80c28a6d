import Basics
import Crypto
import Foundation

/// The opaque `next`/`since` token of `GET /sync`: whose log it reads (the user), how
/// far (the last sequence answered) and when it was issued, authenticated with
/// HMAC-SHA256 under the store's secret (`SyncTokenKey`), so a token this server did
/// not issue, altered, or issued to another user is refused, and every instance on a
/// shared store accepts the others' tokens.
///
/// Text: base64url of 24 payload bytes (user, sequence, issue time: big-endian
/// Int64s) and the 32 bytes of the payload's HMAC.
struct SyncToken: Equatable {
    /// How long a token may be used: tombstones older than this may be gone
    /// (`ChangeLog.tombstoneSeconds` keeps them a day longer).
    static let lifetimeSeconds: Int64 = 30 * 24 * 60 * 60
    static let payloadByteCount = 24
    static let tagByteCount = 32

    let userID: Int64
    let sequence: Int64
    let issuedAt: Int64

    func encoded(key: SymmetricKey) -> String {
        let payload = Self.payload(userID: userID, sequence: sequence, issuedAt: issuedAt)
        return Base64.url.encode(payload + Self.tag(of: payload, key: key))
    }

    /// The token `text` stands for, if this server issued it to `userID`.
    /// - Throws: `AccountsError.invalidSyncToken` otherwise; `.expiredSyncToken` when it
    ///   is older than `lifetimeSeconds` at `now`.
    init(decoding text: String, userID: Int64, key: SymmetricKey, now: Int64) throws {
        guard text.utf8.count <= 128, let bytes = Base64.url.decode(text),
            bytes.count == Self.payloadByteCount + Self.tagByteCount, Base64.url.encode(bytes) == text
        else { throw AccountsError.invalidSyncToken }
        let payload = Array(bytes.prefix(Self.payloadByteCount))
        let tag = bytes.suffix(Self.tagByteCount)
        // swift-crypto compares the tags in constant time.
        guard HMAC<SHA256>.isValidAuthenticationCode(Array(tag), authenticating: payload, using: key) else {
            throw AccountsError.invalidSyncToken
        }
        func integer(at offset: Int) -> Int64 {
            payload[offset..<offset + 8].reduce(Int64(0)) { $0 << 8 | Int64($1) }
        }
        guard integer(at: 0) == userID else { throw AccountsError.invalidSyncToken }
        self.userID = userID
        sequence = integer(at: 8)
        issuedAt = integer(at: 16)
        guard sequence >= 0 else { throw AccountsError.invalidSyncToken }
        guard now - issuedAt <= Self.lifetimeSeconds else { throw AccountsError.expiredSyncToken }
    }

    init(userID: Int64, sequence: Int64, issuedAt: Int64) {
        self.userID = userID
        self.sequence = sequence
        self.issuedAt = issuedAt
    }

    private static func payload(userID: Int64, sequence: Int64, issuedAt: Int64) -> [UInt8] {
        [userID, sequence, issuedAt].flatMap { value in (0..<8).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) } }
    }

    private static func tag(of payload: [UInt8], key: SymmetricKey) -> [UInt8] {
        HMAC<SHA256>.authenticationCode(for: payload, using: key).withUnsafeBytes { Array($0) }
    }
}
