#!/usr/bin/env python3
"""Misbehaving and idle HTTP clients for the reliability scenarios (docs/RELIABILITY.md).

Each subcommand talks to a server on 127.0.0.1, runs for a bounded time and prints
one JSON object of what it saw on stdout (progress on stderr):

  slowloris  CONNECTIONS connections that each send a request head one byte every
             INTERVAL seconds; one the server closes is replaced by a new one.
  slowread   CONNECTIONS connections that pipeline large GETs and read the answers
             a few bytes a second, with a tiny receive buffer.
  flood      CONNECTIONS connections opened at once, each sending GET /healthz:
             counts 200s, 503s (the server full, none of its connections idle),
             connections closed without an answer, and whether any ended in
             something other than these.
  idle       CONNECTIONS keep-alive connections, each after one GET /healthz, held
             open for HOLD seconds (reopened if the server closes one); prints
             "ready" on stderr once all are open.
  burst      mixed good, bad and aborted requests for DURATION seconds (the
             descriptor-leak check).
  soak       mixed traffic (reads, logins, favorites, walks, bad requests, clients
             that vanish mid-request) for DURATION seconds; every SAMPLE seconds a
             CSV row: elapsed, requests, errors, p50/p99 latency, and the server's
             RSS and open descriptors (read from /proc/PID).
"""

import argparse
import asyncio
import json
import os
import random
import socket
import sys
import time

HOST = "127.0.0.1"
NEARBY_POINTS = [(40.7306, -73.9866), (40.7128, -74.0060), (40.7580, -73.9855), (40.6782, -73.9442), (40.8448, -73.8648)]


def log(message):
    print(message, file=sys.stderr, flush=True)


