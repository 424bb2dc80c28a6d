import TestSupport
import Testing

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

    private func pow10(_ exponent: Int) -> Double {
        (0..<abs(exponent)).reduce(1.0) { product, _ in exponent < 0 ? product / 10 : product * 10 }
    }
}
