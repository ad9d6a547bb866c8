"""hearth-emulator's web console over HTTP: where it is served, what protects its API (Host, Origin,
Sec-Fetch-Site and the page's token; no CORS), the REST surface reached through it, account search
and paging, codes by long poll, and export / import in the Firebase emulator's format. What a person
does in the page is tested in a real browser (tests/browser/test_console.py)."""
import io
import json
import os
import pathlib
import re
import signal
import socket
import subprocess
import threading
import time
import uuid
import zipfile
from urllib.parse import urlsplit

import pytest
import requests

from emulator_client import API_KEY, PROJECT_ID, read_log

REPO = pathlib.Path(__file__).resolve().parents[2]
TOKEN_FIELD = "X-Hearth-Console-Token"
IDENTITY = "/identitytoolkit.googleapis.com/v1"
READY = "hearth-emulator listening on "


def unique_project() -> str:
    return f"console-{uuid.uuid4().hex[:10]}"


class Console:
    """The console's API as its page uses it: the token read from the page, sent on every request."""

    def __init__(self, base_url: str, project: str):
        self.base_url = base_url
        self.project = project
        self.session = requests.Session()
        page = self.session.get(f"{base_url}/emulator/ui/", timeout=10)
        assert page.status_code == 200, page.text
        self.token = re.search(r'<meta name="hearth-console-token" content="([0-9a-f]{32})">', page.text).group(1)

    def api(self, method: str, path: str, *, token: str | None = "page", headers: dict | None = None, **kwargs):
        fields = {} if token is None else {TOKEN_FIELD: self.token if token == "page" else token}
        fields.update(headers or {})
        kwargs.setdefault("timeout", 30)
        return self.session.request(method, f"{self.base_url}/emulator/ui/api{path}", headers=fields, **kwargs)

    def project_api(self, method: str, suffix: str, **kwargs):
        return self.api(method, f"/projects/{self.project}{suffix}", **kwargs)

    def rest(self, method: str, path: str, **kwargs):
        return self.api(method, f"/rest{path}", **kwargs)

    def admin_path(self, suffix: str) -> str:
        return f"{IDENTITY}/projects/{self.project}{suffix}"

    def search(self, **params) -> dict:
        response = self.project_api("GET", "/accounts", params=params)
        assert response.status_code == 200, response.text
        return response.json()

    def create(self, users: list[dict]) -> None:
        """accounts:batchCreate as the admin, straight to the REST route."""
        response = requests.post(f"{self.base_url}{self.admin_path('/accounts:batchCreate')}",
                                 headers={"Authorization": "Bearer owner"}, json={"users": users}, timeout=30)
        assert response.status_code == 200 and not response.json().get("error"), response.text

    def lookup(self, uid: str) -> dict | None:
        response = requests.post(f"{self.base_url}{self.admin_path('/accounts:lookup')}",
                                 headers={"Authorization": "Bearer owner"}, json={"localId": [uid]}, timeout=10)
        assert response.status_code == 200, response.text
        return (response.json().get("users") or [None])[0]

    def codes(self, after: str | None = None, timeout: float = 30) -> dict:
        params = {"after": after} if after else {}
        response = self.project_api("GET", "/codes", params=params, timeout=timeout)
        assert response.status_code == 200, response.text
        return response.json()

    def send_code(self, phone: str) -> str:
        """sendVerificationCode with an API key: codes go to the default project (PROJECT_ID)."""
        assert self.project == PROJECT_ID
        response = requests.post(f"{self.base_url}{IDENTITY}/accounts:sendVerificationCode?key={API_KEY}",
                                 json={"phoneNumber": phone}, timeout=10)
        assert response.status_code == 200, response.text
        return response.json()["sessionInfo"]


def unique_phone() -> str:
    return f"+1650555{uuid.uuid4().int % 10_000:04}"


@pytest.fixture()
def default_console(base_url) -> Console:
    """The console on the project API keys act on, where apps' SMS codes go (other tests' codes stay there)."""
    console = Console(base_url, PROJECT_ID)
    yield console
    console.session.close()


@pytest.fixture()
def console(base_url) -> Console:
    console = Console(base_url, unique_project())
    yield console
    console.session.close()


def host_of(base_url: str) -> str:
    return urlsplit(base_url).netloc


def assert_forbidden(response, fragment: str) -> None:
    assert response.status_code == 403, f"{response.status_code}: {response.text}"
    assert fragment in response.text, response.text
    assert "Access-Control-Allow-Origin" not in response.headers


# --- Served where the emulator listens --------------------------------------------------------------

def test_the_console_is_served_on_the_emulators_own_address_and_announced_on_start(base_url):
    page = requests.get(f"{base_url}/emulator/ui/", timeout=10)
    assert page.status_code == 200
    assert page.headers["Content-Type"] == "text/html; charset=utf-8"
    assert '<script type="module" src="assets/app.js"></script>' in page.text
    assert f'<meta name="hearth-default-project" content="{PROJECT_ID}">' in page.text
    assert f"hearth-emulator console at {base_url}/emulator/ui/" in read_log("hearth-emulator console at")


