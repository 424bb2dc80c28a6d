import Accounts

/// The JSON shapes of `GET /users/me/sessions` (openapi.yaml `SessionList`) and of the
/// `202` of the account mail endpoints (`Accepted`).
enum SessionJSON {
    /// `{"sessions": [{"sessionID", "createdAt", "lastUsedAt", "expiresAt", "userAgent", "current"}]}`
    static func list(_ sessions: [SessionSummary]) -> [UInt8] {
        var writer = JSONWriter()
        writer.beginObject()
        writer.field("sessions", array: sessions) { writer, session in
            writer.beginObject()
            writer.field("sessionID", session.sessionID)
            writer.field("createdAt", AccountJSON.timestamp(session.createdAt))
            writer.field("lastUsedAt", AccountJSON.timestamp(session.lastUsedAt))
            writer.field("expiresAt", AccountJSON.timestamp(session.expiresAt))
            writer.field("userAgent", session.userAgent)
            writer.field("current", session.current)
            writer.endObject()
        }
        writer.endObject()
        return writer.bytes
    }

    /// `{"message"}`: what a `202` says, the same for every request of its endpoint.
    static func accepted(_ message: String) -> [UInt8] {
        var writer = JSONWriter()
        writer.beginObject()
        writer.field("message", message)
        writer.endObject()
        return writer.bytes
    }
}
