"""Fixtures of the browser tests: a headless Debian chromium driven by Playwright
against a running past-nyc (scripts/browser-test.sh starts it and sets PAST_NYC_URL).

Every page a test opens is watched: at the end of the test it must have logged no
console error and thrown no script error, the browser must have refused nothing under
the pages' Content-Security-Policy (no `securitypolicyviolation` event, no console
message of a refusal), and it must have sent no request to another origin: the
photographs come from the server's own copy (scripts/browser-test.sh starts it with a
local image origin), so no request leaves the page's origin at all. The policy is
checked before a request is routed, so an image the policy refuses is a violation
even though the tests abort every foreign request.
A predicate a test waits for is a function (`"() => …"`), never a bare expression:
Playwright evaluates an expression with `eval`, which the policy refuses.
"""

import gzip
import json
import os
import re
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

BASE_URL = os.environ.get("PAST_NYC_URL", "http://127.0.0.1:8080").rstrip("/")
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
SCREENSHOTS = Path(os.environ.get("SCREENSHOTS", "screenshots"))


def api(path, method="GET", body=None, token=None):
    """One request to the server, outside the browser: (status, JSON or None)."""
    headers = {"Accept": "application/json"}
    data = None
    if body is not None:
        headers["Content-Type"] = "application/json"
        data = json.dumps(body).encode()
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(BASE_URL + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            text = response.read()
            return response.status, json.loads(text) if text else None
    except urllib.error.HTTPError as error:
        text = error.read()
        return error.code, json.loads(text) if text else None


def api_json(path, **options):
    status, body = api(path, **options)
    assert status in (200, 201), f"{path}: {status} {body}"
    return body


def origin_of(url):
    parts = urllib.parse.urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


# Reports every Content-Security-Policy violation of every document of a context to the
# test (`__pastNycCspViolation`) and keeps them in the page (`__cspViolations`) for a test
# to wait on. Playwright injects it: the policy does not apply to it.
CSP_LISTENER = """
window.__cspViolations = [];
document.addEventListener('securitypolicyviolation', (event) => {
  const violation = `${event.effectiveDirective} refused ${event.blockedURI} (${event.sourceFile}:${event.lineNumber})`;
  window.__cspViolations.push(violation);
  window.__pastNycCspViolation(violation);
});
"""


class Watch:
    """What a page did: its requests, console errors, script errors and CSP violations."""

    def __init__(self, page, csp_violations):
        self.refusals = []
        self.requests = []
        self.console_errors = []
        self.page_errors = []
        self.csp_violations = csp_violations
        self.csp_console = []
        page.on("request", lambda request: self.requests.append((request.resource_type, request.url)))
        page.on("console", self._console)
        page.on("pageerror", lambda error: self.page_errors.append(str(error)))

    def _console(self, message):
        if "Content Security Policy" in message.text or "Content-Security-Policy" in message.text:
            self.csp_console.append(message.text)
        if message.type == "error":
            self.console_errors.append((message.text, message.location.get("url", "")))

    def expect_refusal(self, status, path):
        """This test makes the server refuse `path` with `status` on purpose (to see the
        page show the problem): Chromium's own console line for that answer is no error."""
        self.refusals.append((f"the server responded with a status of {status} ", BASE_URL + path))

    def is_expected_refusal(self, text, url):
        return text.startswith("Failed to load resource") and any(
            status in text and url == expected for status, expected in self.refusals)

    def foreign_requests(self):
        return [(kind, url) for kind, url in self.requests if origin_of(url) != BASE_URL and not url.startswith("data:")]

    def check(self):
        foreign = self.foreign_requests()
        assert foreign == [], f"requests to other origins: {foreign}"
        assert self.page_errors == [], f"script errors: {self.page_errors}"
        assert self.csp_violations == [], f"Content-Security-Policy violations: {self.csp_violations}"
        assert self.csp_console == [], f"Content-Security-Policy refusals: {self.csp_console}"
        errors = [(text, url) for text, url in self.console_errors if not self.is_expected_refusal(text, url)]
        assert errors == [], f"console errors: {errors}"


@pytest.fixture(scope="session")
def browser():
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM)
        yield browser
        browser.close()


def open_context(browser, viewport):
    # Reduced motion: the map jumps instead of gliding, so a test waits for data, not animations.
    context = browser.new_context(viewport=viewport, reduced_motion="reduce", base_url=BASE_URL)
    context.set_default_timeout(15_000)
    # Nothing leaves for another origin: any such request (recorded by the Watch) is aborted.
    context.route(re.compile(r"^(?!" + re.escape(BASE_URL) + r"/)"), lambda route: route.abort())
    csp_violations = []
    context.expose_function("__pastNycCspViolation", lambda violation: csp_violations.append(violation))
    context.add_init_script(CSP_LISTENER)
    page = context.new_page()
    return context, page, Watch(page, csp_violations)


@pytest.fixture
def page(browser):
    context, page, watch = open_context(browser, {"width": 1280, "height": 800})
    page.watch = watch
    yield page
    context.close()
    watch.check()


@pytest.fixture
def phone(browser):
    context, page, watch = open_context(browser, {"width": 390, "height": 844})
    page.watch = watch
    yield page
    context.close()
    watch.check()


@pytest.fixture
def shot(request):
    """shot(page, step): saves a screenshot as <test>-<step>.png in $SCREENSHOTS."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    def take(page, step, **options):
        path = SCREENSHOTS / f"{request.node.name}-{step}.png"
        page.screenshot(path=str(path), **options)
        return path

    return take
