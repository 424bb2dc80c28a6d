import Catalog
import Foundation
import UserData

/// Accepted corrections written straight into a store's `catalog_corrections`, as a
/// moderator's decision writes them, for the catalog of every instance on it to follow.
enum CorrectionRows {
    /// Inserts the changes in order, in one transaction; returns them as corrections, with
    /// the sequences the store gave them.
    @discardableResult
    static func accept(_ changes: [(photoID: String, change: CatalogCorrection.Change)], into store: any UserDataStore) throws
        -> [CatalogCorrection]
    {
        try store.write { connection in
            var accepted: [CatalogCorrection] = []
            for (photoID, change) in changes {
                let (kind, values): (String, [UserDataValue]) =
                    switch change {
                    case .location(let latitude, let longitude): ("location", [.real(latitude), .real(longitude), .null, .null])
                    case .date(let year): ("date", [.null, .null, .integer(Int64(year)), .null])
                    case .rotation(let degrees): ("rotation", [.null, .null, .null, .integer(Int64(degrees))])
                    }
                try connection.execute(
                    """
                    INSERT INTO catalog_corrections (photo_id, kind, latitude, longitude, year, degrees, accepted_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """,
                    [.text(photoID), .text(kind)] + values + [.integer(Int64(Date().timeIntervalSince1970))])
                let sequence = try connection.queryFirst("SELECT max(sequence) FROM catalog_corrections") { $0.int64(0) }!
                accepted.append(CatalogCorrection(sequence: sequence, photoID: photoID, change: change))
            }
            return accepted
        }
    }

    /// Waits until `done` holds, at most `seconds`; whether it did.
    static func wait(seconds: Int, until done: () throws -> Bool) rethrows -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            if try done() { return true }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return try done()
    }
}
