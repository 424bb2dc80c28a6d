-- wrk script: POST /users/login for one user, counting statuses (200 logged in,
-- 503 hasher busy) across threads. Like the app, a client waits out Retry-After
-- after a 503 (the next request of the thread is delayed by it); HONOUR_RETRY_AFTER=0
-- makes it a flood that ignores it.

local threads = {}

function setup(thread)
    table.insert(threads, thread)
end

function init(args)
    wrk.method = "POST"
    wrk.path = "/users/login"
    wrk.headers["Content-Type"] = "application/json"
    wrk.body = string.format('{"username":"%s","password":"%s"}', os.getenv("LOGIN_USER"), os.getenv("LOGIN_PASSWORD"))
    counts = {}
end

local pause = 0

function response(status, headers, body)
    counts[status] = (counts[status] or 0) + 1
    if status == 503 and os.getenv("HONOUR_RETRY_AFTER") ~= "0" then
        pause = (tonumber(headers["Retry-After"]) or 1) * 1000
    end
end

function delay()
    local milliseconds = pause
    pause = 0
    return milliseconds
end

function done(summary, latency, requests)
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
