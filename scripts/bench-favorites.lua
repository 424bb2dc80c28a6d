-- wrk script: PUT /favorites/{photoID} with a bearer token, walking through the
-- photo ids in $PHOTO_IDS (one per line) so most requests save a new favorite.
-- Each thread starts at its own offset; statuses are counted and summed at the end.

dofile(debug.getinfo(1, "S").source:match("^@(.*/)") .. "status-counts.lua")

function setup(thread)
    thread:set("offset", #threads)
    remember_thread(thread)
end

function init(args)
    ids = {}
    for line in io.lines(os.getenv("PHOTO_IDS")) do
        table.insert(ids, line)
    end
    token = os.getenv("TOKEN")
    index = offset * math.floor(#ids / 8)
    counts = {}
end

function request()
    index = index + 1
    local id = ids[(index % #ids) + 1]
    return wrk.format("PUT", "/favorites/" .. id, { ["Authorization"] = "Bearer " .. token })
end