def test_firebases_readiness_answer_at_the_root_is_unchanged(base_url):
    response = requests.get(f"{base_url}/", timeout=10)
    assert response.status_code == 200
    assert response.headers["Content-Type"].startswith("application/json")
    assert response.json()["authEmulator"]["ready"] is True


def test_without_the_trailing_slash_the_console_redirects_keeping_the_query(base_url):
    response = requests.get(f"{base_url}/emulator/ui?project=other", allow_redirects=False, timeout=10)
    assert response.status_code == 308
    assert response.headers["Location"] == "/emulator/ui/?project=other"


def test_the_page_carries_a_content_security_policy_and_is_never_cached_or_framed(base_url):
    page = requests.get(f"{base_url}/emulator/ui/", timeout=10)
    policy = {directive.split(" ", 1)[0]: directive for directive in page.headers["Content-Security-Policy"].split("; ")}
    assert policy["default-src"] == "default-src 'none'"
    assert policy["script-src"] == "script-src 'self'"
    assert policy["style-src"] == "style-src 'self'"
    assert policy["connect-src"] == "connect-src 'self'"
    assert policy["frame-ancestors"] == "frame-ancestors 'none'"
    assert policy["base-uri"] == "base-uri 'none'"
    assert page.headers["X-Frame-Options"] == "DENY"
    assert page.headers["X-Content-Type-Options"] == "nosniff"
    assert page.headers["Cache-Control"] == "no-store"
    assert "Access-Control-Allow-Origin" not in page.headers
    # No script, style or event handler is inline: the policy above would refuse them.
    assert "<script>" not in page.text and "<style" not in page.text and " style=" not in page.text
    assert not re.search(r"\son[a-z]+=", page.text)


def test_each_page_load_gets_the_same_per_process_token(base_url):
    first = Console(base_url, PROJECT_ID).token
    second = Console(base_url, PROJECT_ID).token
    assert first == second


@pytest.mark.parametrize("name, content_type", [
    ("app.js", "text/javascript; charset=utf-8"), ("accounts.js", "text/javascript; charset=utf-8"),
    ("transfer.js", "text/javascript; charset=utf-8"), ("console.css", "text/css; charset=utf-8"),
    ("icon.svg", "image/svg+xml"),
])
def test_assets_come_from_the_binary_with_etags(base_url, name, content_type):
    response = requests.get(f"{base_url}/emulator/ui/assets/{name}", timeout=10)
    assert response.status_code == 200
    assert response.headers["Content-Type"] == content_type
    assert response.content
    etag = response.headers["ETag"]
    again = requests.get(f"{base_url}/emulator/ui/assets/{name}", headers={"If-None-Match": etag}, timeout=10)
    assert again.status_code == 304
    assert again.content == b""


def test_scripts_load_nothing_from_other_hosts(base_url):
    for name in ("app.js", "dom.js", "api.js", "accounts.js", "user.js", "feed.js", "codes.js", "settings.js",
                 "tenants.js", "transfer.js", "console.css"):
        text = requests.get(f"{base_url}/emulator/ui/assets/{name}", timeout=10).text
        assert not re.search(r"https?://(?!www\.w3\.org/2000/svg)", text), f"{name} names another host"
        assert ".innerHTML" not in text and "insertAdjacentHTML" not in text and "document.write" not in text, name


def test_unknown_console_paths_and_methods(base_url, console):
    assert requests.get(f"{base_url}/emulator/ui/assets/nothing.js", timeout=10).status_code == 404
    assert requests.get(f"{base_url}/emulator/ui/elsewhere", timeout=10).status_code == 404
    posted = requests.post(f"{base_url}/emulator/ui/", data="x", timeout=10)
    assert posted.status_code == 405 and posted.headers["Allow"] == "GET, HEAD"
    assert console.project_api("GET", "/nothing").status_code == 404
    assert console.project_api("POST", "/accounts").status_code == 405
    assert console.project_api("GET", "/import").status_code == 405
    bad = console.api("GET", "/projects/has%20space/accounts")
    assert bad.status_code == 400 and "Project and tenant ids" in bad.json()["error"]["message"]
    # A path that only starts like the console's is the REST surface's (404 there).
    assert requests.get(f"{base_url}/emulator/uix", timeout=10).json()["error"]["code"] == 404


def test_head_of_the_page_has_no_body(base_url):
    response = requests.head(f"{base_url}/emulator/ui/", timeout=10)
    assert response.status_code == 200
    assert int(response.headers["Content-Length"]) > 0
    assert response.content == b""


# --- Who may use the API ----------------------------------------------------------------------------

def test_the_api_refuses_requests_without_the_pages_token(console):
    assert_forbidden(console.project_api("GET", "/accounts", token=None), TOKEN_FIELD)
    assert_forbidden(console.project_api("GET", "/accounts", token="0" * 32), TOKEN_FIELD)
    assert_forbidden(console.rest("DELETE", f"/emulator/v1/projects/{console.project}/accounts", token=None), TOKEN_FIELD)
    assert console.project_api("GET", "/accounts").status_code == 200


