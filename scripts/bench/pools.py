#!/usr/bin/env python3
"""Builds the request pools of scripts/bench.sh, and the matching files nginx serves.

For each GET scenario it draws a seeded pool of request paths, asks the running
server for every one of them, and writes each response body to a file under a
random name, so nginx can serve the same bytes (same body sizes, same mix) as the
scenario it is compared with. Writes, in --out:

  <scenario>.server   the pool's requests for the server, one a line: a path
                      (GET), or a method, a space and a path
  <scenario>.nginx    the paths of the same bodies on nginx, in the same order
                      (GET scenarios only: a write has no static twin)
  tours.points        the start points of the tours pool, "latitude longitude"
  favorites-ids.saved the photo IDs the favorites-ids user saves before its run

and prints one line per scenario it kept: "<scenario>\t<median body bytes>\t<label>".
A GET scenario whose first request does not answer 200 (an endpoint this server
does not have) is skipped with a note on stderr.
"""

import argparse
import gzip
import http.client
import json
import os
import random
import re
import statistics
import sys
import time
import urllib.parse

# The five boroughs' built-up core, where most photos are.
CORE = (40.57, -74.04, 40.87, -73.82)

# A box of lower Manhattan holding about 1,100 photos: the images-pack scenario's.
PACK_BOX = (40.701, -74.02, 40.706, -74.005)

# Words of at least three letters or digits, with at least one letter.
WORD = re.compile(r"[^\W_]{3,}")


def read_catalog(path):
    """Photo IDs, each photo's words (its title, folder and geocode labels), and the
    location IDs of the locations with more than 50 photos (more than one page)."""
    ids, word_lists, large = [], [], []
    with gzip.open(path, "rt", encoding="utf-8") as lines:
        for line in lines:
            location = json.loads(line)
            if len(location["photos"]) > 50:
                large.append("%.6f,%.6f" % (location["latitude"], location["longitude"]))
            for photo in location["photos"]:
                ids.append(photo["id"])
                geocode = photo.get("geocode") or {}
                place = geocode.get("location") or {}
                texts = [photo.get("title") or "", photo.get("original_title") or "", geocode.get("source") or ""]
                texts += [str(place.get(key) or "") for key in ("str1", "str2", "street")]
                words = [w for w in WORD.findall(" ".join(texts)) if not w.isdigit()]
                if words:
                    word_lists.append(words)
    return ids, word_lists, large


def five_borough_box(connection):
    """The box around the five boroughs' locations, from the server's /boroughs."""
    connection.request("GET", "/boroughs")
    response = connection.getresponse()
    boxes = [b["bbox"] for b in json.loads(response.read()) if b["bbox"]]
    return (min(b["south"] for b in boxes), min(b["west"] for b in boxes),
            max(b["north"] for b in boxes), max(b["east"] for b in boxes))


def point_paths(rng, size, box, extra=lambda rng: ""):
    south, west, north, east = box
    return ["/nearby?lat=%.6f&lon=%.6f&limit=10&photos=5%s"
            % (rng.uniform(south, north), rng.uniform(west, east), extra(rng)) for _ in range(size)]


def heading(rng):
    """A phone's compass: any heading, the default 60-degree field of view."""
    return "&heading=%.1f" % rng.uniform(0, 359.9)


def box_paths(rng, size, box):
    """~1 km boxes: 0.009 degrees of latitude, 0.012 of longitude at 40.7 N."""
    south, west, north, east = box
    paths = []
    for _ in range(size):
        s, w = rng.uniform(south, north - 0.009), rng.uniform(west, east - 0.012)
        paths.append("/region?south=%.6f&west=%.6f&north=%.6f&east=%.6f" % (s, w, s + 0.009, w + 0.012))
    return paths


def search_paths(rng, size, word_lists):
    """1 or 2 words of one photo's text; half of the time the last is cut to a 3-5 letter prefix."""
    paths = []
    for _ in range(size):
        words = rng.choice(word_lists)
        start = rng.randrange(len(words))
        query = words[start:start + rng.choice((1, 2))]
        if rng.random() < 0.5:
            query[-1] = query[-1][:rng.randint(3, 5)]
        paths.append("/search?q=" + urllib.parse.quote(" ".join(query)))
    return paths


