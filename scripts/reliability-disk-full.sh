#!/usr/bin/env bash
# Disk full (docs/RELIABILITY.md): the server's --data-dir is a small tmpfs (root only:
# it mounts one), filled up while clients write.
#
# Writes: favorites, recents, profile changes, registrations and walk points (a group
# commit: several clients' points share one transaction).
# Checks: every write that cannot be stored answers 503 application/problem+json
# with Retry-After (never a 500, never a hang); reads keep answering 200; every
# acknowledged write is still there; once the filler file is removed, the same
# writes succeed again without a restart; the accounts database passes
# PRAGMA integrity_check at the end.
#
# Usage (as root): swift build -c release --product past-nyc && scripts/reliability-disk-full.sh
# Environment: SIZE_MIB (size of the tmpfs, 80: the catalog takes about 53), WRITERS
# (clients writing at once while the disk fills, 8).
set -euo pipefail
source "$(dirname "$0")/run-server.sh"
SIZE_MIB=${SIZE_MIB:-80}
WRITERS=${WRITERS:-8}
[[ $(id -u) == 0 ]] || { echo "reliability-disk-full: must run as root (it mounts a tmpfs)" >&2; exit 1; }

export DATA_DIR="$WORK_DIR/small-disk"
mkdir -p "$DATA_DIR"
mount -t tmpfs -o size="${SIZE_MIB}m" past-nyc-disk-full "$DATA_DIR"
# The server first: a mounted file system in use cannot be unmounted.
at_exit 'stop_server; umount "$DATA_DIR" 2>/dev/null || true'

start_server test
curl -sf "$BASE_URL/healthz" >/dev/null
echo "data directory: a ${SIZE_MIB} MiB tmpfs; after the catalog: $(df -m --output=avail "$DATA_DIR" | tail -1 | tr -d ' ') MiB free"

python3 - "$BASE_URL" "$DATA_DIR" "$WRITERS" <<'PY'
import concurrent.futures, json, os, socket, sys, threading, time, urllib.request, urllib.error

base, data_dir, writers = sys.argv[1], sys.argv[2], int(sys.argv[3])
lock = threading.Lock()
statuses = {}
problems = []
slowest = [0.0]

def call(method, path, body=None, token=None):
    request = urllib.request.Request(base + path, method=method, data=None if body is None else json.dumps(body).encode())
    if body is not None:
        request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", "Bearer " + token)
    started = time.monotonic()
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()
    except (socket.timeout, TimeoutError, urllib.error.URLError) as error:
        with lock:
            problems.append(f"{method} {path}: no answer ({error})")
        return 0, {}, b""
    finally:
        with lock:
            slowest[0] = max(slowest[0], time.monotonic() - started)

def register(name):
    status, _, body = call("POST", "/users", {"username": name, "password": "a password for " + name})
    assert status == 201, (status, body)
    return json.loads(body)["token"]

_, _, body = call("GET", "/nearby?lat=40.7359&lon=-73.9911&limit=100&photos=50")
photos = sorted({p["photoID"] for location in json.loads(body)["locations"] for p in location["photos"]})
tokens = [register(f"disk{i}") for i in range(4)]
walks = {}
for token in tokens:
    status, headers, body = call("POST", "/walks", token=token)
    assert status == 201, (status, body)
    walks[token] = headers["Location"]
favorites = {token: set() for token in tokens}
points = {token: 0 for token in tokens}

