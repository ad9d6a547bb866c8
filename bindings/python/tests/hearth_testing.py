"""Helpers shared by the tests: the emulator's REST surface, a recording proxy, small utilities."""

from __future__ import annotations

import base64
import http.server
import json
import os
import threading
import time
import urllib.error
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


# ---------------------------------------------------------------------------------------------------
# Apps
# ---------------------------------------------------------------------------------------------------

def unique_email(prefix: str = "user") -> str:
    return f"{prefix}-{uuid.uuid4().hex[:12]}@example.com"


def jwt_claims(token: str) -> Dict[str, Any]:
    parts = token.split(".")
    assert len(parts) == 3, "an ID token is a three-part JWT"
    payload = parts[1] + "=" * (-len(parts[1]) % 4)
    return json.loads(base64.urlsafe_b64decode(payload))


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

    def header(self, name: str) -> Optional[str]:
        return self.headers.get(name.lower())


class RecordingProxy:
    """Forwards every request to the emulator and remembers what the client sent."""

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
                with proxy._lock:
                    proxy.requests.append(RecordedRequest(
                        self.command, self.path, {k.lower(): v for k, v in self.headers.items()}, body))
                forwarded = urllib.request.Request(target + self.path, data=body or None, method=self.command)
                for name in ("Content-Type", "Authorization"):
                    if self.headers.get(name):
                        forwarded.add_header(name, self.headers[name])
                try:
                    with urllib.request.urlopen(forwarded, timeout=TIMEOUT) as response:
                        status, payload = response.status, response.read()
                        content_type = response.headers.get("Content-Type", "application/json")
                except urllib.error.HTTPError as error:
                    status, payload = error.code, error.read()
                    content_type = error.headers.get("Content-Type", "application/json")
                self.send_response(status)
                self.send_header("Content-Type", content_type)
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
