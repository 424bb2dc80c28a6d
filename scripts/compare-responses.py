#!/usr/bin/env python3
"""Sends the same seeded catalog requests to two running servers and compares the answers.

Used by scripts/compare-responses.sh: a change meant to be invisible on the wire
(pre-rendered responses, a faster search) must give the same status, the same
Content-Type, ETag, Content-Encoding and Vary, and the same body (gunzipped, and the
gzip bytes themselves) for every request: /nearby, /region, /photos/{id}, /clusters,
/search (with paging), bad parameters, HEAD, If-None-Match (304) and gzip; /clusters
over random boxes and map tiles at every zoom, some asked again (the server keeps
recent answers).

Prints the first differences and a count; exits 1 if any request differed.
"""

import argparse
import gzip
import http.client
import json
import math
import os
import random
import sys
import urllib.parse

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "bench"))
from pools import CORE, read_catalog  # noqa: E402 (the benchmark's catalog reader and core box)

CITY = (40.49, -74.26, 40.92, -73.69)
HEADERS = ("content-type", "etag", "content-encoding", "vary", "content-length")
BOROUGHS = ("manhattan", "brooklyn", "queens", "bronx", "staten-island")


def filters(rng):
    """Random optional filters: years and borough."""
    parts = []
    if rng.random() < 0.3:
        start = rng.randint(1850, 2000)
        parts.append("from=%d" % start)
        if rng.random() < 0.5:
            parts.append("to=%d" % rng.randint(start, 2010))
    if rng.random() < 0.2:
        parts.append("borough=" + rng.choice(BOROUGHS))
    return parts


def point(rng):
    south, west, north, east = rng.choice((CITY, CORE))
    return rng.uniform(south, north), rng.uniform(west, east)


def box(rng):
    latitude, longitude = point(rng)
    height = rng.choice((0.002, 0.009, 0.05, 0.3))
    return latitude, longitude, latitude + height, longitude + height * 1.3


def tile(rng, zoom):
    """The box of a random map tile (256 pixels) around a point, at a zoom 2 to 4 levels coarser."""
    latitude, longitude = point(rng)
    tiles = 2 ** max(zoom - rng.randint(2, 4), 0)
    column = int((longitude + 180) / 360 * tiles)
    row = int((1 - math.asinh(math.tan(math.radians(latitude))) / math.pi) / 2 * tiles)

    def latitude_of(y):
        return math.degrees(math.atan(math.sinh(math.pi * (1 - 2 * y / tiles))))

    return latitude_of(row + 1), column / tiles * 360 - 180, latitude_of(row), (column + 1) / tiles * 360 - 180


def query(path, parts):
    return path + ("?" + "&".join(parts) if parts else "")


def catalog_paths(rng, count, ids, word_lists):
    """`count` seeded request paths over every catalog read, good and bad."""
    paths = []
    clusters = []  # the /clusters paths so far, some of which are asked again
    for _ in range(count):
        kind = rng.random()
        if kind < 0.25:
            latitude, longitude = point(rng)
            parts = ["lat=%.6f" % latitude, "lon=%.6f" % longitude]
            if rng.random() < 0.5:
                parts.append("limit=%d" % rng.choice((1, 5, 10, 30, 100)))
            if rng.random() < 0.5:
                parts.append("photos=%d" % rng.randint(0, 8))
            if rng.random() < 0.2:
                parts.append("radius=%d" % rng.choice((50, 300, 2000, 50000)))
            paths.append(query("/nearby", parts + filters(rng)))
        elif kind < 0.45:
            south, west, north, east = box(rng)
            parts = ["south=%.6f" % south, "west=%.6f" % west, "north=%.6f" % north, "east=%.6f" % east]
            if rng.random() < 0.3:
                parts.append("limit=%d" % rng.choice((1, 20, 400, 5000)))
            paths.append(query("/region", parts + filters(rng)))
        elif kind < 0.6:
            paths.append("/photos/" + (rng.choice(ids) if rng.random() < 0.95 else "no-such-photo"))
        elif kind < 0.72:
            if clusters and rng.random() < 0.4:
                # Asked again, as a map does: the server answers from what it kept.
                paths.append(rng.choice(clusters))
                continue
            shape = rng.random()
            zoom = rng.randint(0, 22)
            south, west, north, east = box(rng) if shape < 0.5 else tile(rng, zoom) if shape < 0.8 else CITY
            parts = ["south=%.6f" % south, "west=%.6f" % west, "north=%.6f" % north, "east=%.6f" % east,
                     "zoom=%d" % zoom]
            if rng.random() < 0.2:
                parts.append("limit=%d" % rng.choice((1, 20, 500, 5000)))
            clusters.append(query("/clusters", parts + filters(rng)))
            paths.append(clusters[-1])
        elif kind < 0.9:
            words = rng.choice(word_lists)
            start = rng.randrange(len(words))
            q = words[start:start + rng.choice((1, 2))]
            if rng.random() < 0.5:
                q[-1] = q[-1][:rng.randint(3, 5)]
            parts = ["q=" + urllib.parse.quote(" ".join(q))]
            if rng.random() < 0.3:
                latitude, longitude = point(rng)
                parts += ["lat=%.6f" % latitude, "lon=%.6f" % longitude]
            if rng.random() < 0.3:
                parts.append("limit=%d" % rng.choice((1, 5, 50, 100)))
            paths.append(query("/search", parts + filters(rng)))
        else:
            paths.append(rng.choice((
                "/nearby", "/nearby?lat=91&lon=0", "/nearby?lat=40.7&lon=-74&limit=0", "/nearby?lat=x&lon=1",
                "/nearby?lat=40.7&lon=-74&photos=51", "/nearby?lat=40.7&lon=-74&bogus=1",
                "/region?south=41&west=-74&north=40&east=-73", "/region?south=40&west=-74&north=41",
                "/clusters?south=40&west=-74&north=41&east=-73", "/clusters?south=40&west=-74&north=41&east=-73&zoom=99",
                "/search", "/search?q=", "/search?q=%22%2A", "/search?q=NEAR%28a%20b%29", "/search?q=a&cursor=bogus",
                "/search?q=" + "x" * 300, "/photos/", "/boroughs", "/nearby?lat=40.7&lon=-74&from=1990&to=1900",
            )))
    return paths


