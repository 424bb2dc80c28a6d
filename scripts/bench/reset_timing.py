#!/usr/bin/env python3
"""The timing half of scripts/reset-timing.sh: BASE_URL MAIL_DIR USERS REQUESTS.

Registers USERS users, each with an address verified by the code read from the
sink's files in MAIL_DIR; then times REQUESTS `POST /users/password-reset` over one
keep-alive connection, alternating a verified address and an unknown one, and
prints the medians, 90th percentiles and their ratio."""
import http.client
import json
import secrets
import statistics
import sys
import time
import urllib.parse
from pathlib import Path

base, mail_dir, users, requests = sys.argv[1], Path(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
parts = urllib.parse.urlsplit(base)
connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)


def call(method, path, body=None, token=None):
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = "Bearer " + token
    connection.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
    response = connection.getresponse()
    data = response.read()
    return response.status, data


def code_for(address):
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        for path in sorted(mail_dir.glob("*.json")):
            record = json.loads(path.read_text(encoding="utf-8"))
            if address in record["recipients"]:
                body = record["data"].split("\r\n\r\n", 1)[1]
                return next(line.strip() for line in body.split("\r\n") if line.strip().isdigit() and len(line.strip()) == 6)
        time.sleep(0.05)
    sys.exit(f"no code for {address}")


addresses = []
for _ in range(users):
    name = "timing_" + secrets.token_hex(4)
    status, data = call("POST", "/users", {"username": name, "password": "timing the reset " + name})
    assert status == 201, data
    token = json.loads(data)["token"]
    address = name + "@example.org"
    assert call("PATCH", "/users/me", {"email": address}, token)[0] == 200
    assert call("POST", "/users/me/email/verify", {"code": code_for(address)}, token)[0] == 200
    addresses.append(address)

known, unknown, bodies = [], [], set()
for index in range(requests):
    address = addresses[(index // 2) % users] if index % 2 == 0 else "nobody_%s@example.org" % secrets.token_hex(4)
    started = time.perf_counter()
    status, data = call("POST", "/users/password-reset", {"email": address})
    elapsed = (time.perf_counter() - started) * 1000
    assert status == 202, data
    bodies.add(data)
    (known if index % 2 == 0 else unknown).append(elapsed)

assert len(bodies) == 1, "one body for every address"


def p90(values):
    return statistics.quantiles(values, n=10)[-1]


print(f"{len(known)} resets of verified addresses, {len(unknown)} of unknown ones, one body for all")
print(f"verified: median {statistics.median(known):.2f} ms, p90 {p90(known):.2f} ms")
print(f"unknown:  median {statistics.median(unknown):.2f} ms, p90 {p90(unknown):.2f} ms")
print(f"verified/unknown: median {statistics.median(known) / statistics.median(unknown):.2f}, p90 {p90(known) / p90(unknown):.2f}")
