import Feedback

/// The JSON shapes of feedback (openapi.yaml `Feedback`, `FeedbackPage`). Times are
/// RFC 3339 in UTC, as the accounts' are.
enum FeedbackJSON {
    /// `{"feedbackID", "photoID", "kind", <the kind's fields>, "status", "createdAt", "decidedAt"}`
    static func feedback(_ feedback: Feedback) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 256)
        write(feedback, to: &writer)
        return writer.bytes
    }

    /// `{"feedback": [Feedback], "nextCursor": string | null}`
    static func page(_ page: FeedbackPage) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 64 + 256 * page.feedback.count)
        writer.beginObject()
        writer.field("feedback", array: page.feedback) { writer, feedback in write(feedback, to: &writer) }
        writer.field("nextCursor", page.nextCursor)
        writer.endObject()
        return writer.bytes
    }

    private static func write(_ feedback: Feedback, to writer: inout JSONWriter) {
        writer.beginObject()
        writer.field("feedbackID", feedback.feedbackID)
        writer.field("photoID", feedback.photoID)
        writer.field("kind", feedback.change.kind.rawValue)
        switch feedback.change {
        case .location(let latitude, let longitude):
            writer.field("latitude", latitude)
            writer.field("longitude", longitude)
        case .date(let year):
            writer.field("year", year)
        case .rotation(let degrees):
            writer.field("degrees", degrees)
        case .other(let text):
            writer.field("text", text)
        }
        writer.field("status", feedback.status.rawValue)
        writer.field("createdAt", AccountJSON.timestamp(feedback.createdAt))
        writer.field("decidedAt", feedback.decidedAt.map(AccountJSON.timestamp))
        writer.endObject()
    }
}
