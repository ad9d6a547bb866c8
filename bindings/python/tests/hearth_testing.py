"""Helpers shared by the tests: the emulator's REST surface, a recording proxy, small utilities."""

from __future__ import annotations

import base64
import hashlib
import hmac
import http.client
import http.server
import json
import os
import queue
import random
import struct
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from typing import Any, Callable, Dict, List, Optional, Tuple


PROJECT = "demo-hearth"
API_KEY = "fake-api-key"
TIMEOUT = 15.0  # seconds any single operation may take against the local emulator


# ---------------------------------------------------------------------------------------------------
# The emulator
# ---------------------------------------------------------------------------------------------------


def emulator_url_from_environment() -> Optional[str]:
    url = os.environ.get("HEARTH_EMULATOR_URL")
    if url:
        return url.rstrip("/")
    host = os.environ.get("FIREBASE_AUTH_EMULATOR_HOST")
    if host:
        return f"http://{host}"
    return None


class Emulator:
    """The emulator's REST surface, as a test needs it (admin calls use `Bearer owner`)."""

    def __init__(self, url: str) -> None:
        self.url = url
        hostport = url.split("://", 1)[1]
        host, _, port = hostport.rpartition(":")
        self.host = host
        self.port = int(port)

    def request(self, method: str, path: str, body: Optional[Dict[str, Any]] = None,
                admin: bool = False) -> Tuple[int, Any]:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.url + path, data=data, method=method)
        if data is not None:
            request.add_header("Content-Type", "application/json")
        if admin:
            request.add_header("Authorization", "Bearer owner")
        try:
            with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
                text = response.read()
                return response.status, json.loads(text) if text else None
        except urllib.error.HTTPError as error:
            text = error.read()
            return error.code, json.loads(text) if text else None

    def wipe(self) -> None:
        status, _ = self.request("DELETE", f"/emulator/v1/projects/{PROJECT}/accounts")
        assert status == 200, f"wiping the emulator's accounts failed with HTTP {status}"

    def oob_codes(self) -> List[Dict[str, Any]]:
        status, body = self.request("GET", f"/emulator/v1/projects/{PROJECT}/oobCodes")
        assert status == 200
        return list((body or {}).get("oobCodes", []))

    def lookup(self, uid: str) -> Optional[Dict[str, Any]]:
        status, body = self.request(
            "POST", f"/identitytoolkit.googleapis.com/v1/projects/{PROJECT}/accounts:lookup",
            {"localId": [uid]}, admin=True)
        assert status == 200, body
        users = (body or {}).get("users") or []
        return users[0] if users else None

    def admin_update(self, uid: str, **fields: Any) -> None:
        status, body = self.request(
            "POST", f"/identitytoolkit.googleapis.com/v1/projects/{PROJECT}/accounts:update",
            {"localId": uid, **fields}, admin=True)
        assert status == 200, body

    def set_config(self, **fields: Any) -> Dict[str, Any]:
        """PATCHes the emulator's project config (e.g. recentLoginMaxAgeSeconds=1)."""
        status, body = self.request("PATCH", f"/emulator/v1/projects/{PROJECT}/config", fields)
        assert status == 200, body
        return dict(body or {})

    def config(self) -> Dict[str, Any]:
        status, body = self.request("GET", f"/emulator/v1/projects/{PROJECT}/config")
        assert status == 200, body
        return dict(body or {})

    def verification_codes(self) -> List[Dict[str, Any]]:
        """Every SMS code the emulator would have sent and that is not used yet, oldest first."""
        status, body = self.request("GET", f"/emulator/v1/projects/{PROJECT}/verificationCodes")
        assert status == 200, body
        return list((body or {}).get("verificationCodes", []))

    def verification_code(self, verification_id: str) -> Dict[str, Any]:
        """The listing's entry of one verification (its sessionInfo is the verification id)."""
        entries = [entry for entry in self.verification_codes() if entry["sessionInfo"] == verification_id]
        assert len(entries) == 1, f"{len(entries)} codes listed for this verification id"
        return entries[0]

    def codes_sent_to(self, phone_number: str) -> List[Dict[str, Any]]:
        return [entry for entry in self.verification_codes() if entry["phoneNumber"] == phone_number]

    # --- tenants (Identity Platform multi-tenancy) ---------------------------------------------

    def create_tenant(self, **settings: Any) -> str:
        """A new tenant of the project with these settings (allowPasswordSignup=True, ...); its id."""
        status, body = self.request("POST", f"/identitytoolkit.googleapis.com/v2/projects/{PROJECT}/tenants",
                                    settings, admin=True)
        assert status == 200, body
        return str(body["tenantId"])

    def tenant_lookup(self, tenant_id: Optional[str], uid: str) -> Optional[Dict[str, Any]]:
        """The account as the emulator keeps it in the tenant's scope (None: the project's own)."""
        scope = f"/tenants/{tenant_id}" if tenant_id else ""
        status, body = self.request(
            "POST", f"/identitytoolkit.googleapis.com/v1/projects/{PROJECT}{scope}/accounts:lookup",
            {"localId": [uid]}, admin=True)
        assert status == 200, body
        users = (body or {}).get("users") or []
        return users[0] if users else None

    def tenant_admin_create(self, tenant_id: str, **fields: Any) -> str:
        """Creates an account in the tenant as the admin (any fields: email, password, mfaInfo, ...)."""
        status, body = self.request(
            "POST", f"/identitytoolkit.googleapis.com/v1/projects/{PROJECT}/tenants/{tenant_id}/accounts",
            fields, admin=True)
        assert status == 200, body
        return str(body["localId"])

    def tenant_listing(self, tenant_id: str, what: str) -> List[Dict[str, Any]]:
        """One tenant's oobCodes or verificationCodes."""
        status, body = self.request("GET", f"/emulator/v1/projects/{PROJECT}/tenants/{tenant_id}/{what}")
        assert status == 200, body
        return list((body or {}).get(what, []))

    def provider_ids(self, uid: str) -> List[str]:
        """The providers the server lists for an account, sorted."""
        record = self.lookup(uid)
        assert record is not None, f"no account {uid}"
        return sorted(info["providerId"] for info in record.get("providerUserInfo", []))