class Server:
    """One keep-alive connection to a server under comparison."""

    def __init__(self, port):
        self.port = port
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def ask(self, method, path, headers):
        try:
            self.connection.request(method, path, headers=headers)
            response = self.connection.getresponse()
        except (http.client.HTTPException, OSError):
            self.connection.close()
            self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            self.connection.request(method, path, headers=headers)
            response = self.connection.getresponse()
        body = response.read()
        return response.status, {name: response.getheader(name) for name in HEADERS}, body


def describe(answer):
    status, headers, body = answer
    shown = {name: value for name, value in headers.items() if value is not None}
    return "%d %s %d bytes: %r" % (status, shown, len(body), body[:160])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", type=int, required=True, help="port of the server before the change")
    parser.add_argument("--new", type=int, required=True, help="port of the server after it")
    parser.add_argument("--data", required=True, help="oldnyc-locations.jsonl.gz")
    parser.add_argument("--count", type=int, default=3000, help="catalog requests (each also sent as HEAD, gzip, 304)")
    parser.add_argument("--seed", default="1")
    arguments = parser.parse_args()

    ids, word_lists, _ = read_catalog(arguments.data)
    rng = random.Random("compare-%s" % arguments.seed)
    old, new = Server(arguments.old), Server(arguments.new)
    compared = differences = 0

    def compare(method, path, headers=None):
        nonlocal compared, differences
        before = old.ask(method, path, headers or {})
        after = new.ask(method, path, headers or {})
        compared += 1
        if before != after:
            differences += 1
            if differences <= 10:
                print("DIFFERENT %s %s %s\n  old: %s\n  new: %s" % (method, path, headers or "", describe(before),
                                                                     describe(after)))
        return before

    for path in catalog_paths(rng, arguments.count, ids, word_lists):
        status, headers, body = compare("GET", path)
        variant = rng.random()
        if variant < 0.3:
            compare("HEAD", path)
        elif variant < 0.6:
            zipped = compare("GET", path, {"Accept-Encoding": "gzip"})
            if zipped[1]["content-encoding"] == "gzip" and gzip.decompress(zipped[2]) != body:
                differences += 1
                print("GZIP BODY DIFFERS %s" % path)
        if headers["etag"] and rng.random() < 0.3:
            compare("GET", path, {"If-None-Match": headers["etag"]})
            compare("GET", path, {"If-None-Match": '"other", ' + headers["etag"], "Accept-Encoding": "gzip"})
        if path.startswith("/search") and status == 200 and rng.random() < 0.3:
            cursor = json.loads(body)["nextCursor"]
            pages = 0
            while cursor and pages < 5:
                page = compare("GET", path + "&cursor=" + urllib.parse.quote(cursor))
                cursor = json.loads(page[2])["nextCursor"] if page[0] == 200 else None
                pages += 1

    print("compared %d requests: %d different" % (compared, differences))
    sys.exit(1 if differences else 0)


if __name__ == "__main__":
    main()
