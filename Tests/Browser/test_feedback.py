"""Reporting a problem with a photo from the map's panel, and the moderation page at
/moderation: what a person does there, checked against the API's own answers."""

import os
import secrets
import subprocess

from conftest import api, api_json
from map_page import open_panel_list

# The Brooklyn Bridge's place, opened from the address.
PLACE = (40.706096, -73.996823)
LINKED_PLACE = f"/#40.70610,-73.99682,17,{PLACE[0]},{PLACE[1]}"
PASSWORD = "the bowery at night 1890"


def new_user(prefix):
    """A user registered through the API: (username, token)."""
    username = f"{prefix}_{secrets.token_hex(4)}"
    token = api_json("/users", method="POST", body={"username": username, "password": PASSWORD})["token"]
    return username, token


def open_signed_in(page, username, token, path):
    """Opens `path` in a tab where `username` is signed in (the token in sessionStorage)."""
    page.goto("/app/icon.svg")
    page.evaluate(
        "([token, username]) => { sessionStorage.setItem('past-nyc.token', token); sessionStorage.setItem('past-nyc.username', username); }",
        [token, username])
    page.goto(path)


def make_moderator(username):
    """What the operator does: `past-nyc moderators add` on the running server's data directory."""
    subprocess.run(
        [os.environ["PAST_NYC_BIN"], "moderators", "add", username, "--data-dir", os.environ["PAST_NYC_DATA_DIR"]],
        check=True, capture_output=True, timeout=60)


def open_report(page, photo_id):
    """Opens the report form of a photo of the panel (a new one) and returns it."""
    item = page.locator(f"#panel li.photo[data-photo-id='{photo_id}']")
    item.get_by_role("button", name="Report a problem").click()
    form = item.locator("form.report")
    form.wait_for()
    return form


def send(page, form):
    """Sends the form and returns the feedback as the API has it (by the author's token)."""
    form.get_by_role("button", name="Send").click()
    page.wait_for_function(
        "(form) => form.dataset.state === 'sent' || form.dataset.state === 'error'", arg=form.element_handle())
    assert form.get_attribute("data-state") == "sent", form.inner_text()
    return form.get_attribute("data-feedback-id")


def test_a_report_sends_what_the_person_chose(page, shot):
    username, token = new_user("reporter")
    open_signed_in(page, username, token, LINKED_PLACE)
    _, _, ids = open_panel_list(page)
    photo_id = ids[0]
    assert page.locator("#moderation-link").is_hidden(), "a user who is no moderator has no link to the queue"

    # The place: the orange pin starts at the photo's place and is dragged north-east.
    form = open_report(page, photo_id)
    form.get_by_label("Wrong place").check()
    pin = page.locator(".leaflet-marker-icon.report-pin")
    assert pin.count() == 1
    assert float(form.get_by_label("Latitude").input_value()) == PLACE[0]
    box = pin.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] / 2 + 120, box["y"] + box["height"] / 2 - 80, steps=10)
    page.mouse.up()
    latitude = float(form.get_by_label("Latitude").input_value())
    longitude = float(form.get_by_label("Longitude").input_value())
    assert latitude > PLACE[0] and longitude > PLACE[1], (latitude, longitude)
    shot(page, "place")
    place_id = send(page, form)
    assert page.locator(".report-pin").count() == 0, "the pin goes once the report is sent"
    sent = api_json(f"/feedback/{place_id}", token=token)
    assert (sent["kind"], sent["latitude"], sent["longitude"], sent["status"]) == ("location", latitude, longitude, "open")

    # A point far away is refused by the server, which names the field, and nothing is sent.
    page.watch.expect_refusal(400, f"/photos/{ids[1]}/feedback")
    form = open_report(page, ids[1])
    form.get_by_label("Wrong place").check()
    form.get_by_label("Latitude").fill("45")
    form.get_by_label("Latitude").dispatch_event("change")
    form.get_by_role("button", name="Send").click()
    page.wait_for_function("(form) => form.dataset.state === 'error'", arg=form.element_handle())
    assert "latitude" in form.get_by_role("alert").inner_text()
    assert len(api_json("/feedback/mine", token=token)["feedback"]) == 1

    # The year.
    form = open_report(page, photo_id)
    form.get_by_label("Wrong year").check()
    form.get_by_label("Year it was taken").fill("1931")
    year_id = send(page, form)
    assert api_json(f"/feedback/{year_id}", token=token)["year"] == 1931

    # The rotation: turned twice, upside down.
    form = open_report(page, photo_id)
    form.get_by_label("Sideways").check()
    form.get_by_role("button", name="Send").click()
    assert "Turn the photo" in form.get_by_role("alert").inner_text(), "not turned: nothing to send"
    form.get_by_role("button", name="Turn ↻").click()
    form.get_by_role("button", name="Turn ↻").click()
    assert "rotate(180deg)" in form.locator(".report-preview").get_attribute("style")
    shot(page, "rotation")
    rotation_id = send(page, form)
    assert api_json(f"/feedback/{rotation_id}", token=token)["degrees"] == 180

    # Anything else, in words.
    form = open_report(page, photo_id)
    form.get_by_label("Something else").check()
    form.get_by_label("Tell us what is wrong").fill("The sign on the right\nsays Fulton Street.")
    other_id = send(page, form)
    assert api_json(f"/feedback/{other_id}", token=token)["text"] == "The sign on the right\nsays Fulton Street."

    mine = api_json("/feedback/mine", token=token)["feedback"]
    assert [item["feedbackID"] for item in mine] == [other_id, rotation_id, year_id, place_id]
    assert {item["photoID"] for item in mine} == {photo_id}


