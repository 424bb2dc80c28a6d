-- wrk script: PUT /favorites/{photoID} with a bearer token, walking through the
-- photo ids in $PHOTO_IDS (one per line) so most requests save a new favorite.
-- Each thread starts at its own offset; statuses are counted and summed at the end.

local threads = {}

function setup(thread)
    thread:set("offset", #threads)
    table.insert(threads, thread)
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

function response(status, headers, body)
    counts[status] = (counts[status] or 0) + 1
end

function done(summary, latency, requests)
    local total = {}
    for _, thread in ipairs(threads) do
        local thread_counts = thread:get("counts")
        for status, count in pairs(thread_counts) do
            total[status] = (total[status] or 0) + count
        end
    end
    for status, count in pairs(total) do
        io.write(string.format("status %d: %d\n", status, count))
    end
end
