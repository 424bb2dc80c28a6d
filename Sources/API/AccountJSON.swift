import Accounts
import Basics
import Foundation

/// The JSON shapes of accounts (openapi.yaml `User`, `AuthResponse`). Times are RFC 3339 in UTC.
enum AccountJSON {
    /// `{"username", "createdAt", "favoriteCount", "displayName", "home", "role"}`
    static func user(_ user: User) -> [UInt8] {
        var writer = JSONWriter()
        write(user, to: &writer)
        return writer.bytes
    }

    /// `{"user": User, "token", "expiresAt"}`
    static func session(_ session: Session) -> [UInt8] {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("user")
        write(session.user, to: &writer)
        writer.field("token", session.token)
        writer.field("expiresAt", timestamp(session.expiresAt))
        writer.endObject()
        return writer.bytes
    }

    /// RFC 3339 in UTC, whole seconds, e.g. `2026-11-22T03:07:23Z` (the stored times are whole seconds).
    static func timestamp(_ date: Date) -> String {
        dateTime(date).iso8601
    }

    /// Appends `timestamp(date)`'s bytes, for lists that write one per item.
    static func appendTimestamp(_ date: Date, to bytes: inout [UInt8]) {
        dateTime(date).appendISO8601(to: &bytes)
    }

    private static func dateTime(_ date: Date) -> UTCDateTime {
        UTCDateTime(secondsSince1970: Int(date.timeIntervalSince1970.rounded(.down)))
    }

    private static func write(_ user: User, to writer: inout JSONWriter) {
        writer.beginObject()
        writer.field("username", user.username)
        writer.field("createdAt", timestamp(user.createdAt))
        writer.field("favoriteCount", user.favoriteCount)
        writer.field("displayName", user.displayName)
        writer.field("home", object: user.home) { writer, home in
            writer.field("latitude", home.latitude)
            writer.field("longitude", home.longitude)
        }
        writer.field("role", user.role.rawValue)
        writer.endObject()
    }
}
