import Basics
import Crypto

/// Every accepted correction in `sequence` order, and the generations they make: the
/// shipped catalog is generation 0, and each correction's `sequence` names the
/// generation of every correction up to it.
///
/// A generation's token (`GET /catalog/changes`, the snapshot's `Catalog-Generation`) is
/// its number and a digest of the shipped data and the corrections up to it
/// (`<sequence>-<16 hex digits>`), chained one correction at a time (SHA-256). So a
/// token names exactly one state of the catalog: a token of other shipped data, or from
/// before a correction appeared among older ones, no longer matches, and its client
/// downloads the snapshot again instead of applying changes to the wrong copy.
public struct CorrectionHistory: Sendable {
    /// In `sequence` order, each sequence once.
    public let corrections: [CatalogCorrection]
    /// `digests[n]`: the digest of the shipped data and the first `n` corrections.
    private let digests: [SHA256.Digest]
    private let shippedDataVersion: String

    /// - Parameters:
    ///   - shippedDataVersion: `ShippedCatalog.dataVersion`.
    ///   - corrections: in `sequence` order.
    public init(shippedDataVersion: String, corrections: [CatalogCorrection]) {
        precondition(zip(corrections, corrections.dropFirst()).allSatisfy { $0.sequence < $1.sequence }, "corrections out of order")
        self.corrections = corrections
        self.shippedDataVersion = shippedDataVersion
        var digests = [SHA256.hash(data: Array("past-nyc catalog\n\(shippedDataVersion)".utf8))]
        digests.reserveCapacity(corrections.count + 1)
        for correction in corrections {
            var hash = SHA256()
            hash.update(data: Array(digests[digests.count - 1]))
            hash.update(data: Self.encoded(correction))
            digests.append(hash.finalize())
        }
        self.digests = digests
    }

    /// The latest generation's number: the last correction's `sequence`, 0 for none.
    public var generation: Int64 { corrections.last?.sequence ?? 0 }

    /// The latest generation's token.
    public var token: String { token(count: corrections.count) }

    /// A tag of the latest generation's data for entity tags, as `SourceFiles.dataVersion`
    /// is of the shipped data (which it is, without corrections): every answer's `ETag`
    /// changes with the generation.
    public var dataVersion: String {
        corrections.isEmpty ? shippedDataVersion : Hex.string(digests[corrections.count].prefix(10))
    }

    /// Where a client's token stands in this history.
    public enum Lookup: Sendable, Equatable {
        /// The generation of the first `count` corrections.
        case generation(count: Int)
        /// Not a token this history ever gave: malformed, or a number no correction has.
        case unknown
        /// A well-formed token of a generation past this history's last: one another
        /// instance built from corrections this one has not read yet, or a forgery.
        case ahead(sequence: Int64)
        /// A generation's number with another digest: a token of other shipped data, or
        /// of a history that has changed since (a correction accepted among older ones).
        case forgotten
    }

    /// What `token` names.
    public func lookUp(_ token: String) -> Lookup {
        let parts = token.utf8.split(separator: UInt8(ascii: "-"), maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, (1...19).contains(parts[0].count), parts[0].allSatisfy({ (0x30...0x39).contains($0) }),
            parts[1].count == Self.tokenDigestBytes * 2, parts[1].allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }),
            let sequence = Int64(String(decoding: parts[0], as: UTF8.self))
        else { return .unknown }
        guard sequence <= generation else { return .ahead(sequence: sequence) }
        let count: Int
        if sequence == 0 {
            count = 0
        } else {
            var low = 0
            var high = corrections.count
            while low < high {
                let middle = (low + high) / 2
                if corrections[middle].sequence < sequence { low = middle + 1 } else { high = middle }
            }
            guard low < corrections.count, corrections[low].sequence == sequence else { return .unknown }
            count = low + 1
        }
        return token.utf8.elementsEqual(self.token(count: count).utf8) ? .generation(count: count) : .forgotten
    }

    /// The token of the generation of the first `count` corrections.
    public func token(count: Int) -> String {
        let sequence = count == 0 ? 0 : corrections[count - 1].sequence
        return "\(sequence)-" + Hex.string(digests[count].prefix(Self.tokenDigestBytes))
    }

    /// Bytes of the digest a token carries: 64 bits tell histories apart.
    private static let tokenDigestBytes = 8

    /// A correction's bytes for its digest: the fields that decide what it does, each
    /// with its length or at a fixed width, so no two corrections share an encoding.
    private static func encoded(_ correction: CatalogCorrection) -> [UInt8] {
        var bytes: [UInt8] = []
        func append(_ value: UInt64) {
            for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
        }
        append(UInt64(bitPattern: correction.sequence))
        append(UInt64(correction.photoID.utf8.count))
        bytes += correction.photoID.utf8
        switch correction.change {
        case .location(let latitude, let longitude):
            bytes.append(1)
            append(latitude.bitPattern)
            append(longitude.bitPattern)
        case .date(let year):
            bytes.append(2)
            append(UInt64(bitPattern: Int64(year)))
        case .rotation(let degrees):
            bytes.append(3)
            append(UInt64(bitPattern: Int64(degrees)))
        }
        return bytes
    }
}
