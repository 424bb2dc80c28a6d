import Foundation

/// One saved photo of a user.
public struct Favorite: Sendable, Equatable {
    public let photoID: String
    public let savedAt: Date
}
