import Basics
import Catalog
import HTTPServer

/// The strong entity tag (RFC 9110 §8.8.3) of a catalog response: the catalog's data
/// version, a letter for the endpoint, and the normalized query. The catalog is
/// immutable, so equal queries get equal bodies, and no body needs hashing.
///
/// Written as bytes straight into the String's storage (one allocation, no growth),
/// because building it was a visible cost of `/nearby`. The tag uses only `etagc`
/// characters and no commas, which naive `If-None-Match` list splitters would cut.
struct CatalogEntityTag: ~Copyable {
    private var text: CatalogBodyWriter

    /// The quoted tag: the data version, the endpoint's letter, and the parts `describe`
    /// adds, in order.
    /// - Precondition: `describe` adds at most 14 parts (every endpoint adds fewer).
    static func value(dataVersion: String, endpoint: StaticString, _ describe: (inout CatalogEntityTag) -> Void = { _ in })
        -> String
    {
        let capacity = dataVersion.utf8.count + endpoint.utf8CodeUnitCount + 3 + 14 * maxPartBytes
        return String(unsafeUninitializedCapacity: capacity) { storage in
            var tag = CatalogEntityTag(text: CatalogBodyWriter(storage: storage))
            tag.text.append(UInt8(ascii: "\""))
            var dataVersion = dataVersion
            dataVersion.withUTF8 { tag.text.append(bytes: $0) }
            tag.text.append(UInt8(ascii: "-"))
            tag.text.append(endpoint)
            describe(&tag)
            tag.text.append(UInt8(ascii: "\""))
            return tag.text.count
        }
    }

    private init(text: consuming CatalogBodyWriter) {
        self.text = text
    }

    /// The most bytes one part takes: a separator and an integer's 20 characters.
    private static let maxPartBytes = 21

    /// A number by its bit pattern in hex: every spelling of one value (`40.70`, `40.7`,
    /// `4.07e1`) gives the same tag, at no cost of formatting.
    mutating func add(_ value: Double) {
        addSeparator()
        text.append(count: 16) { Hex.write(value.bitPattern, to: $0) }
    }

    mutating func add(_ value: Double?) {
        guard let value else { return addAbsent() }
        add(value)
    }

    mutating func add(_ value: Int?) {
        guard let value else { return addAbsent() }
        addSeparator()
        CatalogJSONNumber.append(value, to: &text)
    }

    /// The year range, the topic and the borough (by its position in `Borough.allCases`).
    mutating func add(_ filter: PhotoFilter) {
        add(filter.fromYear)
        add(filter.toYear)
        add(filter.topic)
        add(filter.borough.flatMap { Borough.allCases.firstIndex(of: $0) })
    }

    private mutating func addSeparator() {
        text.append(UInt8(ascii: ":"))
    }

    private mutating func addAbsent() {
        addSeparator()
        text.append(UInt8(ascii: "_"))
    }
}