def test_a_moderator_decides_beside_the_map(page, shot):
    photo_id = api_json(f"/locations/{PLACE[0]},{PLACE[1]}?limit=1")["photos"][0]["photoID"]
    _, reporter_token = new_user("reporter")
    moved = api_json(
        f"/photos/{photo_id}/feedback", method="POST", body={"kind": "location", "latitude": 40.7072, "longitude": -73.9952},
        token=reporter_token)
    dated = api_json(f"/photos/{photo_id}/feedback", method="POST", body={"kind": "date", "year": 1883}, token=reporter_token)
    moderator, token = new_user("moderator")

    # Not a moderator yet: the page says so and shows no queue.
    open_signed_in(page, moderator, token, "/moderation")
    page.wait_for_function("() => document.getElementById('queue').dataset.state === 'forbidden'")
    assert "Only moderators" in page.locator("#queue-message").inner_text()
    assert page.locator("#queue li").count() == 0

    make_moderator(moderator)
    page.reload()
    page.wait_for_function("() => document.getElementById('queue').dataset.state === 'ready'")
    listed = page.eval_on_selector_all("#queue button", "buttons => buttons.map((button) => button.dataset.feedbackId)")
    queue = [item["feedbackID"] for item in api_json("/feedback?limit=20", token=token)["feedback"]]
    assert listed == queue and moved["feedbackID"] in listed and dated["feedbackID"] in listed

    # The place: the photo's place in the catalog and the one suggested, on the map.
    page.locator(f"#queue button[data-feedback-id='{moved['feedbackID']}']").click()
    page.wait_for_function(
        "(id) => document.getElementById('review').dataset.feedbackId === id"
        " && document.getElementById('review-map').dataset.markers === '2'", arg=moved["feedbackID"])
    assert page.locator("#review-map .review-current").count() == 1
    assert page.locator("#review-map .review-suggested").count() == 1
    assert page.locator("#review-map path.review-move").count() == 1
    assert "40.7072, -73.9952" in page.locator("#review-facts").inner_text()
    shot(page, "review")
    page.get_by_role("button", name="Accept").click()
    page.locator(f"#queue button[data-feedback-id='{moved['feedbackID']}']").wait_for(state="detached")
    assert api_json(f"/feedback/{moved['feedbackID']}", token=reporter_token)["status"] == "accepted"

    # The year: one marker, and rejected.
    page.locator(f"#queue button[data-feedback-id='{dated['feedbackID']}']").click()
    page.wait_for_function(
        "(id) => document.getElementById('review').dataset.feedbackId === id"
        " && document.getElementById('review-map').dataset.markers === '1'", arg=dated["feedbackID"])
    assert "1883" in page.locator("#review-facts").inner_text()
    page.get_by_role("button", name="Reject").click()
    page.locator(f"#queue button[data-feedback-id='{dated['feedbackID']}']").wait_for(state="detached")
    assert api_json(f"/feedback/{dated['feedbackID']}", token=reporter_token)["status"] == "rejected"

    # The decided ones are in their own lists.
    page.locator("#queue-status").select_option("accepted")
    page.wait_for_function(
        "(id) => document.getElementById('queue').dataset.state === 'ready'"
        " && !!document.querySelector(`#queue button[data-feedback-id='${id}']`)", arg=moved["feedbackID"])
    shot(page, "accepted")
    # Deciding twice is refused by the server, which the API says too.
    assert api(f"/feedback/{dated['feedbackID']}/decision", method="POST", body={"accept": True}, token=token)[0] == 409

    # The map links a moderator to the queue.
    page.goto("/")
    page.locator("#moderation-link").wait_for(state="visible")
    assert page.locator("#moderation-link").get_attribute("href") == "/moderation"
