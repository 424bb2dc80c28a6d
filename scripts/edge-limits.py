#!/usr/bin/env python3
"""The API's connection limits and error shape, checked through nginx.

scripts/cluster-test.sh runs it against the cluster's nginx. Each check sends
one request over a raw socket (so that malformed ones can be sent too) and
reads the answer until the connection closes or goes quiet. Every error, the
instances' own or nginx's, must be problem+json whose `status` is the HTTP
status, never nginx's HTML page; where the instance is the one to answer, its
own `detail` must come through.

  a 9 KiB bearer token               the instance's 401 (nginx's buffers take it)
  a 20 KiB header line               nginx's 431
  six 15,000-byte header lines       nginx's 431 (over its 4 x 16 KiB buffers)
  20 KiB of 1 KiB header lines       the instance's 431
  a 16,000-byte head                 200
  a 10 KiB request target            the instance's 414
  a 20 KiB request line              nginx's 414
  a body of 65,537 bytes (declared)  nginx's 413; a chunked one of 70,000 too
  a body of 65,536 bytes             passed on (the instance's 400: not JSON)
  an unknown path                    the instance's 404
  DELETE /boroughs                   the instance's 405 with Allow
  a request line that is not one     nginx's 400; no Host, two Hosts, a bad
                                     Content-Length: 400
  Transfer-Encoding: gzip            nginx's 501
  HTTP/2.0                           nginx's 505
  HTTP/1.0 without Host              200 (nginx names itself to the instance)
  nothing sent                       closed at nginx's 10 s head timeout (it
                                     sends no 408): checked last, opened first

Prints `ok: …` or `FAILED: …` a check and `edge-limits: N passed, N failed`; exits 1 if any
check failed.

Over https:// each connection is TLS first (trusting --cacert, else the
system's certificates), then the same bytes.

Usage: scripts/edge-limits.py --url https://127.0.0.1:PORT [--cacert cert.pem]
"""

import argparse
import json
import socket
import ssl
import sys
import time
import urllib.parse

RESULTS = {"passed": 0, "failed": 0}
# The TLS context of an https:// --url; None for http://.
TLS = {"context": None}


def connect(host, port):
    """A connection to the edge: TCP, and TLS over it (handshake done) for https://."""
    sock = socket.create_connection((host, port), timeout=5)
    if TLS["context"] is None:
        return sock
    return TLS["context"].wrap_socket(sock, server_hostname=host)


def report(ok, what):
    RESULTS["passed" if ok else "failed"] += 1
    print(f"{'ok' if ok else 'FAILED'}: {what}", flush=True)


def exchange(host, port, data, quiet=2.0):
    """(status, headers with lower-case names, body) of the first answer; status 0 if none."""
    with connect(host, port) as sock:
        try:
            sock.sendall(data)
        except OSError:
            pass  # nginx may answer and close before taking a whole oversized request
        sock.settimeout(quiet)
        received = b""
        while True:
            try:
                chunk = sock.recv(65536)
            except (socket.timeout, ConnectionResetError, ssl.SSLError):
                break
            if not chunk:
                break
            received += chunk
            head, separator, rest = received.partition(b"\r\n\r\n")
            if separator:
                length = parse(head)[1].get("content-length")
                if length is not None and len(rest) >= int(length):
                    break
    head, _, body = received.partition(b"\r\n\r\n")
    if not head:
        return 0, {}, b""
    status, headers = parse(head)
    length = headers.get("content-length")
    return status, headers, body[: int(length)] if length is not None else body


def parse(head):
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ")[1])
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return status, headers


def check(host, port, what, data, status, detail=None, method_head=False, header=None):
    """One request; the answer must have `status`, and if it is an error, be problem+json."""
    got, headers, body = exchange(host, port, data)
    problems = []
    if got != status:
        problems.append(f"status {got}, wanted {status}")
    content_type = headers.get("content-type", "")
    if status >= 400 and not method_head:
        if content_type != "application/problem+json":
            problems.append(f"Content-Type {content_type!r}")
        try:
            problem = json.loads(body)
            if problem.get("status") != got or not problem.get("title") or problem.get("type") != "about:blank":
                problems.append(f"problem {problem}")
            if detail is not None and problem.get("detail") != detail:
                problems.append(f"detail {problem.get('detail')!r}, wanted {detail!r}")
        except ValueError:
            problems.append(f"body not JSON: {body[:80]!r}")
    if b"<html" in body.lower():
        problems.append("an HTML body")
    if header is not None and not headers.get(header[0]):
        problems.append(f"no {header[0]}")
    elif header is not None and header[1] is not None and headers.get(header[0]) != header[1]:
        problems.append(f"{header[0]}: {headers.get(header[0])!r}, wanted {header[1]!r}")
    report(not problems, f"{what}: {got} {content_type}" + (f" ({'; '.join(problems)})" if problems else ""))


