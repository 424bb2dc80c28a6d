/// A photo that several users saved lately, and how many of them.
public struct PopularPhoto: Sendable, Equatable {
    public let photoID: String
    /// Users whose current favorite of the photo was saved within the window.
    public let saveCount: Int

    public init(photoID: String, saveCount: Int) {
        self.photoID = photoID
        self.saveCount = saveCount
    }
}
