-- wrk script of scripts/bench.sh (scenarios walks-accept, walks-reject): POST /walks/{walkID}/points with a bearer token, over the walks in
-- $WALK_IDS (one per line), each thread taking its own share of them in turn.
--   MODE=accept: each walk's next point on a grid with 150 m between any two of its
--     points, in lower Manhattan and Brooklyn: every point is accepted (201), most
--     gain a photo, each an fsynced commit.
--   MODE=reject: every point is the walk's first point again (sent before the run):
--     nearer than 100 m, so rejected (200) without a write.
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
    -- Points already sent per walk (the reject mode's walks have their first point).
    sent = {}
    turn = 0
end

function request()
    turn = turn + 1
    local walk = walks[(turn % #walks) + 1]
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
