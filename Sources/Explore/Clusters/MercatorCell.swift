import Foundation

/// A cell of the Web Mercator clustering grid: at zoom `z` the world is
/// `2^(z+2)` cells per side (a 256-pixel tile cut into 4×4 cells of 64 pixels).
/// Column 0 starts at longitude −180, row 0 at the grid's northern edge.
///
/// Cells are computed once, at the finest zoom: the cell at a coarser zoom is
/// the finest one shifted right. That is exact, not an approximation: the
/// fractions `(λ + 180) / 360` and `(1 − asinh(tan φ′) / π) / 2` are computed
/// once and multiplying them by a power of two rounds nothing, and
/// `⌊⌊v·2^24⌋ / 2^s⌋ = ⌊v·2^(24−s)⌋`; clamping commutes with the shift too.
public struct MercatorCell: Sendable, Hashable {
    public var column: Int
    public var row: Int

    public init(column: Int, row: Int) {
        self.column = column
        self.row = row
    }

    /// The zoom levels a client may ask for.
    public static let zooms = 0...22

    /// Latitudes beyond this are clamped: the square Web Mercator world ends there.
    public static let latitudeLimit = 85.05112878

    /// Cells per side at `zoom`.
    public static func side(zoom: Int) -> Int {
        1 << (zoom + 2)
    }

    /// The cell of a point at `zoom`.
    public init(latitude: Double, longitude: Double, zoom: Int) {
        column = Self.column(longitude: longitude, zoom: zoom)
        row = Self.row(latitude: latitude, zoom: zoom)
    }

    /// `x = ⌊(λ + 180) / 360 · n⌋`, clamped to `[0, n − 1]`.
    public static func column(longitude: Double, zoom: Int) -> Int {
        let side = side(zoom: zoom)
        return clamp((longitude + 180) / 360 * Double(side), side: side)
    }

    /// `y = ⌊(1 − asinh(tan φ′) / π) / 2 · n⌋`, clamped to `[0, n − 1]`, where φ′ is
    /// the latitude clamped to ±`latitudeLimit`, in radians.
    public static func row(latitude: Double, zoom: Int) -> Int {
        let side = side(zoom: zoom)
        let clamped = min(max(latitude, -latitudeLimit), latitudeLimit) * .pi / 180
        return clamp((1 - asinh(tan(clamped)) / .pi) / 2 * Double(side), side: side)
    }

    /// The same point's cell at a coarser zoom.
    public func coarsened(by levels: Int) -> MercatorCell {
        MercatorCell(column: column >> levels, row: row >> levels)
    }

    /// `⌊value⌋` clamped to `0..<side`.
    private static func clamp(_ value: Double, side: Int) -> Int {
        guard value >= 0 else { return 0 }
        guard value < Double(side) else { return side - 1 }
        return Int(value.rounded(.down))
    }
}
