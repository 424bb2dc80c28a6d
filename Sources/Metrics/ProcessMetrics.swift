import Descriptors
import Glibc

/// The process's own families, under the names every Prometheus client library gives
/// them (so the usual dashboards and alerts work unchanged): CPU seconds, resident and
/// virtual memory, open and allowed descriptors, and the start time, read from
/// `/proc/self` (proc(5)) at each scrape. On a system without `/proc` it writes none.
public struct ProcessMetrics: MetricsCollector {
    public init() {}

    public func collect(into exposition: inout MetricsExposition) {
        guard let stat = Self.statFields(), stat.count >= 22,
            let userTicks = UInt64(stat[11]), let systemTicks = UInt64(stat[12]), let startTicks = UInt64(stat[19]),
            let virtualBytes = UInt64(stat[20]), let residentPages = UInt64(stat[21])
        else { return }
        let ticksPerSecond = UInt64(max(sysconf(Int32(_SC_CLK_TCK)), 1))
        let pageBytes = UInt64(max(sysconf(Int32(_SC_PAGESIZE)), 1))
        exposition.counter(
            "process_cpu_seconds_total", help: "CPU time the process has used, user and system, in seconds.",
            value: MetricValue(Double(userTicks + systemTicks) / Double(ticksPerSecond)))
        exposition.gauge(
            "process_resident_memory_bytes", help: "Resident memory of the process, in bytes.",
            value: MetricValue(residentPages * pageBytes))
        exposition.gauge(
            "process_virtual_memory_bytes", help: "Virtual memory of the process, in bytes.", value: MetricValue(virtualBytes))
        if let directory = DirectoryStream(path: "/proc/self/fd") {
            // The stream's own descriptor is among the entries.
            exposition.gauge(
                "process_open_fds", help: "File descriptors the process holds open (sockets included).",
                value: MetricValue(directory.entryCount() - 1))
        }
        var limit = rlimit()
        if getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 {
            exposition.gauge(
                "process_max_fds", help: "The most file descriptors the process may open (RLIMIT_NOFILE).",
                value: MetricValue(limit.rlim_cur))
        }
        if let bootTime = Self.bootTime() {
            exposition.gauge(
                "process_start_time_seconds", help: "When the process started, in seconds since the Unix epoch.",
                value: MetricValue(Double(bootTime) + Double(startTicks) / Double(ticksPerSecond)))
        }
    }

    /// The fields of `/proc/self/stat` after the command name (which is in parentheses
    /// and may hold spaces): index 0 is the state, the third field of proc(5).
    static func statFields() -> [Substring]? {
        guard let bytes = read("/proc/self/stat"), let close = bytes.lastIndex(of: UInt8(ascii: ")")) else { return nil }
        return String(decoding: bytes[(close + 1)...], as: UTF8.self).split(separator: " ")
    }

    /// The `btime` line of `/proc/stat`: when the system booted, in seconds since the epoch.
    private static func bootTime() -> UInt64? {
        guard let bytes = read("/proc/stat") else { return nil }
        let line = String(decoding: bytes, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix("btime ") }
        return line.flatMap { UInt64($0.dropFirst("btime ".count)) }
    }

    /// A whole small file of `/proc` (read until its end: its size reads as 0).
    private static func read(_ path: String) -> [UInt8]? {
        let opened = open(path, O_RDONLY | O_CLOEXEC)
        guard opened >= 0 else { return nil }
        let file = FileDescriptor(opened)
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(file.rawValue, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return count == 0 ? bytes : nil }
            bytes += chunk[0..<count]
        }
    }
}