# ---------------------------------------------------------------------------------------------------
# Apps
# ---------------------------------------------------------------------------------------------------

def unique_email(prefix: str = "user") -> str:
    return f"{prefix}-{uuid.uuid4().hex[:12]}@example.com"


def unique_phone_number() -> str:
    """A fresh E.164 number in the 555 range: SMS codes stay listed across tests, so each test texts
    numbers of its own."""
    return f"+1555{random.randrange(10**7):07d}"


def masked(phone_number: str) -> str:
    """How sign-in hints show a number: every digit but the last four masked."""
    return "+" + "*" * (len(phone_number) - 5) + phone_number[-4:]


def rfc6238_code(base32_secret: str, unix_time: int, digits: int = 6, period: int = 30,
                 algorithm: str = "sha1") -> str:
    """RFC 6238 (TOTP over RFC 4226's HOTP), computed here with hmac/hashlib: the reference the
    library's codes are checked against."""
    key = base64.b32decode(base32_secret.upper() + "=" * (-len(base32_secret) % 8))
    counter = struct.pack(">Q", unix_time // period)
    mac = hmac.new(key, counter, getattr(hashlib, algorithm.lower())).digest()
    offset = mac[-1] & 0x0F
    value = struct.unpack(">I", mac[offset:offset + 4])[0] & 0x7FFFFFFF
    return str(value % 10**digits).zfill(digits)


def jwt_claims(token: str) -> Dict[str, Any]:
    parts = token.split(".")
    assert len(parts) == 3, "an ID token is a three-part JWT"
    payload = parts[1] + "=" * (-len(parts[1]) % 4)
    return json.loads(base64.urlsafe_b64decode(payload))


def make_jwt(claims: Dict[str, Any]) -> str:
    """An unsigned JWT (alg none) carrying ``claims``: what the emulator accepts as a fake IdP token."""
    def part(value: Dict[str, Any]) -> str:
        return base64.urlsafe_b64encode(json.dumps(value).encode()).decode().rstrip("=")
    return f"{part({'alg': 'none', 'typ': 'JWT'})}.{part(claims)}."


def claims(**fields: Any) -> str:
    """Fake IdP token text: the JSON claims the emulator reads (``sub`` required)."""
    return json.dumps(fields)


def query_of(url: str) -> Dict[str, str]:
    return dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(url).query, keep_blank_values=True))


