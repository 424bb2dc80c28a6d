#!/usr/bin/env python3
"""Holds many long polls of GET /sync at once and wakes them with one change.

Usage: scripts/sync-waits.py [--waits 1000] [--port 8080] [--pid PID]

Against a running server (e.g. `ulimit -n 4096; past-nyc serve --port 8080 --password-cost test
--max-held-waits-per-user 0 --max-connections-per-client 0`: its waits are one user's, from one address,
and `ulimit -n 4096` for this script too):
registers a user, takes a sync token, opens WAITS connections that each send
`GET /sync?since=<token>&wait=30`, waits until the server's resident memory settles,
then saves one favorite on another connection and reads every held answer. Reports
the server's memory per held request (VmRSS of PID, when given: the growth while the
requests are held, over their number) and how long after the change's 2xx each held
request was answered (all must be within 1 s, each must hold the change). Exits 1
when a request is not answered in time or misses the change.
"""
import argparse
import http.client
import json
import selectors
import socket
import sys
import time


def rss_kib(pid):
    with open("/proc/%d/status" % pid) as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def call(port, method, path, token=None, body=None):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = "Bearer " + token
    connection.request(method, path, body=body, headers=headers)
    response = connection.getresponse()
    data = response.read()
    connection.close()
    return response.status, (json.loads(data) if data else None)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--waits", type=int, default=1000)
    parser.add_argument("--port", type=int, default=8080)
    parser.add_argument("--pid", type=int, help="the server's PID, to read its memory")
    arguments = parser.parse_args()

    name = "waits%d" % int(time.time() * 1000 % 1e9)
    status, session = call(arguments.port, "POST", "/users", body=json.dumps({"username": name, "password": "held long polls"}))
    assert status == 201, status
    token = session["token"]
    status, nearby = call(arguments.port, "GET", "/nearby?lat=40.7359&lon=-73.9911&limit=1&photos=1")
    photo = nearby["locations"][0]["photos"][0]["photoID"]
    status, whole = call(arguments.port, "GET", "/sync", token=token)
    since = whole["next"]

    before = rss_kib(arguments.pid) if arguments.pid else 0
    request = ("GET /sync?since=%s&wait=30 HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer %s\r\n\r\n" % (since, token)).encode()
    sockets = []
    for _ in range(arguments.waits):
        held = socket.create_connection(("127.0.0.1", arguments.port))
        held.sendall(request)
        sockets.append(held)
    # Every request reached the server and is held: none answered, memory settled.
    time.sleep(2)
    selector = selectors.DefaultSelector()
    for held in sockets:
        held.setblocking(False)
        selector.register(held, selectors.EVENT_READ)
    early = selector.select(timeout=0)
    if early:
        print("sync-waits: %d requests were answered before any change" % len(early))
        return 1
    during = rss_kib(arguments.pid) if arguments.pid else 0

    status, _ = call(arguments.port, "PUT", "/favorites/" + photo, token=token)
    changed = time.monotonic()
    assert status == 201, status
    answers = {}
    latest = 0.0
    while len(answers) < len(sockets) and time.monotonic() - changed < 5:
        for key, _ in selector.select(timeout=0.5):
            chunk = key.fileobj.recv(65536)
            answers[key.fileobj] = answers.get(key.fileobj, b"") + chunk
            if b"\r\n\r\n" in answers[key.fileobj] and answers[key.fileobj].endswith(b"}"):
                latest = max(latest, time.monotonic() - changed)
                selector.unregister(key.fileobj)
    complete = [data for data in answers.values() if data.endswith(b"}")]
    with_change = [data for data in complete if photo.encode() in data]
    print("held requests: %d" % len(sockets))
    if arguments.pid:
        print("server memory while held: +%d KiB, %.1f KiB per held request" % (
            during - before, (during - before) / len(sockets)))
    print("answered: %d, with the change: %d, the last %.3f s after the change's answer" % (
        len(complete), len(with_change), latest))
    for held in sockets:
        held.close()
    return 0 if len(with_change) == len(sockets) and latest < 1.0 else 1


if __name__ == "__main__":
    sys.exit(main())
