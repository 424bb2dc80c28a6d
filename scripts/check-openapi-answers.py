#!/usr/bin/env python3
"""Checks that every response example of openapi.yaml is a real answer of the server.

    scripts/check-openapi-answers.py [path/to/past-nyc] [--database-url URL --postgres-dir DIR] [--update]

scripts/check-openapi-examples.py checks that the examples fit their schemas; this
checks that they are what the server says. It starts `past-nyc` (a fresh data
directory, cheap password hashing, 127.0.0.1 and a free port), makes for each
example the request that answers it (a recipe below, in order: a recipe may build
on the users and data of those before it), and compares:

- objects: the same members, each compared again;
- arrays: the same length, item by item, except where a recipe says the example
  shows only the first items of the answer (`prefix`);
- members that differ on every run (times, tokens, walk IDs, sync tokens): the
  same JSON type only; numbers of seconds in "try again in N s": any number;
- everything else: equal.

Every response example must have a recipe: one without fails the check, so an
example added to the document must be shown to be real. A 503 of a store that
cannot be reached needs PostgreSQL, and runs only when the user data is kept
there (`--database-url`, with `--postgres-dir`, the directory of a
`scripts/postgres.sh` server, which the check stops and starts again). Exits 1
when an example is not the server's answer, naming it, with both. With
`--update`, writes each answer that differs over its example instead (the lines
of the other examples untouched): read the diff before committing it.
"""

import argparse
import email
import gzip
import http.client
import http.server
import importlib.util
import json
import re
import secrets
import select
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent

# Members whose value changes with every run: compared by JSON type only.
VOLATILE = {
    "createdAt", "savedAt", "viewedAt", "startedAt", "updatedAt", "recordedAt", "addedAt", "expiresAt", "lastUsedAt",
    "decidedAt", "token", "walkID", "next", "nextCursor", "feedbackID", "sessionID", "generation",
    "readyCount", "failedCount",
}
RETRY = re.compile(r"try again in \d+ s")


class Server:
    """One `past-nyc serve` on 127.0.0.1 and a port it picks (`--port 0`, read from its
    log), stopped by `stop`."""

    def __init__(self, binary, data_dir, extra):
        self.process = subprocess.Popen(
            [binary, "serve", "--host", "127.0.0.1", "--port", "0", "--data-dir", data_dir,
             "--source-dir", str(ROOT / "Data"), "--openapi", str(ROOT / "openapi.yaml"), "--web-dir", str(ROOT / "Web"),
             "--log-level", "notice", *extra],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        found = threading.Event()
        self.port = None
        self.log = []

        def drain():
            # For the server's whole life: a full pipe would stop its logging.
            for line in self.process.stderr:
                self.log.append(line)
                match = re.search(r"port=(\d+)", line)
                if match and self.port is None:
                    self.port = int(match.group(1))
                    found.set()
            found.set()

        threading.Thread(target=drain, daemon=True).start()
        if not found.wait(120) or self.port is None:
            self.stop()
            raise SystemExit("check-openapi-answers: the server did not start:\n" + "".join(self.log[-20:]))

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=30)


