/// The photos' subject topics as small integers: every topic once (spellings equal under
/// Unicode case folding are one), numbered most photos first (ties by name, by code
/// point), and each photo's topic numbers, so a topic filter is an integer compare in
/// the same pass over a location's photos as the year filter.
///
/// `Sendable`: immutable after `init`.
public struct TopicIndex: Sendable {
    /// Every topic, in `/topics` order; a topic's number is its index here.
    public let topics: [CatalogTopic]
    private let numberByFoldedName: [String: Int]
    /// Photo `p`'s topic numbers are `topicNumbers[starts[p]..<starts[p + 1]]`, ascending.
    private let starts: [Int32]
    private let topicNumbers: [UInt16]
    /// Location `l`'s topics (those of any of its photos) are
    /// `locationTopicNumbers[locationStarts[l]..<locationStarts[l + 1]]`, ascending, each
    /// with how many of its photos have it at the same index of `locationTopicCounts`: a
    /// topic filter rejects or counts a location without reading its photos.
    private let locationStarts: [Int32]
    private let locationTopicNumbers: [UInt16]
    private let locationTopicCounts: [Int32]

    /// - Parameters:
    ///   - spellings: each photo's topics as spelled, in photo order.
    ///   - locationOfPhoto: the location index of each photo.
    ///   - locationCount: how many locations there are.
    init(spellings: [[String]], locationOfPhoto: [Int], locationCount: Int) {
        /// Per folded name: how many photos carry each spelling, the photos and the locations.
        struct Group {
            var spellingCounts: [String: Int] = [:]
            var photos = Set<Int>()
            var locations = Set<Int>()
        }
        var groups: [String: Group] = [:]
        for (photo, photoSpellings) in spellings.enumerated() {
            for spelling in photoSpellings {
                let folded = CaseFolding.fold(spelling)
                groups[folded, default: Group()].spellingCounts[spelling, default: 0] += 1
                groups[folded, default: Group()].photos.insert(photo)
                groups[folded, default: Group()].locations.insert(locationOfPhoto[photo])
            }
        }
        let named = groups.map { folded, group in
            let name = group.spellingCounts.min { a, b in
                a.value != b.value ? a.value > b.value : a.key.unicodeScalars.lexicographicallyPrecedes(b.key.unicodeScalars)
            }!.key
            return (folded: folded, topic: CatalogTopic(name: name, photoCount: group.photos.count, locationCount: group.locations.count))
        }.sorted { a, b in
            a.topic.photoCount != b.topic.photoCount
                ? a.topic.photoCount > b.topic.photoCount
                : a.topic.name.unicodeScalars.lexicographicallyPrecedes(b.topic.name.unicodeScalars)
        }
        precondition(named.count <= Int(UInt16.max), "topic numbers are 16 bits")
        topics = named.map(\.topic)
        let numberByFoldedName = Dictionary(uniqueKeysWithValues: named.enumerated().map { ($1.folded, $0) })
        self.numberByFoldedName = numberByFoldedName
        var starts: [Int32] = [0]
        var topicNumbers: [UInt16] = []
        starts.reserveCapacity(spellings.count + 1)
        for photoSpellings in spellings {
            let numbers = Set(photoSpellings.map { numberByFoldedName[CaseFolding.fold($0)]! }).sorted()
            topicNumbers += numbers.map { UInt16($0) }
            starts.append(Int32(topicNumbers.count))
        }
        self.starts = starts
        self.topicNumbers = topicNumbers
        (locationStarts, locationTopicNumbers, locationTopicCounts) = Self.locationTopics(
            starts: starts, topicNumbers: topicNumbers, locationOfPhoto: locationOfPhoto, locationCount: locationCount)
    }

    /// These topics of the same photos in another order, at other locations (a generation of
    /// the catalog, `PhotoCatalog(_:corrections:)`): no spelling is folded again, and the
    /// topics keep their numbers, which depend on their names and photo counts only.
    /// - Parameters:
    ///   - order: for each photo of the new order, its index here.
    ///   - locationOfPhoto: the location index of each photo, in the new order.
    ///   - locationCount: how many locations there are.
    func renumbered(order: [Int32], locationOfPhoto: [Int], locationCount: Int) -> TopicIndex {
        var starts: [Int32] = [0]
        var topicNumbers: [UInt16] = []
        starts.reserveCapacity(order.count + 1)
        topicNumbers.reserveCapacity(self.topicNumbers.count)
        for photo in order {
            topicNumbers += self.topicNumbers[Int(self.starts[Int(photo)])..<Int(self.starts[Int(photo) + 1])]
            starts.append(Int32(topicNumbers.count))
        }
        let (locationStarts, locationTopicNumbers, locationTopicCounts) = Self.locationTopics(
            starts: starts, topicNumbers: topicNumbers, locationOfPhoto: locationOfPhoto, locationCount: locationCount)
        var locationCounts = [Int](repeating: 0, count: topics.count)
        for number in locationTopicNumbers { locationCounts[Int(number)] += 1 }
        return TopicIndex(
            topics: topics.indices.map { CatalogTopic(name: topics[$0].name, photoCount: topics[$0].photoCount, locationCount: locationCounts[$0]) },
            numberByFoldedName: numberByFoldedName, starts: starts, topicNumbers: topicNumbers, locationStarts: locationStarts,
            locationTopicNumbers: locationTopicNumbers, locationTopicCounts: locationTopicCounts)
    }

