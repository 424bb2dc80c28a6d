-- Shared by the wrk scripts that count response statuses: each thread counts into
-- its global `counts` (record_status), and done() sums them over all threads.
-- A script loads this first (dofile) and may then define its own response().

threads = {}

function remember_thread(thread)
    table.insert(threads, thread)
end

function record_status(status)
    counts[status] = (counts[status] or 0) + 1
end

-- Prints "status <code>: <count>" per status, summed over the threads.
function print_status_counts()
    local total = {}
    for _, thread in ipairs(threads) do
        for status, count in pairs(thread:get("counts")) do
            total[status] = (total[status] or 0) + count
        end
    end
    for status, count in pairs(total) do
        io.write(string.format("status %d: %d\n", status, count))
    end
end

function response(status, headers, body)
    record_status(status)
end

function done(summary, latency, requests)
    print_status_counts()
end
