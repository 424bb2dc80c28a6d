/// What favorites need of the catalog: whether a photo exists, and its
/// PhotoSummary (openapi.yaml's schema) already encoded as a JSON object.
public protocol PhotoSummaryProvider: Sendable {
    /// The PhotoSummary object of `photoID`, or nil when the catalog has no such photo.
    func photoSummaryJSON(photoID: String) -> [UInt8]?
}
