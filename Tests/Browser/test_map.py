"""The map at /: what it draws is what the API answers, and a person can use it with a
mouse, a keyboard, and on a phone."""

import secrets
import urllib.parse

import pytest

from conftest import SCREENSHOTS, api, api_json
from map_page import all_photo_ids, check_clusters_drawn, map_data, open_panel_list, view, wait_ready

# Union Square, zoomed in to the pins.
UNION_SQUARE_PINS = "/#40.73560,-73.99050,17"


def clusters_of(query):
    return api_json(query)["clusters"]


def test_the_first_view_draws_the_clusters_of_its_box(page, shot):
    page.goto("/")
    data = wait_ready(page)
    assert data["layer"] == "clusters"
    assert "/clusters?" in data["query"] and "&zoom=" in data["query"]
    clusters = clusters_of(data["query"])
    assert len(check_clusters_drawn(page, data, clusters)) > 10
    # The base layer: the five boroughs' outlines, from this server.
    assert page.locator("path.borough").count() >= 5
    shot(page, "map")
    page.screenshot(path=str(SCREENSHOTS / "map.png"))


def test_clicking_a_cluster_zooms_in(page, shot):
    page.goto("/")
    wait_ready(page)
    _, _, zoom, _ = view(page)
    # The cluster of the most places: a click zooms into its box.
    counts = page.eval_on_selector_all(
        ".leaflet-marker-icon.cluster", "icons => icons.map((icon) => Number(icon.dataset.locationCount))")
    assert max(counts) > 1
    page.locator(".leaflet-marker-icon.cluster").nth(counts.index(max(counts))).click()
    page.wait_for_function(f"() => Number(window.location.hash.split(',')[2]) > {zoom}")
    new_zoom = view(page)[2]
    data = wait_ready(page, f"zoom={new_zoom}&" if new_zoom < 16 else "/region")
    if data["layer"] == "clusters":
        check_clusters_drawn(page, data, clusters_of(data["query"]))
    shot(page, "zoomed")


def test_a_pin_lists_exactly_its_locations_photos(page, shot):
    page.goto(UNION_SQUARE_PINS)
    data = wait_ready(page, "/region")
    assert data["layer"] == "pins"
    locations = api_json(data["query"])["locations"]
    assert int(data["markers"]) == len(locations) > 0
    # A place with more than one page of photos, so "More photos" is used.
    counts = page.eval_on_selector_all(".leaflet-marker-icon.pin", "pins => pins.map((pin) => Number(pin.dataset.photoCount))")
    choice = min(range(len(counts)), key=lambda index: (counts[index] <= 24, counts[index]))
    pin = page.locator(".leaflet-marker-icon.pin").nth(choice)
    location_id = pin.get_attribute("data-location-id")
    pin.click()
    shown_id, shown_count, shown_ids = open_panel_list(page)
    count, ids = all_photo_ids(urllib.parse.quote(location_id, safe=","))
    assert shown_id == location_id
    assert (shown_count, shown_ids) == (count, ids)
    assert view(page)[3] == location_id, "the open place is in the address"
    # Every thumbnail has its alt text, and the first ones are the photographs from this server's copy.
    page.wait_for_function(
        "() => { const image = document.querySelector('#panel img.thumb');"
        " return image !== null && image.complete && image.naturalWidth > 0; }")
    assert page.get_attribute("#panel img.thumb", "src") == f"/photos/{ids[0]}/image?size=thumb"
    labels = page.eval_on_selector_all(
        "#panel .thumb", "thumbs => thumbs.map((thumb) => thumb.getAttribute('alt') || thumb.getAttribute('aria-label'))")
    assert len(labels) == len(ids) and all(label.startswith("Photo: ") for label in labels)
    # Details on demand: the archive's text and the NYPL page.
    first = page.locator("#panel li.photo").first
    first.get_by_role("button", name="Details").click()
    photo = api_json(f"/photos/{ids[0]}")
    link = first.get_by_role("link", name="See it at the New York Public Library")
    assert link.get_attribute("href") == photo["nyplURL"]
    assert first.get_by_role("button", name="Details").get_attribute("aria-expanded") == "true"
    shot(page, "panel")


