#!/usr/bin/env python3
"""A local image origin for the scripts that start a server (browser tests, contract
test, the Swift client's end-to-end suite): answers every GET path with a JPEG made at
start with cjpeg (libjpeg-turbo-progs), 600x400 for the 600 px paths and 150x100 for
/thumb/ ones, so a server started with --image-origin http://127.0.0.1:PORT never asks
the internet for a photograph.

Usage: image-origin.py PORT      (runs until killed; PORT 0 picks a free one and
                                  prints the origin's URL on the first line of stdout)
"""

import http.server
import subprocess
import sys


def jpeg(width, height):
    """A gradient with a darker quarter, made by cjpeg from a PPM."""
    pixels = bytes(
        value
        for y in range(height)
        for x in range(width)
        for value in (x * 200 // width + 30, y * 200 // height + 30, 90 if x < width // 2 and y < height // 2 else 160)
    )
    ppm = b"P6\n%d %d\n255\n" % (width, height) + pixels
    return subprocess.run(["cjpeg", "-quality", "85"], input=ppm, capture_output=True, check=True).stdout


FULL = jpeg(600, 400)
THUMBNAIL = jpeg(150, 100)


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        body = THUMBNAIL if "/thumb/" in self.path else FULL
        self.send_response(200)
        self.send_header("Content-Type", "image/jpeg")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *arguments):
        pass


if __name__ == "__main__":
    server = http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler)
    print("http://127.0.0.1:%d" % server.server_address[1], flush=True)
    server.serve_forever()
