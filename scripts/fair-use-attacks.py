#!/usr/bin/env python3
"""The attacks of docs/RELIABILITY.md's "Fair use" section, replayed against a running
server (or the cluster's nginx), each while a legitimate client measures its own latency.

For every attack the legitimate client (its own process, its own address 127.0.0.2,
its own account) first runs alone for DURATION seconds, then again while the attack
runs for DURATION seconds from other addresses (127.0.0.3 and up). It asks, paced at
about 40 rounds a second: `GET /nearby` and `GET /users/me` (and saves a favorite
every round, to see whether an attack holds other users' writes back). One JSON line per
attack on stdout:

  attack, attack_requests, attack_statuses (status -> count; "closed" for a
  connection closed without an answer), server_cpu_ms_per_attack_request (the
  server's CPU during the attack, less its CPU during the quiet run, per attack
  request), and for each of nearby, me, favorite: quiet and attacked p50/p99 in ms,
  and whether the attacked p99 is at most 2x the quiet one or under 50 ms.

The attacks (the issue's list): deep-json (64 KiB bodies of 64 nests 500 deep to
POST /users/login), idle-sockets (4,100 connections from one address that send
nothing), held-waits (one token holding 4,095 GET /sync?wait=15), write-flood (one
account creating walks and favorites as fast as it can), token-flood (one account
logging in again and again), login-lockout (wrong passwords for the legitimate user's
name from another address; the legitimate client then logs in), register-flood
(POST /users from one address), reset-big (an account of 25,000 walk points reset).

  scripts/fair-use-attacks.py --url http://127.0.0.1:PORT --pid PID [--pid PID …]
      [--duration SECONDS] [--attack NAME …]

Run by scripts/fair-use-bench.sh, which starts the server (or the cluster) first.
"""

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import resource
import socket
import ssl
import sys
import time
import urllib.parse

LEGIT_ADDRESS = "127.0.0.2"
PACE_SECONDS = 0.025


def log(message):
    print(message, file=sys.stderr, flush=True)


def percentile(values, fraction):
    if not values:
        return None
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] * 1000, 2)


def wait_until_idle(pids, limit=90):
    """Waits (up to `limit` seconds) until the servers use under 5 % of a core for a second,
    so that one attack's aftermath does not fall into the next quiet run."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        before = server_cpu_seconds(pids)
        time.sleep(1)
        if server_cpu_seconds(pids) - before < 0.05:
            return
    log("the server stayed busy; measuring anyway")


def server_cpu_seconds(pids):
    """User plus system CPU of the processes, in seconds."""
    total = 0
    for pid in pids:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


TLS = {"context": None}


def use_tls(cacert):
    """Every later connection speaks TLS, trusting the certificate `cacert` (PEM)."""
    TLS["context"] = ssl.create_default_context(cafile=cacert)


class Client:
    """One keep-alive HTTP/1.1 connection from a chosen local address (over TLS after `use_tls`)."""

    def __init__(self, host, port, local_address):
        self.host, self.port, self.local_address = host, port, local_address
        self.reader = self.writer = None

    async def connect(self):
        self.reader, self.writer = await asyncio.open_connection(
            self.host, self.port, local_addr=(self.local_address, 0), ssl=TLS["context"])

    def close(self):
        if self.writer:
            self.writer.close()
            self.writer = None

    async def request(self, method, target, token=None, body=None, timeout=30):
        """(status, headers, body bytes); reconnects once when the server closed the connection."""
        for attempt in (0, 1):
            if self.writer is None:
                await self.connect()
            lines = [f"{method} {target} HTTP/1.1", f"Host: {self.host}"]
            if token:
                lines.append(f"Authorization: Bearer {token}")
            payload = b""
            if body is not None:
                payload = body if isinstance(body, bytes) else json.dumps(body).encode()
                lines.append("Content-Type: application/json")
            if payload or method in ("POST", "PUT", "PATCH", "DELETE"):
                lines.append(f"Content-Length: {len(payload)}")
            try:
                self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + payload)
                await self.writer.drain()
                return await asyncio.wait_for(self._response(method), timeout)
            except (ConnectionError, asyncio.IncompleteReadError) as error:
                self.close()
                if attempt == 1:
                    raise ConnectionError(str(error))

    async def _response(self, method):
        head = await self.reader.readuntil(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ")[1])
        headers = {}
        for line in lines[1:]:
            if ":" in line:
                name, value = line.split(":", 1)
                headers[name.strip().lower()] = value.strip()
        length = int(headers.get("content-length", "0"))
        body = b"" if method == "HEAD" or not length else await self.reader.readexactly(length)
        if headers.get("connection", "").lower() == "close":
            self.close()
        return status, headers, body


async def register(host, port, address, username, password="correct horse battery staple 1"):
    client = Client(host, port, address)
    status, _, body = await client.request("POST", "/users", body={"username": username, "password": password})
    client.close()
    if status != 201:
        raise SystemExit(f"registering {username} from {address}: {status} {body[:200]!r}")
    return json.loads(body)["token"]


# --- the legitimate client ---------------------------------------------------------


def legit_run(url, cacert, token, photo_ids, seconds, results):
    """In its own process: the legitimate client's rounds for `seconds`; puts its latencies."""
    parsed = urllib.parse.urlparse(url)
    if cacert:
        use_tls(cacert)

    async def run():
        client = Client(parsed.hostname, parsed.port, LEGIT_ADDRESS)
        latencies = {"nearby": [], "me": [], "favorite": []}
        failures = {}
        generator = random.Random(7)
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            started_round = time.monotonic()
            lat = 40.70 + generator.random() * 0.1
            lon = -74.02 + generator.random() * 0.1
            for kind, method, target in (
                ("nearby", "GET", f"/nearby?lat={lat:.5f}&lon={lon:.5f}"),
                ("me", "GET", "/users/me"),
                ("favorite", "PUT", f"/favorites/{urllib.parse.quote(generator.choice(photo_ids))}"),
            ):
                started = time.monotonic()
                try:
                    status, _, _ = await client.request(
                        method, target, token=None if kind == "nearby" else token, timeout=10)
                except (ConnectionError, OSError, asyncio.TimeoutError):
                    status = "error"
                latencies[kind].append(time.monotonic() - started)
                if status not in (200, 201):
                    failures[f"{kind} {status}"] = failures.get(f"{kind} {status}", 0) + 1
            await asyncio.sleep(max(0.0, PACE_SECONDS - (time.monotonic() - started_round)))
        client.close()
        return latencies, failures

    results.put(asyncio.run(run()))


