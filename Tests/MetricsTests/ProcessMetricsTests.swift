import Glibc
import Metrics
import TestSupportCore
import Testing

struct ProcessMetricsTests {
    @Test func theProcessFamiliesDescribeThisProcess() throws {
        var exposition = MetricsExposition()
        ProcessMetrics().collect(into: &exposition)
        let parsed = try PrometheusText(String(decoding: exposition.bytes, as: UTF8.self))
        let now = Double(time(nil))
        let started = try #require(parsed.value("process_start_time_seconds"))
        // This test process started before now, and less than a day ago.
        #expect(started <= now + 1 && started > now - 86_400)
        #expect(try #require(parsed.value("process_cpu_seconds_total")) > 0)
        #expect(try #require(parsed.value("process_resident_memory_bytes")) > 1_000_000)
        #expect(try #require(parsed.value("process_virtual_memory_bytes")) >= parsed.value("process_resident_memory_bytes")!)
        var limit = rlimit()
        getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        #expect(parsed.value("process_max_fds") == Double(limit.rlim_cur))
        // Standard input, output and error at least; one more open file is counted.
        let before = try #require(parsed.value("process_open_fds"))
        #expect(before >= 3)
        let extra = open("/dev/null", O_RDONLY | O_CLOEXEC)
        defer { close(extra) }
        var again = MetricsExposition()
        ProcessMetrics().collect(into: &again)
        let after = try #require(try PrometheusText(String(decoding: again.bytes, as: UTF8.self)).value("process_open_fds"))
        #expect(after >= 4)
    }
}
