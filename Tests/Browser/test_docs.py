"""The API reference at /docs: Swagger UI over this server's openapi.yaml, offline."""

import urllib.request

import yaml

from conftest import BASE_URL, api_json

METHODS = {"get", "put", "post", "delete", "patch", "head", "options", "trace"}


def operations():
    """(tag, operationId) of every operation of openapi.yaml, once under each of its tags, as Swagger UI lists them."""
    with urllib.request.urlopen(BASE_URL + "/openapi.yaml", timeout=30) as response:
        document = yaml.safe_load(response.read())
    return [
        (tag, operation["operationId"])
        for path in document["paths"].values()
        for method, operation in path.items()
        if method in METHODS
        for tag in operation["tags"]
    ]


def test_docs_lists_every_operation(page, shot):
    expected = operations()
    page.goto("/docs")
    page.locator(".opblock").first.wait_for()
    page.wait_for_function(f"() => document.querySelectorAll('.opblock').length >= {len(expected)}")
    shown = page.eval_on_selector_all(".opblock", "blocks => blocks.map((block) => block.id)")
    assert sorted(shown) == sorted(f"operations-{tag}-{operation_id}" for tag, operation_id in expected)
    # "Try it out" goes to this server, whatever servers the document names.
    assert page.locator(".servers select option").all_inner_texts() == [f"{BASE_URL} - This server"]
    shot(page, "docs", full_page=False)


def test_try_it_out_on_get_photo_shows_the_200_body(page, shot):
    page.goto("/docs#/catalog/getPhoto")
    operation = page.locator("#operations-catalog-getPhoto")
    operation.locator(".opblock-body").wait_for()  # the deep link opened it
    operation.get_by_role("button", name="Try it out").click()
    operation.locator("input[placeholder='photoID']").fill("729011f-a")
    operation.get_by_role("button", name="Execute").click()
    response = operation.locator(".live-responses-table .response")
    response.locator(".response-col_status").filter(has_text="200").wait_for()
    body = operation.locator(".live-responses-table .response-col_description pre.microlight").first.inner_text()
    assert '"photoID": "729011f-a"' in body or '"photoID":"729011f-a"' in body
    expected = api_json("/photos/729011f-a")
    assert expected["nyplURL"] in body
    assert ("fetch", f"{BASE_URL}/photos/729011f-a") in page.watch.requests
    shot(page, "try-it-out")
