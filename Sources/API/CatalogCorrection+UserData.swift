import Catalog
import UserData

extension CatalogCorrection {
    /// Every accepted correction of the user data (`catalog_corrections`), in `sequence`
    /// order. A row of a kind this server does not know is an error, not a correction to
    /// leave out: a generation that skipped it would differ from a newer server's.
    public static func accepted(in store: any UserDataStore) throws -> [CatalogCorrection] {
        try store.read { connection in
            try connection.query(
                "SELECT sequence, photo_id, kind, latitude, longitude, year, degrees FROM catalog_corrections ORDER BY sequence"
            ) { row in
                let sequence = row.int64(0)
                let change: Change
                switch row.text(2) {
                case "location": change = .location(latitude: row.double(3), longitude: row.double(4))
                case "date": change = .date(year: row.int(5))
                case "rotation": change = .rotation(degrees: row.int(6))
                case let kind: throw CatalogCorrectionsError.unknownKind(kind, sequence: sequence)
                }
                return CatalogCorrection(sequence: sequence, photoID: row.text(1), change: change)
            }
        }
    }

    /// How many corrections there are and the highest `sequence`: a cheap look at whether
    /// any were added since (`CatalogGenerations` looks every second).
    static func head(in store: any UserDataStore) throws -> CatalogCorrectionsHead {
        try store.read { connection in
            try connection.queryFirst("SELECT count(*), coalesce(max(sequence), 0) FROM catalog_corrections") { row in
                CatalogCorrectionsHead(count: row.int(0), lastSequence: row.int64(1))
            } ?? CatalogCorrectionsHead(count: 0, lastSequence: 0)
        }
    }
}
