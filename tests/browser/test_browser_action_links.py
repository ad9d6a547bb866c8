"""A person completes the emulator's email actions in a real browser (headless Chromium), as with email
Firebase would have sent: the link is copied from the emulator's log, opened, and the action page does the
rest. For an email sign-in link the action page hands the link to the app (its continueUrl, a page served
here), whose script finishes the sign-in with accounts:signInWithEmailLink from the browser, across origins
(so through the emulator's CORS, preflight included)."""

import json
import os
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

import pytest
import requests
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

API_KEY = "fake-api-key"
PAGE_TIMEOUT = 20


def unique_email(prefix):
    return f"{prefix}-{uuid.uuid4().hex[:10]}@example.com"


class Rest:
    """The emulator over REST, for what the app's backend or a test checks."""

    def __init__(self, base_url):
        self.base_url = base_url

    def call(self, method, body, *, admin=False):
        headers = {"Authorization": "Bearer owner"} if admin else {}
        response = requests.post(f"{self.base_url}/identitytoolkit.googleapis.com/v1/accounts:{method}",
                                 params={"key": API_KEY}, json=body, headers=headers, timeout=30)
        assert response.status_code == 200, f"{method}: {response.status_code} {response.text}"
        return response.json()

    def sign_up(self, email, password="first-password"):
        return self.call("signUp", {"email": email, "password": password, "returnSecureToken": True})

    def lookup(self, id_token):
        return self.call("lookup", {"idToken": id_token})["users"][0]

    def lookup_email(self, email):
        return self.call("lookup", {"email": [email]}, admin=True).get("users", [])


@pytest.fixture
def rest(emulator_url):
    return Rest(emulator_url)


def logged_link(text_before_link, timeout=10):
    """The link of the newest log line that starts with `text_before_link` (its last word), as a developer
    copies it from the terminal."""
    path = os.environ.get("HEARTH_EMULATOR_LOG")
    if not path:
        pytest.fail("HEARTH_EMULATOR_LOG is not set: run the browser suite under scripts/with-emulator")
    deadline = time.time() + timeout
    while True:
        with open(path, encoding="utf-8", errors="replace") as log:
            lines = [line.strip() for line in log if text_before_link in line]
        if lines:
            return lines[-1].split()[-1]
        if time.time() > deadline:
            raise AssertionError(f"no log line with {text_before_link!r}")
        time.sleep(0.05)


def shown_json(browser):
    """The JSON answer the browser shows."""
    text = browser.find_element(By.TAG_NAME, "body").text
    try:
        return json.loads(text)
    except ValueError:
        raise AssertionError(f"the browser shows no JSON but: {text[:300]!r}") from None


class AppPages(BaseHTTPRequestHandler):
    """The app a continueUrl leads to: /finish completes an email sign-in link in the browser."""

    emulator_url = ""

    def do_GET(self):
        if urlsplit(self.path).path == "/finish":
            self._send(200, FINISH_PAGE.replace("EMULATOR_URL", json.dumps(self.emulator_url)))
        elif urlsplit(self.path).path == "/done":
            self._send(200, "<!DOCTYPE html><title>Done</title><h1 id='done'>Back in the app</h1>")
        else:
            self._send(404, "not here")

    def _send(self, status, text):
        body = text.encode()
        self.send_response(status)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


