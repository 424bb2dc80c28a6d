/// An image the disk copy holds: its file, whose bytes never change while it exists
/// (its name holds their digest), and what a response and a pack's index say of it.
public struct KeptImage: Sendable, Equatable {
    public let path: String
    public let bytes: Int
    /// The strong entity tag: the content's digest, quoted.
    public let etag: String
    public let width: Int
    public let height: Int
}
