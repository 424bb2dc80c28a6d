import Glibc

/// A moment broken into its UTC calendar fields (`gmtime_r`), and the two Internet
/// spellings the server writes: IMF-fixdate for HTTP's `Date` (RFC 9110 §5.6.7) and
/// RFC 3339 (the ISO 8601 profile) for JSON timestamps and log lines. Formatting by
/// hand, without Foundation, keeps both cheap enough for every response and log line.
public struct UTCDateTime: Sendable, Equatable {
    public let year: Int
    /// 1…12.
    public let month: Int
    /// 1…31.
    public let day: Int
    public let hour: Int
    public let minute: Int
    public let second: Int
    /// 0 is Sunday.
    public let weekday: Int

    /// The UTC fields of `secondsSince1970` (negative before 1970).
    public init(secondsSince1970: Int) {
        var seconds = time_t(secondsSince1970)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        year = Int(parts.tm_year) + 1900
        month = Int(parts.tm_mon) + 1
        day = Int(parts.tm_mday)
        hour = Int(parts.tm_hour)
        minute = Int(parts.tm_min)
        second = Int(parts.tm_sec)
        weekday = Int(parts.tm_wday)
    }

    /// RFC 3339 in UTC, whole seconds: `2026-11-22T03:07:23Z`.
    public var iso8601: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(20)
        appendISO8601(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `iso8601`'s bytes: a list that holds a timestamp per item (favorites)
    /// writes each in place, with no string in between.
    public func appendISO8601(to bytes: inout [UInt8]) {
        appendISO8601WithoutOffset(to: &bytes)
        bytes.append(UInt8(ascii: "Z"))
    }

    /// RFC 3339 in UTC with milliseconds, `2026-11-22T03:07:23.417Z`, of a time in
    /// milliseconds since 1970 (negative before): how `RFC3339Time` reads it back.
    public static func iso8601(milliseconds: Int64) -> String {
        let (seconds, millisecond) = milliseconds.quotientAndRemainder(dividingBy: 1_000)
        // Before 1970 the remainder is negative: borrow a second.
        let (wholeSeconds, fraction) = millisecond < 0 ? (seconds - 1, millisecond + 1_000) : (seconds, millisecond)
        let digits = String(fraction)
        return UTCDateTime(secondsSince1970: Int(wholeSeconds)).iso8601WithoutOffset + "."
            + String(repeating: "0", count: 3 - digits.count) + digits + "Z"
    }

    /// `2026-11-22T03:07:23`: the RFC 3339 date and time without the offset, for a caller
    /// that adds fractional seconds before the `Z`.
    public var iso8601WithoutOffset: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(19)
        appendISO8601WithoutOffset(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    private func appendISO8601WithoutOffset(to bytes: inout [UInt8]) {
        guard (0...9999).contains(year) else {
            let text = Self.padded(year, 4) + "-" + Self.padded(month, 2) + "-" + Self.padded(day, 2) + "T"
                + Self.padded(hour, 2) + ":" + Self.padded(minute, 2) + ":" + Self.padded(second, 2)
            bytes.append(contentsOf: text.utf8)
            return
        }
        // Every year a timestamp here has: 19 bytes written on the stack, appended at once.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 19) { text in
            func put(_ value: Int, _ width: Int, at offset: Int) {
                var rest = value
                for index in stride(from: offset + width - 1, through: offset, by: -1) {
                    text[index] = UInt8(ascii: "0") + UInt8(rest % 10)
                    rest /= 10
                }
            }
            put(year, 4, at: 0)
            text[4] = UInt8(ascii: "-")
            put(month, 2, at: 5)
            text[7] = UInt8(ascii: "-")
            put(day, 2, at: 8)
            text[10] = UInt8(ascii: "T")
            put(hour, 2, at: 11)
            text[13] = UInt8(ascii: ":")
            put(minute, 2, at: 14)
            text[16] = UInt8(ascii: ":")
            put(second, 2, at: 17)
            bytes.append(contentsOf: text)
        }
    }

    /// IMF-fixdate (RFC 9110 §5.6.7): `Sun, 06 Nov 1994 08:49:37 GMT`.
    public var httpDate: String {
        Self.dayNames[weekday] + ", " + Self.padded(day, 2) + " " + Self.monthNames[month - 1] + " " + Self.padded(year, 4)
            + " " + Self.padded(hour, 2) + ":" + Self.padded(minute, 2) + ":" + Self.padded(second, 2) + " GMT"
    }

    private static let dayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `value` in decimal, zero-padded to `width` digits (a negative year keeps its sign first).
    private static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(value.magnitude)
        let padding = String(repeating: "0", count: max(0, width - digits.count))
        return (value < 0 ? "-" : "") + padding + digits
    }
}
