#!/usr/bin/env python3
"""The cost of a cold miss of GET /photos/{id}/image: for photos the server has not
kept, the time to ask the image origin itself for the source (a keep-alive
connection, as the server's libcurl keeps one) against the time the server takes to
fetch it from that origin, check it, keep it and answer, interleaved photo by photo.
Prints the medians and 90th percentiles in ms, and the median of the differences.

Usage: image-miss.py --port SERVER_PORT --origin-port ORIGIN_PORT --data oldnyc-locations.jsonl.gz
                     [--count 200] [--seed 1] [--exclude pool-file]
"""

import argparse
import gzip
import http.client
import json
import random
import statistics
import time


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--origin-port", type=int, required=True)
    parser.add_argument("--data", required=True)
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--seed", default="1")
    parser.add_argument("--exclude", help="a pool file whose photos the server may have kept already")
    arguments = parser.parse_args()

    excluded = set()
    if arguments.exclude:
        with open(arguments.exclude) as lines:
            excluded = {line.split("/")[2] for line in lines if line.startswith("/photos/")}
    photos = []
    with gzip.open(arguments.data, "rt", encoding="utf-8") as lines:
        for line in lines:
            for photo in json.loads(line)["photos"]:
                url = photo["image_url"]
                if url.startswith("https://oldnyc-assets.nypl.org/") and photo["id"] not in excluded:
                    photos.append((photo["id"], url[len("https://oldnyc-assets.nypl.org"):]))
    chosen = random.Random("%s-image-miss" % arguments.seed).sample(photos, arguments.count)

    origin = http.client.HTTPConnection("127.0.0.1", arguments.origin_port, timeout=10)
    server = http.client.HTTPConnection("127.0.0.1", arguments.port, timeout=10)

    def timed(connection, path):
        started = time.perf_counter()
        connection.request("GET", path)
        response = connection.getresponse()
        body = response.read()
        if response.status != 200 or not body:
            raise SystemExit("image-miss: %s answered %d" % (path, response.status))
        return (time.perf_counter() - started) * 1000

    origin_ms, server_ms = [], []
    for photo_id, source_path in chosen:
        origin_ms.append(timed(origin, source_path))
        server_ms.append(timed(server, "/photos/%s/image?size=600" % photo_id))
    differences = [s - o for s, o in zip(server_ms, origin_ms)]

    def p90(values):
        return sorted(values)[int(len(values) * 0.9)]

    print("cold miss, %d photos: origin alone %.2f ms (p90 %.2f), through the server %.2f ms (p90 %.2f), "
          "the server's own share %.2f ms (median of differences; p90 %.2f)"
          % (len(chosen), statistics.median(origin_ms), p90(origin_ms), statistics.median(server_ms), p90(server_ms),
             statistics.median(differences), p90(differences)))


if __name__ == "__main__":
    main()
