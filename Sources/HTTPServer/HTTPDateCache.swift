import Basics
import Glibc

/// The `Date` header value (IMF-fixdate, RFC 9110 §5.6.7), formatted at most once per
/// second. One per event loop: not `Sendable`, no locking.
final class HTTPDateCache {
    private var second: time_t = -1
    private var cached: [UInt8] = []

    /// E.g. `Sun, 06 Nov 1994 08:49:37 GMT`, as UTF-8 bytes.
    func current() -> [UInt8] {
        let now = time(nil)
        if now != second {
            second = now
            cached = Array(UTCDateTime(secondsSince1970: Int(now)).httpDate.utf8)
        }
        return cached
    }
}
