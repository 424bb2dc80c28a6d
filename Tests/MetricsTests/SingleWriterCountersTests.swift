import Dispatch
import Metrics
import Testing

struct SingleWriterCountersTests {
    /// One writer adds while another thread reads: every value read is one the counter
    /// passed through (never more than the final one, never going back), and the last
    /// read after the writer ends is exact. The writer's last act is to set counter 0,
    /// which the reader watches to stop.
    @Test func aReaderSeesTheWritersCountsRiseToTheExactTotal() async {
        let counters = SingleWriterCounters(count: 3)
        let table = SingleWriterCounterTable(rows: 4, columns: 5)
        let increments = 200_000
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for index in 0..<increments {
                    counters.add(2, at: 1)
                    table.increment(row: 2, column: index % 5)
                }
                counters.add(1, at: 0)
            }
            group.addTask {
                var last: UInt64 = 0
                var lastRow: UInt64 = 0
                while counters.value(at: 0) == 0 {
                    let value = counters.value(at: 1)
                    #expect(value >= last && value <= UInt64(2 * increments) && value % 2 == 0)
                    last = value
                    let rowTotal = table.row(2)?.reduce(0, +) ?? 0
                    #expect(rowTotal >= lastRow)
                    lastRow = rowTotal
                }
            }
        }
        #expect(counters.value(at: 1) == UInt64(2 * increments))
        #expect(counters.value(at: 0) == 1 && counters.value(at: 2) == 0)
        #expect(table.row(2) == Array(repeating: UInt64(increments / 5), count: 5))
        #expect(table.row(0) == nil && table.row(3) == nil)
    }

    @Test func aHistogramCountsEveryObservationFromManyThreads() {
        let histogram = Histogram(buckets: HistogramBuckets(bounds: [1, 4, 16]))
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for value in 0..<10_000 { histogram.observe(UInt64(value % 20 + thread % 2)) }
        }
        let snapshot = histogram.snapshot
        #expect(snapshot.count == 80_000)
        // Per thread, values v % 20 (+1 for odd threads): brute-force the expected buckets.
        var expected = HistogramSnapshot(bucketCount: 4)
        for thread in 0..<8 {
            for value in 0..<10_000 {
                let observed = UInt64(value % 20 + thread % 2)
                expected.counts[histogram.buckets.index(of: observed)] += 1
                expected.sum += observed
            }
        }
        #expect(snapshot == expected)
    }
}