def test_a_link_with_a_place_opens_it(page, shot):
    page.goto("/#40.70610,-73.99682,17,40.706096,-73.996823")
    location_id, count, _ = open_panel_list(page)
    assert location_id == "40.706096,-73.996823"
    assert count == api_json("/locations/40.706096,-73.996823?limit=1")["photoCount"]
    assert page.locator("#panel-title").inner_text() == "Bridges - Brooklyn Bridge"
    shot(page, "linked")


def test_typeahead_shows_search_results_and_works_with_the_keyboard(page, shot):
    page.goto("/")
    wait_ready(page)
    box = page.get_by_role("combobox", name="Search the photos")
    box.press_sequentially("brooklyn bri", delay=40)
    page.wait_for_function("() => document.getElementById('search-results').dataset.query?.includes('q=brooklyn+bri')")
    listbox = page.get_by_role("listbox", name="Matching photos")
    assert listbox.is_visible()
    query = listbox.get_attribute("data-query")
    results = api_json(query)["results"]
    assert len(results) > 0
    shown = page.eval_on_selector_all("#search-results [role=option]", "options => options.map((option) => option.dataset.photoId)")
    assert shown == [result["photoID"] for result in results]
    assert box.get_attribute("aria-expanded") == "true"
    shot(page, "typeahead")
    # Arrows move the active option; Enter opens its place.
    box.press("ArrowDown")
    box.press("ArrowDown")
    assert box.get_attribute("aria-activedescendant") == "search-result-1"
    assert page.locator("#search-result-1").get_attribute("aria-selected") == "true"
    box.press("ArrowUp")
    assert box.get_attribute("aria-activedescendant") == "search-result-0"
    box.press("Enter")
    assert box.get_attribute("aria-expanded") == "false"
    location_id, _, ids = open_panel_list(page)
    assert location_id == results[0]["locationID"]
    # The chosen photo comes first, marked, in view, and is not listed twice.
    chosen = page.locator("#panel li.photo[data-chosen]")
    assert chosen.count() == 1 and chosen.get_attribute("data-photo-id") == results[0]["photoID"]
    assert chosen.get_attribute("aria-current") == "true"
    assert ids[0] == results[0]["photoID"] and ids.count(results[0]["photoID"]) == 1
    chosen.scroll_into_view_if_needed()
    panel, item = page.locator("#panel").bounding_box(), chosen.bounding_box()
    assert panel["y"] <= item["y"] and item["y"] + item["height"] <= panel["y"] + panel["height"] + 1
    shot(page, "chosen")
    # Escape closes the list, and a second Escape empties the box.
    box.focus()
    box.press("End")
    box.press_sequentially("d", delay=40)
    page.wait_for_function("() => document.getElementById('search-results').dataset.query?.includes('q=brooklyn+brid')")
    assert listbox.is_visible()
    box.press("Escape")
    assert not listbox.is_visible() and box.input_value() == "brooklyn brid"
    box.press("Escape")
    assert box.input_value() == ""


def test_the_year_range_changes_the_counts_as_the_api_does(page, shot):
    page.goto("/")
    before = wait_ready(page)
    page.get_by_label("From").fill("1900")
    page.get_by_label("to", exact=True).fill("1910")
    page.get_by_label("to", exact=True).press("Enter")
    page.get_by_label("to", exact=True).blur()
    data = wait_ready(page, "from=1900&to=1910")
    check_clusters_drawn(page, data, clusters_of(data["query"]))
    assert 0 < int(data["photos"]) < int(before["photos"])
    shot(page, "years")
    # A range the wrong way round is refused in place, and the map keeps what it has.
    page.get_by_label("From").fill("1950")
    page.get_by_label("From").blur()
    assert "after" in page.locator("#filter-message").inner_text()
    assert page.get_by_label("From").get_attribute("aria-invalid") == "true"
    assert map_data(page)["query"] == data["query"]


def test_a_tour_draws_as_many_stops_as_the_api_returns(page, shot):
    page.goto("/#40.73060,-73.98660,15")
    wait_ready(page)
    page.get_by_role("button", name="Tour from here").click()
    page.wait_for_function("() => document.getElementById('map').dataset.tourStops !== undefined")
    data = map_data(page)
    tour = api_json(data["tourQuery"])
    assert int(data["tourStops"]) == len(tour["stops"]) >= 2
    assert page.locator(".leaflet-marker-icon.tour-stop").count() == len(tour["stops"])
    numbers = page.eval_on_selector_all(".leaflet-marker-icon.tour-stop", "stops => stops.map((stop) => stop.textContent)")
    assert sorted(numbers, key=int) == [str(n) for n in range(1, len(tour["stops"]) + 1)]
    assert page.locator("path.tour-line").count() == 1
    assert page.locator("#panel ol.stops li").count() == len(tour["stops"])
    shot(page, "tour")
    page.get_by_role("button", name="Clear the tour").click()
    assert page.locator(".leaflet-marker-icon.tour-stop").count() == 0