def test_a_state_changing_request_from_another_origin_is_refused_even_with_the_token(console, base_url):
    console.create([{"localId": "keep-me", "email": "keep@example.com"}])
    delete = console.admin_path("/accounts:delete")
    for origin in ("http://evil.example", "http://localhost.evil.example", "null",
                   f"http://{host_of(base_url)}.evil.example", f"https://{host_of(base_url)}"):
        refused = console.rest("POST", delete, json={"localId": "keep-me"}, headers={"Origin": origin})
        assert_forbidden(refused, "Cross-origin request refused")
    cross_site = console.rest("POST", delete, json={"localId": "keep-me"}, headers={"Sec-Fetch-Site": "cross-site"})
    assert_forbidden(cross_site, "Cross-site request refused")
    same_site = console.rest("POST", delete, json={"localId": "keep-me"}, headers={"Sec-Fetch-Site": "same-site"})
    assert_forbidden(same_site, "Cross-site request refused")
    assert console.lookup("keep-me") is not None
    # The page's own requests: its origin, same-origin fetch metadata.
    allowed = console.rest("POST", delete, json={"localId": "keep-me"},
                           headers={"Origin": f"http://{host_of(base_url)}", "Sec-Fetch-Site": "same-origin"})
    assert allowed.status_code == 200, allowed.text
    assert console.lookup("keep-me") is None


def test_a_form_post_from_another_site_cannot_reach_the_api(console, base_url):
    """What an HTML form on another page sends: no custom field, form encoding, that page's origin."""
    console.create([{"localId": "form-target"}])
    response = requests.post(
        f"{base_url}/emulator/ui/api/rest/emulator/v1/projects/{console.project}/accounts",
        data={"_method": "DELETE"}, headers={"Origin": "http://attacker.example", "Sec-Fetch-Site": "cross-site"},
        timeout=10)
    assert_forbidden(response, "Cross-origin")
    wiped = requests.delete(f"{base_url}/emulator/ui/api/rest/emulator/v1/projects/{console.project}/accounts", timeout=10)
    assert_forbidden(wiped, TOKEN_FIELD)
    assert console.lookup("form-target") is not None


def test_preflights_to_the_api_are_not_granted(console, base_url):
    response = console.session.options(
        f"{base_url}/emulator/ui/api/projects/{console.project}/accounts",
        headers={"Origin": "http://evil.example", "Access-Control-Request-Method": "POST",
                 "Access-Control-Request-Headers": TOKEN_FIELD.lower()}, timeout=10)
    assert response.status_code == 403
    assert not any(name.lower().startswith("access-control-") for name in response.headers)


def test_the_rest_surface_still_answers_other_origins_as_firebases_emulator_does(base_url):
    preflight = requests.options(f"{base_url}{IDENTITY}/accounts:signUp?key={API_KEY}", headers={
        "Origin": "http://app.example", "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type"}, timeout=10)
    assert preflight.status_code == 204
    assert preflight.headers["Access-Control-Allow-Origin"] == "http://app.example"
    signed_up = requests.post(f"{base_url}{IDENTITY}/accounts:signUp?key={API_KEY}", json={},
                              headers={"Origin": "http://app.example"}, timeout=10)
    assert signed_up.status_code == 200
    assert signed_up.headers["Access-Control-Allow-Origin"] == "http://app.example"


def test_console_answers_carry_no_cors_fields_even_when_asked(console, base_url):
    for response in (
        console.project_api("GET", "/accounts", headers={"Origin": f"http://{host_of(base_url)}"}),
        console.rest("GET", f"/emulator/v1/projects/{console.project}/config", headers={"Origin": f"http://{host_of(base_url)}"}),
        requests.get(f"{base_url}/emulator/ui/", headers={"Origin": "http://evil.example"}, timeout=10),
    ):
        assert response.status_code == 200, response.text
        assert "Access-Control-Allow-Origin" not in response.headers
        assert response.headers["X-Content-Type-Options"] == "nosniff"
        assert response.headers["Cross-Origin-Resource-Policy"] == "same-origin"


@pytest.mark.parametrize("host", ["evil.example", "evil.example:80", "127.0.0.1.evil.example", "localhost.evil.example:9099",
                                  "", "[::1", "127.0.0.1:port"])
def test_dns_rebinding_names_are_refused(console, base_url, host):
    """A site whose name resolves to this machine would be same-origin with the console; its Host tells."""
    page = requests.get(f"{base_url}/emulator/ui/", headers={"Host": host}, timeout=10)
    assert page.status_code == 403, page.text
    assert "not" in page.text and console.token not in page.text
    api = console.project_api("GET", "/accounts", headers={"Host": host})
    assert_forbidden(api, "IP address, localhost or the --host name")


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "LOCALHOST", "app.localhost", "[::1]", "10.1.2.3"])
def test_addresses_and_localhost_names_are_accepted(console, base_url, host):
    port = urlsplit(base_url).port
    page = requests.get(f"{base_url}/emulator/ui/", headers={"Host": f"{host}:{port}"}, timeout=10)
    assert page.status_code == 200
    api = console.project_api("GET", "/accounts", headers={"Host": f"{host}:{port}", "Origin": f"http://{host}:{port}"})
    assert api.status_code == 200, api.text


