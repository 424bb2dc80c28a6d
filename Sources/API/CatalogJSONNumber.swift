/// Writes the numbers of catalog responses straight into a body, byte for byte as
/// `JSONWriter` would, without a writer or a `String` per number on the hot path.
enum CatalogJSONNumber {
    /// An integer's decimal digits, with a leading `-` when negative.
    @inline(__always)
    static func append(_ value: Int, to body: inout some CatalogByteSink & ~Copyable) {
        if value < 0 { body.append(UInt8(ascii: "-")) }
        append(digitsOf: UInt64(value.magnitude), to: &body)
    }

    /// A finite number exactly as `JSONWriter.number` writes it.
    static func append(_ value: Double, to body: inout some CatalogByteSink & ~Copyable) {
        precondition(value.isFinite, "JSON has no NaN or infinity")
        if value == value.rounded(), abs(value) < 1e15 {
            append(Int(value), to: &body)
        } else if !appendShortFraction(value, to: &body) {
            var text = value.description
            text.withUTF8 { body.append(bytes: $0) }
        }
    }

    /// Writes a non-integer between 0.001 and 10^15 in magnitude with the fewest fractional
    /// digits that read back as it, up to 15 significant digits: what `Double.description`
    /// prints for such a number (it is written without an exponent there, and the integer
    /// part is fixed, so the fewest fractional digits are the fewest digits). Coordinates
    /// take one to six rounds here, not the general shortest-digits search. Returns false,
    /// having written nothing, for any other number or when two decimals of the same length
    /// would read back as it (`description` then picks the nearer one).
    ///
    /// A candidate `digits / 10^places` is checked exactly: with `digits` below 2^53 and
    /// `10^places` at most 10^22, both are exact doubles and the one IEEE division rounds
    /// correctly, to the double the decimal reads as (Clinger's fast path, as in `DecimalText`).
    static func appendShortFraction(_ value: Double, to body: inout some CatalogByteSink & ~Copyable) -> Bool {
        let magnitude = abs(value)
        guard magnitude >= 0.001, magnitude < 1e15 else { return false }
        var scale = 1.0
        for places in 1...15 {
            scale *= 10
            let scaled = magnitude * scale
            // Up to 15 digits, the product is within 0.25 of the exact `magnitude × 10^places`,
            // so it rounds to the one candidate there can be; truncating it plus a half rounds
            // it (exact below 2^52) without a call to the C library.
            guard scaled < 1e15 else { return false }
            let nearest = Double(UInt64(scaled + 0.5))
            guard nearest / scale == magnitude else { continue }
            // Another decimal of this length may read back as the number too.
            if (nearest - 1) / scale == magnitude || (nearest + 1) / scale == magnitude { return false }
            let digits = UInt64(nearest)
            let divisor = UInt64(scale)
            if value < 0 { body.append(UInt8(ascii: "-")) }
            append(digitsOf: digits / divisor, to: &body)
            body.append(UInt8(ascii: "."))
            let fraction = digits % divisor
            body.append(count: places) { write(fraction, into: $0) }
            return true
        }
        return false
    }

    /// A bearing in degrees (0 ≤ bearing < 360) rounded to a tenth, as `/nearby` writes
    /// it: one that rounds to 360.0 is 0 (north), and a zero tenth is left out (`45`, `45.5`).
    static func appendBearing(_ degrees: Double, to body: inout some CatalogByteSink & ~Copyable) {
        let tenths = UInt64(degrees * 10 + 0.5) % 3600
        let (whole, fraction) = tenths.quotientAndRemainder(dividingBy: 10)
        append(Int(whole), to: &body)
        guard fraction > 0 else { return }
        body.append(UInt8(ascii: "."))
        body.append(UInt8(ascii: "0") + UInt8(fraction))
    }

    /// A non-negative distance rounded to centimetres: the same bytes as
    /// `append((meters * 100).rounded() / 100)`. That value is the double nearest to
    /// `cents / 100`, and below 2^53 / 100 no shorter decimal rounds to it, so its
    /// shortest round-tripping form (`Double.description`) is `cents` with the point
    /// moved two places and trailing fractional zeros dropped. Written in one piece.
    static func appendCentimetres(_ meters: Double, to body: inout some CatalogByteSink & ~Copyable) {
        let scaled = meters * 100
        guard scaled >= 0, scaled < 1e13 else {
            append(scaled.rounded() / 100, to: &body)
            return
        }
        // Below 2^52, adding a half is exact and truncation rounds it half up, as `rounded()`
        // does for a non-negative number, without a call to the C library.
        let cents = UInt64(scaled + 0.5)
        let (whole, fraction) = cents.quotientAndRemainder(dividingBy: 100)
        let fractionDigits = fraction == 0 ? 0 : (fraction % 10 == 0 ? 1 : 2)
        let wholeDigits = digitCount(whole)
        body.append(count: wholeDigits + (fractionDigits == 0 ? 0 : 1 + fractionDigits)) { text in
            write(whole, into: UnsafeMutableBufferPointer(rebasing: text[..<wholeDigits]))
            guard fractionDigits > 0 else { return }
            text[wholeDigits] = UInt8(ascii: ".")
            text[wholeDigits + 1] = UInt8(ascii: "0") + UInt8(fraction / 10)
            if fractionDigits == 2 { text[wholeDigits + 2] = UInt8(ascii: "0") + UInt8(fraction % 10) }
        }
    }

    /// The decimal digits of `value`, counted, then written in place from the last.
    @inline(__always)
    private static func append(digitsOf value: UInt64, to body: inout some CatalogByteSink & ~Copyable) {
        body.append(count: digitCount(value)) { write(value, into: $0) }
    }

    /// How many decimal digits `value` has (one for zero).
    @inline(__always)
    private static func digitCount(_ value: UInt64) -> Int {
        var length = 1
        var power: UInt64 = 10
        while length < 20, value >= power {
            length += 1
            power &*= 10
        }
        return length
    }

    /// `value`'s last `text.count` decimal digits, zero-padded, into `text`.
    @inline(__always)
    private static func write(_ value: UInt64, into text: UnsafeMutableBufferPointer<UInt8>) {
        var remaining = value
        for position in text.indices.reversed() {
            text[position] = UInt8(ascii: "0") + UInt8(remaining % 10)
            remaining /= 10
        }
    }
}
