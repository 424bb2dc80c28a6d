#!/usr/bin/env python3
"""Mixed read and write load through one URL, remembering every acknowledged write.

scripts/cluster-test.sh runs it against nginx while it kills an instance with
SIGKILL. Each client is a thread with its own user and its own keep-alive
connection; it loops over a random mix of

  PUT /favorites/{id}          a photo it has not saved before
  PUT /recents/{id}            a photo it has not viewed before (at most 90)
  POST /walks                  a new walk
  POST /walks/{id}/points      a point about 170 m on from the walk's last one
  PATCH /users/me              a new displayName
  GET /nearby, GET /favorites  reads

for --seconds, counting what it saw by operation and status: a status of 0 is a
broken connection; gatewayFailures counts those and nginx's 502 and 504 (what
a killed instance may cost) and gatewayFailureSpanSeconds the time from the
first of them to the last; otherFailures counts every other non-2xx answer. A write answered 2xx is acknowledged. A request that failed
may still have been applied (the instance may have committed it before it
died), so the check afterwards allows for those and only for those:

  every acknowledged favorite, recent and walk is listed;
  each walk has at least its acknowledged points and at most all it was sent;
  displayName is the last acknowledged one, or one sent after it that failed.

The check runs over --check-url (the same nginx, or a surviving instance). It
prints a JSON summary and exits 1 if a check fails.
"""

import argparse
import http.client
import json
import random
import sys
import threading
import time
import ssl
import urllib.parse

PASSWORD = "cluster load password"


class Client:
    """One keep-alive HTTP/1.1 connection that reconnects after an error."""

    # The certificates trusted for https:// URLs (--cacert), else the system's.
    tls_context = None

    def __init__(self, url):
        parts = urllib.parse.urlsplit(url)
        self.host, self.port, self.https = parts.hostname, parts.port, parts.scheme == "https"
        self.connection = None

    def request(self, method, path, token=None, body=None, content_type="application/json"):
        """(status, parsed JSON body or None); status 0 when the connection broke."""
        headers = {}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        payload = None
        if body is not None:
            payload = json.dumps(body).encode()
            headers["Content-Type"] = content_type
        try:
            if self.connection is None:
                if self.https:
                    self.connection = http.client.HTTPSConnection(
                        self.host, self.port, timeout=10, context=Client.tls_context or ssl.create_default_context())
                else:
                    self.connection = http.client.HTTPConnection(self.host, self.port, timeout=10)
            self.connection.request(method, path, body=payload, headers=headers)
            response = self.connection.getresponse()
            data = response.read()
        except (OSError, http.client.HTTPException):
            if self.connection is not None:
                self.connection.close()
            self.connection = None
            return 0, None
        if response.getheader("Connection", "").lower() == "close":
            self.connection.close()
            self.connection = None
        try:
            return response.status, json.loads(data) if data else None
        except ValueError:
            return response.status, None


