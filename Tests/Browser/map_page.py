"""Reading the map page: what it shows, as its elements tell (see Web/app/places.js)."""

from conftest import api_json


def wait_ready(page, query_contains=None):
    """Waits until the places layer has drawn (the request containing `query_contains`, if given)."""
    page.wait_for_function(
        """(part) => {
            const map = document.getElementById('map');
            return map.dataset.state === 'ready' && (!part || (map.dataset.query || '').includes(part));
        }""",
        arg=query_contains,
    )
    return map_data(page)


def map_data(page):
    return page.evaluate("({ ...document.getElementById('map').dataset })")


def view(page):
    """The view the address names: (lat, lon, zoom, locationID or None)."""
    parts = page.evaluate("window.location.hash").lstrip("#").split(",")
    return float(parts[0]), float(parts[1]), int(parts[2]), ",".join(parts[3:5]) or None


def all_photo_ids(location_id, query=""):
    """Every photo ID of a location, in order, paging through /locations/{id}."""
    ids, cursor = [], None
    while True:
        page = api_json(f"/locations/{location_id}?limit=100{query}" + (f"&cursor={cursor}" if cursor else ""))
        ids += [photo["photoID"] for photo in page["photos"]]
        cursor = page["nextCursor"]
        if cursor is None:
            return page["photoCount"], ids


def open_panel_list(page):
    """Waits for the open location's list, pages through it with "More photos", and
    returns (location ID, photo count, photo IDs shown)."""
    page.wait_for_function("() => document.querySelector('#panel .photos')?.dataset.state in {ready: 1, complete: 1}")
    while page.eval_on_selector("#panel .photos", "list => list.dataset.state") != "complete":
        shown = page.locator("#panel li.photo").count()
        page.get_by_role("button", name="More photos").click()
        page.wait_for_function(
            "(shown) => { const list = document.querySelector('#panel .photos');"
            " return list.dataset.state !== 'loading' && list.querySelectorAll('li.photo').length > shown; }",
            arg=shown,
        )
    list_data = page.eval_on_selector("#panel .photos", "list => ({ ...list.dataset })")
    ids = page.eval_on_selector_all("#panel li.photo", "items => items.map((item) => item.dataset.photoId)")
    return list_data["locationId"], int(list_data["photoCount"]), ids