def write(index):
    """One write of some kind; returns its status. Kinds: favorite, recent, profile,
    registration, walk point (a grouped write: several share one commit)."""
    token = tokens[index % len(tokens)]
    photo = photos[index % len(photos)]
    kind = index % 5
    if kind == 0:
        status, headers, body = call("PUT", f"/favorites/{photo}", token=token)
        if 200 <= status < 300:
            with lock:
                favorites[token].add(photo)
    elif kind == 1:
        status, headers, body = call("PUT", f"/recents/{photo}", token=token)
    elif kind == 2:
        status, headers, body = call("PATCH", "/users/me", {"displayName": f"walker number {index}"}, token=token)
    elif kind == 3:
        status, headers, body = call("POST", "/users", {"username": f"late{index}", "password": f"a late password for {index}"})
    else:
        # Every index its own spot, at least 220 m from any other: each point is accepted.
        point = {"latitude": 40.6 + (index % 100) * 0.002, "longitude": -74.0 + (index // 100) * 0.003}
        status, headers, body = call("POST", walks[token] + "/points", point, token=token)
        if status == 201:
            with lock:
                points[token] += 1
        elif status == 200:
            with lock:
                problems.append(f"walk point {index} was not accepted: {body[:200]!r}")
    with lock:
        statuses[status] = statuses.get(status, 0) + 1
        if status == 503:
            if headers.get("Content-Type", "").split(";")[0] != "application/problem+json" or not headers.get("Retry-After"):
                problems.append(f"a 503 without problem+json or Retry-After: {dict(headers)}")
            elif json.loads(body).get("status") != 503:
                problems.append(f"a 503 problem with another status: {body!r}")
        elif status and not 200 <= status < 300:
            problems.append(f"write {index} answered {status}: {body[:200]!r}")
    return status

for index in range(40):
    assert write(index) < 300, f"writes fail before the disk is full: {problems}"

# Fill the disk with a filler file while WRITERS threads keep writing, then go on
# writing on the full disk until 200 writes were refused or 60 s passed.
filler = os.path.join(data_dir, "filler")

def fill():
    """64 KiB every 10 ms (about 6 MiB/s, so the disk fills over seconds while the
    writes go on) until ENOSPC."""
    with open(filler, "wb", buffering=0) as file:
        while True:
            try:
                file.write(bytes(65536))
            except OSError:
                return
            time.sleep(0.01)

dd = threading.Thread(target=fill)
dd.start()
next_index = [40]
refused = [0]
started = time.monotonic()

def writer():
    while time.monotonic() - started < 60:
        with lock:
            if next_index[0] >= 8000 or (not dd.is_alive() and refused[0] >= 200):
                return
            index = next_index[0]
            next_index[0] += 1
        if write(index) == 503:
            with lock:
                refused[0] += 1

with concurrent.futures.ThreadPoolExecutor(writers) as pool:
    for _ in range(writers):
        pool.submit(writer)
dd.join()
free = os.statvfs(data_dir)
print(f"filled while {writers} clients wrote: {free.f_bavail * free.f_frsize} bytes free at the end")
print(f"during and after the fill: {next_index[0] - 40} writes in {time.monotonic() - started:.1f} s, "
      f"{refused[0]} refused with 503; slowest answer {slowest[0]:.2f} s")

reads = [call("GET", "/nearby?lat=40.7306&lon=-73.9866&limit=5")[0], call("GET", "/healthz")[0]]
reads += [call("GET", "/favorites?limit=200", token=token)[0] for token in tokens]
reads += [call("GET", walks[token], token=token)[0] for token in tokens]
print(f"reads while full: {reads}")
if any(status != 200 for status in reads):
    problems.append(f"reads failed while the disk was full: {reads}")
if refused[0] == 0:
    problems.append("the disk never filled up: no write was refused")

os.remove(filler)
after = [write(next_index[0] + i) for i in range(40)]
print(f"after freeing space, without a restart: {sum(200 <= s < 300 for s in after)} of 40 writes stored")
if any(not 200 <= status < 300 for status in after):
    problems.append(f"writes still fail after space was freed: {after}")

for token in tokens:
    _, _, body = call("GET", "/favorites?limit=200", token=token)
    listed = {f["photoID"] for f in json.loads(body)["favorites"]}
    if not favorites[token] <= listed:
        problems.append(f"acknowledged favorites lost: {sorted(favorites[token] - listed)}")
    _, _, body = call("GET", walks[token], token=token)
    walk = json.loads(body)
    stored = walk.get("pointCount", walk.get("walk", {}).get("pointCount"))
    if stored != points[token]:
        problems.append(f"walk {walks[token]}: {points[token]} points acknowledged, {stored} stored")
print(f"acknowledged: {sum(map(len, favorites.values()))} favorites, {sum(points.values())} walk points, all stored" if not problems else "")
print(f"statuses: {dict(sorted(statuses.items()))}")
print("problems:", problems or "none")
sys.exit(1 if problems else 0)
PY
stop_server
check=$(sqlite3 "$DATA_DIR/accounts.sqlite" 'PRAGMA integrity_check')
echo "accounts database integrity_check: $check"
[[ "$check" == ok ]]
