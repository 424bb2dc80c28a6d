#!/usr/bin/env bash
# Disk full (RELIABILITY.md): the server's --data-dir is a small tmpfs (root only:
# it mounts one), filled up while clients write.
#
# Checks: every write that cannot be stored answers 503 application/problem+json
# with Retry-After (never a 500, never a hang); reads keep answering 200; every
# acknowledged write is still there; once the filler file is removed, the same
# writes succeed again without a restart; the accounts database passes
# PRAGMA integrity_check at the end.
#
# Usage (as root): swift build -c release --product past-nyc && scripts/reliability-disk-full.sh
# Environment: SIZE_MIB (size of the tmpfs, 80: the catalog takes about 53).
set -euo pipefail
source "$(dirname "$0")/run-server.sh"
SIZE_MIB=${SIZE_MIB:-80}
[[ $(id -u) == 0 ]] || { echo "reliability-disk-full: must run as root (it mounts a tmpfs)" >&2; exit 1; }

export DATA_DIR="$WORK_DIR/small-disk"
mkdir -p "$DATA_DIR"
mount -t tmpfs -o size="${SIZE_MIB}m" past-nyc-disk-full "$DATA_DIR"
unmount() { stop_server; umount "$DATA_DIR" 2>/dev/null || true; cleanup; }
trap unmount EXIT

start_server test
curl -sf "$BASE_URL/healthz" >/dev/null
echo "data directory: a ${SIZE_MIB} MiB tmpfs; after the catalog: $(df -m --output=avail "$DATA_DIR" | tail -1 | tr -d ' ') MiB free"

python3 - "$BASE_URL" "$DATA_DIR" <<'PY'
import json, os, sqlite3, subprocess, sys, time, urllib.request, urllib.error

base, data_dir = sys.argv[1], sys.argv[2]

def call(method, path, body=None, token=None):
    request = urllib.request.Request(base + path, method=method, data=None if body is None else json.dumps(body).encode())
    if body is not None:
        request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", "Bearer " + token)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()

def register(name):
    status, _, body = call("POST", "/users", {"username": name, "password": "a password for " + name})
    assert status == 201, (status, body)
    return json.loads(body)["token"]

_, _, body = call("GET", "/nearby?lat=40.7359&lon=-73.9911&limit=100&photos=50")
photos = sorted({p["photoID"] for location in json.loads(body)["locations"] for p in location["photos"]})
tokens = [register(f"disk{i}") for i in range(4)]
acknowledged = {token: set() for token in tokens}
statuses = {}
problems = []

def write(index):
    """One write of some kind; returns its status."""
    token = tokens[index % len(tokens)]
    photo = photos[index % len(photos)]
    kind = index % 4
    if kind == 0:
        status, headers, body = call("PUT", f"/favorites/{photo}", token=token)
        if 200 <= status < 300:
            acknowledged[token].add(photo)
    elif kind == 1:
        status, headers, body = call("PUT", f"/recents/{photo}", token=token)
    elif kind == 2:
        status, headers, body = call("PATCH", "/users/me", {"displayName": f"walker number {index}"}, token=token)
    else:
        status, headers, body = call("POST", "/users", {"username": f"late{index}", "password": f"a late password for {index}"})
    statuses[status] = statuses.get(status, 0) + 1
    if status == 503:
        if headers.get("Content-Type", "").split(";")[0] != "application/problem+json" or not headers.get("Retry-After"):
            problems.append(f"a 503 without problem+json or Retry-After: {dict(headers)}")
        elif json.loads(body).get("status") != 503:
            problems.append(f"a 503 problem with another status: {body!r}")
    elif not 200 <= status < 300:
        problems.append(f"write {index} answered {status}: {body[:200]!r}")
    return status

for index in range(40):
    assert write(index) < 300, f"writes fail before the disk is full: {problems}"

# Fill the disk: a filler file until ENOSPC.
filler = os.path.join(data_dir, "filler")
subprocess.run(["dd", "if=/dev/zero", f"of={filler}", "bs=64k"], stderr=subprocess.DEVNULL)
free = os.statvfs(data_dir)
print(f"filled: {free.f_bavail * free.f_frsize} bytes free")

full_statuses_before = dict(statuses)
refused = 0
started = time.monotonic()
index = 40
while index < 4000 and refused < 200 and time.monotonic() - started < 60:
    if write(index) == 503:
        refused += 1
    index += 1
print(f"on the full disk: {index - 40} writes in {time.monotonic() - started:.1f} s, {refused} refused with 503")

reads = [call("GET", "/nearby?lat=40.7306&lon=-73.9866&limit=5")[0], call("GET", "/healthz")[0]]
reads += [call("GET", "/favorites?limit=200", token=token)[0] for token in tokens]
print(f"reads while full: {reads}")
if any(status != 200 for status in reads):
    problems.append(f"reads failed while the disk was full: {reads}")
if refused == 0:
    problems.append("the disk never filled up: no write was refused")

os.remove(filler)
after = [write(index + i) for i in range(40)]
print(f"after freeing space, without a restart: {after.count(200) + after.count(201)} of 40 writes stored")
if any(status >= 300 for status in after):
    problems.append(f"writes still fail after space was freed: {after}")

for token in tokens:
    _, _, body = call("GET", "/favorites?limit=200", token=token)
    listed = {f["photoID"] for f in json.loads(body)["favorites"]}
    if not acknowledged[token] <= listed:
        problems.append(f"acknowledged favorites lost: {sorted(acknowledged[token] - listed)}")
print(f"statuses: {dict(sorted(statuses.items()))}")
print("problems:", problems or "none")
sys.exit(1 if problems else 0)
PY
stop_server
check=$(sqlite3 "$DATA_DIR/accounts.sqlite" 'PRAGMA integrity_check')
echo "accounts database integrity_check: $check"
[[ "$check" == ok ]]
