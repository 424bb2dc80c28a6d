import Catalog
import Testing

/// A generation's token names one state of the catalog: the shipped data and the
/// corrections up to a `sequence`.
@Suite struct CorrectionHistoryTests {
    static let corrections = [
        CatalogCorrection(sequence: 3, photoID: "705740f-a", change: .date(year: 1931)),
        CatalogCorrection(sequence: 7, photoID: "705740f-a", change: .rotation(degrees: 90)),
        CatalogCorrection(sequence: 8, photoID: "729683f-a", change: .location(latitude: 40.7484, longitude: -73.9857)),
    ]
    static let history = CorrectionHistory(shippedDataVersion: "5af1fc96ceb05f62a288", corrections: corrections)

    @Test func everyGenerationsTokenNamesItAndNoOther() {
        let history = Self.history
        #expect(history.generation == 8)
        #expect(history.token == history.token(count: 3))
        let tokens = (0...3).map { history.token(count: $0) }
        #expect(Set(tokens).count == 4)
        #expect(tokens.map { $0.prefix { $0 != "-" } } == ["0", "3", "7", "8"])
        for (count, token) in tokens.enumerated() {
            #expect(history.lookUp(token) == .generation(count: count))
        }
    }

    @Test func theSameCorrectionsMakeTheSameTokensAndDataVersion() {
        let again = CorrectionHistory(shippedDataVersion: "5af1fc96ceb05f62a288", corrections: Self.corrections)
        #expect((0...3).map(again.token(count:)) == (0...3).map(Self.history.token(count:)))
        #expect(again.dataVersion == Self.history.dataVersion)
        #expect(Self.history.dataVersion != "5af1fc96ceb05f62a288" && Self.history.dataVersion.count == 20)
        let shippedOnly = CorrectionHistory(shippedDataVersion: "5af1fc96ceb05f62a288", corrections: [])
        #expect(shippedOnly.dataVersion == "5af1fc96ceb05f62a288", "no correction: the shipped ETags stand")
    }

    @Test(arguments: ["", "8", "8-", "-3fa9c0d1e2b4a596", "5-3fa9c0d1e2b4a596", "+3-3fa9c0d1e2b4a596", "3-3FA9C0D1E2B4A596",
        "3-3fa9c0d1e2b4a59", "3-3fa9c0d1e2b4a5960", "99999999999999999999-3fa9c0d1e2b4a596", "٣-3fa9c0d1e2b4a596"])
    func aTokenNeverIssuedIsUnknown(token: String) {
        #expect(Self.history.lookUp(token) == .unknown)
    }

    @Test func aTokenPastTheLastGenerationIsAhead() {
        #expect(Self.history.lookUp("9-3fa9c0d1e2b4a596") == .ahead(sequence: 9))
        let longer = CorrectionHistory(
            shippedDataVersion: "5af1fc96ceb05f62a288",
            corrections: Self.corrections + [CatalogCorrection(sequence: 12, photoID: "705740f-a", change: .date(year: 1950))])
        #expect(Self.history.lookUp(longer.token) == .ahead(sequence: 12))
        #expect(longer.lookUp(Self.history.token) == .generation(count: 3))
    }

    @Test func anIssuedNumberWithAnotherHistoryIsForgotten() {
        let otherData = CorrectionHistory(shippedDataVersion: "0123456789abcdef0123", corrections: Self.corrections)
        #expect(Self.history.lookUp(otherData.token(count: 2)) == .forgotten)
        #expect(Self.history.lookUp(otherData.token(count: 0)) == .forgotten)
        // A correction accepted among older ones: generation 8 is not what it was.
        let rewritten = CorrectionHistory(
            shippedDataVersion: "5af1fc96ceb05f62a288",
            corrections: [Self.corrections[0], CatalogCorrection(sequence: 5, photoID: "705740f-a", change: .date(year: 1950))]
                + Self.corrections.dropFirst())
        #expect(rewritten.lookUp(Self.history.token) == .forgotten)
        #expect(rewritten.lookUp(Self.history.token(count: 1)) == .generation(count: 1))
    }
}
