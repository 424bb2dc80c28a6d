import Foundation

/// One photo in a user's recently viewed list, with when it was last viewed.
public struct Recent: Sendable, Equatable {
    public let photoID: String
    public let viewedAt: Date
}