# --- The REST surface through the console ------------------------------------------------------------

def test_rest_routes_answer_through_the_console_as_the_admin(console, base_url):
    console.create([{"localId": "through", "email": "through@example.com", "rawPassword": "secret-1"}])
    looked_up = console.rest("POST", console.admin_path("/accounts:lookup"), json={"localId": ["through"]})
    assert looked_up.status_code == 200, looked_up.text
    assert looked_up.json()["users"][0]["email"] == "through@example.com"
    config = console.rest("GET", f"/emulator/v1/projects/{console.project}/config")
    direct = requests.get(f"{base_url}/emulator/v1/projects/{console.project}/config", timeout=10)
    assert config.json() == direct.json()
    changed = console.rest("PATCH", f"/emulator/v1/projects/{console.project}/config", json={"recentLoginMaxAgeSeconds": 77})
    assert changed.status_code == 200 and changed.json()["recentLoginMaxAgeSeconds"] == 77
    # Errors arrive in Google's envelope, as from the route itself.
    bad = console.rest("PATCH", f"/emulator/v1/projects/{console.project}/config", json={"smsCodeTtlSeconds": 0})
    assert bad.status_code == 400
    assert "smsCodeTtlSeconds" in bad.json()["error"]["message"]


def test_only_the_identity_toolkit_and_emulator_routes_are_forwarded(console):
    assert console.rest("GET", "/").status_code == 404
    assert console.rest("GET", f"/emulator/ui/api/projects/{console.project}/accounts").status_code == 404
    assert console.rest("POST", "/securetoken.googleapis.com/v1/token", json={}).status_code == 404


def test_forwarded_bodies_keep_the_rest_routes_size_limit(console):
    big = {"localId": "x" * (1 << 20)}
    response = console.rest("POST", console.admin_path("/accounts:lookup"), json=big)
    assert response.status_code == 413, response.text


# --- Accounts: search and paging ---------------------------------------------------------------------

def seed(console: Console) -> None:
    console.create([
        {"localId": "uid-ada", "email": "ada@lovelace.example", "displayName": "Ada Lovelace",
         "phoneNumber": "+16505550101", "createdAt": "1000"},
        {"localId": "uid-grace", "email": "grace@hopper.example", "displayName": "Grace Hopper", "createdAt": "3000"},
        {"localId": "uid-alan", "email": "alan@turing.example", "phoneNumber": "+447700900123", "createdAt": "2000",
         "disabled": True},
        {"localId": "anon-1", "createdAt": "4000"},
    ])


def uids(page: dict) -> list[str]:
    return [user["localId"] for user in page["users"]]


def test_accounts_are_listed_newest_first_with_what_the_table_shows(console):
    seed(console)
    page = console.search()
    assert (page["total"], page["matched"], page["offset"], page["limit"]) == (4, 4, 0, 50)
    assert uids(page) == ["anon-1", "uid-grace", "uid-alan", "uid-ada"]
    ada = page["users"][3]
    assert ada == {"localId": "uid-ada", "email": "ada@lovelace.example", "emailVerified": False,
                   "phoneNumber": "+16505550101", "displayName": "Ada Lovelace", "disabled": False,
                   "providers": ["phone"], "secondFactors": 0, "createdAt": "1000"}
    assert page["users"][2]["disabled"] is True
    assert page["users"][0]["providers"] == []


@pytest.mark.parametrize("query, expected", [
    ("ada@", ["uid-ada"]),
    ("HOPPER", ["uid-grace"]),
    (".example", ["uid-grace", "uid-alan", "uid-ada"]),
    ("uid-a", ["uid-alan", "uid-ada"]),
    ("anon", ["anon-1"]),
    ("+1650", ["uid-ada"]),
    ("650 555-0101", ["uid-ada"]),
    ("(650) 555", ["uid-ada"]),
    ("7700 900", ["uid-alan"]),
    ("lovelace", ["uid-ada"]),
    ("  grace  ", ["uid-grace"]),
    ("nobody", []),
])
def test_search_matches_email_phone_uid_and_name(console, query, expected):
    seed(console)
    page = console.search(q=query)
    assert uids(page) == expected
    assert page["matched"] == len(expected) and page["total"] == 4


def test_paging_walks_every_account_once(console):
    console.create([{"localId": f"user-{n:03}", "email": f"user{n}@paging.example", "createdAt": str(10_000 + n)}
                    for n in range(120)])
    seen = []
    offset = 0
    while True:
        page = console.search(offset=offset, limit=50)
        assert page["total"] == 120 and page["matched"] == 120
        if not page["users"]:
            break
        seen += uids(page)
        offset += 50
    assert seen == [f"user-{n:03}" for n in reversed(range(120))]
    assert uids(console.search(q="user1", offset=10, limit=5)) == ["user-109", "user-108", "user-107", "user-106", "user-105"]


