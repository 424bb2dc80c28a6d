-- wrk script: POST /users/login for one user, counting statuses (200 logged in,
-- 503 hasher busy) across threads.

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

function response(status, headers, body)
    counts[status] = (counts[status] or 0) + 1
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