def measure_legit(url, cacert, token, photo_ids, seconds):
    """Starts the legitimate client's process; returns a function that waits for its latencies."""
    results = multiprocessing.Queue()
    process = multiprocessing.Process(target=legit_run, args=(url, cacert, token, photo_ids, seconds, results))
    process.start()

    def finish():
        outcome = results.get(timeout=seconds + 60)
        process.join()
        return outcome

    return finish


# --- the attacks -------------------------------------------------------------------


class Attack:
    """Counts what the attack sent and what came back."""

    def __init__(self, host, port, deadline):
        self.host, self.port, self.deadline = host, port, deadline
        self.requests = 0
        self.statuses = {}

    def count(self, status):
        self.requests += 1
        self.statuses[str(status)] = self.statuses.get(str(status), 0) + 1

    def live(self):
        return time.monotonic() < self.deadline

    async def loop(self, address, make_request, connections=8):
        """`connections` keep-alive connections from `address`, each sending `make_request()`'s
        (method, target, token, body) until the deadline."""

        async def one():
            client = Client(self.host, self.port, address)
            while self.live():
                method, target, token, body = make_request()
                try:
                    status, headers, _ = await client.request(method, target, token=token, body=body, timeout=20)
                except (ConnectionError, OSError, asyncio.TimeoutError):
                    status = "closed"
                    client.close()
                    await asyncio.sleep(0.01)
                self.count(status)
            client.close()

        await asyncio.gather(*(one() for _ in range(connections)))


def attacker(index):
    return f"127.0.0.{3 + index}"


async def deep_json(attack, context):
    nest = "[" * 500 + "]" * 500
    body = ("[" + ",".join([nest] * 64) + "]").encode()
    await attack.loop(attacker(0), lambda: ("POST", "/users/login", None, body), connections=16)


async def idle_sockets(attack, context):
    sockets = []
    for _ in range(4100):
        if not attack.live():
            break
        sock = socket.socket()
        sock.setblocking(False)
        sock.bind((attacker(0), 0))
        try:
            await asyncio.get_running_loop().sock_connect(sock, (attack.host, attack.port))
            sockets.append(sock)
            attack.count("connected")
        except OSError:
            attack.count("refused")
            sock.close()
    # What the server answers the ones it refuses: read whatever arrives without blocking.
    await asyncio.sleep(1)
    answered = 0
    for sock in sockets:
        try:
            data = sock.recv(4096)
            if data.startswith(b"HTTP/1.1 "):
                answered += 1
                attack.statuses["answered " + data[9:12].decode()] = attack.statuses.get("answered " + data[9:12].decode(), 0) + 1
        except BlockingIOError:
            pass
        except OSError:
            pass
    while attack.live():
        await asyncio.sleep(0.2)
    for sock in sockets:
        sock.close()