@pytest.mark.parametrize("params, message", [
    ({"limit": "0"}, "limit"), ({"limit": "501"}, "limit"), ({"limit": "ten"}, "limit"),
    ({"offset": "-1"}, "offset"), ({"offset": "9999999999"}, "offset"),
])
def test_search_refuses_bad_paging(console, params, message):
    response = console.project_api("GET", "/accounts", params=params)
    assert response.status_code == 400
    assert response.json()["error"]["message"].startswith(f"{message} must be a whole number")


def create_tenant(console: Console, **settings) -> str:
    response = requests.post(f"{console.base_url}/identitytoolkit.googleapis.com/v2/projects/{console.project}/tenants",
                             headers={"Authorization": "Bearer owner"}, json=settings, timeout=10)
    assert response.status_code == 200, response.text
    return response.json()["tenantId"]


def create_in_tenant(console: Console, tenant: str, users: list[dict]) -> None:
    response = requests.post(f"{console.base_url}{console.admin_path(f'/tenants/{tenant}/accounts:batchCreate')}",
                             headers={"Authorization": "Bearer owner"}, json={"users": users}, timeout=30)
    assert response.status_code == 200 and not response.json().get("error"), response.text


def test_a_tenants_accounts_are_searched_apart_from_the_projects(console):
    tenant = create_tenant(console, displayName="staging", allowPasswordSignup=True)
    seed(console)
    create_in_tenant(console, tenant, [{"localId": "tenant-ada", "email": "ada@lovelace.example", "createdAt": "5"}])
    page = console.api("GET", f"/projects/{console.project}/tenants/{tenant}/accounts", params={"q": "ada"}).json()
    assert (uids(page), page["total"]) == (["tenant-ada"], 1)
    assert uids(console.search(q="ada")) == ["uid-ada"]


# --- Codes by long poll ------------------------------------------------------------------------------

def test_codes_list_sms_codes_and_action_links_with_a_version(default_console):
    console = default_console
    phone = unique_phone()
    session = console.send_code(phone)
    codes = console.codes()
    assert re.fullmatch(r"[0-9a-f]{16}", codes["version"])
    [sms] = [c for c in codes["verificationCodes"] if c["sessionInfo"] == session]
    assert sms["phoneNumber"] == phone and re.fullmatch(r"\d{6}", sms["code"])
    listed = requests.get(f"{console.base_url}/emulator/v1/projects/{PROJECT_ID}/verificationCodes", timeout=10).json()
    assert codes["verificationCodes"] == listed["verificationCodes"]
    assert codes["oobCodes"] == requests.get(f"{console.base_url}/emulator/v1/projects/{PROJECT_ID}/oobCodes", timeout=10).json()["oobCodes"]
    assert console.codes()["version"] == codes["version"]


def test_codes_of_a_project_without_any_are_empty_lists(console):
    codes = console.codes()
    assert (codes["verificationCodes"], codes["oobCodes"]) == ([], [])


def tenant_list(console: Console) -> list[str]:
    response = requests.get(f"{console.base_url}/identitytoolkit.googleapis.com/v2/projects/{console.project}/tenants",
                            headers={"Authorization": "Bearer owner"}, timeout=10)
    return [tenant["tenantId"] for tenant in response.json()["tenants"]]


def test_looking_at_a_tenant_that_does_not_exist_creates_nothing(console):
    page = console.api("GET", f"/projects/{console.project}/tenants/ghost/accounts").json()
    assert (page["total"], page["users"]) == (0, [])
    codes = console.api("GET", f"/projects/{console.project}/tenants/ghost/codes").json()
    assert (codes["verificationCodes"], codes["oobCodes"]) == ([], [])
    assert tenant_list(console) == []


def test_a_long_poll_on_a_deleted_tenant_does_not_bring_it_back(default_console, base_url):
    console = default_console
    tenant = create_tenant(console, allowPasswordSignup=True)
    email = f"{tenant.lower()}@example.com"
    assert requests.post(f"{base_url}{IDENTITY}/accounts:signUp?key={API_KEY}", timeout=10,
                         json={"email": email, "password": "secret-1", "tenantId": tenant}).status_code == 200
    assert requests.post(f"{base_url}{IDENTITY}/accounts:sendOobCode?key={API_KEY}", timeout=10,
                         json={"requestType": "PASSWORD_RESET", "email": email, "tenantId": tenant}).status_code == 200
    codes = console.api("GET", f"/projects/{PROJECT_ID}/tenants/{tenant}/codes").json()
    assert [link["email"] for link in codes["oobCodes"]] == [email]
    answers = []
    poll = threading.Thread(target=lambda: answers.append(
        console.api("GET", f"/projects/{PROJECT_ID}/tenants/{tenant}/codes", params={"after": codes["version"]})))
    poll.start()
    poll.join(timeout=0.3)
    assert poll.is_alive()
    deleted = requests.delete(f"{base_url}/identitytoolkit.googleapis.com/v2/projects/{PROJECT_ID}/tenants/{tenant}",
                              headers={"Authorization": "Bearer owner"}, timeout=10)
    assert deleted.status_code == 200
    poll.join(timeout=10)
    [answer] = answers
    assert (answer.json()["oobCodes"], answer.json()["verificationCodes"]) == ([], [])
    time.sleep(0.5)  # the next poll would have found it
    assert tenant not in tenant_list(console)