class Worker(threading.Thread):
    def __init__(self, index, url, photo_ids, deadline, seed):
        super().__init__(daemon=True)
        self.index = index
        self.client = Client(url)
        self.photo_ids = photo_ids
        self.deadline = deadline
        self.random = random.Random(seed)
        self.username = f"load{seed}-{index}"
        self.token = None
        self.counts = {}
        self.timeline = []
        self.favorites = set()
        self.recents = set()
        self.walks = {}
        self.names_sent = []
        self.last_acknowledged_name = None
        self.next_photo = index * 997
        self.error = None

    def count(self, operation, status):
        key = f"{operation} {status}"
        self.counts[key] = self.counts.get(key, 0) + 1
        self.timeline.append((time.monotonic(), status))

    def fresh_photo(self):
        self.next_photo += 1
        return self.photo_ids[self.next_photo % len(self.photo_ids)]

    def sign_up(self):
        """Registers, retrying a failed attempt (a retry may find the name taken: then logs in)."""
        for _ in range(20):
            body = {"username": self.username, "password": PASSWORD}
            status, answer = self.client.request("POST", "/users", body=body)
            if status == 409:
                status, answer = self.client.request("POST", "/users/login", body=body)
            if status in (200, 201):
                self.token = answer["token"]
                return
            time.sleep(0.2)
        raise RuntimeError(f"{self.username} could not register")

    def run(self):
        try:
            self.sign_up()
            while time.monotonic() < self.deadline:
                self.step()
        except Exception as error:  # reported in the summary, fails the run
            self.error = repr(error)

    def step(self):
        choice = self.random.random()
        token = self.token
        if choice < 0.25:
            photo = self.fresh_photo()
            status, _ = self.client.request("PUT", f"/favorites/{photo}", token)
            self.count("PUT /favorites", status)
            if status in (200, 201):
                self.favorites.add(photo)
        elif choice < 0.35 and len(self.recents) < 90:
            photo = self.fresh_photo()
            status, _ = self.client.request("PUT", f"/recents/{photo}", token)
            self.count("PUT /recents", status)
            if 200 <= status < 300:
                self.recents.add(photo)
        elif choice < 0.45 or not self.walks:
            status, answer = self.client.request("POST", "/walks", token)
            self.count("POST /walks", status)
            if status == 201:
                self.walks[answer["walkID"]] = {"acknowledged": 0, "sent": 0, "step": 0}
        elif choice < 0.65:
            walk_id = self.random.choice(sorted(self.walks))
            walk = self.walks[walk_id]
            walk["step"] += 1
            walk["sent"] += 1
            point = {"latitude": 40.70 + walk["step"] * 0.0015, "longitude": -73.99}
            status, answer = self.client.request("POST", f"/walks/{walk_id}/points", token, point)
            self.count("POST /walks/points", status)
            if status == 201:
                walk["acknowledged"] += 1
        elif choice < 0.75:
            name = f"{self.username} {self.random.getrandbits(32):08x}"
            self.names_sent.append(name)
            status, _ = self.client.request(
                "PATCH", "/users/me", token, {"displayName": name}, "application/merge-patch+json")
            self.count("PATCH /users/me", status)
            if status == 200:
                self.last_acknowledged_name = name
                self.names_sent = [name]
        elif choice < 0.9:
            lat = 40.70 + self.random.random() * 0.1
            lon = -74.01 + self.random.random() * 0.06
            status, _ = self.client.request("GET", f"/nearby?lat={lat:.5f}&lon={lon:.5f}&limit=5&photos=2")
            self.count("GET /nearby", status)
        else:
            status, _ = self.client.request("GET", "/favorites?limit=5", token)
            self.count("GET /favorites", status)


def all_pages(client, path, key, token):
    items, cursor = [], None
    while True:
        query = f"{path}?limit=100" + (f"&cursor={urllib.parse.quote(cursor)}" if cursor else "")
        status, answer = client.request("GET", query, token)
        if status != 200:
            raise RuntimeError(f"GET {query}: {status}")
        items.extend(answer[key])
        cursor = answer.get("nextCursor")
        if not cursor:
            return items