def request(port, method, path, body=None, token=None, headers=None, source="127.0.0.1", raw=None):
    """One request on a new connection from `source`: (status, parsed JSON or None, headers)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60, source_address=(source, 0))
    sent = dict(headers or {})
    data = raw
    if body is not None:
        data = json.dumps(body).encode()
        sent.setdefault("Content-Type", "application/json")
    if token:
        sent["Authorization"] = f"Bearer {token}"
    connection.request(method, path, body=data, headers=sent)
    response = connection.getresponse()
    text = response.read()
    connection.close()
    kind = response.getheader("Content-Type", "")
    parsed = json.loads(text) if text and "json" in kind else None
    return response.status, parsed, dict(response.getheaders())


def read_response(connection):
    """The one response a raw socket receives: (status, parsed JSON body, headers)."""
    received = b""
    while b"\r\n\r\n" not in received:
        received += connection.recv(65536)
    head, _, body = received.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:])
    while len(body) < int(headers.get("Content-Length", "0")):
        body += connection.recv(65536)
    return int(lines[0].split()[1]), json.loads(body) if body else None, headers


class Origin:
    """The photographs' origin of the servers the check starts, on 127.0.0.1 and a free
    port: scripts/image-origin.py's JPEGs, or, while a recipe sets `mode`, a source that
    answers 503 (`"failing"`) or says nothing until the server gives up (`"silent"`)."""

    def __init__(self):
        spec = importlib.util.spec_from_file_location("image_origin", ROOT / "scripts/image-origin.py")
        images = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(images)
        self.mode = "images"
        origin = self

        class Handler(images.Handler):
            def do_GET(self):
                if origin.mode == "failing":
                    self.send_response(503)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                elif origin.mode == "silent":
                    # Longer than the server waits for a source (8 s), then the connection closes.
                    time.sleep(10)
                    self.close_connection = True
                else:
                    super().do_GET()

        class Server(http.server.ThreadingHTTPServer):
            daemon_threads = True

            def handle_error(self, request, client_address):
                pass  # The server hung up on a silent source: as it should.

        self.server = Server(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


class Mailbox:
    """The servers' mail relay: scripts/smtp-sink.py (aiosmtpd) on 127.0.0.1 and a free
    port, each message a JSON file in a folder of its own; `lines(to)` reads what was sent."""

    def __init__(self, folder):
        self.folder = Path(folder)
        self.folder.mkdir()
        self.process = subprocess.Popen([sys.executable, str(ROOT / "scripts/smtp-sink.py"), str(self.folder)],
                                        stdout=subprocess.PIPE, text=True)
        line = self.process.stdout.readline().strip()
        if not line.startswith("port="):
            self.process.kill()
            raise SystemExit("check-openapi-answers: scripts/smtp-sink.py did not start (pip install aiosmtpd)")
        self.url = f"smtp://127.0.0.1:{line.split('=', 1)[1]}"

    def lines(self, recipient, count=1):
        """The body lines of the `count`-th message to `recipient` (waiting for it, 30 s at most)."""
        deadline = time.monotonic() + 30
        while True:
            found = []
            for path in sorted(self.folder.glob("*.json"), key=lambda path: int(path.stem)):
                record = json.loads(path.read_text(encoding="utf-8"))
                if recipient in record["recipients"]:
                    message = email.message_from_string(record["data"])
                    found.append(message.get_payload(decode=True).decode("utf-8").splitlines())
            if len(found) >= count or time.monotonic() > deadline:
                return [line.strip() for line in found[count - 1]] if len(found) >= count else []
            time.sleep(0.05)

    def stop(self):
        self.process.terminate()
        self.process.wait()


class Check:
    """The running server, the users the recipes made, and the mismatches found."""

    def __init__(self, port, operator, origin, mailbox):
        self.port = port
        self.origin = origin
        self.mailbox = mailbox
        self.tokens = {}
        # `past-nyc` with the store options of the server: how the operator acts on it.
        self.operator = operator

    def make_moderator(self, username):
        """`past-nyc moderators add`, as the server's operator names a moderator."""
        subprocess.run([*self.operator[:1], "moderators", "add", username, *self.operator[1:]],
                       check=True, stdout=subprocess.DEVNULL)

    def call(self, method, path, body=None, user=None, **options):
        token = self.tokens[user] if user else None
        return request(self.port, method, path, body=body, token=token, **options)

    def register(self, username, password="correct horse battery staple", source="127.0.0.1"):
        """Registers `username` (a 201, or the check stops) and keeps its token: the answer."""
        answer = request(self.port, "POST", "/users", {"username": username, "password": password}, source=source)
        if answer[0] != 201:
            raise SystemExit(f"check-openapi-answers: registering {username} answered {answer[0]} {answer[1]}")
        self.tokens[username] = answer[1]["token"]
        return answer


def matches(example, real, where, prefix=False, problems=None):
    """Whether `example` is `real` under the rules of this script; mismatches go to `problems`."""
    problems = [] if problems is None else problems
    key = where.rsplit("/", 1)[-1]
    if key in VOLATILE:
        if type(example) is not type(real):
            problems.append(f"{where}: {example!r} and {real!r} differ in type")
    elif isinstance(example, dict) and isinstance(real, dict):
        if set(example) != set(real):
            problems.append(f"{where}: members {sorted(example)} ≠ the answer's {sorted(real)}")
        for name in set(example) & set(real):
            matches(example[name], real[name], f"{where}/{name}", prefix, problems)
    elif isinstance(example, list) and isinstance(real, list):
        if len(example) != len(real) and not (prefix and len(example) <= len(real)):
            problems.append(f"{where}: {len(example)} items, the answer {len(real)}")
        for index, (shown, answered) in enumerate(zip(example, real)):
            matches(shown, answered, f"{where}/{index}", prefix, problems)
    elif isinstance(example, str) and isinstance(real, str):
        if RETRY.sub("try again in N s", example) != RETRY.sub("try again in N s", real):
            problems.append(f"{where}: {example!r} ≠ the answer's {real!r}")
    elif isinstance(example, bool) or isinstance(real, bool) or example is None or real is None:
        if example is not real:
            problems.append(f"{where}: {example!r} ≠ the answer's {real!r}")
    elif isinstance(example, (int, float)) and isinstance(real, (int, float)):
        if example != real:
            problems.append(f"{where}: {example!r} ≠ the answer's {real!r}")
    else:
        problems.append(f"{where}: {example!r} ≠ the answer's {real!r}")
    return problems


# The photos the examples show.
STATEN_ISLAND_PHOTO = "729011f-a"
SECOND_AVENUE_PHOTO = "723443f-a"
SECOND_AVENUE_OTHER = "723446f-a"
FEEDBACK_PHOTO = "705740f-a"
PASSWORD = "correct horse battery staple"
UNION_SQUARE = {"latitude": 40.7359, "longitude": -73.9911}
SEVENTEENTH_STREET = {"latitude": 40.7371, "longitude": -73.9903}


def recipe_list():
    """An empty list of recipes and the decorator that appends one to it:
    `@recipe(where, prefix=False)`."""
    steps = []

    def recipe(where, prefix=False):
        def add(function):
            steps.append((where, function, prefix))
            return function
        return add

    return steps, recipe