def test_a_tenants_codes_are_its_own(default_console, base_url):
    console = default_console
    tenant = f"codes-{uuid.uuid4().hex[:8]}"
    email = f"{tenant}@example.com"
    signed_up = requests.post(f"{base_url}{IDENTITY}/accounts:signUp?key={API_KEY}", timeout=10,
                              json={"email": email, "password": "secret-1", "tenantId": tenant})
    assert signed_up.status_code == 200, signed_up.text
    sent = requests.post(f"{base_url}{IDENTITY}/accounts:sendOobCode?key={API_KEY}", timeout=10,
                         json={"requestType": "PASSWORD_RESET", "email": email, "tenantId": tenant})
    assert sent.status_code == 200, sent.text
    codes = console.api("GET", f"/projects/{PROJECT_ID}/tenants/{tenant}/codes").json()
    assert [link["email"] for link in codes["oobCodes"]] == [email]
    assert email not in json.dumps(console.codes())


def test_a_long_poll_answers_when_a_code_is_issued(default_console):
    console = default_console
    version = console.codes()["version"]
    answers = []
    poll = threading.Thread(target=lambda: answers.append(console.codes(after=version)))
    poll.start()
    poll.join(timeout=0.6)
    assert poll.is_alive(), "the long poll answered although nothing changed"
    phone = unique_phone()
    console.send_code(phone)
    poll.join(timeout=10)
    assert not poll.is_alive(), "no answer after a code was issued"
    [codes] = answers
    assert codes["version"] != version
    assert codes["verificationCodes"][-1]["phoneNumber"] == phone


def test_a_long_poll_with_an_old_version_answers_at_once(default_console):
    console = default_console
    old = console.codes()["version"]
    console.send_code(unique_phone())
    start = time.monotonic()
    codes = console.codes(after=old, timeout=5)
    assert codes["version"] != old
    assert time.monotonic() - start < 5


def test_requests_pipelined_behind_a_long_poll_are_answered_after_it(default_console, base_url):
    console = default_console
    version = console.codes()["version"]
    host = host_of(base_url)
    phone = unique_phone()
    with socket.create_connection((urlsplit(base_url).hostname, urlsplit(base_url).port), timeout=10) as connection:
        connection.sendall((
            f"GET /emulator/ui/api/projects/{console.project}/codes?after={version} HTTP/1.1\r\nHost: {host}\r\n"
            f"{TOKEN_FIELD}: {console.token}\r\n\r\n"
            f"GET / HTTP/1.1\r\nHost: {host}\r\n\r\n").encode())
        connection.settimeout(0.6)
        with pytest.raises(socket.timeout):
            connection.recv(1)
        console.send_code(phone)
        connection.settimeout(10)
        first, rest = read_response(connection, b"")
        second, _ = read_response(connection, rest)
    assert first[0] == 200 and phone.encode() in first[1]
    assert second[0] == 200 and json.loads(second[1])["authEmulator"]["ready"] is True


def test_a_long_poll_whose_client_stops_sending_is_answered_at_once(default_console, base_url):
    console = default_console
    version = console.codes()["version"]
    with socket.create_connection((urlsplit(base_url).hostname, urlsplit(base_url).port), timeout=10) as connection:
        connection.sendall((
            f"GET /emulator/ui/api/projects/{console.project}/codes?after={version} HTTP/1.1\r\nHost: {host_of(base_url)}\r\n"
            f"{TOKEN_FIELD}: {console.token}\r\n\r\n").encode())
        connection.shutdown(socket.SHUT_WR)
        connection.settimeout(5)
        (status, body), _ = read_response(connection, b"")
        assert connection.recv(1) == b""  # then the connection closes
    assert status == 200 and json.loads(body)["version"] == version


def read_response(connection, buffered: bytes):
    """(status, body) of the next HTTP/1.1 answer with a Content-Length, and the bytes after it."""
    data = buffered
    while b"\r\n\r\n" not in data:
        data += connection.recv(65536)
    head, _, data = data.partition(b"\r\n\r\n")
    lines = head.decode().split("\r\n")
    length = int(next(line.split(":", 1)[1] for line in lines if line.lower().startswith("content-length:")))
    while len(data) < length:
        data += connection.recv(65536)
    return (int(lines[0].split(" ")[1]), data[:length]), data[length:]


# --- Export and import -------------------------------------------------------------------------------

def export_zip(console: Console) -> zipfile.ZipFile:
    response = console.project_api("GET", "/export")
    assert response.status_code == 200, response.text
    assert response.headers["Content-Type"] == "application/zip"
    assert response.headers["Content-Disposition"] == f'attachment; filename="hearth-emulator-export-{console.project}.zip"'
    archive = zipfile.ZipFile(io.BytesIO(response.content))
    assert archive.testzip() is None
    return archive


