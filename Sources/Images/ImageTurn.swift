/// A clockwise turn of a source image by a multiple of 90 degrees: what an accepted
/// rotation correction asks of its pixels, done losslessly (`JPEGImage.turned(by:)`).
public enum ImageTurn: Int, Sendable, Hashable, CaseIterable {
    case none = 0
    case quarter = 90
    case half = 180
    case threeQuarters = 270

    /// The turn of `degrees` clockwise, which must be 0, 90, 180 or 270.
    public init?(degrees: Int) {
        self.init(rawValue: degrees)
    }

    public var degrees: Int { rawValue }

    /// Whether the turned image's width is the source's height.
    public var swapsSides: Bool { self == .quarter || self == .threeQuarters }
}