    private init(
        topics: [CatalogTopic], numberByFoldedName: [String: Int], starts: [Int32], topicNumbers: [UInt16],
        locationStarts: [Int32], locationTopicNumbers: [UInt16], locationTopicCounts: [Int32]
    ) {
        self.topics = topics
        self.numberByFoldedName = numberByFoldedName
        self.starts = starts
        self.topicNumbers = topicNumbers
        self.locationStarts = locationStarts
        self.locationTopicNumbers = locationTopicNumbers
        self.locationTopicCounts = locationTopicCounts
    }

    /// Each location's topics, ascending, with how many of its photos have each, from the
    /// photos' topic numbers (`starts`, `topicNumbers`).
    private static func locationTopics(
        starts: [Int32], topicNumbers: [UInt16], locationOfPhoto: [Int], locationCount: Int
    ) -> (starts: [Int32], numbers: [UInt16], counts: [Int32]) {
        var topicsOfLocation = [[UInt16: Int32]](repeating: [:], count: locationCount)
        for photo in locationOfPhoto.indices {
            for number in topicNumbers[Int(starts[photo])..<Int(starts[photo + 1])] {
                topicsOfLocation[locationOfPhoto[photo]][number, default: 0] += 1
            }
        }
        var locationStarts: [Int32] = [0]
        var locationTopicNumbers: [UInt16] = []
        var locationTopicCounts: [Int32] = []
        for topics in topicsOfLocation {
            for (number, count) in topics.sorted(by: { $0.key < $1.key }) {
                locationTopicNumbers.append(number)
                locationTopicCounts.append(count)
            }
            locationStarts.append(Int32(locationTopicNumbers.count))
        }
        return (locationStarts, locationTopicNumbers, locationTopicCounts)
    }

    /// The locations with the topic (one of their photos has it), ascending, by topic number.
    public func locationsByTopic() -> [[Int]] {
        var locations = [[Int]](repeating: [], count: topics.count)
        for location in 0..<(locationStarts.count - 1) {
            for index in Int(locationStarts[location])..<Int(locationStarts[location + 1]) {
                locations[Int(locationTopicNumbers[index])].append(location)
            }
        }
        return locations
    }

    /// Whether one of the location's photos has the topic.
    @inline(__always)
    public func location(_ location: Int, has topic: Int) -> Bool {
        Self.contains(topic, in: locationTopicNumbers, from: Int(locationStarts[location]), to: Int(locationStarts[location + 1]))
    }

    /// How many of the location's photos have the topic.
    @inline(__always)
    public func photoCount(location: Int, topic: Int) -> Int {
        let end = Int(locationStarts[location + 1])
        var index = Int(locationStarts[location])
        while index < end {
            if Int(locationTopicNumbers[index]) == topic { return Int(locationTopicCounts[index]) }
            index += 1
        }
        return 0
    }

    /// The number of the topic `name` spells under case folding, or nil.
    public func number(named name: String) -> Int? {
        numberByFoldedName[CaseFolding.fold(name)]
    }

    /// Whether the photo has the topic.
    @inline(__always)
    public func photo(_ photo: Int, has topic: Int) -> Bool {
        Self.contains(topic, in: topicNumbers, from: Int(starts[photo]), to: Int(starts[photo + 1]))
    }

    /// Whether `numbers[start..<end]` holds `topic`: a scan, the runs being short.
    @inline(__always)
    private static func contains(_ topic: Int, in numbers: [UInt16], from start: Int, to end: Int) -> Bool {
        var index = start
        while index < end {
            if Int(numbers[index]) == topic { return true }
            index += 1
        }
        return false
    }

    /// The photo's topics, most common first.
    public func topics(ofPhoto photo: Int) -> [Int] {
        topicNumbers[Int(starts[photo])..<Int(starts[photo + 1])].map { Int($0) }
    }
}