async def held_waits(attack, context):
    token = context["attacker_token"]
    client = Client(attack.host, attack.port, attacker(0))
    _, _, body = await client.request("GET", "/sync?limit=1", token=token)
    client.close()
    since = json.loads(body)["next"]
    while json.loads(body)["more"]:
        client = Client(attack.host, attack.port, attacker(0))
        _, _, body = await client.request("GET", f"/sync?since={since}&limit=1000", token=token)
        client.close()
        since = json.loads(body)["next"]

    async def hold(index):
        client = Client(attack.host, attack.port, attacker(index % 8))
        try:
            status, _, _ = await client.request("GET", f"/sync?since={since}&wait=15", token=token, timeout=30)
        except (ConnectionError, OSError, asyncio.TimeoutError):
            status = "closed"
        attack.count(status)
        client.close()

    tasks = [asyncio.create_task(hold(index)) for index in range(4095)]
    while attack.live():
        await asyncio.sleep(0.2)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


async def write_flood(attack, context):
    token = context["attacker_token"]
    photo_ids = context["photo_ids"]
    generator = random.Random(3)

    def next_request():
        if generator.random() < 0.5:
            return ("POST", "/walks", token, None)
        return ("PUT", f"/favorites/{urllib.parse.quote(generator.choice(photo_ids))}", token, None)

    await attack.loop(attacker(0), next_request, connections=8)


async def token_flood(attack, context):
    body = {"username": context["attacker_name"], "password": context["password"]}
    await attack.loop(attacker(0), lambda: ("POST", "/users/login", None, body), connections=8)


async def login_lockout(attack, context):
    body = {"username": context["legit_name"], "password": "not the password at all"}
    await attack.loop(attacker(1), lambda: ("POST", "/users/login", None, body), connections=4)
    # The legitimate user signs in from its own address: never locked out by another's failures.
    client = Client(attack.host, attack.port, LEGIT_ADDRESS)
    status, _, _ = await client.request(
        "POST", "/users/login", body={"username": context["legit_name"], "password": context["password"]})
    client.close()
    attack.statuses["legitimate login"] = status


async def register_flood(attack, context):
    counter = iter(range(10**9))
    prefix = f"flood{random.randrange(10**6)}x"
    await attack.loop(
        attacker(2),
        lambda: ("POST", "/users", None, {"username": f"{prefix}{next(counter)}", "password": context["password"]}),
        connections=8)


async def reset_big(attack, context):
    """A fresh account filled with 50 walks of 500 points (within the write burst), then reset."""
    token = context["reset_token"]
    client = Client(attack.host, attack.port, attacker(3))
    status, _, body = await client.request("DELETE", "/users/me/data", token=token, timeout=60)
    attack.count(status)
    client.close()
    while attack.live():
        await asyncio.sleep(0.2)


async def fill_for_reset(host, port, token):
    client = Client(host, port, attacker(3))
    points = 0
    for walk in range(50):
        status, _, body = await client.request("POST", "/walks", token=token)
        if status != 201:
            raise SystemExit(f"filling the reset account: POST /walks {status} {body[:200]!r}")
        walk_id = json.loads(body)["walkID"]
        start = time.time() - 3600
        batch = [
            {"latitude": 40.60 + 0.0015 * step, "longitude": -74.05 + 0.0002 * walk,
             "recordedAt": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(start + step)) + f".{walk:03d}Z"}
            for step in range(500)]
        status, _, body = await client.request(
            "POST", f"/walks/{urllib.parse.quote(walk_id)}/points/batch", token=token, body={"points": batch})
        if status != 200:
            raise SystemExit(f"filling the reset account: batch {status} {body[:200]!r}")
        points += sum(1 for result in json.loads(body)["results"] if result["accepted"])
    client.close()
    return points


ATTACKS = {
    "deep-json": deep_json,
    "idle-sockets": idle_sockets,
    "held-waits": held_waits,
    "write-flood": write_flood,
    "token-flood": token_flood,
    "login-lockout": login_lockout,
    "register-flood": register_flood,
    "reset-big": reset_big,
}


