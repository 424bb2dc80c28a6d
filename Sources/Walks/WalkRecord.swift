import Accounts
import Basics
import Foundation
import UserData

/// A walk's row as stored: its row sequence (what entries and points refer to, and
/// what orders the user's walks), the walk as shown, its progress, and when its last
/// accepted point was recorded.
struct WalkRecord {
    let sequence: Int64
    let walk: Walk
    let progress: WalkProgress
    /// Milliseconds since 1970; nil before the first point.
    let lastRecordedAt: Int64?

    /// The columns `init(_:)` reads, for a `FROM walks` joined with the walk's last
    /// accepted point as `last` (NULL before the first point).
    static let columns = """
        walks.sequence, walks.walk_id, walks.started_at, walks.updated_at, walks.point_count,
        walks.distance_meters, walks.photo_count, last.latitude, last.longitude, last.added_at
        """
    static let lastPointJoin =
        "LEFT JOIN walk_points AS last ON last.walk = walks.sequence AND last.number = walks.point_count"

    init(_ row: any UserDataRow) {
        sequence = row.int64(0)
        let pointCount = row.int(4)
        let distance = row.double(5)
        walk = Walk(
            walkID: Base64.url.encode(row.blob(1)), startedAt: Walks.date(row.int64(2)),
            updatedAt: Walks.date(row.int64(3)), pointCount: pointCount, distanceMeters: distance,
            photoCount: row.int(6))
        let lastPoint = row.isNull(7) ? nil : WalkPoint(latitude: row.double(7), longitude: row.double(8))
        progress = WalkProgress(pointCount: pointCount, distanceMeters: distance, lastPoint: lastPoint)
        lastRecordedAt = row.isNull(9) ? nil : row.int64(9)
    }
}
