import TestSupport
import Testing
import TestSupport

@testable import API

/// `CatalogJSONNumber` must write exactly the bytes `JSONWriter` writes: responses are
/// compared byte for byte by clients' caches (ETags) and by the contract tests.
@Suite struct CatalogJSONNumberTests {
    private static func written(_ value: Double) -> [UInt8] {
        var writer = JSONWriter()
        writer.number(value)
        return writer.bytes
    }

    @Test(arguments: [0, 1, -1, 42, -7, 9_007, 49_101, Int.max, Int.min])
    func integersAsJSONWriter(_ value: Int) {
        var body: [UInt8] = []
        CatalogJSONNumber.append(value, to: &body)
        var writer = JSONWriter()
        writer.int(value)
        #expect(body == writer.bytes)
    }

    @Test(arguments: [0, 40.72951, -73.99, 40, -180, 90, 1e15, 1.5e16, 0.0001, 1e-7, -0.5, 123_456.789012])
    func doublesAsJSONWriter(_ value: Double) {
        var body: [UInt8] = []
        CatalogJSONNumber.append(value, to: &body)
        #expect(String(decoding: body, as: UTF8.self) == String(decoding: Self.written(value), as: UTF8.self))
    }

    @Test(arguments: [0, 0.004, 0.005, 0.01, 0.1, 0.5, 0.994, 0.995, 1, 9.99, 10.05, 123.4, 123.45, 5_000.1, 20_015_086.8])
    func centimetresAsRoundedJSONWriter(_ meters: Double) {
        var body: [UInt8] = []
        CatalogJSONNumber.appendCentimetres(meters, to: &body)
        #expect(String(decoding: body, as: UTF8.self) == String(decoding: Self.written((meters * 100).rounded() / 100), as: UTF8.self))
    }

    @Test func randomDistancesAsRoundedJSONWriter() {
        var generator = SeededGenerator(seed: 0xD15_7A9CE)
        var mismatches: [Double] = []
        for exponent in -3...7 {
            for _ in 0..<20_000 {
                let meters = Double.random(in: 0..<2 * pow10(exponent), using: &generator)
                var body: [UInt8] = []
                CatalogJSONNumber.appendCentimetres(meters, to: &body)
                if body != Self.written((meters * 100).rounded() / 100) { mismatches.append(meters) }
            }
        }
        #expect(mismatches.isEmpty, "first mismatches: \(mismatches.prefix(5))")
    }

    /// Coordinates as clients send them (up to 8 decimals), and doubles of every magnitude
    /// and precision: the short-fraction path must print what `description` prints, or
    /// decline.
    @Test func randomDoublesAsJSONWriter() {
        var generator = SeededGenerator(seed: 0x5407_7E57)
        var mismatches: [Double] = []
        var shortened = 0
        for round in 0..<60_000 {
            let value: Double
            switch round % 3 {
            case 0:
                let places = Int.random(in: 1...8, using: &generator)
                let scale = pow10(places)
                value = (Double.random(in: -180...180, using: &generator) * scale).rounded() / scale
            case 1:
                value = Double.random(in: -1...1, using: &generator) * pow10(Int.random(in: -4...16, using: &generator))
            default:
                value = Double(bitPattern: generator.next())
            }
            guard value.isFinite else { continue }
            var body: [UInt8] = []
            CatalogJSONNumber.append(value, to: &body)
            if body != Self.written(value) { mismatches.append(value) }
            var probe: [UInt8] = []
            if CatalogJSONNumber.appendShortFraction(value, to: &probe) { shortened += 1 }
        }
        #expect(mismatches.isEmpty, "first mismatches: \(mismatches.prefix(5))")
        // The fast path must carry the coordinates, not decline them all to `description`.
        #expect(shortened > 20_000)
    }

    private func pow10(_ exponent: Int) -> Double {
        (0..<abs(exponent)).reduce(1.0) { product, _ in exponent < 0 ? product / 10 : product * 10 }
    }
}
