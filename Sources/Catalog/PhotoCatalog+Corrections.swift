extension PhotoCatalog {
    /// The generation of `corrections`: the shipped catalog as if its source file had said
    /// what the corrections say, exactly as importing such a file would build it.
    ///
    /// - A moved photo belongs to the location of its corrected point, a shipped one's if
    ///   the ID is one's, else a new location at that point; it has no label of its own.
    ///   A location left without photos is gone; the labels of those that lost or gained
    ///   photos are chosen again among their photos' (`CatalogLocation.mostFrequentLabel`).
    /// - Every location lists its photos in their shipped order, wherever they came from.
    ///   The photos lie in the order of the lines of a file that would say so: the shipped
    ///   lines in order, each with its photos, then the new locations by `locationID`.
    /// - A corrected year is the photo's `date` and only year; a turn of 90 or 270 degrees
    ///   swaps `width` and `height`.
    ///
    /// Without corrections it shares the shipped arrays.
    /// - Parameter dataVersion: the generation's tag (`CorrectionHistory.dataVersion`); the
    ///   shipped one by default.
    public convenience init(_ shipped: ShippedCatalog, corrections: PhotoCorrections = .none, dataVersion: String? = nil) {
        let dataVersion = dataVersion ?? shipped.dataVersion
        var movedAway = Set<Int>()
        var movedInto: [Int: [Int]] = [:]
        var newPlaces: [String: (place: PhotoCorrections.Place, photos: [Int])] = [:]
        for (photo, fields) in corrections.fields {
            guard let place = fields.place else { continue }
            movedAway.insert(photo)
            if let location = place.shippedLocation {
                movedInto[location, default: []].append(photo)
            } else {
                newPlaces[place.locationID, default: (place, [])].photos.append(photo)
            }
        }
        guard !movedAway.isEmpty else {
            // Nothing moved: the shipped locations, labels and order stand.
            var photos = shipped.photos
            for (photo, fields) in corrections.fields {
                photos[photo] = photos[photo].corrected(
                    locationIndex: photos[photo].locationIndex, moved: false, year: fields.year, rotation: fields.rotation ?? 0)
            }
            self.init(
                locations: shipped.locations, photos: photos, topicIndex: shipped.topicIndex, dataVersion: dataVersion,
                shipped: shipped, shippedPhotoIndices: shipped.photos.indices.map { Int32($0) })
            return
        }

        /// A location of the generation: its point, borough and label, and its photos
        /// (indices in `shipped.photos`, ascending).
        struct Group {
            let locationID: String
            let latitude: Double
            let longitude: Double
            let borough: Borough?
            var intersection: String?
            let photos: [Int]
        }
        var groups: [Group] = []
        groups.reserveCapacity(shipped.locations.count + newPlaces.count)
        for location in shipped.locationsByLine {
            let original = shipped.locations[location]
            let moved = movedInto[location]
            var photos = original.photos.filter { !movedAway.contains($0) }
            guard moved != nil || photos.count != original.photos.count else {
                groups.append(
                    Group(
                        locationID: original.locationID, latitude: original.latitude, longitude: original.longitude,
                        borough: original.borough, intersection: original.intersection, photos: photos))
                continue
            }
            photos += moved ?? []
            photos.sort()
            guard !photos.isEmpty else { continue }
            groups.append(
                Group(
                    locationID: original.locationID, latitude: original.latitude, longitude: original.longitude,
                    borough: original.borough,
                    intersection: CatalogLocation.mostFrequentLabel(photos.map { movedAway.contains($0) ? nil : shipped.photos[$0].intersection }),
                    photos: photos))
        }
        for (locationID, entry) in newPlaces.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
            // Every photo here was moved: none has a label.
            groups.append(
                Group(
                    locationID: locationID, latitude: entry.place.latitude, longitude: entry.place.longitude,
                    borough: shipped.boroughs.borough(latitude: entry.place.latitude, longitude: entry.place.longitude),
                    intersection: nil, photos: entry.photos.sorted()))
        }

        // Ranks by `locationID` in byte order (as SQLite's BINARY collation orders them).
        let byID = groups.indices.sorted { groups[$0].locationID.utf8.lexicographicallyPrecedes(groups[$1].locationID.utf8) }
        var rankOfGroup = [Int](repeating: 0, count: groups.count)
        for (rank, group) in byID.enumerated() { rankOfGroup[group] = rank }

        var photos: [CatalogPhoto] = []
        photos.reserveCapacity(shipped.photos.count)
        var shippedPhotoIndices: [Int32] = []
        shippedPhotoIndices.reserveCapacity(shipped.photos.count)
        var ranges = [Range<Int>](repeating: 0..<0, count: groups.count)
        for (index, group) in groups.enumerated() {
            let start = photos.count
            for photo in group.photos {
                let fields = corrections.fields[photo]
                photos.append(
                    shipped.photos[photo].corrected(
                        locationIndex: rankOfGroup[index], moved: movedAway.contains(photo), year: fields?.year,
                        rotation: fields?.rotation ?? 0))
                shippedPhotoIndices.append(Int32(photo))
            }
            ranges[index] = start..<photos.count
        }
        let locations = byID.map { index in
            CatalogLocation(
                locationID: groups[index].locationID, latitude: groups[index].latitude, longitude: groups[index].longitude,
                borough: groups[index].borough, intersection: groups[index].intersection, photos: ranges[index])
        }
        self.init(
            locations: locations, photos: photos,
            topicIndex: shipped.topicIndex.renumbered(
                order: shippedPhotoIndices, locationOfPhoto: photos.map(\.locationIndex), locationCount: locations.count),
            dataVersion: dataVersion, shipped: shipped, shippedPhotoIndices: shippedPhotoIndices)
    }
}
