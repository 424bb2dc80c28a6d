-- wrk script of scripts/bench.sh: replays a pool of requests formatted once, in
-- init, so wrk does no formatting per request and stays light on its core.
--
-- Arguments (after wrk's `--`): the pool file and a seed. A pool line is a path
-- (GET) or a method, a space and a path. With $TOKEN set, every request carries
-- `Authorization: Bearer $TOKEN`; with $TOKENS (tokens separated by spaces) instead,
-- each request the next of them in turn, formatted as it is sent (that costs wrk
-- CPU). Each thread starts at its own seeded place in the pool and cycles through
-- it. Prints bench/result.lua's RESULT line.

dofile(debug.getinfo(1, "S").source:match("^@(.*/)") .. "result.lua")

local pool = {}
local position = 1
-- With $TOKENS: the pool's methods and paths, the tokens, and the next token's index.
local methods, paths, tokens, next_token = {}, {}, {}, 1

init = function(args)
    local token = os.getenv("TOKEN")
    local headers = token and token ~= "" and { ["Authorization"] = "Bearer " .. token } or nil
    for each in (os.getenv("TOKENS") or ""):gmatch("%S+") do tokens[#tokens + 1] = each end
    local file = assert(io.open(args[1], "r"))
    for line in file:lines() do
        local method, path = line:match("^(%u+) (.+)$")
        methods[#pool + 1], paths[#pool + 1] = method or "GET", path or line
        pool[#pool + 1] = wrk.format(method or "GET", path or line, headers)
    end
    file:close()
    assert(#pool > 0, "empty request pool " .. args[1])
    math.randomseed(tonumber(args[2] or "1") * 1000 + thread_number)
    position = math.random(#pool)
    next_token = math.random(math.max(#tokens, 1))
end

request = function()
    local at = position
    position = position % #pool + 1
    if #tokens == 0 then return pool[at] end
    local token = tokens[next_token]
    next_token = next_token % #tokens + 1
    return wrk.format(methods[at], paths[at], { ["Authorization"] = "Bearer " .. token })
end