def check(worker, url):
    """The acknowledged writes of one worker that are missing, as messages."""
    client = Client(url)
    problems = []
    token = worker.token
    favorites = {item["photoID"] for item in all_pages(client, "/favorites", "favorites", token)}
    problems += [f"{worker.username}: favorite {p} lost" for p in sorted(worker.favorites - favorites)]
    status, answer = client.request("GET", "/recents?limit=100", token)
    recents = {item["photoID"] for item in answer["recents"]} if status == 200 else set()
    problems += [f"{worker.username}: recent {p} lost" for p in sorted(worker.recents - recents)]
    walks = {item["walkID"]: item for item in all_pages(client, "/walks", "walks", token)}
    for walk_id, walk in sorted(worker.walks.items()):
        if walk_id not in walks:
            problems.append(f"{worker.username}: walk {walk_id} lost")
            continue
        count = walks[walk_id]["pointCount"]
        if not walk["acknowledged"] <= count <= walk["sent"]:
            problems.append(f"{worker.username}: walk {walk_id} has {count} points, "
                            f"{walk['acknowledged']} acknowledged of {walk['sent']} sent")
    if worker.last_acknowledged_name is not None:
        status, answer = client.request("GET", "/users/me", token)
        name = answer["displayName"] if status == 200 else None
        if name not in worker.names_sent:
            problems.append(f"{worker.username}: displayName {name!r}, "
                            f"last acknowledged {worker.last_acknowledged_name!r}")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", required=True, help="where the load goes (nginx)")
    parser.add_argument("--check-url", help="where the check reads (default: --url)")
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=6)
    parser.add_argument("--seed", type=int, default=int(time.time()))
    parser.add_argument("--cacert", help="the certificate (PEM) to trust for https:// URLs")
    arguments = parser.parse_args()
    if arguments.cacert:
        Client.tls_context = ssl.create_default_context(cafile=arguments.cacert)

    status, answer = Client(arguments.url).request("GET", "/nearby?lat=40.73&lon=-73.99&limit=100&photos=50")
    if status != 200:
        sys.exit(f"GET /nearby: {status}")
    photo_ids = sorted({photo["photoID"] for location in answer["locations"] for photo in location["photos"]})

    started = time.monotonic()
    workers = [Worker(i, arguments.url, photo_ids, started + arguments.seconds, arguments.seed)
               for i in range(arguments.clients)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()

    counts = {}
    for worker in workers:
        for key, value in worker.counts.items():
            counts[key] = counts.get(key, 0) + value
    # Answered requests per second of the run, and the longest time without a 2xx.
    events = sorted(event for worker in workers for event in worker.timeline)
    per_second = [0] * (int(arguments.seconds) + 1)
    longest_gap, last_success = 0.0, started
    for moment, status in events:
        if 200 <= status < 300:
            per_second[min(int(moment - started), len(per_second) - 1)] += 1
            longest_gap = max(longest_gap, moment - last_success)
            last_success = moment
    statuses = [(int(key.rsplit(" ", 1)[1]), value) for key, value in counts.items()]
    failed = sum(value for status, value in statuses if not 200 <= status < 300)
    # A killed instance should cost only the requests in flight on it at that
    # moment: later failures mean the load balancer kept sending requests there.
    gateway_moments = [moment for moment, status in events if status in (0, 502, 504)]
    gateway_span = gateway_moments[-1] - gateway_moments[0] if gateway_moments else 0.0
    # What a killed instance may cost: nginx's 502 or 504, or a broken connection.
    gateway_failures = sum(value for status, value in statuses if status in (0, 502, 504))

    problems = [f"{worker.username}: {worker.error}" for worker in workers if worker.error]
    for worker in workers:
        if worker.token:
            try:
                problems += check(worker, arguments.check_url or arguments.url)
            except (RuntimeError, KeyError, TypeError) as error:
                problems.append(f"{worker.username}: the check failed: {error!r}")
    summary = {
        "seed": arguments.seed,
        "requests": sum(counts.values()),
        "failed": failed,
        "gatewayFailures": gateway_failures,
        "otherFailures": failed - gateway_failures,
        "gatewayFailureSpanSeconds": round(gateway_span, 3),
        "successesPerSecond": per_second,
        "longestGapSeconds": round(longest_gap, 3),
        "acknowledged": {
            "favorites": sum(len(w.favorites) for w in workers),
            "recents": sum(len(w.recents) for w in workers),
            "walks": sum(len(w.walks) for w in workers),
            "points": sum(walk["acknowledged"] for w in workers for walk in w.walks.values()),
        },
        "counts": dict(sorted(counts.items())),
        "problems": problems,
    }
    print(json.dumps(summary, indent=2))
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
