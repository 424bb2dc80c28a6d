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
        } else {
            var text = value.description
            text.withUTF8 { body.append(bytes: $0) }
        }
    }

    /// A non-negative distance rounded to centimetres: the same bytes as
    /// `append((meters * 100).rounded() / 100)`. That value is the double nearest to
    /// `cents / 100`, and below 2^53 / 100 no shorter decimal rounds to it, so its
    /// shortest round-tripping form (`Double.description`) is `cents` with the point
    /// moved two places and trailing fractional zeros dropped.
    static func appendCentimetres(_ meters: Double, to body: inout some CatalogByteSink & ~Copyable) {
        let cents = (meters * 100).rounded()
        guard cents >= 0, cents < 1e13 else {
            append(cents / 100, to: &body)
            return
        }
        let whole = UInt64(cents)
        append(digitsOf: whole / 100, to: &body)
        let fraction = whole % 100
        guard fraction != 0 else { return }
        body.append(UInt8(ascii: "."))
        body.append(UInt8(ascii: "0") + UInt8(fraction / 10))
        if fraction % 10 != 0 { body.append(UInt8(ascii: "0") + UInt8(fraction % 10)) }
    }

    /// The decimal digits of `value`, counted, then written in place from the last.
    @inline(__always)
    private static func append(digitsOf value: UInt64, to body: inout some CatalogByteSink & ~Copyable) {
        var length = 1
        var power: UInt64 = 10
        while length < 20, value >= power {
            length += 1
            power &*= 10
        }
        body.append(count: length) { digits in
            var remaining = value
            for position in digits.indices.reversed() {
                digits[position] = UInt8(ascii: "0") + UInt8(remaining % 10)
                remaining /= 10
            }
        }
    }
}