def request_bytes(method, target, headers=None, body=b""):
    lines = [f"{method} {target} HTTP/1.1", "Host: 127.0.0.1"]
    for name, value in (headers or {}).items():
        lines.append(f"{name}: {value}")
    if body or method in ("POST", "PUT", "PATCH"):
        lines.append(f"Content-Length: {len(body)}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


async def read_response(reader):
    """(status, headers dict with lower-case names, body) of one response."""
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ")[1])
    headers = {}
    for line in lines[1:]:
        if ":" in line:
            name, value = line.split(":", 1)
            headers[name.strip().lower()] = value.strip()
    length = int(headers.get("content-length", "0"))
    body = await reader.readexactly(length) if length else b""
    return status, headers, body


def proc_sample(pid):
    """(RSS in MiB, open descriptors) of process `pid`."""
    rss = 0.0
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                rss = int(line.split()[1]) / 1024
    return rss, len(os.listdir(f"/proc/{pid}/fd"))


def percentile(values, fraction):
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


# --- slowloris -------------------------------------------------------------------

async def slowloris(args):
    stats = {"opened": 0, "closed_by_server": 0, "bytes_sent": 0, "lifetimes": []}
    deadline = time.monotonic() + args.duration
    head = request_bytes("GET", "/nearby?lat=40.7306&lon=-73.9866", {"X-Slow": "x" * 64})

    async def one():
        while time.monotonic() < deadline:
            try:
                reader, writer = await asyncio.open_connection(HOST, args.port)
            except OSError:
                await asyncio.sleep(0.5)
                continue
            stats["opened"] += 1
            opened = time.monotonic()
            try:
                for byte in head[:-2]:  # never the final CRLF: the head never ends
                    if time.monotonic() >= deadline:
                        break
                    writer.write(bytes([byte]))
                    await writer.drain()
                    stats["bytes_sent"] += 1
                    try:
                        if await asyncio.wait_for(reader.read(4096), timeout=args.interval) == b"":
                            raise ConnectionResetError
                        raise ConnectionResetError  # an answer (408) then the close
                    except asyncio.TimeoutError:
                        pass
            except (ConnectionError, OSError):
                stats["closed_by_server"] += 1
                stats["lifetimes"].append(time.monotonic() - opened)
            finally:
                writer.close()

    tasks = []
    for index in range(args.connections):
        tasks.append(asyncio.create_task(one()))
        if index % 100 == 99:
            await asyncio.sleep(0.05)
    await asyncio.gather(*tasks)
    lifetimes = stats.pop("lifetimes")
    stats["median_lifetime_s"] = round(percentile(lifetimes, 0.5), 2)
    stats["max_lifetime_s"] = round(max(lifetimes, default=0), 2)
    return stats


# --- slow read -------------------------------------------------------------------

async def slowread(args):
    stats = {"connections": 0, "bytes_read": 0, "closed_by_server": 0}
    deadline = time.monotonic() + args.duration
    pipelined = request_bytes("GET", "/openapi.yaml") * 20

    async def one():
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
        sock.setblocking(False)
        try:
            await asyncio.get_running_loop().sock_connect(sock, (HOST, args.port))
            reader, writer = await asyncio.open_connection(sock=sock, limit=1024)
        except OSError:
            return
        stats["connections"] += 1
        try:
            writer.write(pipelined)
            await writer.drain()
            while time.monotonic() < deadline:
                data = await reader.read(16)
                if not data:
                    stats["closed_by_server"] += 1
                    return
                stats["bytes_read"] += len(data)
                await asyncio.sleep(1)
        except (ConnectionError, OSError):
            stats["closed_by_server"] += 1
        finally:
            writer.close()

    await asyncio.gather(*(one() for _ in range(args.connections)))
    return stats


# --- flood -----------------------------------------------------------------------

async def flood(args):
    stats = {"ok": 0, "unavailable": 0, "closed_without_answer": 0, "refused": 0, "other_status": 0, "reset": 0}

    async def one():
        try:
            reader, writer = await asyncio.open_connection(HOST, args.port)
        except OSError:
            stats["refused"] += 1
            return
        try:
            writer.write(request_bytes("GET", "/healthz"))
            await writer.drain()
            status, _, _ = await asyncio.wait_for(read_response(reader), timeout=30)
            stats["ok" if status == 200 else "unavailable" if status == 503 else "other_status"] += 1
            # Hold the connection, so the server is over its cap while the others arrive.
            await asyncio.sleep(args.hold)
        except asyncio.IncompleteReadError:
            stats["closed_without_answer"] += 1
        except (ConnectionResetError, BrokenPipeError):
            stats["reset"] += 1
        finally:
            writer.close()

    await asyncio.gather(*(one() for _ in range(args.connections)))
    return stats


# --- idle keep-alive -------------------------------------------------------------

async def idle(args):
    """Opens args.connections keep-alive connections, each answering one GET /healthz,
    and holds them idle for args.hold seconds. Opening 10,000 on a busy machine can take
    longer than the server's 30 s idle timeout, so once all have been opened each sends
    one more request (a refresh): the hold then starts with every connection fresh, and
    none reaches the idle timeout during it (hold < 30 s). Connections closed before
    the refresh are reopened."""
    stats = {"opened": 0, "reopened": 0, "failed": 0, "refresh_failed": 0}
    ready = asyncio.Event()
    refresh = asyncio.Event()
    refreshed = [0]
    all_refreshed = asyncio.Event()
    hold_over = asyncio.Event()
    open_now = [0]

    async def exchange(reader, writer):
        writer.write(request_bytes("GET", "/healthz"))
        await writer.drain()
        status, _, _ = await read_response(reader)
        assert status == 200

    async def one():
        first = True
        while not hold_over.is_set():
            try:
                reader, writer = await asyncio.open_connection(HOST, args.port)
                await exchange(reader, writer)
            except (OSError, asyncio.IncompleteReadError, AssertionError):
                stats["failed"] += 1
                await asyncio.sleep(1)
                continue
            stats["opened" if first else "reopened"] += 1
            first = False
            open_now[0] += 1
            if stats["opened"] == args.connections:
                ready.set()
            try:
                if not refresh.is_set():
                    # Idle until the refresh, or until the server closes it (then reopen).
                    refresh_wait = asyncio.create_task(refresh.wait())
                    closed = asyncio.create_task(reader.read(1))
                    done, _ = await asyncio.wait({refresh_wait, closed}, return_when=asyncio.FIRST_COMPLETED)
                    refresh_wait.cancel()
                    if closed in done:
                        continue
                    # The stream allows one reader at a time: the cancelled read must end first.
                    closed.cancel()
                    await asyncio.gather(closed, return_exceptions=True)
                    try:
                        await exchange(reader, writer)
                    except (OSError, asyncio.IncompleteReadError, AssertionError):
                        stats["refresh_failed"] += 1
                        continue
                refreshed[0] += 1
                if refreshed[0] == args.connections:
                    all_refreshed.set()
                # Idle until the server closes it (its idle timeout) or the hold ends, with
                # no timer: a wake-up a second on each of 10,000 connections cost this
                # client about half a core, taken from the server and wrk beside it.
                closed = asyncio.create_task(reader.read(1))
                over = asyncio.create_task(hold_over.wait())
                await asyncio.wait({closed, over}, return_when=asyncio.FIRST_COMPLETED)
                over.cancel()
                closed.cancel()
                await asyncio.gather(closed, over, return_exceptions=True)
            except OSError:
                pass
            finally:
                open_now[0] -= 1
                writer.close()

    tasks = []
    started = time.monotonic()
    for index in range(args.connections):
        tasks.append(asyncio.create_task(one()))
        if index % 200 == 199:
            await asyncio.sleep(0.01)
    try:
        await asyncio.wait_for(ready.wait(), timeout=args.max_wait)
    except asyncio.TimeoutError:
        log(f"gave up: {stats['opened']} of {args.connections} opened in {args.max_wait} s")
    stats["open_seconds"] = round(time.monotonic() - started, 1)
    refresh.set()
    try:
        await asyncio.wait_for(all_refreshed.wait(), timeout=args.max_wait)
    except asyncio.TimeoutError:
        log(f"gave up: {refreshed[0]} of {args.connections} refreshed")
    stats["refresh_seconds"] = round(time.monotonic() - started - stats["open_seconds"], 1)
    log(f"ready: {open_now[0]} connections open")
    deadline = time.monotonic() + args.hold
    lowest = open_now[0]
    while time.monotonic() < deadline - 0.5:
        await asyncio.sleep(0.5)
        lowest = min(lowest, open_now[0])
    stats["fewest_open_while_held"] = lowest
    hold_over.set()
    await asyncio.gather(*tasks)
    return stats


# --- mixed traffic: burst and soak -----------------------------------------------

class Traffic:
    """Mixed requests from one client loop; every request is timed."""

    def __init__(self, port, prefix, photos):
        self.port = port
        self.prefix = prefix
        self.photos = photos
        self.latencies = []
        self.requests = 0
        self.errors = 0
        self.statuses = {}

    async def exchange(self, connection, method, target, headers=None, body=b""):
        """One request on `connection` ([reader, writer]); reopened first when the
        server closed it after its previous answer (`Connection: close`, as after a 400)."""
        if connection[0] is None:
            connection[:] = await asyncio.open_connection(HOST, self.port)
        reader, writer = connection
        started = time.monotonic()
        writer.write(request_bytes(method, target, headers, body))
        await writer.drain()
        status, response_headers, response_body = await asyncio.wait_for(read_response(reader), timeout=30)
        self.latencies.append(time.monotonic() - started)
        if response_headers.get("connection", "").lower() == "close":
            writer.close()
            connection[:] = [None, None]
        self.requests += 1
        self.statuses[status] = self.statuses.get(status, 0) + 1
        if status >= 500 and status != 503:  # 503: the password hasher's queue is full, by design
            self.errors += 1
        return status, response_headers, response_body

    async def session(self, rng, index):
        """One keep-alive connection: a signed-in user's mix of reads and writes."""
        connection = [None, None]
        try:
            name = f"{self.prefix}{index}"
            credentials = json.dumps({"username": name, "password": "soak password " + name}).encode()
            json_type = {"Content-Type": "application/json"}
            status, _, body = await self.exchange(connection, "POST", "/users/login", json_type, credentials)
            if status != 200:
                status, _, body = await self.exchange(connection, "POST", "/users", json_type, credentials)
            auth = {"Authorization": "Bearer " + json.loads(body)["token"]} if status in (200, 201) else {}
            walk = None
            for _ in range(rng.randint(5, 30)):
                lat, lon = rng.choice(NEARBY_POINTS)
                choice = rng.random()
                photo = rng.choice(self.photos)
                if choice < 0.35:
                    await self.exchange(connection, "GET", f"/nearby?lat={lat + rng.uniform(-0.01, 0.01):.5f}&lon={lon:.5f}&limit=10")
                elif choice < 0.45:
                    await self.exchange(connection, "GET", f"/region?south={lat - 0.01}&west={lon - 0.01}&north={lat}&east={lon}&limit=20")
                elif choice < 0.52:
                    await self.exchange(connection, "GET", f"/search?q={rng.choice(['bridge', 'broadway', 'park', 'church', 'brook'])}&limit=5")
                elif choice < 0.58:
                    await self.exchange(connection, "GET", f"/photos/{photo}")
                elif choice < 0.68 and auth:
                    await self.exchange(connection, rng.choice(["PUT", "PUT", "DELETE"]), f"/favorites/{photo}", auth)
                elif choice < 0.72 and auth:
                    await self.exchange(connection, "GET", "/favorites?limit=10", auth)
                elif choice < 0.76 and auth:
                    await self.exchange(connection, "PUT", f"/recents/{photo}", auth)
                elif choice < 0.84 and auth:
                    if walk is None:
                        status, headers, _ = await self.exchange(connection, "POST", "/walks", auth)
                        walk = headers.get("location") if status == 201 else None
                    else:
                        point = json.dumps({"latitude": lat + rng.uniform(-0.01, 0.01), "longitude": lon + rng.uniform(-0.01, 0.01)})
                        await self.exchange(connection, "POST", walk + "/points", {**auth, **json_type}, point.encode())
                elif choice < 0.95:
                    bad = rng.choice([
                        ("GET", "/nearby?lat=91&lon=0", {}, b""),
                        ("GET", "/nearby?lat=abc", {}, b""),
                        ("GET", "/photos/%zz", {}, b""),
                        ("GET", "/nope", {}, b""),
                        ("POST", "/users", json_type, b"{not json"),
                        ("POST", "/users/login", json_type, b'{"username":1}'),
                        ("GET", "/favorites", {"Authorization": "Bearer wrong"}, b""),
                        ("PUT", "/favorites/none", auth, b""),
                    ])
                    await self.exchange(connection, *bad)
                else:
                    await self.exchange(connection, "GET", "/healthz")
        finally:
            if connection[1] is not None:
                connection[1].close()

    async def vanish(self, rng):
        """A client that goes away mid-request, in one of several ways."""
        try:
            reader, writer = await asyncio.open_connection(HOST, self.port)
        except OSError:
            return
        way = rng.randrange(5)
        try:
            if way == 0:  # half a request head
                writer.write(b"GET /nearby?lat=40.7&lon=-73.9 HTTP/1.1\r\nHost: x\r\nAcc")
            elif way == 1:  # a body announced but cut short
                writer.write(b"POST /users HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"user")
            elif way == 2:  # a request, gone before the answer
                writer.write(request_bytes("GET", "/region?south=40.5&west=-74.3&north=40.9&east=-73.7&limit=500"))
            elif way == 3:  # garbage
                writer.write(bytes(rng.randrange(256) for _ in range(rng.randint(1, 300))))
            else:  # a reset instead of a close
                sock = writer.get_extra_info("socket")
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
                writer.write(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            await writer.drain()
            await asyncio.sleep(rng.uniform(0, 0.05))
        except OSError:
            pass
        finally:
            writer.close()


async def photo_ids(port):
    reader, writer = await asyncio.open_connection(HOST, port)
    ids = []
    for lat, lon in NEARBY_POINTS:
        writer.write(request_bytes("GET", f"/nearby?lat={lat}&lon={lon}&limit=20&photos=5"))
        await writer.drain()
        _, _, body = await read_response(reader)
        ids += [photo["photoID"] for location in json.loads(body)["locations"] for photo in location["photos"]]
    writer.close()
    return ids


async def mixed(args, sample):
    rng = random.Random(args.seed)
    traffic = Traffic(args.port, f"mix{args.seed}u", await photo_ids(args.port))
    deadline = time.monotonic() + args.duration
    counter = [0]

    async def worker(worker_index):
        worker_rng = random.Random(args.seed * 1000 + worker_index)
        while time.monotonic() < deadline:
            counter[0] += 1
            try:
                if worker_rng.random() < 0.15:
                    await traffic.vanish(worker_rng)
                else:
                    await traffic.session(worker_rng, worker_rng.randrange(args.users))
            except (OSError, asyncio.IncompleteReadError, asyncio.TimeoutError) as error:
                traffic.errors += 1
                log(f"client error: {error!r}")

    workers = [asyncio.create_task(worker(index)) for index in range(args.clients)]
    sampler = asyncio.create_task(sample(traffic, deadline)) if sample else None
    await asyncio.gather(*workers)
    if sampler:
        await sampler
    result = {"requests": traffic.requests, "errors": traffic.errors,
              "statuses": {str(key): value for key, value in sorted(traffic.statuses.items())}}
    if not sample:  # the soak's sampler reports latencies per interval instead
        result["p99_ms"] = round(percentile(traffic.latencies, 0.99) * 1000, 2)
    return result


async def burst(args):
    return await mixed(args, None)


async def soak(args):
    out = open(args.csv, "w")
    out.write("elapsed_s,requests,errors,p50_ms,p99_ms,rss_mib,fds\n")

    async def sample(traffic, deadline):
        started = time.monotonic()
        while time.monotonic() < deadline:
            await asyncio.sleep(args.sample)
            latencies, traffic.latencies = traffic.latencies, []
            rss, fds = proc_sample(args.pid)
            row = (f"{time.monotonic() - started:.0f},{traffic.requests},{traffic.errors},"
                   f"{percentile(latencies, 0.5) * 1000:.2f},{percentile(latencies, 0.99) * 1000:.2f},{rss:.1f},{fds}")
            out.write(row + "\n")
            out.flush()
            log(row)

    result = await mixed(args, sample)
    out.close()
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, required=True)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("slowloris")
    p.add_argument("--connections", type=int, default=1000)
    p.add_argument("--interval", type=float, default=3)
    p.add_argument("--duration", type=float, default=30)
    p = sub.add_parser("slowread")
    p.add_argument("--connections", type=int, default=50)
    p.add_argument("--duration", type=float, default=30)
    p = sub.add_parser("flood")
    p.add_argument("--connections", type=int, default=2000)
    p.add_argument("--hold", type=float, default=3)
    p = sub.add_parser("idle")
    p.add_argument("--connections", type=int, default=10000)
    p.add_argument("--hold", type=float, default=20)
    p.add_argument("--max-wait", type=float, default=240)
    for name in ("burst", "soak"):
        p = sub.add_parser(name)
        p.add_argument("--duration", type=float, default=10 if name == "burst" else 600)
        p.add_argument("--clients", type=int, default=16)
        p.add_argument("--users", type=int, default=50)
        p.add_argument("--seed", type=int, default=1)
        if name == "soak":
            p.add_argument("--pid", type=int, required=True)
            p.add_argument("--csv", required=True)
            p.add_argument("--sample", type=float, default=10)
    args = parser.parse_args()
    result = asyncio.run(globals()[args.command](args))
    print(json.dumps(result))


if __name__ == "__main__":
    main()
