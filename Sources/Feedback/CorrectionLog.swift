import Catalog
import UserData

/// Appends an accepted feedback's correction to `catalog_corrections`, the seam between
/// the user data and the catalog: every instance builds its catalog generations from
/// that table's rows in `sequence` order, the last of one photo and kind winning. Always
/// in the transaction that accepts the feedback, so the feedback's status and its
/// correction commit together or not at all. The row names the feedback
/// (`feedback_id`), which names its author and the moderator who decided it.
enum CorrectionLog {
    static func append(
        _ change: CatalogCorrection.Change, photoID: String, feedbackID: Int64, at now: Int64,
        in connection: any UserDataConnection
    ) throws {
        let (latitude, longitude, year, degrees): (UserDataValue, UserDataValue, UserDataValue, UserDataValue) =
            switch change {
            case .location(let latitude, let longitude): (.real(latitude), .real(longitude), .null, .null)
            case .date(let year): (.null, .null, .init(year), .null)
            case .rotation(let degrees): (.null, .null, .null, .init(degrees))
            }
        try connection.execute(
            """
            INSERT INTO catalog_corrections (photo_id, kind, latitude, longitude, year, degrees, feedback_id, accepted_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [.text(photoID), .text(kind(of: change).rawValue), latitude, longitude, year, degrees, .integer(feedbackID),
             .integer(now)])
    }

    private static func kind(of change: CatalogCorrection.Change) -> FeedbackKind {
        switch change {
        case .location: .location
        case .date: .date
        case .rotation: .rotation
        }
    }
}