def recipes():
    """The recipes, in the order they run: (where, recipe, prefix). `where` names the
    example (`METHOD path status [name]`, or `responses/Name` of components);
    `recipe(check)` makes the request and returns the answer (status, body, headers);
    `prefix`: the example shows the first items of the answer's arrays only."""
    steps, recipe = recipe_list()

    # The catalog: what the examples' queries answer.
    @recipe("GET /healthz 200")
    def _(check):
        return check.call("GET", "/healthz")

    @recipe("GET /nearby 200 nearest")
    def _(check):
        return check.call("GET", "/nearby?lat=40.7306&lon=-73.9866&limit=1&photos=2")

    @recipe("GET /nearby 200 facing")
    def _(check):
        return check.call("GET", "/nearby?lat=40.7306&lon=-73.9866&heading=45&limit=2&photos=1")

    @recipe("GET /region 200")
    def _(check):
        return check.call("GET", "/region?south=40.70&west=-74.02&north=40.71&east=-73.99&limit=2")

    @recipe("GET /photos/{photoID} 200")
    def _(check):
        return check.call("GET", f"/photos/{STATEN_ISLAND_PHOTO}")

    @recipe("GET /locations/{locationID} 200")
    def _(check):
        return check.call("GET", "/locations/40.802963,-73.963849?limit=2")

    @recipe("GET /boroughs 200")
    def _(check):
        return check.call("GET", "/boroughs")

    @recipe("GET /catalog/snapshot 416")
    def _(check):
        _, _, headers = check.call("HEAD", "/catalog/snapshot")
        length = int(headers["Content-Length"])
        return check.call("GET", "/catalog/snapshot", headers={"Range": f"bytes={length}-"})

    @recipe("GET /clusters 200")
    def _(check):
        return check.call("GET", "/clusters?south=40.70&west=-74.02&north=40.72&east=-73.99&zoom=16&limit=2")

    @recipe("GET /search 200 relevance")
    def _(check):
        return check.call("GET", "/search?q=flatiron&limit=1")

    @recipe("GET /search 200 nearest")
    def _(check):
        return check.call("GET", "/search?q=caf%C3%A9%20brooklyn&lat=40.6925&lon=-73.9903&limit=1")

    @recipe("GET /topics 200 first", prefix=True)
    def _(check):
        return check.call("GET", "/topics")

    @recipe("GET /tours 200")
    def _(check):
        return check.call("GET", "/tours?lat=40.7306&lon=-73.9866&minutes=30&stops=2&photos=3")

    # An account: registered, signed in, then its favorites and profile.
    @recipe("POST /users 201")
    def _(check):
        return check.register("jacob.riis")

    @recipe("POST /users/login 200")
    def _(check):
        return check.call("POST", "/users/login", {"username": "jacob.riis", "password": PASSWORD})

    @recipe("PUT /favorites/{photoID} 201")
    def _(check):
        check.call("PUT", f"/favorites/{SECOND_AVENUE_PHOTO}", user="jacob.riis")
        return check.call("PUT", f"/favorites/{STATEN_ISLAND_PHOTO}", user="jacob.riis")

    @recipe("PUT /favorites/{photoID} 200")
    def _(check):
        return check.call("PUT", f"/favorites/{STATEN_ISLAND_PHOTO}", user="jacob.riis")

    @recipe("GET /favorites/{photoID} 200")
    def _(check):
        return check.call("GET", f"/favorites/{STATEN_ISLAND_PHOTO}", user="jacob.riis")

    @recipe("GET /favorites 200 page")
    def _(check):
        return check.call("GET", "/favorites?limit=1", user="jacob.riis")

    @recipe("GET /favorites 200 ids")
    def _(check):
        return check.call("GET", f"/favorites?ids={STATEN_ISLAND_PHOTO},{SECOND_AVENUE_PHOTO},705740f-z", user="jacob.riis")

    @recipe("GET /users/me 200")
    def _(check):
        home = {"latitude": 40.7184, "longitude": -73.9986}
        check.call("PATCH", "/users/me", {"displayName": "Jacob Riis", "home": home}, user="jacob.riis")
        return check.call("GET", "/users/me", user="jacob.riis")

    @recipe("PATCH /users/me 200")
    def _(check):
        check.register("berenice")
        body = {"displayName": "Berenice Abbott", "home": UNION_SQUARE}
        return check.call("PATCH", "/users/me", body, user="berenice")

    @recipe("GET /tours/favorites 200")
    def _(check):
        check.call("PUT", f"/favorites/{SECOND_AVENUE_OTHER}", user="berenice")
        return check.call("GET", "/tours/favorites?lat=40.7306&lon=-73.9866&minutes=30&stops=1&photos=2", user="berenice")

    @recipe("PUT /recents/{photoID} 200")
    def _(check):
        return check.call("PUT", f"/recents/{STATEN_ISLAND_PHOTO}", user="berenice")

    @recipe("GET /recents 200")
    def _(check):
        return check.call("GET", "/recents", user="berenice")

    @recipe("GET /photos/popular 200 week")
    def _(check):
        # Saved by three users, the least a photo listed has (jacob.riis saved both).
        for user in ("lewis.hine", "helen.levitt"):
            check.register(user)
            check.call("PUT", f"/favorites/{STATEN_ISLAND_PHOTO}", user=user)
            check.call("PUT", f"/favorites/{SECOND_AVENUE_PHOTO}", user=user)
        # The list may lag the favorites by up to a second.
        deadline = time.monotonic() + 10
        while True:
            answer = check.call("GET", "/photos/popular?days=7")
            if len(answer[1]["photos"]) == 2 or time.monotonic() > deadline:
                return answer
            time.sleep(0.2)

    # A walk: started, two points (the second gains a photo), listed, its route.
    @recipe("POST /walks 201")
    def _(check):
        check.register("weegee")
        return check.call("POST", "/walks", {}, user="weegee")

    @recipe("POST /walks/{walkID}/points 200")
    def _(check):
        walk = check.call("GET", "/walks", user="weegee")[1]["walks"][0]["walkID"]
        check.walk = walk
        check.call("POST", f"/walks/{walk}/points", UNION_SQUARE, user="weegee")
        # 10 m on: too near the last accepted point to be taken.
        return check.call("POST", f"/walks/{walk}/points", {"latitude": 40.7360, "longitude": -73.9911}, user="weegee")

    @recipe("POST /walks/{walkID}/points 201")
    def _(check):
        return check.call("POST", f"/walks/{check.walk}/points", SEVENTEENTH_STREET, user="weegee")

    @recipe("GET /walks 200")
    def _(check):
        return check.call("GET", "/walks", user="weegee")

    @recipe("GET /walks/{walkID} 200")
    def _(check):
        return check.call("GET", f"/walks/{check.walk}?limit=1", user="weegee")

    @recipe("GET /walks/{walkID}/route 200")
    def _(check):
        return check.call("GET", f"/walks/{check.walk}/route", user="weegee")

    @recipe("POST /walks/{walkID}/points/batch 200")
    def _(check):
        walk = check.call("POST", "/walks", {}, user="weegee")[1]["walkID"]
        now = time.time()
        points = [
            {**UNION_SQUARE, "recordedAt": stamp(now - 90)},
            {"latitude": 40.7363, "longitude": -73.9909, "recordedAt": stamp(now - 75)},
            {**SEVENTEENTH_STREET, "recordedAt": stamp(now)},
        ]
        return check.call("POST", f"/walks/{walk}/points/batch", {"points": points}, user="weegee")

    # Many devices: what changed, and one held wait too many.
    @recipe("GET /sync 200")
    def _(check):
        check.register("ada")
        first = check.call("GET", "/sync", user="ada")[1]["next"]
        check.call("PUT", f"/favorites/{STATEN_ISLAND_PHOTO}", user="ada")
        check.call("DELETE", f"/favorites/{STATEN_ISLAND_PHOTO}", user="ada")
        return check.call("GET", f"/sync?since={first}", user="ada")

    @recipe("GET /sync 429")
    def _(check):
        # Twenty held at once: sixteen are held, the other four refused, whatever the order.
        next_token = check.call("GET", "/sync", user="ada")[1]["next"]
        waiting = []
        for _ in range(20):
            connection = socket.create_connection(("127.0.0.1", check.port))
            connection.sendall(
                f"GET /sync?since={next_token}&wait=30 HTTP/1.1\r\nHost: t\r\n"
                f"Authorization: Bearer {check.tokens['ada']}\r\n\r\n".encode())
            waiting.append(connection)
        try:
            readable, _, _ = select.select(waiting, [], [], 20)
            return read_response(readable[0]) if readable else (None, None, {})
        finally:
            for connection in waiting:
                connection.close()

    # Feedback, and its moderation.
    @recipe("POST /photos/{photoID}/feedback 201")
    def _(check):
        check.register("reporter")
        place = {"kind": "location", "latitude": 40.7411, "longitude": -73.9897}
        return check.call("POST", f"/photos/{FEEDBACK_PHOTO}/feedback", place, user="reporter")

    @recipe("POST /photos/{photoID}/feedback 200")
    def _(check):
        place = {"kind": "location", "latitude": 40.7413, "longitude": -73.9899}
        return check.call("POST", f"/photos/{FEEDBACK_PHOTO}/feedback", place, user="reporter")

    @recipe("GET /feedback 200")
    def _(check):
        check.register("moderator")
        check.make_moderator("moderator")
        place = {"kind": "location", "latitude": 40.7411, "longitude": -73.9897}
        check.call("POST", f"/photos/{FEEDBACK_PHOTO}/feedback", place, user="reporter")
        check.register("second.reporter")
        check.call("POST", f"/photos/{FEEDBACK_PHOTO}/feedback", {"kind": "date", "year": 1931}, user="second.reporter")
        return check.call("GET", "/feedback?limit=1", user="moderator")

    @recipe("GET /feedback/mine 200")
    def _(check):
        turn = check.call("POST", f"/photos/{FEEDBACK_PHOTO}/feedback", {"kind": "rotation", "degrees": 90},
                          user="second.reporter")[1]
        check.call("POST", f"/feedback/{turn['feedbackID']}/decision", {"accept": True}, user="moderator")
        return check.call("GET", "/feedback/mine", user="second.reporter")

    @recipe("GET /feedback/{feedbackID} 200")
    def _(check):
        words = {"kind": "other", "text": "The sign on the corner says Hudson Street."}
        sent = check.call("POST", f"/photos/{FEEDBACK_PHOTO}/feedback", words, user="reporter")[1]
        check.call("POST", f"/feedback/{sent['feedbackID']}/decision", {"accept": False}, user="moderator")
        return check.call("GET", f"/feedback/{sent['feedbackID']}", user="reporter")

    @recipe("POST /feedback/{feedbackID}/decision 200")
    def _(check):
        # The generation of the one correction accepted so far (the turn), for /catalog/changes.
        check.before = generation(check, sequence=1)
        queue = check.call("GET", "/feedback?kind=location", user="moderator")[1]["feedback"]
        check.decided = queue[0]["feedbackID"]
        return check.call("POST", f"/feedback/{check.decided}/decision", {"accept": True}, user="moderator")

    # The catalog's generations: the place accepted above, and what is not (or not yet) one.
    @recipe("GET /catalog/changes 200")
    def _(check):
        generation(check, sequence=2)
        return check.call("GET", f"/catalog/changes?since={check.before}")

    @recipe("GET /catalog/changes 410")
    def _(check):
        # Sequence 0 with a digest of other shipped data: a catalog imported since.
        return check.call("GET", "/catalog/changes?since=0-0000000000000000")

    @recipe("GET /catalog/changes 503")
    def _(check):
        # Asked, right after a decision, for the generation it makes before this instance
        # built it: as a client that got it from another instance of a cluster. The race
        # is this check's to win; a few tries do.
        sequence = int(generation(check, sequence=2).split("-")[0])
        photos = [photo["id"] for line in source_locations()[300:310] for photo in line["photos"]]
        for photo in photos[:8]:
            sent = check.call("POST", f"/photos/{photo}/feedback", {"kind": "date", "year": 1931}, user="reporter")[1]
            check.call("POST", f"/feedback/{sent['feedbackID']}/decision", {"accept": True}, user="moderator")
            sequence += 1
            answer = check.call("GET", f"/catalog/changes?since={sequence}-0000000000000000")
            if answer[0] == 503:
                return answer
        return answer

    @recipe("responses/AlreadyDecided")
    def _(check):
        return check.call("POST", f"/feedback/{check.decided}/decision", {"accept": False}, user="moderator")

    @recipe("responses/NotModerator")
    def _(check):
        return check.call("GET", "/feedback", user="reporter")

    @recipe("responses/FeedbackNotFound")
    def _(check):
        return check.call("GET", "/feedback/999999", user="reporter")

    @recipe("responses/FeedbackLimitOrWriteRate")
    def _(check):
        check.register("tireless.reporter")
        photos = [photo["id"] for line in source_locations()[:200] for photo in line["photos"]]
        for photo in photos[:100]:
            check.call("POST", f"/photos/{photo}/feedback", {"kind": "other", "text": "Look again."}, user="tireless.reporter")
        return check.call("POST", f"/photos/{photos[100]}/feedback", {"kind": "other", "text": "Look again."},
                          user="tireless.reporter")

    # The problems of components/responses.
    @recipe("responses/BadRequest")
    def _(check):
        return check.call("GET", "/nearby?lat=91&lon=0")

    @recipe("responses/Unauthorized")
    def _(check):
        return request(check.port, "GET", "/users/me", token="not-a-token")

    @recipe("responses/LoginFailed")
    def _(check):
        return check.call("POST", "/users/login", {"username": "berenice", "password": "not her password"})

    @recipe("responses/WrongPassword")
    def _(check):
        body = {"currentPassword": "not his password", "newPassword": "a longer and even better passphrase"}
        return check.call("PUT", "/users/me/password", body, user="weegee")

    @recipe("responses/NotFound")
    def _(check):
        return check.call("GET", "/photos/705740f-z")

    @recipe("responses/Conflict")
    def _(check):
        return check.call("POST", "/users", {"username": "Jacob.Riis", "password": PASSWORD})

    @recipe("responses/WalkNotFound")
    def _(check):
        return check.call("GET", "/walks/oJELDuty_Y9JhHLeZzKAsg", user="weegee")

    @recipe("responses/UnsupportedMediaType")
    def _(check):
        return check.call("PATCH", "/users/me", user="weegee", raw=b"{}", headers={"Content-Type": "text/plain"})

    @recipe("responses/PayloadTooLarge")
    def _(check):
        return check.call("POST", "/users/login", raw=b" " * 70_000, headers={"Content-Type": "application/json"})

    @recipe("responses/URITooLong")
    def _(check):
        return check.call("GET", "/nearby?lat=40&lon=-74&q=" + "a" * 9000)

    @recipe("responses/HeadersTooLarge")
    def _(check):
        return check.call("GET", "/healthz", headers={"X-Filler": "a" * 17_000})

    @recipe("responses/TooManyRequests")
    def _(check):
        for _ in range(5):
            check.call("POST", "/users/login", {"username": "jacob.riis", "password": "a wrong guess"}, source="127.0.0.4")
        return check.call("POST", "/users/login", {"username": "jacob.riis", "password": PASSWORD}, source="127.0.0.4")

    @recipe("responses/TooManyRegistrations")
    def _(check):
        for index in range(20):
            check.register(f"newcomer.{index}", source="127.0.0.5")
        return check.call("POST", "/users", {"username": "newcomer.20", "password": PASSWORD}, source="127.0.0.5")

    @recipe("responses/WriteRateExceeded")
    def _(check):
        check.register("eager.writer")
        # A burst of 500, and 50 more each second it takes.
        for _ in range(5000):
            answer = check.call("PUT", f"/recents/{STATEN_ISLAND_PHOTO}", user="eager.writer")
            if answer[0] == 429:
                return answer
        return answer

    # The photographs, from the check's origin: a range past the end, a source that fails,
    # one that says nothing, and an area's pack while its photos are fetched.
    @recipe("responses/RangeNotSatisfiable")
    def _(check):
        _, _, headers = check.call("HEAD", f"/photos/{STATEN_ISLAND_PHOTO}/image?size=thumb")
        length = int(headers["Content-Length"])
        return check.call("GET", f"/photos/{STATEN_ISLAND_PHOTO}/image?size=thumb", headers={"Range": f"bytes={length}-"})

    @recipe("GET /photos/{photoID}/image 502")
    def _(check):
        check.origin.mode = "failing"
        try:
            return check.call("GET", f"/photos/{SECOND_AVENUE_PHOTO}/image")
        finally:
            check.origin.mode = "images"

    @recipe("GET /photos/{photoID}/image 504")
    def _(check):
        check.origin.mode = "silent"
        try:
            return check.call("GET", f"/photos/{SECOND_AVENUE_OTHER}/image")
        finally:
            check.origin.mode = "images"

    @recipe("GET /images/pack 202")
    def _(check):
        return check.call("GET", "/images/pack?south=40.70&west=-74.02&north=40.71&east=-73.99&size=thumb")

    # Keeping an account: sessions, the email and its code, the password reset by mail.
    riis_email = "jacob.riis@example.org"

    def code(lines):
        return next(line for line in lines if len(line) == 6 and line.isdigit())

    @recipe("GET /users/me/sessions 200")
    def _(check):
        check.call("POST", "/users/login", {"username": "jacob.riis", "password": PASSWORD},
                   headers={"User-Agent": "PastNYC/2.1 (iPhone; iOS 19.1)"})
        # The list is in order of last use, to the second: this request's token is then
        # the latest, whatever the clock.
        time.sleep(1.1)
        return check.call("GET", "/users/me/sessions", user="jacob.riis")

    @recipe("responses/SessionNotFound")
    def _(check):
        return check.call("DELETE", "/users/me/sessions/no-such-session", user="jacob.riis")

    @recipe("POST /users/me/email/verify 200")
    def _(check):
        check.call("PATCH", "/users/me", {"email": riis_email}, user="jacob.riis")
        return check.call("POST", "/users/me/email/verify", {"code": code(check.mailbox.lines(riis_email))}, user="jacob.riis")

    @recipe("responses/EmailConflict")
    def _(check):
        check.register("riis.impostor")
        answer = check.call("PATCH", "/users/me", {"email": riis_email.upper()}, user="riis.impostor")
        if answer[0] != 200:
            return answer
        sent = code(check.mailbox.lines(riis_email.upper()))
        return check.call("POST", "/users/me/email/verify", {"code": sent}, user="riis.impostor")

    @recipe("responses/TooManyCodesOrWrites")
    def _(check):
        check.register("forgetful")
        check.call("PATCH", "/users/me", {"email": "forgetful@example.org"}, user="forgetful")
        for _ in range(10):
            answer = check.call("POST", "/users/me/email/verify/resend", user="forgetful")
            if answer[0] == 429:
                return answer
        return answer

    @recipe("responses/Accepted")
    def _(check):
        return check.call("POST", "/users/password-reset", {"email": riis_email})

    @recipe("POST /users/password-reset/confirm 200")
    def _(check):
        token = next(line for line in check.mailbox.lines(riis_email, count=2) if len(line) == 43 and " " not in line)
        answer = check.call("POST", "/users/password-reset/confirm", {"token": token, "newPassword": PASSWORD + " anew"})
        if answer[0] == 200:
            check.tokens["jacob.riis"] = answer[1]["token"]
        return answer

    return steps


