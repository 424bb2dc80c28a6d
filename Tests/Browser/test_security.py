"""The pages' Content-Security-Policy and nosniff, and that the watch of conftest.py
sees what the policy refuses (so that the other tests, which fail on any violation,
would notice one)."""

import urllib.request

from conftest import BASE_URL

def headers_of(path):
    with urllib.request.urlopen(BASE_URL + path, timeout=30) as response:
        response.read()
        return response.headers


def directives(policy):
    parsed = {}
    for directive in policy.split(";"):
        name, *values = directive.split()
        parsed[name] = values
    return parsed


def test_pages_and_files_carry_the_policy():
    for path in ["/", "/docs", "/app/main.js", "/vendor/swagger-ui-5.33.1/swagger-ui-bundle.js"]:
        headers = headers_of(path)
        assert headers["X-Content-Type-Options"] == "nosniff", path
        policy = directives(headers["Content-Security-Policy"])
        assert policy["default-src"] == ["'self'"], path
        assert policy["frame-ancestors"] == ["'none'"], path
        assert policy["object-src"] == ["'none'"], path
        assert policy["base-uri"] == ["'none'"], path
        assert policy["form-action"] == ["'self'"], path
        assert policy["img-src"] == ["'self'", "data:", "blob:"], path
        assert "script-src" not in policy and "style-src" not in policy, path
        assert not any("unsafe" in value for values in policy.values() for value in values), path


def test_the_api_says_nosniff_too():
    assert headers_of("/healthz")["X-Content-Type-Options"] == "nosniff"


def test_an_image_from_another_host_is_a_violation_the_watch_sees(page):
    page.goto("/")
    page.wait_for_function("() => document.querySelector('.leaflet-container') !== null")
    page.evaluate("""(sources) => {
        for (const src of sources) {
            const image = document.createElement('img');
            image.src = src;
            document.body.append(image);
        }
    }""", ["/photos/729011f-a/image?size=thumb", "https://example.com/refused.png"])
    page.wait_for_function("() => window.__cspViolations.length > 0")
    violations = page.evaluate("window.__cspViolations")
    assert len(violations) == 1 and "img-src refused https://example.com/refused.png" in violations[0], violations
    # The report reaches the test as the driver next talks to the browser.
    for _ in range(100):
        if page.watch.csp_violations and page.watch.csp_console:
            break
        page.evaluate("0")
    assert page.watch.csp_violations == violations
    assert any("example.com/refused.png" in text for text in page.watch.csp_console)
    # Seen; the photograph of this origin was asked for, not refused. The refusal is
    # cleared so that the fixture's checks pass on the rest.
    assert ("image", BASE_URL + "/photos/729011f-a/image?size=thumb") in page.watch.requests
    page.watch.requests.remove(("image", "https://example.com/refused.png"))
    page.watch.csp_violations.clear()
    page.watch.csp_console.clear()
    page.watch.console_errors = [(text, url) for text, url in page.watch.console_errors if "refused.png" not in text + url]
