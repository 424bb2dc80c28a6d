import Basics
import Catalog
import HTTPServer

/// The strong entity tag (RFC 9110 §8.8.3) of a catalog response: the catalog's data
/// version, a letter for the endpoint, and the normalized query. The catalog is
/// immutable, so equal queries get equal bodies, and no body needs hashing.
///
/// Written as bytes, because string interpolation of the query was a visible cost of
/// `/nearby`. The tag uses only `etagc` characters and no commas, which naive
/// `If-None-Match` list splitters would cut.
struct CatalogEntityTag {
    private var bytes: [UInt8] = []

    init(dataVersion: String, endpoint: StaticString) {
        bytes.reserveCapacity(128)
        bytes.append(UInt8(ascii: "\""))
        bytes.append(utf8: dataVersion)
        bytes.append(UInt8(ascii: "-"))
        bytes.append(endpoint)
    }

    /// A number by its bit pattern in hex: every spelling of one value (`40.70`, `40.7`,
    /// `4.07e1`) gives the same tag, at no cost of formatting.
    mutating func add(_ value: Double) {
        addSeparator()
        Hex.append(value.bitPattern, to: &bytes)
    }

    mutating func add(_ value: Double?) {
        guard let value else { return addAbsent() }
        add(value)
    }

    mutating func add(_ value: Int?) {
        guard let value else { return addAbsent() }
        addSeparator()
        CatalogJSONNumber.append(value, to: &bytes)
    }

    /// The year range and the borough (by its position in `Borough.allCases`).
    mutating func add(_ filter: PhotoFilter) {
        add(filter.fromYear)
        add(filter.toYear)
        add(filter.borough.flatMap { Borough.allCases.firstIndex(of: $0) })
    }

    /// The finished tag, quoted: its bytes and the closing quote copied once, into the String.
    var value: String {
        bytes.withUnsafeBufferPointer { tag in
            String(unsafeUninitializedCapacity: tag.count + 1) { text in
                _ = text.initialize(from: tag)
                text[tag.count] = UInt8(ascii: "\"")
                return tag.count + 1
            }
        }
    }

    private mutating func addSeparator() {
        bytes.append(UInt8(ascii: ":"))
    }

    private mutating func addAbsent() {
        addSeparator()
        bytes.append(UInt8(ascii: "_"))
    }
}