def bulk_recipes():
    """Recipes that must exceed a user's write rate to reach a quota: run on a server
    that lifts that rate (--user-write-rate 0) and nothing else."""
    steps, recipe = recipe_list()

    @recipe("responses/WalkLimitReached")
    def _(check):
        check.register("flaneur")
        for _ in range(1000):
            check.call("POST", "/walks", {}, user="flaneur")
        return check.call("POST", "/walks", {}, user="flaneur")

    @recipe("responses/WalkFull")
    def _(check):
        walk = check.call("GET", "/walks?limit=1", user="flaneur")[1]["walks"][0]["walkID"]
        start = time.time() - 6000
        for batch in range(10):
            # 500 points 111 m apart, northward: every one accepted.
            points = [
                {"latitude": 40.0 + (batch * 500 + index) * 0.001, "longitude": -74.0,
                 "recordedAt": stamp(start + batch * 500 + index)}
                for index in range(500)
            ]
            check.call("POST", f"/walks/{walk}/points/batch", {"points": points}, user="flaneur")
        return check.call("POST", f"/walks/{walk}/points", {"latitude": 46.0, "longitude": -74.0}, user="flaneur")

    @recipe("responses/FavoriteLimitReached")
    def _(check):
        check.register("collector")
        photos = [photo["id"] for line in source_locations() for photo in line["photos"]]
        def save(chunk):
            for photo in chunk:
                check.call("PUT", f"/favorites/{photo}", user="collector")
        threads = [threading.Thread(target=save, args=(photos[start:10_000:8],)) for start in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        return check.call("PUT", f"/favorites/{photos[10_000]}", user="collector")

    return steps


def hashing_recipes():
    """Recipes of the password hasher's limits: on a server with the real (OWASP) cost,
    so that hashes last long enough to be refused beside each other."""
    steps, recipe = recipe_list()

    def at_once(count, make):
        """`make(index)` on `count` threads at once: the answers."""
        answers = [None] * count
        gate = threading.Barrier(count)
        def run(index):
            gate.wait()
            answers[index] = make(index)
        threads = [threading.Thread(target=run, args=(index,)) for index in range(count)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        return answers

    def first(answers, status):
        return next((answer for answer in answers if answer[0] == status), answers[-1])

    @recipe("responses/TooManyHashes")
    def _(check):
        check.register("dorothea.lange", source="127.0.0.6")
        login = {"username": "dorothea.lange", "password": "a wrong guess"}
        return first(at_once(4, lambda _: check.call("POST", "/users/login", login, source="127.0.0.6")), 429)

    @recipe("responses/TooManyHashesOrWrites")
    def _(check):
        change = {"currentPassword": "a wrong guess", "newPassword": "a longer and even better passphrase"}
        return first(at_once(4, lambda _: check.call(
            "PUT", "/users/me/password", change, user="dorothea.lange", source="127.0.0.6")), 429)

    @recipe("responses/HashingBusy")
    def _(check):
        # Two at once from each of twelve addresses: more than the hasher holds.
        login = {"username": "dorothea.lange", "password": "a wrong guess"}
        return first(at_once(24, lambda index: check.call(
            "POST", "/users/login", login, source=f"127.0.1.{index // 2 + 1}")), 503)

    return steps


def outage_recipes(postgres_dir):
    """Recipes of a store that cannot be reached: PostgreSQL stopped under the server."""
    steps, recipe = recipe_list()

    def down(check, method, path, user=None):
        subprocess.run([str(ROOT / "scripts/postgres.sh"), "down", postgres_dir], check=True, stdout=subprocess.DEVNULL)
        try:
            return check.call(method, path, user=user)
        finally:
            subprocess.run([str(ROOT / "scripts/postgres.sh"), "up", postgres_dir], check=True, stdout=subprocess.DEVNULL)

    @recipe("responses/StoreUnavailable")
    def _(check):
        check.register("gordon.parks")
        return down(check, "GET", "/favorites", user="gordon.parks")

    @recipe("GET /photos/popular 503")
    def _(check):
        return down(check, "GET", "/photos/popular?days=30")

    return steps


def generation(check, sequence):
    """The current catalog generation's token, once it is of correction `sequence` at
    least (a decision makes one within seconds)."""
    deadline = time.monotonic() + 15
    while True:
        token = check.call("GET", "/catalog/changes")[1]["generation"]
        if int(token.split("-")[0]) >= sequence or time.monotonic() > deadline:
            return token
        time.sleep(0.1)


def source_locations():
    """The catalog's source records, one location a line."""
    with gzip.open(ROOT / "Data/oldnyc-locations.jsonl.gz", "rt", encoding="utf-8") as lines:
        return [json.loads(line) for line in lines]


def stamp(seconds):
    """An RFC 3339 time with milliseconds and the UTC offset -05:00."""
    local = time.gmtime(seconds - 5 * 3600)
    return time.strftime("%Y-%m-%dT%H:%M:%S", local) + f".{int(seconds * 1000) % 1000:03d}-05:00"


def examples(document):
    """Every response example of the document: {where: example}."""
    found = {}
    for path, item in document["paths"].items():
        for method, operation in item.items():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            for status, response in operation["responses"].items():
                for content in response.get("content", {}).values():
                    if "example" in content:
                        found[f"{method.upper()} {path} {status}"] = content["example"]
                    for name, example in content.get("examples", {}).items():
                        found[f"{method.upper()} {path} {status} {name}"] = example["value"]
    for name, response in document["components"].get("responses", {}).items():
        for content in response.get("content", {}).values():
            if "example" in content:
                found[f"responses/{name}"] = content["example"]
    return found


def trimmed(real, example, prefix):
    """The answer, its arrays cut to the example's lengths where the example shows a prefix."""
    if isinstance(real, dict) and isinstance(example, dict):
        return {name: trimmed(value, example.get(name), prefix) for name, value in real.items()}
    if isinstance(real, list) and isinstance(example, list):
        kept = real[:len(example)] if prefix else real
        return [trimmed(item, example[index] if index < len(example) else None, prefix) for index, item in enumerate(kept)]
    return real


def update(path, changed):
    """Writes the answers of `changed` ({where: answer}) over their examples in the file at
    `path`, touching no other line: each example's block is found by its line (ruamel.yaml
    keeps them) and replaced by the answer dumped at the same indentation."""
    from ruamel.yaml import YAML

    lines = path.read_text(encoding="utf-8").split("\n")
    document = YAML().load("\n".join(lines))
    blocks = []
    for where, answer in changed.items():
        parts = where.split()
        if where.startswith("responses/"):
            holder = next(iter(document["components"]["responses"][where.split("/", 1)[1]]["content"].values()))
            node, key = holder, "example"
        else:
            method, route, status = parts[0].lower(), parts[1], parts[2]
            content = next(iter(document["paths"][route][method]["responses"][int(status) if int(status) in
                            document["paths"][route][method]["responses"] else status]["content"].values()))
            node, key = (content["examples"][parts[3]], "value") if len(parts) > 3 else (content, "example")
        line = node.lc.key(key)[0]
        indent = len(lines[line]) - len(lines[line].lstrip())
        end = line + 1
        while end < len(lines) and (not lines[end].strip() or len(lines[end]) - len(lines[end].lstrip()) > indent):
            end += 1
        while end > line + 1 and not lines[end - 1].strip():
            end -= 1  # The blank lines after the example stay.
        dumped = yaml.safe_dump(answer, sort_keys=False, allow_unicode=True, width=100, default_flow_style=False)
        block = [(" " * (indent + 2) + text).rstrip() for text in dumped.rstrip("\n").split("\n")]
        blocks.append((line, end, [lines[line].split(":")[0] + ":"] + block))
    for line, end, block in sorted(blocks, reverse=True):
        lines[line:end] = block
    path.write_text("\n".join(lines), encoding="utf-8")


def run(phase, binary, data_dir, options, origin, mailbox, steps, shown, failures, answers):
    """Starts a server with `options`, the photographs of `origin` and its mail sent to
    `mailbox`, runs `steps` against it, stops it."""
    server = Server(binary, data_dir, [*options, "--image-origin", origin.url, "--smtp-url", mailbox.url,
                                       "--mail-from", "no-reply@past-nyc.example"])
    store = options[options.index("--database-url"):][:2] if "--database-url" in options else ["--data-dir", data_dir]
    check = Check(server.port, [binary, *store], origin, mailbox)
    try:
        for where, recipe, prefix in steps:
            status, body, _ = recipe(check)
            expected_status = int(where.split()[2]) if not where.startswith("responses/") else None
            example = shown.get(where)
            if example is None:
                failures.append((None, f"{where}: a recipe without an example in openapi.yaml"))
                continue
            answers[where] = trimmed(body, example, prefix) if body is not None else None
            wanted = expected_status or example.get("status") or SUCCESS_STATUS.get(where)
            problems = [] if status == wanted else [f"status {status}, the example's {wanted}"]
            matches(example, body, "", prefix, problems)
            if problems:
                failures.append((where, f"{where} ({phase}):\n    " + "\n    ".join(problems)))
    finally:
        server.stop()


class FreshDatabase:
    """A new, empty database on the PostgreSQL server of `server_url` (made and dropped
    with psql, which comes with the server), so that every run starts from nothing."""

    def __init__(self, server_url):
        self.server_url = server_url
        self.name = "past_nyc_answers_" + secrets.token_hex(4)
        self.psql(f"CREATE DATABASE {self.name}")
        base, _, query = server_url.partition("?")
        self.url = base.rsplit("/", 1)[0] + "/" + self.name + (f"?{query}" if query else "")

    def drop(self):
        self.psql(f"DROP DATABASE IF EXISTS {self.name} WITH (FORCE)")

    def psql(self, statement):
        subprocess.run(["psql", self.server_url, "-q", "-c", statement], check=True, stdout=subprocess.DEVNULL)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("binary", nargs="?", default=str(ROOT / ".build/release/past-nyc"))
    parser.add_argument("--database-url", help="keep the user data in this PostgreSQL database")
    parser.add_argument("--postgres-dir", help="the scripts/postgres.sh directory of that server, for the outage recipes")
    parser.add_argument("--update", action="store_true",
                        help="write each answer that differs over its example (then read the diff)")
    arguments = parser.parse_args()
    document = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
    shown = examples(document)
    database = FreshDatabase(arguments.database_url) if arguments.database_url else None
    store = ["--database-url", database.url] if database else []
    phases = [
        ("defaults", ["--password-cost", "test"], recipes()),
        ("write rate lifted", ["--password-cost", "test", "--user-write-rate", "0"], bulk_recipes()),
        ("OWASP hashing", ["--password-cost", "owasp"], hashing_recipes()),
    ]
    if arguments.postgres_dir:
        phases.append(("PostgreSQL stopped", ["--password-cost", "test"], outage_recipes(arguments.postgres_dir)))
    covered = {where for _, _, steps in phases for where, _, _ in steps}
    failures = [(None, f"{where}: no recipe shows that this example is a real answer") for where in shown
                if where not in covered and not (where in OUTAGE_EXAMPLES and not arguments.postgres_dir)]
    answers = {}
    started = time.monotonic()
    # The photographs come from a local origin: the check never reaches the internet.
    origin = Origin()
    mailbox = None
    try:
        with tempfile.TemporaryDirectory(prefix="past-nyc-answers-") as data_dir:
            mailbox = Mailbox(data_dir + "/mail")
            for phase, options, steps in phases:
                run(phase, arguments.binary, data_dir, options + store, origin, mailbox, steps, shown, failures, answers)
    finally:
        origin.stop()
        if mailbox:
            mailbox.stop()
        if database:
            database.drop()
    checked = len(answers)
    if failures and arguments.update:
        changed = {where: answers[where] for where, _ in failures if where is not None}
        update(ROOT / "openapi.yaml", changed)
        print(f"check-openapi-answers: wrote the answers of {len(changed)} examples into openapi.yaml; read the diff")
        failures = [failure for failure in failures if failure[0] is None]
    if failures:
        print(f"check-openapi-answers: {len(failures)} of {len(shown)} examples are not the server's answers:", file=sys.stderr)
        for _, failure in failures:
            print("  " + failure, file=sys.stderr)
        return 1
    skipped = len(shown) - checked
    print(f"check-openapi-answers: {checked} examples are the server's answers"
          + (f" ({skipped} need PostgreSQL: --database-url and --postgres-dir)" if skipped else "")
          + f", in {time.monotonic() - started:.0f} s")
    return 0


# The status of each response of components/responses whose example is not a problem.
SUCCESS_STATUS = {"responses/Accepted": 202}

# The examples only a stopped PostgreSQL shows.
OUTAGE_EXAMPLES = {"responses/StoreUnavailable", "GET /photos/popular 503"}


if __name__ == "__main__":
    sys.exit(main())
