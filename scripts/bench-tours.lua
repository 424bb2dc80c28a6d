-- wrk script: GET /tours from the start points in $POINTS_FILE ("latitude longitude"
-- a line), with the default budget (60 minutes, 8 stops, 5 photos a stop). Each
-- thread builds its pool of formatted requests once, in init, shuffled by a seed of
-- its own ($SEED plus its number), then cycles through it; statuses are counted and
-- summed at the end.

dofile(debug.getinfo(1, "S").source:match("^@(.*/)") .. "status-counts.lua")

function setup(thread)
    thread:set("offset", #threads)
    remember_thread(thread)
end

function init(args)
    math.randomseed(tonumber(os.getenv("SEED") or "1") + offset)
    local points = {}
    for line in io.lines(os.getenv("POINTS_FILE")) do
        table.insert(points, line)
    end
    pool = {}
    for i = 1, #points do
        local lat, lon = points[math.random(#points)]:match("^(%S+) (%S+)$")
        pool[i] = wrk.format("GET", "/tours?lat=" .. lat .. "&lon=" .. lon)
    end
    index = 0
    counts = {}
end

function request()
    index = index % #pool + 1
    return pool[index]
end
