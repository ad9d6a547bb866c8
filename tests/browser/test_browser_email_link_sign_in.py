"""A person signs in to a desktop C app with the email link it mailed them, in a real browser (headless
Chromium).

email_link_client (the app) mails itself a sign-in link with hearth_auth_send_sign_in_link_to_email and
keeps the address. The person opens the link from the mail (the emulator's log), the emulator's action
page sends the browser on to the app's continue URL with the link's parameters, and the link comes back
to the app:
- through its custom URL scheme: Chromium hands a URL of a scheme it does not serve to the operating
  system, which would start (or message) the app registered for it. The test plays that operating system:
  it takes the URL Chromium handed over from Chromium's own network log and gives it to the app, which
  offers it to hearth_auth_handle_url, recognises it with hearth_auth_is_sign_in_with_email_link and
  signs in;
- or through the app's web page at an https continue URL, which shows the link for the person to copy
  and paste into the app.
"""

import json
import os
import queue
import shutil
import subprocess
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

import pytest
from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.chrome.options import Options as ChromeOptions
from selenium.webdriver.chrome.service import Service as ChromeService
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

APP_SCHEME = "com.example.hearth-link-test"
PAGE_TIMEOUT = 20
LINE_TIMEOUT = 30
INVALID_ACTION_CODE = 27


def unique_email(prefix):
    return f"{prefix}-{uuid.uuid4().hex[:10]}@example.com"


def mailed_link(email, timeout=10):
    """The sign-in link the emulator logged for `email`, as a developer copies it from the terminal."""
    path = os.environ.get("HEARTH_EMULATOR_LOG")
    if not path:
        pytest.fail("HEARTH_EMULATOR_LOG is not set: run the browser suite under scripts/with-emulator")
    marker = f"To sign in as {email}, follow this link: "
    deadline = time.time() + timeout
    while True:
        with open(path, encoding="utf-8", errors="replace") as log:
            lines = [line.strip() for line in log if marker in line]
        if lines:
            return lines[-1].split()[-1]
        if time.time() > deadline:
            raise AssertionError(f"the emulator logged no sign-in link for {email}")
        time.sleep(0.05)


class EmailLinkClient:
    """The running C app: its stdout lines read on a thread; its stdin is what the OS (or the person
    pasting) hands it."""

    def __init__(self, binary, *arguments):
        self.arguments = arguments
        self.process = subprocess.Popen([binary, *arguments], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, text=True)
        self.lines = queue.Queue()
        self.seen = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def expect(self, keyword):
        """The rest of the next line, which must start with `keyword`."""
        try:
            line = self.lines.get(timeout=LINE_TIMEOUT)
        except queue.Empty:
            raise AssertionError(f"email_link_client: no {keyword} line within {LINE_TIMEOUT} s; "
                                 f"lines so far: {self.seen}") from None
        if line is None:
            self.process.wait(timeout=5)
            raise AssertionError(f"email_link_client ended (status {self.process.returncode}) without a "
                                 f"{keyword} line; lines: {self.seen}; stderr: {self.process.stderr.read()}")
        self.seen.append(line)
        name, _, rest = line.partition(" ")
        assert name == keyword, f"expected a {keyword} line, got {line!r}; lines: {self.seen}"
        return rest

    def hand_over(self, text):
        """The OS opens the app with a URL, or the person pastes text into it."""
        self.process.stdin.write(text.replace("\n", " ") + "\n")
        self.process.stdin.flush()

    def result(self):
        code, uid, email, new_user, verified, anonymous = self.expect("RESULT").split(" ")
        message = self.expect("MESSAGE") if code != "0" else ""
        return {"code": int(code), "uid": uid, "email": email, "new_user": new_user == "1",
                "verified": verified == "1", "anonymous": anonymous == "1", "message": message}

    def finish(self):
        """End of input: the app reports who is signed in and exits."""
        self.process.stdin.close()
        user = self.expect("USER")
        status = self.process.wait(timeout=LINE_TIMEOUT)
        assert status == 0, f"email_link_client exited with {status}: {self.process.stderr.read()}"
        return user

    def stop(self):
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(timeout=10)


@pytest.fixture
def start_app(email_link_client_binary):
    clients = []

    def start(*arguments):
        client = EmailLinkClient(email_link_client_binary, *arguments)
        clients.append(client)
        return client

    yield start
    for client in clients:
        client.stop()


@pytest.fixture(scope="module")
def chromium(tmp_path_factory):
    """Headless Chromium that keeps its network log: the URLs it hands to the operating system."""
    options = ChromeOptions()
    options.binary_location = shutil.which("chromium") or shutil.which("chromium-browser")
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-dev-shm-usage",
                     "--window-size=1024,900", f"--user-data-dir={tmp_path_factory.mktemp('chromium-links')}"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
    chromedriver = shutil.which("chromedriver")
    if not options.binary_location or not chromedriver:
        pytest.fail("chromium or chromedriver is not installed; run `make deps` (apt: chromium chromium-driver)")
    driver = webdriver.Chrome(service=ChromeService(executable_path=chromedriver), options=options)
    driver.set_page_load_timeout(PAGE_TIMEOUT)
    yield driver
    driver.quit()