def summary(quiet, attacked):
    result = {}
    for kind in ("nearby", "me", "favorite"):
        quiet_p99 = percentile(quiet[0][kind], 0.99)
        attacked_p99 = percentile(attacked[0][kind], 0.99)
        result[kind] = {
            "quiet_p50_ms": percentile(quiet[0][kind], 0.5), "quiet_p99_ms": quiet_p99,
            "attacked_p50_ms": percentile(attacked[0][kind], 0.5), "attacked_p99_ms": attacked_p99,
            "attacked_requests": len(attacked[0][kind]),
            "ok": attacked_p99 is not None and quiet_p99 is not None
                  and (attacked_p99 <= 2 * quiet_p99 or attacked_p99 < 50),
        }
    result["legit_failures_quiet"] = quiet[1]
    result["legit_failures_attacked"] = attacked[1]
    return result


async def prepare(url):
    parsed = urllib.parse.urlparse(url)
    host, port = parsed.hostname, parsed.port
    stamp = f"{os.getpid()}x{random.randrange(10**6)}"
    context = {"password": "correct horse battery staple 1", "legit_name": f"legit{stamp}",
               "attacker_name": f"attacker{stamp}"}
    context["legit_token"] = await register(host, port, LEGIT_ADDRESS, context["legit_name"])
    context["attacker_token"] = await register(host, port, attacker(0), context["attacker_name"])
    client = Client(host, port, LEGIT_ADDRESS)
    photo_ids = []
    for lat, lon in ((40.7306, -73.9866), (40.7128, -74.0060), (40.7580, -73.9855), (40.6782, -73.9442)):
        _, _, body = await client.request("GET", f"/nearby?lat={lat}&lon={lon}&limit=50&photos=5")
        for location in json.loads(body)["locations"]:
            photo_ids += [photo["photoID"] for photo in location["photos"]]
    client.close()
    context["photo_ids"] = photo_ids
    return host, port, context


async def run_attack(name, host, port, context, seconds):
    attack = Attack(host, port, time.monotonic() + seconds)
    await ATTACKS[name](attack, context)
    return attack


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", required=True, help="the server or nginx, http://127.0.0.1:PORT")
    parser.add_argument("--pid", type=int, action="append", required=True, help="a server process (repeat for a cluster)")
    parser.add_argument("--duration", type=float, default=10.0, help="seconds of each quiet and each attacked run")
    parser.add_argument("--attack", action="append", choices=sorted(ATTACKS), help="only these (repeatable)")
    parser.add_argument("--cacert", help="the certificate (PEM) to trust, for an https:// URL")
    args = parser.parse_args()
    if args.url.startswith("https://"):
        use_tls(args.cacert)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))

    host, port, context = asyncio.run(prepare(args.url))
    failed = []
    for name in args.attack or list(ATTACKS):
        if name == "reset-big":
            reset_name = f"reset{random.randrange(10**9)}"
            context["reset_token"] = asyncio.run(register(host, port, attacker(3), reset_name))
            points = asyncio.run(fill_for_reset(host, port, context["reset_token"]))
            log(f"reset-big: the account holds {points} walk points")
        wait_until_idle(args.pid)
        log(f"{name}: quiet run")
        cpu_before = server_cpu_seconds(args.pid)
        quiet = measure_legit(args.url, args.cacert, context["legit_token"], context["photo_ids"], args.duration)()
        cpu_quiet = server_cpu_seconds(args.pid) - cpu_before
        log(f"{name}: attacked run")
        cpu_before = server_cpu_seconds(args.pid)
        finish = measure_legit(args.url, args.cacert, context["legit_token"], context["photo_ids"], args.duration)
        attack = asyncio.run(run_attack(name, host, port, context, args.duration))
        attacked = finish()
        cpu_attacked = server_cpu_seconds(args.pid) - cpu_before
        # What the legitimate client's own requests cost the server, as in the quiet run.
        quiet_requests = sum(len(values) for values in quiet[0].values())
        attacked_requests = sum(len(values) for values in attacked[0].values())
        legit_share = cpu_quiet * attacked_requests / quiet_requests if quiet_requests else 0.0
        line = {"attack": name, "attack_requests": attack.requests, "attack_statuses": attack.statuses,
                "server_cpu_ms_per_attack_request":
                    round((cpu_attacked - legit_share) * 1000 / attack.requests, 3) if attack.requests else None}
        line.update(summary(quiet, attacked))
        print(json.dumps(line), flush=True)
        if not all(line[kind]["ok"] for kind in ("nearby", "me", "favorite")):
            failed.append(name)
    if failed:
        log(f"p99 over its bound under: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
