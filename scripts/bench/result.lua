-- Shared by the wrk scripts of scripts/bench.sh (each loads it first, with dofile):
-- setup() numbers the threads, record_status() counts response statuses per
-- thread, and done() prints the one line bench.sh reads:
--
--   RESULT <req/s> <p50 ms> <p99 ms> <non-2xx/3xx> <socket errors> <wrk CPU s> <statuses>
--
-- where the CPU time is all of wrk's threads', from the first setup to done, and
-- <statuses> is "200:n,503:m" summed over the threads ("-" when the script counts none;
-- counting needs a response() callback, which costs wrk CPU, so the catalog reads do not).

threads = {}
local cpu_at_start

function setup(thread)
    table.insert(threads, thread)
    thread:set("thread_number", #threads)
    cpu_at_start = cpu_at_start or os.clock()
end

counts = {}

function record_status(status)
    counts[status] = (counts[status] or 0) + 1
end

local function statuses()
    local total = {}
    for _, thread in ipairs(threads) do
        for status, count in pairs(thread:get("counts") or {}) do
            total[status] = (total[status] or 0) + count
        end
    end
    local parts = {}
    for status, count in pairs(total) do
        table.insert(parts, status .. ":" .. count)
    end
    table.sort(parts)
    return #parts > 0 and table.concat(parts, ",") or "-"
end

function done(summary, latency, requests)
    local errors = summary.errors
    io.write(string.format("RESULT %.0f %.3f %.3f %d %d %.3f %s\n",
        summary.requests / (summary.duration / 1e6),
        latency:percentile(50) / 1000, latency:percentile(99) / 1000,
        errors.status, errors.connect + errors.read + errors.write + errors.timeout,
        os.clock() - cpu_at_start, statuses()))
end