def wait_until(condition: Callable[[], bool], timeout: float = TIMEOUT, what: str = "condition") -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.01)


# ---------------------------------------------------------------------------------------------------
# Helper servers: a port with nothing listening, a port that never answers, a recording proxy
# ---------------------------------------------------------------------------------------------------


class RecordedRequest:
    def __init__(self, method: str, path: str, headers: Dict[str, str], body: bytes) -> None:
        self.method = method
        self.path = path
        self.headers = headers
        self.body = body
        #: The Content-Encoding of the answer passed back ("gzip", or "" for a plain one).
        self.response_encoding = ""

    def json(self) -> Dict[str, Any]:
        return dict(json.loads(self.body)) if self.body else {}

    def header(self, name: str) -> Optional[str]:
        return self.headers.get(name.lower())


class RecordingProxy:
    """Forwards every request to the emulator and remembers what the client sent. Answers pass back as
    the emulator gave them: compressed when the client asked for it (Accept-Encoding goes through)."""

    def __init__(self, target: str) -> None:
        self.requests: List[RecordedRequest] = []
        self._lock = threading.Lock()
        proxy = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *_: Any) -> None:
                pass

            def _forward(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                recorded = RecordedRequest(self.command, self.path,
                                           {k.lower(): v for k, v in self.headers.items()}, body)
                with proxy._lock:
                    proxy.requests.append(recorded)
                forwarded = urllib.request.Request(target + self.path, data=body or None, method=self.command)
                for name in ("Content-Type", "Authorization", "Accept-Encoding"):
                    if self.headers.get(name):
                        forwarded.add_header(name, self.headers[name])
                try:
                    with urllib.request.urlopen(forwarded, timeout=TIMEOUT) as response:
                        status, payload = response.status, response.read()
                        content_type = response.headers.get("Content-Type", "application/json")
                        encoding = response.headers.get("Content-Encoding", "")
                except urllib.error.HTTPError as error:
                    status, payload = error.code, error.read()
                    content_type = error.headers.get("Content-Type", "application/json")
                    encoding = error.headers.get("Content-Encoding", "")
                recorded.response_encoding = encoding
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                if encoding:
                    self.send_header("Content-Encoding", encoding)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            do_GET = do_POST = do_DELETE = do_PATCH = _forward

        class Server(http.server.ThreadingHTTPServer):
            daemon_threads = True
            request_queue_size = 1024

        self._server = Server(("127.0.0.1", 0), Handler)
        self.port = int(self._server.server_address[1])
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    def paths(self) -> List[str]:
        with self._lock:
            return [request.path for request in self.requests]

    def matching(self, fragment: str) -> List[RecordedRequest]:
        with self._lock:
            return [request for request in self.requests if fragment in request.path]

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()


# ---------------------------------------------------------------------------------------------------
# The provider flow's user: a fake browser driven over plain HTTP
# ---------------------------------------------------------------------------------------------------


class HttpAnswer:
    def __init__(self, status: int, headers: Dict[str, str], body: bytes) -> None:
        self.status = status
        self.headers = headers
        self.body = body

    @property
    def location(self) -> str:
        return self.headers.get("location", "")

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", "replace")


def http_get(url: str, timeout: float = TIMEOUT) -> HttpAnswer:
    """One GET, redirects not followed (a 303's Location is the answer)."""
    parts = urllib.parse.urlsplit(url)
    assert parts.scheme == "http", f"not an http URL: {url}"
    connection = http.client.HTTPConnection(parts.hostname, parts.port or 80, timeout=timeout)
    try:
        target = parts.path or "/"
        if parts.query:
            target += "?" + parts.query
        connection.request("GET", target)
        response = connection.getresponse()
        return HttpAnswer(response.status, {k.lower(): v for k, v in response.getheaders()}, response.read())
    finally:
        connection.close()


def choice_url(page_url: str, **choice: str) -> str:
    """The URL a user's pick on the emulator's provider page leads to: the handler page's picks go to
    ``/emulator/auth/handler/choose`` (its reCAPTCHA stand-in's, ``authType=verifyApp``, to
    ``/emulator/auth/handler/verify-app``), the consent page (createAuthUri's) takes them in its own
    query."""
    parts = urllib.parse.urlsplit(page_url)
    path = parts.path
    if path == "/emulator/auth/handler":
        path += "/verify-app" if query_of(page_url).get("authType") == "verifyApp" else "/choose"
    else:
        assert path == "/emulator/auth/consent", f"not an emulator provider page: {page_url}"
    query = parts.query + "&" + urllib.parse.urlencode(choice) if choice else parts.query
    return urllib.parse.urlunsplit((parts.scheme, parts.netloc, path, query, ""))


class Visit:
    """What the fake browser did with one URL Hearth opened."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.pick: Optional[HttpAnswer] = None       # the provider page's answer to the user's pick
        self.redirect: Optional[HttpAnswer] = None   # the loopback receiver's answer to the redirect
        self.handled: Optional[bool] = None          # custom scheme: what Auth.handle_url returned
        self.error: Optional[BaseException] = None
        self.done = threading.Event()


class FakeBrowser:
    """The user's browser for provider flows. ``open_url`` is the delegate given to
    ``Auth.set_provider_flow``: it only records the URL and starts a thread (it runs on Hearth's loop
    thread and must not block), and that thread plays the user as planned:

    - ``choose(email=..., displayName=..., emailVerified="false", ...)``: pick that identity on the
      provider page, then follow the 303 to the redirect target (GET it on the loopback receiver, or
      for a custom scheme hand it to ``handle_url``);
    - ``choose(notARobot="true")`` on the reCAPTCHA stand-in (``authType=verifyApp``): tick "I'm
      not a robot";
    - ``cancel()``: press Cancel on the page (the redirect then carries an OAuth error);
    - ``stay()``: leave the page open and do nothing (the test cancels or times out).
    """

    def __init__(self, handle_url: Optional[Callable[[str], bool]] = None) -> None:
        self.handle_url = handle_url
        self.opened: "queue.Queue[Visit]" = queue.Queue()
        self.visits: List[Visit] = []
        self._plan: Optional[Dict[str, str]] = None
        self._lock = threading.Lock()

    def choose(self, **identity: str) -> "FakeBrowser":
        self._plan = dict(identity)
        return self

    def cancel(self) -> "FakeBrowser":
        self._plan = {"cancel": "1"}
        return self

    def stay(self) -> "FakeBrowser":
        self._plan = None
        return self

    def open_url(self, url: str) -> None:
        visit = Visit(url)
        with self._lock:
            self.visits.append(visit)
        plan = self._plan
        if plan is None:
            visit.done.set()
        else:
            threading.Thread(target=self._play, args=(visit, plan), daemon=True).start()
        self.opened.put(visit)

    def next_visit(self, timeout: float = TIMEOUT) -> Visit:
        """The next URL Hearth opened (waits for it)."""
        return self.opened.get(timeout=timeout)

    def _play(self, visit: Visit, plan: Dict[str, str]) -> None:
        try:
            visit.pick = http_get(choice_url(visit.url, **plan))
            location = visit.pick.location
            if visit.pick.status != 303 or not location:
                return
            if location.startswith("http://"):
                visit.redirect = http_get(location)
            elif self.handle_url is not None:
                visit.handled = self.handle_url(location)
        except BaseException as error:  # noqa: BLE001 - reported by the test through visit.error
            visit.error = error
        finally:
            visit.done.set()

    def finished(self, visit: Visit, timeout: float = TIMEOUT) -> Visit:
        assert visit.done.wait(timeout), "the fake browser did not finish"
        if visit.error is not None:
            raise AssertionError(f"the fake browser failed on {visit.url}") from visit.error
        return visit