# The app's finishing page: it keeps the link's parameters, asks for the email (as apps do when the
# link is opened on another device), and signs in from the browser.
FINISH_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Finish signing in</title></head>
<body>
<h1>Finish signing in</h1>
<p id="mode"></p>
<label for="email">Email</label><input id="email" type="email">
<button id="complete" type="button">Complete sign-in</button>
<pre id="result"></pre>
<script>
var emulator = EMULATOR_URL;
var link = new URLSearchParams(window.location.search);
document.getElementById('mode').textContent = link.get('mode');
document.getElementById('complete').addEventListener('click', function () {
  fetch(emulator + '/identitytoolkit.googleapis.com/v1/accounts:signInWithEmailLink?key=' +
        encodeURIComponent(link.get('apiKey')), {
    method: 'POST',
    headers: {'Content-Type': 'application/json', 'X-Client-Version': 'hearth-browser-test'},
    body: JSON.stringify({email: document.getElementById('email').value, oobCode: link.get('oobCode')})
  }).then(function (response) {
    return response.json().then(function (body) {
      document.getElementById('result').textContent = JSON.stringify({status: response.status, body: body});
    });
  }, function (error) {
    document.getElementById('result').textContent = JSON.stringify({fetchFailed: String(error)});
  });
});
</script>
</body></html>
"""


@pytest.fixture(scope="module")
def app_url(emulator_url):
    AppPages.emulator_url = emulator_url
    server = ThreadingHTTPServer(("127.0.0.1", 0), AppPages)
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def wait_for_text(browser, element_id):
    WebDriverWait(browser, PAGE_TIMEOUT).until(lambda b: b.find_element(By.ID, element_id).text.strip())
    return browser.find_element(By.ID, element_id).text


def test_a_person_signs_in_with_an_email_link(browser, rest, emulator_url, app_url):
    email = unique_email("link")
    rest.call("sendOobCode", {"requestType": "EMAIL_SIGNIN", "email": email, "continueUrl": f"{app_url}/finish",
                              "canHandleCodeInApp": True})
    link = logged_link(f"To sign in as {email}, follow this link: ")
    assert link.startswith(f"{emulator_url}/emulator/action?mode=signIn&")

    browser.get(link)
    WebDriverWait(browser, PAGE_TIMEOUT).until(lambda b: b.current_url.startswith(f"{app_url}/finish"))
    handed = {name: values[-1] for name, values in parse_qs(urlsplit(browser.current_url).query).items()}
    assert handed["mode"] == "signIn" and handed["apiKey"] == API_KEY and handed["lang"] == "en"
    assert handed["oobCode"] == parse_qs(urlsplit(link).query)["oobCode"][0]
    assert browser.find_element(By.ID, "mode").text == "signIn"

    browser.find_element(By.ID, "email").send_keys(email)
    browser.find_element(By.ID, "complete").click()
    result = json.loads(wait_for_text(browser, "result"))
    assert result.get("status") == 200, f"the sign-in from the browser failed: {result}"
    body = result["body"]
    assert body["email"] == email and body["isNewUser"] is True and body["idToken"]
    account = rest.lookup(body["idToken"])
    assert account["emailLinkSignin"] is True and account["emailVerified"] is True

    # The link is used up: opening it again and finishing fails.
    browser.get(link)
    WebDriverWait(browser, PAGE_TIMEOUT).until(lambda b: b.current_url.startswith(f"{app_url}/finish"))
    browser.find_element(By.ID, "email").send_keys(email)
    browser.find_element(By.ID, "complete").click()
    again = json.loads(wait_for_text(browser, "result"))
    assert again["status"] == 400 and again["body"]["error"]["message"] == "INVALID_OOB_CODE"


def test_a_person_verifies_an_email(browser, rest):
    email = unique_email("verify")
    user = rest.sign_up(email)
    rest.call("sendOobCode", {"requestType": "VERIFY_EMAIL", "idToken": user["idToken"]})
    browser.get(logged_link(f"To verify the email address {email}, follow this link: "))
    assert shown_json(browser) == {"authEmulator": {"success": "The email has been successfully verified.",
                                                    "email": email}}
    assert rest.lookup(user["idToken"])["emailVerified"] is True


def test_a_verified_email_goes_back_to_the_app(browser, rest, app_url):
    email = unique_email("verify-continue")
    user = rest.sign_up(email)
    rest.call("sendOobCode", {"requestType": "VERIFY_EMAIL", "idToken": user["idToken"],
                              "continueUrl": f"{app_url}/done"})
    browser.get(logged_link(f"To verify the email address {email}, follow this link: "))
    assert wait_for_text(browser, "done") == "Back in the app"
    assert rest.lookup(user["idToken"])["emailVerified"] is True


def test_a_person_resets_a_password_in_the_form(browser, rest):
    email = unique_email("reset")
    rest.sign_up(email)
    rest.call("sendOobCode", {"requestType": "PASSWORD_RESET", "email": email})
    # The log's link ends with the placeholder the reference asks to replace; a browser gets a form.
    link = logged_link(f"To reset the password for {email}, follow this link: ")
    assert link.endswith("&newPassword=NEW_PASSWORD_HERE")
    browser.get(link)
    assert browser.find_element(By.ID, "email").text == email
    browser.find_element(By.ID, "new-password").send_keys("chosen-in-browser")
    browser.find_element(By.ID, "save").click()
    WebDriverWait(browser, PAGE_TIMEOUT).until(lambda b: "newPassword=chosen-in-browser" in b.current_url)
    assert shown_json(browser) == {"authEmulator": {"success": "The password has been successfully updated.",
                                                    "email": email}}
    signed_in = rest.call("signInWithPassword", {"email": email, "password": "chosen-in-browser"})
    assert rest.lookup(signed_in["idToken"])["emailVerified"] is True


def test_a_person_confirms_a_new_email_then_recovers_the_old_one(browser, rest):
    old, new, newest = unique_email("old"), unique_email("new"), unique_email("newest")
    user = rest.sign_up(old)
    # verifyBeforeUpdateEmail: the new address gets the link.
    rest.call("sendOobCode", {"requestType": "VERIFY_AND_CHANGE_EMAIL", "idToken": user["idToken"], "newEmail": new})
    browser.get(logged_link(f"To verify and change the email address from {old} to {new}, follow this link: "))
    assert shown_json(browser) == {"authEmulator": {"success": "The email has been successfully changed.",
                                                    "newEmail": new}}
    [changed] = rest.lookup_email(new)
    assert changed["localId"] == user["localId"] and changed["emailVerified"] is True

    # updateEmail without verification: the address it replaces gets a link to take the account back.
    signed_in = rest.call("signInWithPassword", {"email": new, "password": "first-password"})
    rest.call("update", {"idToken": signed_in["idToken"], "email": newest})
    browser.get(logged_link(f"To reset your email address to {new}, follow this link: "))
    assert shown_json(browser) == {"authEmulator": {"success": "The email has been successfully reset.",
                                                    "email": new}}
    [recovered] = rest.lookup_email(new)
    assert recovered["localId"] == user["localId"] and recovered["emailVerified"] is True
    assert rest.lookup_email(newest) == [] and rest.lookup_email(old) == []
