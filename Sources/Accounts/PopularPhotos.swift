import Foundation
import Synchronization
import UserData

/// What people are saving now (`GET /photos/popular`): for a window of `days`, the photos
/// whose current favorites by at least `minimumSavers` users were saved within it.
///
/// Each window's list is read from the store (one indexed range query grouped by photo,
/// never a scan per request) at most once per `refreshInterval`, by the first request
/// that finds it older; requests in between answer from memory. So an answer lags the
/// favorites by at most `refreshInterval` plus one query, and with a shared store it
/// sees every instance's saves.
public final class PopularPhotos: Sendable {
    /// Fewer savers than this and a photo is not listed: no one's favorites can be inferred.
    public static let minimumSavers = 3
    /// The longest list kept per window (the largest `limit`).
    public static let maximumListed = 100
    /// How old a window's list may be before the next request reads it again.
    public static let refreshInterval: TimeInterval = 1

    private struct Window {
        var photos: [PopularPhoto]
        var readAt: Date
    }

    private let store: any UserDataStore
    private let clock: @Sendable () -> Date
    private let windows = Mutex<[Int: Window]>([:])

    init(store: any UserDataStore, clock: @escaping @Sendable () -> Date) {
        self.store = store
        self.clock = clock
    }

    /// The window's list when it was read within `refreshInterval`, from memory; nil when
    /// it must be read again (`popular(days:)`, which blocks).
    public func recent(days: Int) -> [PopularPhoto]? {
        let now = clock()
        return windows.withLock { windows in
            guard let window = windows[days], now.timeIntervalSince(window.readAt) < Self.refreshInterval else { return nil }
            return window.photos
        }
    }

    /// The window's list, most savers first (ties by photo ID, by code point), read from
    /// the store unless it was read within `refreshInterval`. Blocks: call it off the event loop.
    public func popular(days: Int) throws -> [PopularPhoto] {
        if let recent = recent(days: days) { return recent }
        let now = clock()
        let since = Int64(now.timeIntervalSince1970) - Int64(days) * 86_400
        let rows = try store.read { connection in
            try connection.query(
                """
                SELECT photo_id, COUNT(*) FROM favorites WHERE saved_at >= ?
                GROUP BY photo_id HAVING COUNT(*) >= ?
                """,
                [.integer(since), .integer(Int64(Self.minimumSavers))]
            ) { PopularPhoto(photoID: $0.text(0), saveCount: Int($0.int64(1))) }
        }
        let photos = Array(
            rows.sorted { a, b in
                a.saveCount != b.saveCount ? a.saveCount > b.saveCount : a.photoID.utf8.lexicographicallyPrecedes(b.photoID.utf8)
            }.prefix(Self.maximumListed))
        windows.withLock { $0[days] = Window(photos: photos, readAt: now) }
        return photos
    }
}