def test_export_is_the_firebase_emulators_directory_as_a_zip(console):
    console.create([{"localId": "exported", "email": "ex@example.com", "rawPassword": "secret-1",
                     "customAttributes": json.dumps({"role": "admin"})}])
    requests.patch(f"{console.base_url}/emulator/v1/projects/{console.project}/config",
                   json={"testPhoneNumbers": {"+16505553434": "654321"}}, timeout=10)
    archive = export_zip(console)
    assert archive.namelist() == ["firebase-export-metadata.json", "auth_export/accounts.json", "auth_export/config.json"]
    metadata = json.loads(archive.read("firebase-export-metadata.json"))
    assert metadata["auth"]["path"] == "auth_export"
    accounts = json.loads(archive.read("auth_export/accounts.json"))
    assert accounts["kind"] == "identitytoolkit#DownloadAccountResponse"
    [user] = accounts["users"]
    assert user["localId"] == "exported" and user["email"] == "ex@example.com"
    assert user["passwordHash"].startswith("fakeHash:salt=") and json.loads(user["customAttributes"]) == {"role": "admin"}
    assert json.loads(archive.read("auth_export/config.json"))["testPhoneNumbers"] == {"+16505553434": "654321"}


def files_of(archive: zipfile.ZipFile) -> dict[str, str]:
    return {name: archive.read(name).decode() for name in archive.namelist()}


def test_tenants_accounts_travel_in_the_export(console, base_url):
    tenant = create_tenant(console, displayName="travels")
    console.create([{"localId": "project-account"}])
    create_in_tenant(console, tenant, [{"localId": "tenant-account", "email": "t@example.com", "rawPassword": "secret-t"}])
    archive = export_zip(console)
    assert archive.namelist() == ["firebase-export-metadata.json", f"auth_export/accounts-{tenant}.json",
                                  "auth_export/accounts.json", "auth_export/config.json"]
    [user] = json.loads(archive.read(f"auth_export/accounts-{tenant}.json"))["users"]
    assert user["localId"] == "tenant-account"

    target = Console(base_url, unique_project())
    response = target.project_api("POST", "/import", json={"files": files_of(archive)})
    assert response.status_code == 200, response.text
    assert response.json()["tenants"] == [tenant]
    page = target.api("GET", f"/projects/{target.project}/tenants/{tenant}/accounts").json()
    assert uids(page) == ["tenant-account"]
    assert uids(target.search()) == ["project-account"]


def test_a_bad_account_in_a_tenants_file_changes_nothing_anywhere(console):
    tenant = create_tenant(console)
    console.create([{"localId": "project-survivor"}])
    create_in_tenant(console, tenant, [{"localId": "tenant-survivor"}])
    files = {
        "auth_export/accounts.json": json.dumps({"users": [{"localId": "new-project-account"}]}),
        f"auth_export/accounts-{tenant}.json": json.dumps({"users": [{"localId": "bad", "phoneNumber": "555"}]}),
    }
    response = console.project_api("POST", "/import", json={"files": files})
    assert response.status_code == 400
    assert response.json()["error"]["message"].startswith(f"auth_export/accounts-{tenant}.json: 1 of 1 accounts cannot be imported")
    assert uids(console.search()) == ["project-survivor"]
    assert uids(console.api("GET", f"/projects/{console.project}/tenants/{tenant}/accounts").json()) == ["tenant-survivor"]


def test_an_export_imports_into_another_project_whole(console, base_url):
    console.create([{"localId": f"moved-{n}", "email": f"moved{n}@example.com", "rawPassword": f"secret-{n}"}
                    for n in range(3)])
    requests.patch(f"{base_url}/emulator/v1/projects/{console.project}/config", json={"smsCodeTtlSeconds": 42}, timeout=10)
    files = files_of(export_zip(console))

    target = Console(base_url, unique_project())
    target.create([{"localId": "replaced", "email": "old@example.com"}])
    response = target.project_api("POST", "/import", json={"files": files})
    assert response.status_code == 200, response.text
    assert response.json() == {"accounts": 3, "tenants": [], "settings": True, "notes": []}
    assert target.lookup("replaced") is None
    assert target.lookup("moved-1")["email"] == "moved1@example.com"
    assert requests.get(f"{base_url}/emulator/v1/projects/{target.project}/config", timeout=10).json()["smsCodeTtlSeconds"] == 42
    # Byte for byte the same accounts, fake password hashes included (they sign in: see the --import test).
    assert files_of(export_zip(target))["auth_export/accounts.json"] == files["auth_export/accounts.json"]


def test_a_directory_without_metadata_or_loose_files_import_too(console):
    console.create([{"localId": "loose", "email": "loose@example.com"}])
    files = files_of(export_zip(console))
    target = Console(console.base_url, unique_project())
    no_metadata = {name: text for name, text in files.items() if name.startswith("auth_export/")}
    assert target.project_api("POST", "/import", json={"files": no_metadata}).json()["accounts"] == 1
    loose = {"accounts.json": files["auth_export/accounts.json"]}
    answer = target.project_api("POST", "/import", json={"files": loose}).json()
    assert answer["accounts"] == 1 and answer["settings"] is False
    assert answer["notes"] == ["no config.json: the settings stay as they were"]


