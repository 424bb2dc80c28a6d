import ArgumentParser
import Catalog
import Explore
import Foundation

/// `past-nyc tour-gain`: how the tour planner compares with the greedy tour the API
/// promises to match or beat, from the points of a file, and how much CPU planning takes
/// (`scripts/bench.sh tours` runs it on the points it loads the server with).
struct TourGainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tour-gain",
        abstract: "Compare planned tours with greedy ones from the points of a file (a benchmark aid)."
    )

    @OptionGroup var storage: StorageOptions

    @Argument(help: "A file of start points, one 'latitude longitude' a line.")
    var pointsFile: String

    @Option(help: "The tours' time budget in minutes (10 to 240).")
    var minutes = 60

    @Option(help: "The most stops (2 to 20).")
    var stops = 8

    @Option(help: "The fewest photos of a stop (1 to 100).")
    var minPhotos = 5

    func validate() throws {
        guard (10...240).contains(minutes) else { throw ValidationError("--minutes must be from 10 to 240") }
        guard (2...20).contains(stops) else { throw ValidationError("--stops must be from 2 to 20") }
        guard (1...100).contains(minPhotos) else { throw ValidationError("--min-photos must be from 1 to 100") }
        try storage.requireSourceFiles(CatalogStore.sourceFileNames)
    }

    func run() throws {
        let points = try String(contentsOfFile: pointsFile, encoding: .utf8).split(whereSeparator: \.isNewline).map {
            line -> (Double, Double) in
            let fields = line.split(separator: " ")
            guard fields.count == 2, let latitude = Double(fields[0]), let longitude = Double(fields[1]),
                (-90...90).contains(latitude), (-180...180).contains(longitude)
            else { throw ValidationError("not a 'latitude longitude' line of \(pointsFile): \(line)") }
            return (latitude, longitude)
        }
        guard !points.isEmpty else { throw ValidationError("\(pointsFile) has no points") }
        try FileManager.default.createDirectory(atPath: storage.dataDir, withIntermediateDirectories: true)
        let catalog = PhotoCatalog(try CatalogStore.openOrBuild(dataDirectory: storage.dataDir, sourceDirectory: storage.resolvedSourceDir))

        var planned: [Int] = []
        var greedy: [Int] = []
        var candidates: [Int] = []
        var planningMicroseconds: [Double] = []
        for (latitude, longitude) in points {
            let query = TourQuery(
                latitude: latitude, longitude: longitude, budget: TourBudget(minutes: minutes, maxStops: stops),
                minPhotos: minPhotos)
            let started = Self.threadCPUMicroseconds()
            let problem = catalog.tourProblem(query)
            let tour = problem.bestTour()
            planningMicroseconds.append(Self.threadCPUMicroseconds() - started)
            planned.append(tour.photoCount)
            greedy.append(problem.greedyTour().photoCount)
            candidates.append(problem.sites.count)
        }

        let plannedMedian = Self.median(planned.map(Double.init))
        let greedyMedian = Self.median(greedy.map(Double.init))
        let better = zip(planned, greedy).count { $0 > $1 }
        let gains = zip(planned, greedy).filter { $1 > 0 }.map { Double($0) / Double($1) - 1 }
        print("points: \(points.count), minutes=\(minutes) stops=\(stops) minPhotos=\(minPhotos)")
        print("candidates within reach: median \(Self.median(candidates.map(Double.init))), max \(candidates.max() ?? 0)")
        print("photoCount median: planned \(plannedMedian), greedy \(greedyMedian), gain \(Self.percent(plannedMedian / greedyMedian - 1))")
        print("per point: planned better than greedy at \(better) of \(points.count), median gain \(Self.percent(Self.median(gains)))")
        let sorted = planningMicroseconds.sorted()
        print(String(
            format: "planning CPU time (µs): p50 %.0f, p90 %.0f, p99 %.0f, max %.0f",
            Self.median(sorted), sorted[sorted.count * 9 / 10], sorted[sorted.count * 99 / 100], sorted.last ?? 0))
    }

    /// The CPU time this thread has used: unlike the wall clock, it does not count the
    /// time other processes of a busy machine take.
    private static func threadCPUMicroseconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) * 1e6 + Double(time.tv_nsec) / 1e3
    }

    private static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    private static func percent(_ ratio: Double) -> String {
        String(format: "%+.1f%%", ratio * 100)
    }
}
