/// One image the server keeps: a photo at a size, turned upright by a turn. Its `key`
/// names it in the disk copy's index.
public struct ImageVariant: Sendable, Hashable {
    public let photoID: String
    public let size: ImageSize
    public let turn: ImageTurn

    public init(photoID: String, size: ImageSize, turn: ImageTurn = .none) {
        self.photoID = photoID
        self.size = size
        self.turn = turn
    }

    /// `photoID/size/degrees`, as the index stores it (a photo ID holds no `/`).
    public var key: String { "\(photoID)/\(size.rawValue)/\(turn.degrees)" }

    /// The same photo and size as its source serves it: what a turn is made from.
    public var unturned: ImageVariant { ImageVariant(photoID: photoID, size: size) }

    /// The key's parts, or nil when `key` is not one.
    init?(key: String) {
        let parts = key.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, let size = ImageSize(rawValue: String(parts[1])),
            let degrees = Int(parts[2]), let turn = ImageTurn(degrees: degrees)
        else { return nil }
        self.init(photoID: String(parts[0]), size: size, turn: turn)
    }
}
