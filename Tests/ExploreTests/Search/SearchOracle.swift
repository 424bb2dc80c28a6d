import TestSupport
import Catalog
import Foundation

/// Search by brute force, written from the words of the `GET /search` definition and
/// sharing no code with the server's search: its own word splitter and folding, and
/// every photo's words kept in memory.
struct SearchOracle: Sendable {
    let catalog: PhotoCatalog
    /// Every folded word, with the photos whose searchable text holds it.
    let photosByWord: [String: Set<Int>]

    init(catalog: PhotoCatalog) {
        self.catalog = catalog
        var photosByWord: [String: Set<Int>] = [:]
        var locationWords: [[String]] = []
        for location in catalog.locations { locationWords.append(Self.foldedWords(location.intersection)) }
        for (index, photo) in catalog.photos.enumerated() {
            var words = Set(locationWords[photo.locationIndex])
            for text in [photo.title, photo.folder, photo.text, photo.intersection] {
                words.formUnion(Self.foldedWords(text))
            }
            for word in words { photosByWord[word, default: []].insert(index) }
        }
        self.photosByWord = photosByWord
    }

    /// Letters (L*) and decimal digits (Nd) make words; a mark (M*) continues the word
    /// it follows; everything else separates. Each word is then NFD, marks dropped,
    /// lower-cased.
    static func foldedWords(_ text: String?) -> [String] {
        guard let text else { return [] }
        var words: [String] = []
        var current = String.UnicodeScalarView()
        func finish() {
            if !current.isEmpty { words.append(fold(String(current))) }
            current = String.UnicodeScalarView()
        }
        for scalar in text.precomposedStringWithCanonicalMapping.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .decimalNumber:
                current.append(scalar)
            case .nonspacingMark, .spacingMark, .enclosingMark:
                if !current.isEmpty { current.append(scalar) }
            default:
                finish()
            }
        }
        finish()
        return words
    }

    static func fold(_ word: String) -> String {
        let unmarked = word.decomposedStringWithCanonicalMapping.unicodeScalars.filter { scalar in
            ![.nonspacingMark, .spacingMark, .enclosingMark].contains(scalar.properties.generalCategory)
        }
        return String(String.UnicodeScalarView(unmarked)).lowercased()
    }

    /// The photos matching `q` and the filters, as a set.
    func matches(_ q: String, filter: PhotoFilter) -> Set<Int> {
        let words = Self.foldedWords(q)
        guard let last = words.last else { return [] }
        var found: Set<Int>?
        for word in words.dropLast() {
            let photos = photosByWord[word] ?? []
            found = found.map { $0.intersection(photos) } ?? photos
        }
        var prefixed: Set<Int> = []
        for (word, photos) in photosByWord where word.hasPrefix(last) { prefixed.formUnion(photos) }
        let all = found.map { $0.intersection(prefixed) } ?? prefixed
        return all.filter { photo in
            let location = catalog.locations[catalog.photos[photo].locationIndex]
            if let borough = filter.borough, location.borough != borough { return false }
            if let topic = filter.topic, !(try! TopicOracle.load()).photo(catalog.photos[photo].photoID, has: topic) {
                return false
            }
            guard filter.filtersYears else { return true }
            let years = catalog.photos[photo].years.compactMap { Int($0) }
            return years.contains { $0 >= (filter.fromYear ?? .min) && $0 <= (filter.toYear ?? .max) }
        }
    }

    /// Haversine on the mean Earth radius, in metres.
    static func distance(_ latitude1: Double, _ longitude1: Double, _ latitude2: Double, _ longitude2: Double) -> Double {
        let radians = Double.pi / 180
        let dLat = (latitude2 - latitude1) * radians
        let dLon = (longitude2 - longitude1) * radians
        let a = sin(dLat / 2) * sin(dLat / 2) + cos(latitude1 * radians) * cos(latitude2 * radians) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * 6_371_008.8 * asin(min(1, sqrt(a)))
    }
}
