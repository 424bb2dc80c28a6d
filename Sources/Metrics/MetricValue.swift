/// A sample's value as the text format writes it: a float as Go's `strconv.ParseFloat`
/// reads it (digits, an exponent, `+Inf`, `-Inf`, `NaN`).
public struct MetricValue: Sendable, Equatable, CustomStringConvertible {
    public let text: String

    /// A whole number, as its digits.
    public init<Integer: BinaryInteger>(_ value: Integer) {
        text = String(value)
    }

    public init(_ value: Double) {
        if value.isNaN {
            text = "NaN"
        } else if value.isInfinite {
            text = value < 0 ? "-Inf" : "+Inf"
        } else {
            // Swift's shortest round-trip spelling ("0.5", "1e-05", "1e+20"): Go reads each.
            text = value.description
        }
    }

    /// `units` divided by `unitsPerWhole` (a power of ten), written exactly in decimal:
    /// 1,500,000 nanoseconds per 1,000,000,000 is `0.0015`.
    public init(_ units: UInt64, per unitsPerWhole: UInt64) {
        precondition(Self.isPowerOfTen(unitsPerWhole), "unitsPerWhole must be a power of ten")
        let whole = String(units / unitsPerWhole)
        guard unitsPerWhole > 1 else {
            text = whole
            return
        }
        let digits = String(unitsPerWhole).count - 1
        var fraction = String(units % unitsPerWhole)
        fraction = String(repeating: "0", count: digits - fraction.count) + fraction
        while fraction.last == "0" { fraction.removeLast() }
        text = fraction.isEmpty ? whole : whole + "." + fraction
    }

    public var description: String { text }

    static func isPowerOfTen(_ value: UInt64) -> Bool {
        var value = value
        while value > 1, value % 10 == 0 { value /= 10 }
        return value == 1
    }
}