def register_in_the_page(page):
    username = "walker_" + secrets.token_hex(4)
    page.get_by_role("button", name="Sign in").click()
    dialog = page.get_by_role("dialog", name="Sign in or register")
    dialog.get_by_label("User name").fill(username)
    dialog.get_by_label("Password").fill("the bowery at night 1890")
    dialog.get_by_role("button", name="Register").click()
    page.get_by_role("button", name=f"Sign out {username}").wait_for()
    return username


def test_a_heart_stays_after_a_reload(page, shot):
    page.goto("/#40.70610,-73.99682,17,40.706096,-73.996823")
    _, _, ids = open_panel_list(page)
    register_in_the_page(page)
    heart = page.locator(f"#panel li.photo[data-photo-id='{ids[0]}'] .heart")
    assert heart.get_attribute("aria-pressed") == "false"
    heart.click()
    page.wait_for_function(
        f"() => document.querySelector(\"#panel li.photo[data-photo-id='{ids[0]}'] .heart\").getAttribute('aria-pressed') === 'true'")
    token = page.evaluate("sessionStorage.getItem('past-nyc.token')")
    assert api(f"/favorites/{ids[0]}", token=token)[0] == 200
    page.reload()
    open_panel_list(page)
    page.wait_for_function(
        f"() => document.querySelector(\"#panel li.photo[data-photo-id='{ids[0]}'] .heart\")?.getAttribute('aria-pressed') === 'true'")
    assert page.locator("#panel .heart[aria-pressed=true]").count() == 1
    shot(page, "heart")
    # "My favorites": the saved photo's place on the map.
    page.get_by_role("button", name="My favorites", exact=True).click()
    page.wait_for_function("() => document.getElementById('map').dataset.favoritePlaces === '1'")
    assert page.locator(".leaflet-marker-icon.favorite").count() == 1
    shot(page, "favorites")


def test_a_walk_is_replayed_as_a_line(page, shot):
    username = "replay_" + secrets.token_hex(4)
    token = api_json("/users", method="POST", body={"username": username, "password": "the bowery at night 1890"})["token"]
    walk = api_json("/walks", method="POST", token=token)
    for lat, lon in [(40.7359, -73.9911), (40.7371, -73.9903), (40.7390, -73.9890), (40.7410, -73.9875)]:
        api_json(f"/walks/{walk['walkID']}/points", method="POST", body={"latitude": lat, "longitude": lon}, token=token)
    route = api_json(f"/walks/{walk['walkID']}/route", token=token)
    page.goto("/")
    page.evaluate("([token, username]) => { sessionStorage.setItem('past-nyc.token', token); sessionStorage.setItem('past-nyc.username', username); }",
                  [token, username])
    page.reload()
    wait_ready(page)
    page.get_by_role("button", name="My walks").click()
    page.locator(f"#panel button[data-walk-id='{walk['walkID']}']").click()
    page.wait_for_function("() => document.getElementById('map').dataset.walkPoints !== undefined")
    assert int(map_data(page)["walkPoints"]) == len(route["points"]) >= 3
    assert page.locator("path.walk-line").count() == 1
    shot(page, "walk")


def test_the_keyboard_reaches_and_opens_a_cluster(page, shot):
    page.goto("/")
    wait_ready(page)
    _, _, zoom, _ = view(page)
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.classList.contains('cluster')"):
            break
    else:
        pytest.fail("Tab never reached a cluster")
    shot(page, "focused")
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => Number(window.location.hash.split(',')[2]) > {zoom}")
    wait_ready(page)
    shot(page, "entered")


