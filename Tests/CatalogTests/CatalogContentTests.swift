import Catalog
import Foundation
import Testing

@Suite struct CatalogContentTests {
    @Test func holdsEveryLocationAndPhoto() throws {
        let fixture = try CatalogFixture.load()
        #expect(fixture.catalog.locations.count == 9_007)
        #expect(fixture.catalog.photos.count == 49_101)
        #expect(fixture.oracle.locations.count == 9_007)
        let ids = fixture.catalog.locations.map(\.locationID)
        #expect(ids == ids.sorted())
        #expect(Set(ids).count == ids.count)
    }

    @Test func locationsAndPhotosFollowTheContractRules() throws {
        let fixture = try CatalogFixture.load()
        let catalog = fixture.catalog
        var indexByID: [String: Int] = [:]
        for (offset, location) in catalog.locations.enumerated() { indexByID[location.locationID] = offset }
        for expected in fixture.oracle.locations {
            let index = try #require(indexByID[expected.id])
            let location = catalog.locations[index]
            #expect(location.latitude == expected.latitude && location.longitude == expected.longitude)
            #expect(location.intersection == Oracle.intersection(expected.photos), "\(expected.id)")
            let photos = location.photos.map { catalog.photos[$0] }
            #expect(photos.map(\.photoID) == expected.photos.map(\.id), "photos of \(expected.id) in source order")
            for (photo, source) in zip(photos, expected.photos) {
                #expect(photo.title == source.title)
                #expect(photo.date == source.date)
                #expect(photo.folder == source.folder)
                #expect(photo.text == source.text)
                #expect(photo.years == source.years)
                #expect(photo.intersection == source.label)
                #expect(photo.thumbnailURL == source.thumbnailURL)
                #expect(photo.locationIndex == index)
                #expect(catalog.photoIndex(photoID: photo.photoID).map { catalog.photos[$0].photoID } == photo.photoID)
            }
        }
    }

    /// The data has every odd case the contract speaks of; make sure they are all exercised.
    @Test func sourceDataHasTheEdgeCases() throws {
        let photos = try CatalogFixture.load().oracle.locations.flatMap(\.photos)
        #expect(photos.contains { $0.title == nil })
        #expect(photos.contains { $0.date == nil && $0.years.isEmpty })
        #expect(photos.contains { $0.folder == nil })
        #expect(photos.contains { $0.text == nil })
        #expect(photos.contains { $0.title.map { $0 != $0.trimmingCharacters(in: .whitespaces) } ?? false })
    }

    @Test func yearsDropBlanksAndRepeatsInSourceOrder() throws {
        let catalog = try CatalogFixture.load().catalog
        for photo in catalog.photos {
            #expect(!photo.years.contains(""))
            #expect(Set(photo.years).count == photo.years.count)
        }
        // 1905 appears twice in the source record of this photo.
        let repeated = catalog.photos.filter { $0.date == "1905" && $0.years == ["1905"] }
        #expect(!repeated.isEmpty)
    }

    @Test func boroughsAgreeWithTheGeocoder() throws {
        let oracle = try CatalogFixture.load().oracle
        let named = oracle.locations.filter { $0.geocodedBorough != nil }
        // The geocoder calls Manhattan "New York" in some records.
        let agreeing = named.filter { $0.borough?.rawValue == ($0.geocodedBorough == "New York" ? "Manhattan" : $0.geocodedBorough) }
        // Geocoded points on a shore or a border may fall just outside their polygon.
        #expect(Double(agreeing.count) >= 0.99 * Double(named.count), "\(agreeing.count) of \(named.count)")
    }

    @Test func boroughSummariesCountAndBoxTheirLocations() throws {
        let catalog = try CatalogFixture.load().catalog
        #expect(catalog.boroughSummaries.map(\.borough) == [.manhattan, .bronx, .brooklyn, .queens, .statenIsland])
        for summary in catalog.boroughSummaries {
            let inside = catalog.locations.filter { $0.borough == summary.borough }
            #expect(summary.locationCount == inside.count && !inside.isEmpty)
            #expect(summary.photoCount == inside.reduce(0) { $0 + $1.photos.count })
            let box = try #require(summary.bbox)
            #expect(box.south == inside.map(\.latitude).min() && box.north == inside.map(\.latitude).max())
            #expect(box.west == inside.map(\.longitude).min() && box.east == inside.map(\.longitude).max())
        }
    }

    @Test(arguments: [
        ("Manhattan", Borough.manhattan), ("manhattan", .manhattan), ("STATEN ISLAND", .statenIsland),
        ("staten island", .statenIsland), ("Bronx", .bronx), ("queens", .queens), ("brooklyn", .brooklyn),
    ])
    func boroughNamesIgnoreCase(name: String, borough: Borough) {
        #expect(Borough(name: name) == borough)
    }

    @Test(arguments: ["", "Staten", "The Bronx", "Staten_Island", "Manhattan "])
    func unknownBoroughNames(name: String) {
        #expect(Borough(name: name) == nil)
    }
}
