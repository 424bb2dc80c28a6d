-- wrk script of scripts/bench.sh: replays a pool of requests formatted once, in
-- init, so wrk does no formatting per request and stays light on its core.
--
-- Arguments (after wrk's `--`): the pool file and a seed. A pool line is a path
-- (GET) or a method, a space and a path. With $TOKEN set, every request carries
-- `Authorization: Bearer $TOKEN`. Each thread starts at its own seeded place in
-- the pool and cycles through it. Prints bench/result.lua's RESULT line.

dofile(debug.getinfo(1, "S").source:match("^@(.*/)") .. "result.lua")

local pool = {}
local position = 1

init = function(args)
    local token = os.getenv("TOKEN")
    local headers = token and token ~= "" and { ["Authorization"] = "Bearer " .. token } or nil
    local file = assert(io.open(args[1], "r"))
    for line in file:lines() do
        local method, path = line:match("^(%u+) (.+)$")
        pool[#pool + 1] = wrk.format(method or "GET", path or line, headers)
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