def test_on_a_phone_the_map_keeps_most_of_the_screen(phone, shot):
    username = "phone_" + secrets.token_hex(4)
    status, body = api("/users", method="POST", body={"username": username, "password": "a long walk uptown"})
    assert status == 201
    phone.goto("/")
    # Signed in (as the account dialog leaves it), so every tool of the bar is there.
    phone.evaluate(
        "([token, name]) => { sessionStorage.setItem('past-nyc.token', token); sessionStorage.setItem('past-nyc.username', name); }",
        [body["token"], username])
    phone.goto("about:blank")
    phone.goto("/#40.70610,-73.99682,16,40.706096,-73.996823")
    phone.wait_for_function("() => !document.getElementById('favorites-button').hidden")
    open_panel_list(phone)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390, "nothing wider than the screen"
    bar = phone.locator("header.bar").bounding_box()
    map_box = phone.locator("#map").bounding_box()
    panel_box = phone.locator("#panel").bounding_box()
    assert panel_box["y"] >= map_box["y"] + map_box["height"] - 1, "the panel sits under the map"
    assert map_box["height"] >= 0.6 * 844, f"the map keeps 60 % of the screen with a pin open: {map_box}"
    assert bar["height"] <= 64, f"the bar is one row: {bar}"
    assert phone.locator("#search-input").is_visible()
    shot(phone, "phone")
    # The filters and tools are behind the menu button, and come back with it.
    menu = phone.get_by_role("button", name="Menu")
    assert menu.get_attribute("aria-expanded") == "false"
    assert not phone.locator("#year-from").is_visible() and not phone.locator("#account-button").is_visible()
    menu.click()
    assert menu.get_attribute("aria-expanded") == "true"
    for selector in ("#year-from", "#year-to", "#tour-button", "#favorites-button", "#account-button"):
        box = phone.locator(selector).bounding_box()
        assert phone.locator(selector).is_visible() and box["x"] >= 0 and box["x"] + box["width"] <= 390, selector
    shot(phone, "phone-menu")
    menu.click()
    assert not phone.locator("#year-from").is_visible()


def test_clusters_never_overlap_at_any_zoom(page, shot):
    for zoom in range(9, 16):
        page.goto(f"/#40.72000,-73.96000,{zoom}")
        data = wait_ready(page, f"zoom={zoom}&")
        check_clusters_drawn(page, data, clusters_of(data["query"]))
    shot(page, "clusters-zoom-15")


def test_a_photo_without_a_title_is_named_by_its_place_and_date(page, shot):
    # A named place near Union Square: its untitled photos show its name and their date.
    page.goto(UNION_SQUARE_PINS)
    data = wait_ready(page, "/region")
    locations = sorted(api_json(data["query"])["locations"], key=lambda place: -place["photoCount"])
    location = next(place for place in locations if place["intersection"])
    page_of_photos = api_json(f"/locations/{location['locationID']}?limit=24")
    untitled = [photo for photo in page_of_photos["photos"] if not photo["title"]]
    assert untitled, "a place with untitled photos"
    page.goto(f"/#{location['latitude']:.5f},{location['longitude']:.5f},17,{location['locationID']}")
    open_panel_list(page)
    for photo in untitled:
        item = page.locator(f"#panel li.photo[data-photo-id='{photo['photoID']}'] .photo-title")
        expected = f"{location['intersection']}, {photo['date']}" if photo["date"] else location["intersection"]
        assert item.inner_text() == expected
    assert page.locator("#panel .photo-title", has_text="Untitled").count() == 0
    shot(page, "untitled")


def test_the_topic_picker_lists_the_topics(page, shot):
    topics = api_json("/topics")["topics"]
    page.goto("/")
    wait_ready(page)
    page.wait_for_load_state("networkidle")
    picker = page.locator("#topic-picker")
    assert picker.is_visible()
    values = page.get_by_label("Topic").locator("option").evaluate_all("options => options.map(o => o.value)")
    assert [value for value in values if value] == [topic["name"] for topic in topics]
    shot(page, "filters", clip={"x": 0, "y": 0, "width": 1280, "height": 60})


def test_a_topic_filters_the_clusters_as_the_api_does(page, shot):
    topics = api_json("/topics")["topics"]
    page.goto("/")
    before = wait_ready(page)
    page.get_by_label("Topic").select_option(topics[0]["name"])
    data = wait_ready(page, "topic=" + urllib.parse.quote_plus(topics[0]["name"]))
    check_clusters_drawn(page, data, clusters_of(data["query"]))
    assert int(data["photos"]) < int(before["photos"])
    shot(page, "topic")