def request(method, target, headers=(), body=b"", version="HTTP/1.1", host=True):
    lines = [f"{method} {target} {version}"]
    if host:
        lines.append("Host: 127.0.0.1")
    lines += [f"{name}: {value}" for name, value in headers]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", required=True)
    parser.add_argument("--cacert", help="the certificate (PEM) to trust for an https:// URL")
    args = parser.parse_args()
    url = urllib.parse.urlsplit(args.url)
    host, port = url.hostname, url.port
    if url.scheme == "https":
        TLS["context"] = ssl.create_default_context(cafile=args.cacert)

    # Opened first, checked last: nginx closes it at its 10 s head timeout.
    silent = connect(host, port)
    silent_opened = time.monotonic()

    a = lambda count: "a" * count
    json_type = ("Content-Type", "application/json")
    check(host, port, "a 9 KiB bearer token: the instance's 401",
          request("GET", "/favorites", [("Authorization", f"Bearer {a(9216)}")]),
          401, detail="the bearer token is invalid, expired or revoked")
    check(host, port, "a 20 KiB header line: nginx's 431",
          request("GET", "/healthz", [("X-Big", a(20480))]),
          431, detail="the request head exceeds 16384 bytes")
    check(host, port, "six 15,000-byte header lines (over nginx's 64 KiB of buffers): nginx's 431",
          request("GET", "/healthz", [(f"X-Line-{n}", a(15000)) for n in range(6)]),
          431, detail="the request head exceeds 16384 bytes")
    check(host, port, "20 KiB of 1 KiB header lines: the instance's 431",
          request("GET", "/healthz", [(f"X-Line-{n}", a(1024)) for n in range(20)]),
          431, detail="the request head exceeds 16384 bytes")
    filler = 16000 - len(request("GET", "/healthz", [("X-Pad", "")]))
    check(host, port, "a 16,000-byte head: passed on",
          request("GET", "/healthz", [("X-Pad", a(filler))]), 200)
    check(host, port, "a 10 KiB request target: the instance's 414",
          request("GET", f"/nearby?x={a(10240)}"), 414, detail="the request-target exceeds 8192 bytes")
    check(host, port, "a 20 KiB request line: nginx's 414",
          request("GET", f"/nearby?x={a(20480)}"), 414, detail="the request line exceeds 16384 bytes")
    check(host, port, "a declared body of 65,537 bytes: nginx's 413",
          request("POST", "/users", [json_type, ("Content-Length", "65537")], b"a" * 65537),
          413, detail="the body exceeds 65536 bytes")
    check(host, port, "a chunked body of 70,000 bytes: nginx's 413",
          request("POST", "/users", [json_type, ("Transfer-Encoding", "chunked")],
                  b"%x\r\n" % 70000 + b"a" * 70000 + b"\r\n0\r\n\r\n"),
          413, detail="the body exceeds 65536 bytes")
    check(host, port, "a body of 65,536 bytes: passed on (the instance's 400, not JSON)",
          request("POST", "/users", [json_type, ("Content-Length", "65536")], b"a" * 65536),
          400, detail="the request body is not valid JSON (at byte 0)")
    check(host, port, "an unknown path: the instance's 404",
          request("GET", "/no/such/path"), 404, detail="no resource at this path")
    check(host, port, "DELETE /boroughs: the instance's 405 with Allow",
          request("DELETE", "/boroughs"), 405, header=("allow", "GET, HEAD, OPTIONS"))
    check(host, port, "HEAD of an unknown path: 404 without a body",
          request("HEAD", "/no/such/path", [("Connection", "close")]), 404, method_head=True)
    check(host, port, "a request line that is not one: nginx's 400", b"GARBAGE\r\n\r\n", 400)
    check(host, port, "HTTP/1.1 without Host: 400", request("GET", "/healthz", host=False), 400)
    check(host, port, "two Host headers: 400", request("GET", "/healthz", [("Host", "other")]), 400)
    check(host, port, "a Content-Length that is not a number: 400",
          request("POST", "/users", [json_type, ("Content-Length", "abc")]), 400)
    check(host, port, "Transfer-Encoding: gzip: 501",
          request("POST", "/users", [json_type, ("Transfer-Encoding", "gzip")]), 501)
    check(host, port, "HTTP/2.0: 505", request("GET", "/healthz", version="HTTP/2.0"), 505)
    check(host, port, "HTTP/1.0 without Host: 200",
          request("GET", "/healthz", version="HTTP/1.0", host=False), 200)

    # The silent connection: closed by nginx at about 10 s, with nothing or a problem.
    silent.settimeout(max(0.1, silent_opened + 15 - time.monotonic()))
    received = b""
    try:
        while True:
            chunk = silent.recv(65536)
            if not chunk:
                break
            received += chunk
    except socket.timeout:
        received = None
    except (ConnectionResetError, ssl.SSLError):
        pass
    lived = time.monotonic() - silent_opened
    silent.close()
    if received is None:
        report(False, "a connection that sends nothing: still open after 15 s")
    else:
        report(9 <= lived <= 13 and b"<html" not in received.lower(),
               f"a connection that sends nothing: closed after {lived:.1f} s, {len(received)} bytes sent to it")

    print(f"edge-limits: {RESULTS['passed']} passed, {RESULTS['failed']} failed")
    sys.exit(1 if RESULTS["failed"] else 0)


if __name__ == "__main__":
    main()