def test_an_import_with_one_bad_account_changes_nothing(console):
    console.create([{"localId": "survivor", "email": "survivor@example.com"}])
    accounts = {"kind": "identitytoolkit#DownloadAccountResponse", "users": [
        {"localId": "good", "email": "good@example.com"},
        {"localId": "bad", "email": "not-an-email"},
    ]}
    response = console.project_api("POST", "/import", json={"files": {"auth_export/accounts.json": json.dumps(accounts)}})
    assert response.status_code == 400
    message = response.json()["error"]["message"]
    assert message == ('auth_export/accounts.json: 1 of 2 accounts cannot be imported, so nothing was: '
                       'users[1] (localId "bad"): email is invalid')
    assert console.lookup("survivor") is not None and console.lookup("good") is None


@pytest.mark.parametrize("files, message", [
    ({}, "No files"),
    ({"../escape.json": "{}"}, '"../escape.json" is not a path inside an export directory.'),
    ({"/etc/accounts.json": "{}"}, "is not a path inside an export directory"),
    ({"auth_export/accounts.json": "{not json"}, "auth_export/accounts.json: not valid JSON"),
    ({"auth_export/accounts.json": "[]"}, "auth_export/accounts.json: must hold a JSON object"),
    ({"auth_export/accounts.json": json.dumps({"users": [{"localId": "u", "shoeSize": 9}]})}, "shoeSize"),
    ({"auth_export/config.json": json.dumps({"smsCodeTtlSeconds": 0}), "auth_export/accounts.json": "{}"},
     "auth_export/config.json: Invalid value at 'smsCodeTtlSeconds'"),
    ({"firebase-export-metadata.json": json.dumps({"version": "1"})}, "The export has no auth data"),
    ({"notes.json": "{}"}, "The export has no accounts.json"),
    ({"auth_export/config.json": json.dumps({"smsCodeTtlSeconds": 30})}, "The export has no auth_export/accounts.json"),
])
def test_imports_that_cannot_be_loaded_say_why(console, files, message):
    console.create([{"localId": "untouched"}])
    response = console.project_api("POST", "/import", json={"files": files})
    assert response.status_code == 400, response.text
    assert message in response.json()["error"]["message"]
    assert "/tmp" not in response.text and "hearth-console-" not in response.text
    assert console.lookup("untouched") is not None


def test_import_bodies_must_be_json_with_files(console):
    assert console.project_api("POST", "/import", data="files", headers={"Content-Type": "application/json"}).status_code == 400
    assert console.project_api("POST", "/import", json={"files": {"a.json": ["x"]}}).status_code == 400
    assert console.project_api("POST", "/import", data=b"\xff\xfe", headers={"Content-Type": "application/json"}).status_code == 400


def test_export_and_import_are_for_projects_not_single_tenants(console):
    assert console.api("GET", f"/projects/{console.project}/tenants/t1/export").status_code == 400
    assert console.api("POST", f"/projects/{console.project}/tenants/t1/import", json={"files": {"a.json": "{}"}}).status_code == 400


# --- Processes of their own ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def binary() -> str:
    path = os.environ.get("HEARTH_EMULATOR_BIN") or str(REPO / ".build/release/hearth-emulator")
    if not os.access(path, os.X_OK):
        pytest.fail(f"hearth-emulator binary not found at {path}: build it (make build) or set HEARTH_EMULATOR_BIN")
    return path


def start_emulator(binary, *args):
    process = subprocess.Popen([binary, "--port", "0", "--project", PROJECT_ID, *args],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = process.stdout.readline()
    assert line.startswith(READY), f"{line}{process.stderr.read() if process.poll() is not None else ''}"
    return process, line[len(READY):].strip()


def test_an_exported_zip_is_a_directory_for_import(console, binary, tmp_path):
    console.create([{"localId": "round-trip", "email": "round@example.com", "rawPassword": "secret-rt"}])
    export_zip(console).extractall(tmp_path)
    process, url = start_emulator(binary, "--import", str(tmp_path))
    try:
        signed_in = requests.post(f"{url}{IDENTITY}/accounts:signInWithPassword?key={API_KEY}",
                                  json={"email": "round@example.com", "password": "secret-rt"}, timeout=10)
        assert signed_in.status_code == 200, signed_in.text
        assert signed_in.json()["localId"] == "round-trip"
    finally:
        process.send_signal(signal.SIGINT)
        process.communicate(timeout=20)


def test_shutting_down_answers_a_waiting_long_poll_and_exits_promptly(binary):
    process, url = start_emulator(binary)
    try:
        console = Console(url, PROJECT_ID)
        version = console.codes()["version"]
        answers = []
        poll = threading.Thread(target=lambda: answers.append(console.project_api("GET", "/codes", params={"after": version})))
        poll.start()
        poll.join(timeout=0.5)
        assert poll.is_alive()
        process.send_signal(signal.SIGINT)
        process.communicate(timeout=10)
        poll.join(timeout=5)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 0
    [answer] = answers
    assert answer.status_code == 200 and answer.json()["version"] == version
    assert answer.headers.get("Connection") == "close"