def location_pages(connection, rng, size, large):
    """Pages of the locations with more than one page: every page of each (following
    nextCursor at the default limit of 50), drawn at random."""
    pages = []
    for location in large:
        path = "/locations/" + location
        while path:
            pages.append(path)
            connection.request("GET", path)
            cursor = json.loads(connection.getresponse().read())["nextCursor"]
            path = cursor and "/locations/%s?cursor=%s" % (location, cursor)
    return [rng.choice(pages) for _ in range(size)]


def favorite_lookups(rng, size, ids, out):
    """GET /favorites?ids= of 100 photos each, drawn from 400 of which the user saved
    200 (favorites-ids.saved): the hearts of a long list screen."""
    drawn = rng.sample(ids, 400)
    with open("%s/favorites-ids.saved" % out, "w") as output:
        output.write("\n".join(drawn[:200]) + "\n")
    return ["/favorites?ids=" + ",".join(rng.sample(drawn, 100)) for _ in range(size)]


def manhattan_points(connection, rng, size):
    """Random Manhattan locations of the catalog, each moved by up to ~100 m."""
    connection.request("GET", "/region?south=40.68&west=-74.05&north=40.88&east=-73.90&borough=manhattan&limit=5000")
    locations = json.loads(connection.getresponse().read())["locations"]
    points = []
    for _ in range(size):
        location = rng.choice(locations)
        points.append((location["latitude"] + (rng.random() - 0.5) * 0.0018,
                       location["longitude"] + (rng.random() - 0.5) * 0.0024))
    return points


def scenarios(rng_for, size, city, ids, word_lists, tour_points, pages, lookups):
    """name -> (label, function drawing the pool, whether nginx serves a twin)."""
    clusters = "/clusters?south=%.6f&west=%.6f&north=%.6f&east=%.6f&zoom=%%d" % city

    def draws(name, choices, line):
        """`size` lines, each `line` of a choice drawn by one generator for the scenario."""
        rng = rng_for(name)
        return [line % rng.choice(choices) for _ in range(size)]

    return {
        "nearby-city": ("GET /nearby, five boroughs", lambda: point_paths(rng_for("nearby-city"), size, city), True),
        "nearby-core": ("GET /nearby, built-up core", lambda: point_paths(rng_for("nearby-core"), size, CORE), True),
        "nearby-heading": ("GET /nearby core, heading (fov 60)",
                           lambda: point_paths(rng_for("nearby-heading"), size, CORE, heading), True),
        "nearby-topic": ("GET /nearby core, a common topic",
                         lambda: point_paths(rng_for("nearby-topic"), size, CORE, lambda rng: "&topic=Apartment%20houses"),
                         True),
        "region-city": ("GET /region 1 km, five boroughs", lambda: box_paths(rng_for("region-city"), size, city), True),
        "region-core": ("GET /region 1 km, core", lambda: box_paths(rng_for("region-core"), size, CORE), True),
        "photos": ("GET /photos/{id}", lambda: draws("photos", ids, "/photos/%s"), True),
        # Fetched from the local origin once while the pool is built, then kept.
        "images": ("GET /photos/{id}/image 600, kept", lambda: draws("images", ids, "/photos/%s/image?size=600"), True),
        "images-pack": ("GET /images/pack ~1,100 thumbnails",
                        lambda: ["/images/pack?south=%.3f&west=%.3f&north=%.3f&east=%.3f" % PACK_BOX], True),
        "locations": ("GET /locations/{id}, > 50 photos", pages, True),
        "healthz": ("GET /healthz", lambda: ["/healthz"], True),
        "topics": ("GET /topics", lambda: ["/topics"], True),
        # Windows of 1 to 365 days, each read again from the store once a second.
        "popular": ("GET /photos/popular", lambda: draws("popular", (1, 7, 30, 365), "/photos/popular?days=%d"),
                    False),
        "clusters-z10": ("GET /clusters city, zoom 10", lambda: [clusters % 10], True),
        "clusters-z11": ("GET /clusters city, zoom 11", lambda: [clusters % 11], True),
        "clusters-z13": ("GET /clusters city, zoom 13", lambda: [clusters % 13], True),
        "search": ("GET /search 1-2 words", lambda: search_paths(rng_for("search"), size, word_lists), True),
        "tours": ("GET /tours Manhattan, default budget",
                  lambda: ["/tours?lat=%.6f&lon=%.6f" % point for point in tour_points()], True),
        # Every photo once, shuffled: each round's fresh user saves new favorites.
        "favorites": ("PUT /favorites/{id}, durable writes",
                      lambda: ["PUT /favorites/" + i for i in rng_for("favorites").sample(ids, len(ids))], False),
        "favorites-ids": ("GET /favorites?ids= 100 ids", lookups, False),
        # Random photos: the list of 100 keeps moving, views in and out.
        "recents": ("PUT /recents/{id}, durable writes",
                    lambda: draws("recents", ids, "PUT /recents/%s"), False),
    }


