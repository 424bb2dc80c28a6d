"""The load of scripts/backup-bench.sh: users saving favorites over keep-alive
connections to one server.

  fill  --url U --users N --per-user K --threads T
        registers N users and saves K favorites each (N x K favorites in all),
        T users at a time; prints how many and how long.
  write --url U --writers W --seconds S
        W users of their own, one connection and thread each, alternately save
        and remove favorites (every request a durable write) for S seconds;
        prints one JSON line: writes, writes per second, p50 and p99 in ms.

The photo IDs are the real catalog's, read from /nearby at a few places."""
import argparse
import http.client
import json
import threading
import time
import urllib.parse

PLACES = [(40.7359, -73.9911), (40.7527, -73.9772), (40.7061, -74.0087), (40.7829, -73.9654), (40.7180, -73.9580)]
PASSWORD = "backup bench password"


class Connection:
    def __init__(self, url):
        parts = urllib.parse.urlsplit(url)
        self.connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)

    def request(self, method, path, token=None, body=None):
        headers = {"Content-Type": "application/json"} if body is not None else {}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        self.connection.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
        response = self.connection.getresponse()
        data = response.read()
        return response.status, data

    def register(self, username):
        """The new user's token. A 503 (the server's queue of password hashes is
        full: the fill registers several users at once) is tried again after 1 s."""
        for _ in range(30):
            status, data = self.request("POST", "/users", body={"username": username, "password": PASSWORD})
            if status != 503:
                break
            time.sleep(1)
        if status != 201:
            raise RuntimeError(f"registering {username}: {status} {data[:200]!r}")
        return json.loads(data)["token"]


def photo_ids(url, count):
    connection = Connection(url)
    ids = set()
    for lat, lon in PLACES:
        status, data = connection.request("GET", f"/nearby?lat={lat}&lon={lon}&limit=100&photos=50")
        for location in json.loads(data)["locations"]:
            ids.update(photo["photoID"] for photo in location["photos"])
    if len(ids) < count:
        raise SystemExit(f"only {len(ids)} photo IDs near the places, {count} needed")
    return sorted(ids)[:count]


def fill(arguments):
    ids = photo_ids(arguments.url, arguments.per_user)
    next_user = iter(range(arguments.users))
    lock = threading.Lock()
    errors = []
    started = time.monotonic()

    def work():
        connection = Connection(arguments.url)
        while not errors:
            with lock:
                user = next(next_user, None)
            if user is None:
                return
            try:
                token = connection.register(f"bench-{arguments.prefix}-{user}")
                for photo_id in ids:
                    status, data = connection.request("PUT", f"/favorites/{photo_id}", token)
                    if status not in (200, 201):
                        raise RuntimeError(f"PUT /favorites/{photo_id}: {status} {data[:200]!r}")
            except (OSError, RuntimeError, http.client.HTTPException) as error:
                with lock:
                    errors.append(str(error))
                return

    threads = [threading.Thread(target=work) for _ in range(arguments.threads)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise SystemExit("fill failed: " + "; ".join(errors[:3]))
    print(f"{arguments.users * arguments.per_user} favorites of {arguments.users} users in {time.monotonic() - started:.1f} s")


def write(arguments):
    ids = photo_ids(arguments.url, 100)
    latencies = [[] for _ in range(arguments.writers)]
    failures = [0] * arguments.writers
    tokens = [Connection(arguments.url).register(f"writer-{arguments.prefix}-{n}") for n in range(arguments.writers)]
    start = threading.Barrier(arguments.writers + 1)
    deadline = [0.0]

    def work(n):
        connection = Connection(arguments.url)
        step = 0
        start.wait()
        while time.monotonic() < deadline[0]:
            photo_id = ids[(step // 2) % len(ids)]
            method = "PUT" if step % 2 == 0 else "DELETE"
            sent = time.monotonic()
            status, _ = connection.request(method, f"/favorites/{photo_id}", tokens[n])
            if status in (200, 201, 204):
                latencies[n].append(time.monotonic() - sent)
            else:
                failures[n] += 1
            step += 1

    threads = [threading.Thread(target=work, args=(n,)) for n in range(arguments.writers)]
    for thread in threads:
        thread.start()
    deadline[0] = time.monotonic() + arguments.seconds
    start.wait()
    for thread in threads:
        thread.join()
    every = sorted(latency for own in latencies for latency in own)
    percentile = lambda p: round(every[min(len(every) - 1, int(p * len(every)))] * 1000, 2) if every else None
    print(json.dumps({
        "writes": len(every), "failures": sum(failures), "perSecond": round(len(every) / arguments.seconds),
        "p50ms": percentile(0.50), "p99ms": percentile(0.99),
    }))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=["fill", "write"])
    parser.add_argument("--url", required=True)
    parser.add_argument("--prefix", default="0", help="makes the usernames of this run unique")
    parser.add_argument("--users", type=int, default=1000)
    parser.add_argument("--per-user", type=int, default=100)
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--writers", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=10)
    arguments = parser.parse_args()
    fill(arguments) if arguments.mode == "fill" else write(arguments)


if __name__ == "__main__":
    main()
