/// Reads an RFC 3339 `date-time` (§5.6): `2026-11-22T03:07:23.417+01:00`, with its
/// offset (`Z` or `±hh:mm`) required. Pure over the bytes, without Foundation's
/// formatters, whose leniency (a missing offset, a day 31 of April) varies by platform.
public enum RFC3339Time {
    /// The time as whole milliseconds since 1970 (UTC): fractional seconds beyond the
    /// millisecond are cut off. Nil for anything that is not a `date-time`: no offset, a
    /// field out of its range (month 13, February 30, hour 24, offset hour 24), a
    /// year outside 0000…9999. `T` and `Z` may be lower case (§5.6, NOTE); a leap second
    /// (`:60`) reads as the first moment of the next minute.
    public static func milliseconds(_ text: String) -> Int64? {
        var reader = Reader(bytes: Array(text.utf8))
        guard let year = reader.digits(4), reader.skip("-"),
            let month = reader.digits(2), (1...12).contains(month), reader.skip("-"),
            let day = reader.digits(2), (1...daysIn(month: month, year: year)).contains(day),
            reader.skip("T") || reader.skip("t"),
            let hour = reader.digits(2), hour <= 23, reader.skip(":"),
            let minute = reader.digits(2), minute <= 59, reader.skip(":"),
            let second = reader.digits(2), second <= 60
        else { return nil }
        var millisecond = 0
        if reader.skip(".") {
            // time-secfrac = "." 1*DIGIT: the first three digits count, the rest only have to be digits.
            var count = 0
            while let digit = reader.digit() {
                if count < 3 { millisecond = millisecond * 10 + digit }
                count += 1
            }
            guard count > 0 else { return nil }
            for _ in count..<max(count, 3) { millisecond *= 10 }
        }
        let offsetMinutes: Int
        if reader.skip("Z") || reader.skip("z") {
            offsetMinutes = 0
        } else {
            let sign: Int
            if reader.skip("+") { sign = 1 } else if reader.skip("-") { sign = -1 } else { return nil }
            guard let offsetHour = reader.digits(2), offsetHour <= 23, reader.skip(":"),
                let offsetMinute = reader.digits(2), offsetMinute <= 59
            else { return nil }
            offsetMinutes = sign * (offsetHour * 60 + offsetMinute)
        }
        guard reader.isAtEnd else { return nil }
        let days = Int64(daysSince1970(year: year, month: month, day: day))
        let seconds = days * 86_400 + Int64(hour * 3_600 + (minute - offsetMinutes) * 60 + second)
        return seconds * 1_000 + Int64(millisecond)
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to the date in the proleptic Gregorian calendar (Howard
    /// Hinnant's `days_from_civil`, http://howardhinnant.github.io/date_algorithms.html).
    private static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private struct Reader {
        let bytes: [UInt8]
        var index = 0

        var isAtEnd: Bool { index == bytes.count }

        mutating func skip(_ character: Unicode.Scalar) -> Bool {
            guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
            index += 1
            return true
        }

        mutating func digit() -> Int? {
            guard index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) else { return nil }
            defer { index += 1 }
            return Int(bytes[index] - UInt8(ascii: "0"))
        }

        /// Exactly `count` ASCII digits as a number.
        mutating func digits(_ count: Int) -> Int? {
            var value = 0
            for _ in 0..<count {
                guard let digit = digit() else { return nil }
                value = value * 10 + digit
            }
            return value
        }
    }
}