def open_link_handed_to_the_os(browser, link, scheme):
    """Opens `link` in the browser and returns the URL of `scheme` the browser handed to the operating
    system (Chromium does not serve custom schemes: it starts the navigation and hands the URL over)."""
    browser.get_log("performance")  # what earlier pages logged
    try:
        browser.get(link)
    except WebDriverException:
        pass  # the navigation ends at the hand-over
    deadline = time.time() + PAGE_TIMEOUT
    while time.time() < deadline:
        for entry in browser.get_log("performance"):
            message = json.loads(entry["message"])["message"]
            if message["method"] == "Network.requestWillBeSent":
                url = message["params"]["request"]["url"]
                if url.startswith(f"{scheme}:"):
                    return url
        time.sleep(0.05)
    raise AssertionError(f"the browser never went on to a {scheme}: URL; it shows {browser.current_url}")


def test_a_sign_in_link_comes_back_to_the_desktop_app_through_its_url_scheme(chromium, start_app, emulator_url):
    email = unique_email("scheme")
    continue_url = f"{APP_SCHEME}:/finishSignIn"
    app = start_app(email, continue_url)
    assert app.expect("SENT") == "0"
    link = mailed_link(email)
    assert link.startswith(f"{emulator_url}/emulator/action?mode=signIn&")

    handed = open_link_handed_to_the_os(chromium, link, APP_SCHEME)
    assert handed.startswith(continue_url + "?")
    parameters = {name: values[-1] for name, values in parse_qs(urlsplit(handed).query).items()}
    assert parameters["mode"] == "signIn"
    assert parameters["oobCode"] == parse_qs(urlsplit(link).query)["oobCode"][0]

    # The OS also opens the app with URLs of its scheme that are no sign-in links: the app leaves those.
    app.hand_over(f"{APP_SCHEME}:/settings?tab=audio")
    assert app.expect("HANDLED") == "0"
    assert app.expect("LINK") == "0"

    app.hand_over(handed)
    assert app.expect("HANDLED") == "0", "hearth_auth_handle_url must leave an email link to the app"
    assert app.expect("LINK") == "1"
    signed_in = app.result()
    assert signed_in["code"] == 0, signed_in["message"]
    assert signed_in["email"] == email
    assert signed_in["new_user"] and signed_in["verified"] and not signed_in["anonymous"]

    # Following the mail's link again: the code is used up.
    again = open_link_handed_to_the_os(chromium, link, APP_SCHEME)
    app.hand_over(again)
    assert app.expect("HANDLED") == "0"
    assert app.expect("LINK") == "1"
    refused = app.result()
    assert refused["code"] == INVALID_ACTION_CODE, refused
    assert app.finish() == f"{signed_in['uid']} {email}"


# The app's web page at an https continue URL: it shows the link for the person to copy into the app.
FINISH_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Finish signing in</title></head>
<body>
<h1>Finish signing in</h1>
<p>Copy this link into the game:</p>
<pre id="link"></pre>
<script>document.getElementById('link').textContent = window.location.href;</script>
</body></html>
"""


class AppWebsite(BaseHTTPRequestHandler):
    def do_GET(self):
        if urlsplit(self.path).path != "/finish":
            self.send_error(404)
            return
        body = FINISH_PAGE.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def app_website():
    server = ThreadingHTTPServer(("127.0.0.1", 0), AppWebsite)
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_a_sign_in_link_continues_to_the_apps_page_and_is_pasted_into_the_app(chromium, start_app, app_website):
    email = unique_email("paste")
    app = start_app(email, f"{app_website}/finish")
    assert app.expect("SENT") == "0"
    chromium.get(mailed_link(email))
    WebDriverWait(chromium, PAGE_TIMEOUT).until(lambda b: b.find_element(By.ID, "link").text.strip())
    shown = chromium.find_element(By.ID, "link").text
    assert shown.startswith(f"{app_website}/finish?") and "mode=signIn" in shown

    # The person copies the link with some whitespace around it.
    app.hand_over(f"   {shown}\t ")
    assert app.expect("HANDLED") == "0"
    assert app.expect("LINK") == "1"
    signed_in = app.result()
    assert signed_in["code"] == 0, signed_in["message"]
    assert signed_in["email"] == email and signed_in["new_user"]
    assert app.finish() == f"{signed_in['uid']} {email}"


def test_a_sign_in_link_upgrades_the_apps_anonymous_player_to_an_email_account(chromium, start_app):
    email = unique_email("upgrade")
    app = start_app("--link-anonymous", email, f"{APP_SCHEME}:/finishSignIn")
    anonymous_uid = app.expect("ANON")
    assert app.expect("SENT") == "0"
    app.hand_over(open_link_handed_to_the_os(chromium, mailed_link(email), APP_SCHEME))
    assert app.expect("HANDLED") == "0"
    assert app.expect("LINK") == "1"
    linked = app.result()
    assert linked["code"] == 0, linked["message"]
    assert linked["uid"] == anonymous_uid, "the anonymous player keeps their account"
    assert linked["email"] == email and linked["verified"] and not linked["anonymous"]
    assert app.finish() == f"{anonymous_uid} {email}"
