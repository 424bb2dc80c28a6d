import Catalog
import Testing
import TestSupport
import Walks

@Suite struct WalkPhotoChooserTests {
    /// Random points over the city (and a few off shore), each with a random set of
    /// photos already in the walk drawn from the locations near it, so exhausted
    /// locations are common: the chooser must agree with the brute-force oracle.
    @Test func choosesWhatTheBruteForceOracleChooses() throws {
        let catalog = try SharedCatalog.catalog()
        let chooser = WalkPhotoChooser(catalog: catalog)
        let oracle = WalkOracle(catalog: catalog)
        var generator = SeededGenerator(seed: 12)
        var found = 0
        for _ in 0..<300 {
            let point = (Double.random(in: 40.55...40.90, using: &generator), Double.random(in: -74.10 ... -73.75, using: &generator))
            // Take a random share of the photos of the locations around the point.
            var taken: Set<String> = []
            let share = Double.random(in: 0...1, using: &generator)
            for location in catalog.locations
            where WalkOracle.haversine(point, (location.latitude, location.longitude)) <= 300 {
                for photo in location.photos where Double.random(in: 0...1, using: &generator) < share {
                    taken.insert(catalog.photos[photo].photoID)
                }
            }
            let expected = oracle.choice(at: point, taken: taken)
            let chosen = chooser.choose(near: WalkPoint(latitude: point.0, longitude: point.1)) { taken.contains($0) }
            #expect(chosen?.photoID == expected?.photoID, "at \(point) with \(taken.count) taken")
            if let chosen, let expected {
                #expect(catalog.locations[chosen.location].locationID == expected.locationID)
                #expect(abs(chosen.distanceMeters - expected.distance) < 1e-6)
                #expect(catalog.photos[chosen.photo].photoID == chosen.photoID)
                found += 1
            }
        }
        #expect(found > 50, "enough points had a photo to choose")
    }

    @Test func nothingBeyond250Metres() throws {
        let catalog = try SharedCatalog.catalog()
        let chooser = WalkPhotoChooser(catalog: catalog)
        // Out in the Atlantic, far from any location.
        #expect(chooser.choose(near: WalkPoint(latitude: 40.3, longitude: -73.5)) { _ in false } == nil)
        // On a location whose every photo is taken, with nothing else within 250 m: nil as well.
        let location = try #require(catalog.locations.first { candidate in
            catalog.locations.allSatisfy {
                $0.locationID == candidate.locationID
                    || WalkOracle.haversine(
                        (candidate.latitude, candidate.longitude), ($0.latitude, $0.longitude)) > 250
            }
        })
        let point = WalkPoint(latitude: location.latitude, longitude: location.longitude)
        #expect(chooser.choose(near: point) { _ in false }?.photo == location.photos.first)
        #expect(chooser.choose(near: point) { _ in true } == nil)
    }
}
