-- wrk script of scripts/bench.sh (scenarios walks-accept, walks-reject, walks-batch): POST
-- /walks/{walkID}/points (or /points/batch) with a bearer token, over the walks in
-- $WALK_IDS (one per line), each thread taking its own share of them in turn.
--   MODE=accept: each walk's next point on a grid with 150 m between any two of its
--     points, in lower Manhattan and Brooklyn: every point is accepted (201), most
--     gain a photo, each an fsynced commit.
--   MODE=reject: every point is the walk's first point again (sent before the run):
--     nearer than 100 m, so rejected (200) without a write.
--   MODE=batch: the walk's next 100 points of the same grid (wrapping around a
--     40 x 40 square, 6 km on a side) as one batch, recorded a second apart from a
--     day ago on: every point is accepted, the batch one fsynced transaction.
-- Statuses are counted and summed at the end.

dofile(debug.getinfo(1, "S").source:match("^@(.*/)") .. "result.lua")

function init(args)
    local all = {}
    for line in io.lines(os.getenv("WALK_IDS")) do
        table.insert(all, line)
    end
    local threadCount = tonumber(os.getenv("THREADS"))
    walks = {}
    for index, walk in ipairs(all) do
        if index % threadCount == thread_number - 1 then table.insert(walks, walk) end
    end
    token = os.getenv("TOKEN")
    accept = os.getenv("MODE") == "accept"
    batch = os.getenv("MODE") == "batch"
    batchSize = 100
    -- A day before the run, in milliseconds, plus an hour per run: later runs' points
    -- come after the earlier runs' on the same walks.
    firstRecorded = (os.time() - 86400) * 1000 + tonumber(os.getenv("RUN")) * 3600000
    -- Points already sent per walk (the reject mode's walks have their first point).
    sent = {}
    turn = 0
end

-- The walk's next `batchSize` points as a batch body.
function batchBody(walk)
    local points = {}
    for _ = 1, batchSize do
        local k = sent[walk] or 0
        sent[walk] = k + 1
        local cell = k % 1600
        local recorded = firstRecorded + k * 1000
        local seconds = math.floor(recorded / 1000)
        table.insert(points, string.format('{"latitude":%.6f,"longitude":%.6f,"recordedAt":"%s.%03dZ"}',
            40.70 + math.floor(cell / 40) * 0.00135, -74.00 + (cell % 40) * 0.0018,
            os.date("!%Y-%m-%dT%H:%M:%S", seconds), recorded % 1000))
    end
    return '{"points":[' .. table.concat(points, ",") .. ']}'
end

function request()
    turn = turn + 1
    local walk = walks[(turn % #walks) + 1]
    if batch then
        return wrk.format("POST", "/walks/" .. walk .. "/points/batch",
            { ["Authorization"] = "Bearer " .. token, ["Content-Type"] = "application/json" }, batchBody(walk))
    end
    local latitude, longitude = 40.70, -74.00
    if accept then
        local k = (sent[walk] or 0) + 1000 * tonumber(os.getenv("RUN"))
        sent[walk] = (sent[walk] or 0) + 1
        latitude = 40.70 + math.floor(k / 40) * 0.00135
        longitude = -74.00 + (k % 40) * 0.0018
    end
    local body = string.format('{"latitude":%.6f,"longitude":%.6f}', latitude, longitude)
    return wrk.format("POST", "/walks/" .. walk .. "/points",
        { ["Authorization"] = "Bearer " .. token, ["Content-Type"] = "application/json" }, body)
end

function response(status, headers, body)
    record_status(status)
end
