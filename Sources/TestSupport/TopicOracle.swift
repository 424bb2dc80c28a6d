import Foundation
import Gzip
import TestSupportCore

/// The subject topics read straight from `Data/` (JSONSerialization, Foundation's case
/// folding), independently of the catalog, and numbered by the API's rules: the
/// oracle of `/topics` and of every `topic` filter.
public struct TopicOracle: Sendable {
    public struct Topic: Sendable, Equatable {
        public let name: String
        public let photoCount: Int
        public let locationCount: Int
    }

    /// Every topic, most photos first (ties by name, by code point); a topic's number is its index.
    public let topics: [Topic]
    /// The topic numbers of each photo that has any, by photo ID.
    private let numbersByPhoto: [String: Set<Int>]
    private let numberByKey: [String: Int]

    public static let shared: Result<TopicOracle, any Error> = Result {
        try TopicOracle(path: PackageRoot.path + "/Data/oldnyc-locations.jsonl.gz")
    }

    public static func load() throws -> TopicOracle {
        try shared.get()
    }

    public init(path: String) throws {
        var spellingsByKey: [String: [String: Int]] = [:]
        var photosByKey: [String: Set<String>] = [:]
        var locationsByKey: [String: Set<Int>] = [:]
        var keysByPhoto: [String: Set<String>] = [:]
        var line = 0
        try GzipFileReader(path: path).forEachLine { bytes, _ in
            let object = try JSONSerialization.jsonObject(with: Data(bytes)) as! [String: Any]
            for photo in object["photos"] as! [[String: Any]] {
                let id = photo["id"] as! String
                let fields = photo["nypl_fields"] as? [String: Any]
                let subjects = fields?["subjects"] as? [String: Any]
                let spellings = Set((subjects?["topic"] as? [String] ?? []).filter { !$0.isEmpty })
                for spelling in spellings {
                    let key = Self.fold(spelling)
                    spellingsByKey[key, default: [:]][spelling, default: 0] += 1
                    photosByKey[key, default: []].insert(id)
                    locationsByKey[key, default: []].insert(line)
                    keysByPhoto[id, default: []].insert(key)
                }
            }
            line += 1
        }
        func precedes(_ a: String, _ b: String) -> Bool { a.unicodeScalars.lexicographicallyPrecedes(b.unicodeScalars) }
        let named = spellingsByKey.map { key, spellings in
            let name = spellings.sorted { $0.value != $1.value ? $0.value > $1.value : precedes($0.key, $1.key) }[0].key
            return (key, Topic(name: name, photoCount: photosByKey[key]!.count, locationCount: locationsByKey[key]!.count))
        }.sorted { $0.1.photoCount != $1.1.photoCount ? $0.1.photoCount > $1.1.photoCount : precedes($0.1.name, $1.1.name) }
        topics = named.map(\.1)
        let numberByKey = Dictionary(uniqueKeysWithValues: named.enumerated().map { ($1.0, $0) })
        self.numberByKey = numberByKey
        numbersByPhoto = keysByPhoto.mapValues { Set($0.map { numberByKey[$0]! }) }
    }

    /// Unicode case folding, as Foundation does it.
    public static func fold(_ text: String) -> String {
        text.folding(options: .caseInsensitive, locale: nil)
    }

    /// Whether the photo has topic `number`.
    public func photo(_ photoID: String, has number: Int) -> Bool {
        numbersByPhoto[photoID]?.contains(number) ?? false
    }

    /// The number of the topic spelled `name` in any case, or nil.
    public func number(named name: String) -> Int? {
        numberByKey[Self.fold(name)]
    }
}
