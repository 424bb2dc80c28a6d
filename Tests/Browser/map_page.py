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


def check_clusters_drawn(page, data, clusters):
    """The drawn clusters are the API's `clusters`, each in exactly one marker (those that
    would overlap drawn as one), with every photo counted once, and no two circles overlap."""
    assert int(data["clusters"]) == len(clusters)
    drawn = page.eval_on_selector_all(
        ".leaflet-marker-icon.cluster",
        """icons => icons.map((icon) => {
            const box = icon.getBoundingClientRect();
            return { x: box.x + box.width / 2, y: box.y + box.height / 2, size: box.width,
                     photos: Number(icon.dataset.photoCount), clusters: Number(icon.dataset.clusterCount) };
        })""",
    )
    assert len(drawn) == int(data["markers"]) <= len(clusters)
    assert sum(marker["clusters"] for marker in drawn) == len(clusters)
    assert sum(marker["photos"] for marker in drawn) == sum(cluster["photoCount"] for cluster in clusters)
    assert int(data["photos"]) == sum(cluster["photoCount"] for cluster in clusters)
    for index, first in enumerate(drawn):
        for second in drawn[index + 1:]:
            distance = ((first["x"] - second["x"]) ** 2 + (first["y"] - second["y"]) ** 2) ** 0.5
            assert distance >= (first["size"] + second["size"]) / 2, f"overlapping clusters: {first} and {second}"
    return drawn