def get_ready(connection, path, patience=600):
    """GET path; a 202 (a pack the server still prepares) is asked again after its
    Retry-After, for at most `patience` seconds."""
    deadline = time.monotonic() + patience
    while True:
        connection.request("GET", path)
        response = connection.getresponse()
        body = response.read()
        if response.status != 202 or time.monotonic() > deadline:
            return response, body
        time.sleep(float(response.getheader("Retry-After", "1")))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True, help="the server's port on 127.0.0.1")
    parser.add_argument("--data", required=True, help="oldnyc-locations.jsonl.gz")
    parser.add_argument("--out", required=True, help="where the pool files go")
    parser.add_argument("--www", required=True, help="nginx's root: bodies go to <www>/<scenario>/")
    parser.add_argument("--size", type=int, default=1000, help="requests per pool")
    parser.add_argument("--seed", default="1")
    parser.add_argument("scenarios", nargs="+",
                        help="scenario names, or groups: nearby region photos locations healthz topics popular "
                        "clusters search tours favorites favorites-ids recents images")
    arguments = parser.parse_args()

    connection = http.client.HTTPConnection("127.0.0.1", arguments.port, timeout=10)
    ids, word_lists, large = read_catalog(arguments.data)
    city = five_borough_box(connection)

    def rng_for(name):
        return random.Random("%s-%s" % (arguments.seed, name))

    def tour_points():
        points = manhattan_points(connection, rng_for("tours"), arguments.size)
        with open("%s/tours.points" % arguments.out, "w") as output:
            output.write("".join("%.6f %.6f\n" % point for point in points))
        return points

    available = scenarios(
        rng_for, arguments.size, city, ids, word_lists, tour_points,
        lambda: location_pages(connection, rng_for("locations"), arguments.size, large),
        lambda: favorite_lookups(rng_for("favorites-ids"), arguments.size, ids, arguments.out))
    wanted = []
    for requested in arguments.scenarios:
        matching = [name for name in available
                    if name == requested or (name.split("-")[0] == requested and name.split("-")[1] != "ids")]
        if not matching:
            sys.exit("bench/pools.py: unknown scenario %r (known: %s)" % (requested, " ".join(available)))
        wanted += [name for name in matching if name not in wanted]

    names = random.Random("%s-names" % arguments.seed)
    for name in wanted:
        label, draw, twin = available[name]
        paths = draw()
        if not twin:
            with open("%s/%s.server" % (arguments.out, name), "w") as output:
                output.write("\n".join(paths) + "\n")
            print("%s\t-\t%s" % (name, label))
            continue
        sizes, nginx_paths = [], []
        os.makedirs("%s/%s" % (arguments.www, name), exist_ok=True)
        for index, path in enumerate(paths):
            response, body = get_ready(connection, path)
            if index == 0 and response.status != 200:
                print("bench: skipping %s: %s answers %d" % (name, path, response.status), file=sys.stderr)
                break
            file_name = "%s/%016x.json" % (name, names.getrandbits(64))
            with open("%s/%s" % (arguments.www, file_name), "wb") as output:
                output.write(body)
            sizes.append(len(body))
            nginx_paths.append("/" + file_name)
        else:
            with open("%s/%s.server" % (arguments.out, name), "w") as output:
                output.write("\n".join(paths) + "\n")
            with open("%s/%s.nginx" % (arguments.out, name), "w") as output:
                output.write("\n".join(nginx_paths) + "\n")
            print("%s\t%d\t%s" % (name, statistics.median(sizes), label))


if __name__ == "__main__":
    main()
