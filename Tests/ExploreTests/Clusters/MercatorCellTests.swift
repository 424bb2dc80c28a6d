import Explore
import Testing
import TestSupport

@Suite struct MercatorCellTests {
    /// The edges of the world and the grid's clamping, at zoom 0 (4 × 4 cells).
    @Test(arguments: [
        (0.0, -180.0, 0, 2), (0.0, 180.0, 3, 2), (0.0, 0.0, 2, 2), (-0.000001, -0.000001, 1, 2),
        (90.0, 0.0, 2, 0), (-90.0, 0.0, 2, 3), (85.05112878, -90.0, 1, 0), (70.0, 90.0, 3, 0), (60.0, 90.0, 3, 1),
        (-70.0, 89.99, 2, 3), (-60.0, -180.0, 0, 2),
    ])
    func cellsAtZoomZero(_ latitude: Double, _ longitude: Double, _ column: Int, _ row: Int) {
        #expect(MercatorCell(latitude: latitude, longitude: longitude, zoom: 0) == MercatorCell(column: column, row: row))
    }

    /// Cells at every zoom are the finest cells shifted, and as the API document's formulas give.
    @Test func everyZoomIsTheFinestShifted() {
        var generator = SeededGenerator(seed: 22)
        for _ in 0..<2000 {
            let latitude = Bool.random(using: &generator)
                ? Double.random(in: -90...90, using: &generator) : Double.random(in: 40.4...41, using: &generator)
            let longitude = Bool.random(using: &generator)
                ? Double.random(in: -180...180, using: &generator) : Double.random(in: -74.3...(-73.6), using: &generator)
            let finest = MercatorCell(latitude: latitude, longitude: longitude, zoom: 22)
            for zoom in MercatorCell.zooms {
                let cell = MercatorCell(latitude: latitude, longitude: longitude, zoom: zoom)
                #expect(cell == finest.coarsened(by: 22 - zoom), "\(latitude), \(longitude) at zoom \(zoom)")
                #expect([cell.column, cell.row] == ClusterOracle.cell(latitude, longitude, zoom: zoom))
            }
        }
    }
}
