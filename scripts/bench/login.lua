-- wrk script of scripts/bench.sh (scenario login): POST /users/login for one user,
-- counting statuses (200 logged in, 503 hasher busy) across threads. Like the app, a client waits out Retry-After
-- after a 503 (the next request of the thread is delayed by it); HONOUR_RETRY_AFTER=0
-- makes it a flood that ignores it.

dofile(debug.getinfo(1, "S").source:match("^@(.*/)") .. "result.lua")

function init(args)
    wrk.method = "POST"
    wrk.path = "/users/login"
    wrk.headers["Content-Type"] = "application/json"
    wrk.body = string.format('{"username":"%s","password":"%s"}', os.getenv("LOGIN_USER"), os.getenv("LOGIN_PASSWORD"))
end

local pause = 0

function response(status, headers, body)
    record_status(status)
    if status == 503 and os.getenv("HONOUR_RETRY_AFTER") ~= "0" then
        pause = (tonumber(headers["Retry-After"]) or 1) * 1000
    end
end

function delay()
    local milliseconds = pause
    pause = 0
    return milliseconds
end
