"""The map's account dialogs in Chromium: the email and its code under "My account",
and "Forgot password?" in the sign-in dialog, with the mail read from the local SMTP
server scripts/browser-test.sh starts (its messages are files in $PAST_NYC_MAIL_DIR)."""

import json
import os
import secrets
import time
from pathlib import Path

from conftest import api, api_json
from map_page import wait_ready

MAIL_DIR = Path(os.environ.get("PAST_NYC_MAIL_DIR", "mail"))
PASSWORD = "the bowery at night 1890"


def messages_to(address, count=1):
    """The bodies of the messages to `address`, oldest first, once `count` arrived (30 s at most)."""
    deadline = time.monotonic() + 30
    while True:
        bodies = []
        for path in sorted(MAIL_DIR.glob("*.json")):
            record = json.loads(path.read_text(encoding="utf-8"))
            if address in record["recipients"]:
                bodies.append(record["data"].split("\r\n\r\n", 1)[1])
        if len(bodies) >= count:
            return bodies
        assert time.monotonic() < deadline, f"no message {count} to {address}"
        time.sleep(0.05)


def line_of(body, matches):
    return next(line.strip() for line in body.split("\r\n") if matches(line.strip()))


def code_in(body):
    return line_of(body, lambda line: len(line) == 6 and line.isdigit())


def token_in(body):
    return line_of(body, lambda line: len(line) == 43 and " " not in line)


def signed_in_page(page, prefix):
    """A new user, signed in on the map; returns (username, token)."""
    username = f"{prefix}_{secrets.token_hex(4)}"
    token = api_json("/users", method="POST", body={"username": username, "password": PASSWORD})["token"]
    page.goto("/")
    page.evaluate("([token, username]) => { sessionStorage.setItem('past-nyc.token', token); sessionStorage.setItem('past-nyc.username', username); }",
                  [token, username])
    page.reload()
    wait_ready(page)
    return username, token


def test_an_email_is_verified_under_my_account(page, shot):
    username, token = signed_in_page(page, "mailer")
    address = f"{username}@example.org"
    page.get_by_role("button", name="My account").click()
    dialog = page.get_by_role("dialog", name="My account")
    page.wait_for_function("() => document.getElementById('profile-dialog').dataset.emailState === 'none'")
    dialog.get_by_label("Email", exact=True).fill(address)
    dialog.get_by_role("button", name="Save the email").click()
    page.wait_for_function("() => document.getElementById('profile-dialog').dataset.emailState === 'unverified'")
    shot(page, "unverified")
    dialog.get_by_label("Verification code").fill(code_in(messages_to(address)[0]))
    dialog.get_by_role("button", name="Verify").click()
    page.wait_for_function("() => document.getElementById('profile-dialog').dataset.emailState === 'verified'")
    shot(page, "verified")
    me = api_json("/users/me", token=token)
    assert me["email"] == address and me["emailVerified"] is True


def test_a_forgotten_password_is_reset_from_the_sign_in_dialog(page, shot):
    username = f"forgetful_{secrets.token_hex(4)}"
    address = f"{username}@example.org"
    token = api_json("/users", method="POST", body={"username": username, "password": PASSWORD})["token"]
    assert api("/users/me", method="PATCH", body={"email": address}, token=token)[0] == 200
    code = code_in(messages_to(address)[0])
    assert api("/users/me/email/verify", method="POST", body={"code": code}, token=token)[0] == 200

    page.goto("/")
    wait_ready(page)
    page.get_by_role("button", name="Sign in").click()
    page.get_by_role("dialog", name="Sign in or register").get_by_role("button", name="Forgot password?").click()
    reset = page.get_by_role("dialog", name="Forgot password?")
    reset.get_by_label("Email", exact=True).fill(address.upper())
    reset.get_by_role("button", name="Send a reset token").click()
    reset.get_by_text("a message with a reset token is on its way").wait_for()
    shot(page, "reset-sent")
    reset.get_by_label("Reset token").fill(token_in(messages_to(address, count=2)[1]))
    reset.get_by_label("New password").fill("a new walk down the bowery")
    reset.get_by_role("button", name="Set the new password").click()
    page.get_by_role("button", name=f"Sign out {username}").wait_for()
    shot(page, "reset-done")
    assert api("/users/me", token=token)[0] == 401, "every other session ended"
    assert api("/users/login", method="POST", body={"username": username, "password": "a new walk down the bowery"})[0] == 200
