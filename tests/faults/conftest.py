"""Fixtures for the network-fault suite: the emulator (required), a fault proxy in front of it, apps
that talk to the emulator through the proxy with a short request timeout, and an observer that counts
how often a future's completion callback runs."""

from __future__ import annotations

import itertools
import json
import os
import threading
import time
import urllib.error
import urllib.request
import uuid
from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple

import pytest

import hearth
from hearth._lib import COMPLETION_CB, lib

from fault_proxy import FaultProxy

PROJECT = "demo-hearth"
API_KEY = "fake-api-key"
PASSWORD = "correct horse battery"
#: The apps' request_timeout: short, so that a stall costs the suite little, long enough that a
#: healthy loopback request never comes near it.
REQUEST_TIMEOUT = 1.0
#: Scheduling slack on top of a deadline (two shared cores, other suites running).
SLACK = 1.0


# ---------------------------------------------------------------------------------------------------
# The emulator
# ---------------------------------------------------------------------------------------------------


class Emulator:
    def __init__(self, url: str) -> None:
        self.url = url.rstrip("/")
        host, _, port = self.url.split("://", 1)[1].rpartition(":")
        self.host = host
        self.port = int(port)

    def post(self, path: str, body: Dict[str, Any]) -> Tuple[int, Any]:
        request = urllib.request.Request(self.url + path, data=json.dumps(body).encode(), method="POST",
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, json.loads(response.read() or b"null")
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"null")

    def create_account(self, email: str, password: str = PASSWORD) -> str:
        status, body = self.post(f"/identitytoolkit.googleapis.com/v1/accounts:signUp?key={API_KEY}",
                                 {"email": email, "password": password, "returnSecureToken": True})
        assert status == 200, body
        return str(body["localId"])


@pytest.fixture(scope="session")
def emulator() -> Emulator:
    url = os.environ.get("HEARTH_EMULATOR_URL")
    if not url and os.environ.get("FIREBASE_AUTH_EMULATOR_HOST"):
        url = "http://" + os.environ["FIREBASE_AUTH_EMULATOR_HOST"]
    if not url:
        pytest.fail("no emulator: run the suite through scripts/with-emulator (make test-faults)", pytrace=False)
    emulator = Emulator(url)
    try:
        with urllib.request.urlopen(emulator.url + "/", timeout=10) as response:
            assert response.status == 200
    except OSError as error:
        pytest.fail(f"the emulator at {url} does not answer: {error}", pytrace=False)
    return emulator


@pytest.fixture
def proxy(emulator: Emulator) -> Iterator[FaultProxy]:
    with FaultProxy(emulator.host, emulator.port) as running:
        yield running


def unique_email() -> str:
    return f"fault-{uuid.uuid4().hex[:12]}@example.com"


# ---------------------------------------------------------------------------------------------------
# Apps through the proxy
# ---------------------------------------------------------------------------------------------------

_names = itertools.count(1)


@pytest.fixture
def make_app(proxy: FaultProxy) -> Iterator[Callable[..., hearth.App]]:
    """Apps whose every request goes through `proxy`; closed after the test."""
    apps: List[hearth.App] = []

    def make(**options: Any) -> hearth.App:
        options.setdefault("api_key", API_KEY)
        options.setdefault("project_id", PROJECT)
        options.setdefault("persistence", "none")
        options.setdefault("app_name", f"faults-{os.getpid()}-{next(_names)}")
        options.setdefault("request_timeout", REQUEST_TIMEOUT)
        app = hearth.App(**options)
        apps.append(app)
        app.auth.use_emulator("127.0.0.1", proxy.port)
        return app

    yield make
    for app in apps:
        app.close()


# ---------------------------------------------------------------------------------------------------
# Watching a future complete
# ---------------------------------------------------------------------------------------------------


class CompletionWatch:
    """Counts the completion callbacks of one operation, on two paths: a native completion callback on
    a reference of its own (hearth_future_retain + hearth_future_add_callback, so the binding's
    bookkeeping cannot hide a second call) and a Python done-callback."""

    def __init__(self, future: "hearth.Future[Any]") -> None:
        self.future = future
        self.native_calls = 0
        self.python_calls = 0
        self.native_status_seen: List[int] = []
        self._lock = threading.Lock()
        self._reference = lib.hearth_future_retain(future._handle)
        assert self._reference, "hearth_future_retain returned NULL"

        def on_native(handle: Optional[int], _user_data: Optional[int]) -> None:
            with self._lock:
                self.native_calls += 1
                self.native_status_seen.append(lib.hearth_future_status(handle))

        def on_python(_future: Any) -> None:
            with self._lock:
                self.python_calls += 1

        self._callback = COMPLETION_CB(on_native)  # kept alive as long as C may call it
        assert lib.hearth_future_add_callback(self._reference, self._callback, None) == 0
        future.add_done_callback(on_python)

    def settle(self, deadline: float) -> Tuple[float, Optional[hearth.AuthError], Any]:
        """Waits up to `deadline` seconds; returns (seconds taken, error or None, value or None)."""
        started = time.monotonic()
        try:
            value = self.future.result(timeout=deadline)
            error = None
        except hearth.AuthError as failure:
            value, error = None, failure
        return time.monotonic() - started, error, value

    def assert_completed_once(self, linger: float = 0.25) -> None:
        """After `linger` seconds more, each callback has run exactly once and the outcome held."""
        code = self.future.error_code
        time.sleep(linger)
        with self._lock:
            assert self.native_calls == 1, f"the native completion callback ran {self.native_calls} times"
            assert self.python_calls == 1, f"the done-callback ran {self.python_calls} times"
            assert self.native_status_seen == [0], "the callback ran before the future was complete"
        assert self.future.error_code == code, "the future's outcome changed after it completed"
        assert lib.hearth_future_error(self._reference) == code, "two references disagree on the outcome"

    def release(self) -> None:
        lib.hearth_future_release(self._reference)
        self._reference = None


@pytest.fixture
def watch() -> Iterator[Callable[["hearth.Future[Any]"], CompletionWatch]]:
    watches: List[CompletionWatch] = []

    def make(future: "hearth.Future[Any]") -> CompletionWatch:
        watching = CompletionWatch(future)
        watches.append(watching)
        return watching

    yield make
    for watching in watches:
        watching.release()
