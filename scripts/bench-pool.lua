-- wrk script of scripts/bench-catalog.sh: replays a pool of requests formatted once,
-- in init, so wrk does no formatting per request and stays light on its core.
--
-- Arguments (after wrk's `--`): the pool file (one request path a line) and a seed;
-- each thread starts at its own seeded place in the pool and cycles through it.
--
-- Prints one line: RESULT <req/s> <p50 ms> <p99 ms> <non-2xx> <socket errors> <wrk CPU s>,
-- where the CPU time is all of wrk's threads', from the first setup to done.

local pool = {}
local position = 1
local threads = 0
local cpu_at_start

setup = function(thread)
    threads = threads + 1
    thread:set("thread_number", threads)
    cpu_at_start = cpu_at_start or os.clock()
end

init = function(args)
    local file = assert(io.open(args[1], "r"))
    for path in file:lines() do
        pool[#pool + 1] = wrk.format("GET", path)
    end
    file:close()
    assert(#pool > 0, "empty request pool " .. args[1])
    math.randomseed(tonumber(args[2] or "1") * 1000 + thread_number)
    position = math.random(#pool)
end

request = function()
    local next_request = pool[position]
    position = position % #pool + 1
    return next_request
end

done = function(summary, latency, requests)
    local errors = summary.errors
    io.write(string.format("RESULT %.0f %.3f %.3f %d %d %.3f\n",
        summary.requests / (summary.duration / 1e6),
        latency:percentile(50) / 1000, latency:percentile(99) / 1000,
        errors.status, errors.connect + errors.read + errors.write + errors.timeout,
        os.clock() - cpu_at_start))
end
