"""Fixtures: the running emulator (required: the suite fails without one), apps, helper servers."""

from __future__ import annotations

import itertools
import os
import socket
from typing import Any, Callable, Iterator, List

import pytest

import hearth
from hearth_testing import API_KEY, PROJECT, Emulator, RecordingProxy, emulator_url_from_environment


@pytest.fixture(scope="session")
def emulator() -> Emulator:
    url = emulator_url_from_environment()
    if not url:
        pytest.fail(
            "no emulator: set HEARTH_EMULATOR_URL or FIREBASE_AUTH_EMULATOR_HOST "
            "(run the suite through scripts/with-emulator)", pytrace=False)
    emulator = Emulator(url)
    try:
        status, _ = emulator.request("GET", "/")
    except OSError as error:
        pytest.fail(f"the emulator at {url} does not answer: {error}", pytrace=False)
    assert status == 200, f"GET / on the emulator answered HTTP {status}"
    return emulator


@pytest.fixture(autouse=True)
def clean_emulator(emulator: Emulator) -> Iterator[None]:
    emulator.wipe()
    yield


@pytest.fixture
def emulator_config(emulator: Emulator) -> Iterator[Emulator]:
    """The emulator, whose project config (test phone numbers, SMS code lifetime, rate limit, ...)
    the test may change: it is put back afterwards (wiping accounts keeps the config)."""
    before = emulator.config()
    yield emulator
    emulator.set_config(**before)


_app_names = itertools.count(1)


@pytest.fixture
def make_app() -> Iterator[Callable[..., hearth.App]]:
    """Creates apps (persistence "none" and a unique name unless given) and closes them afterwards."""
    apps: List[hearth.App] = []

    def make(**options: Any) -> hearth.App:
        options.setdefault("api_key", API_KEY)
        options.setdefault("project_id", PROJECT)
        options.setdefault("persistence", "none")
        options.setdefault("app_name", f"pytest-{os.getpid()}-{next(_app_names)}")
        app = hearth.App(**options)
        apps.append(app)
        return app

    yield make
    for app in apps:
        app.close()


@pytest.fixture
def app(make_app: Callable[..., hearth.App]) -> hearth.App:
    return make_app()


@pytest.fixture
def auth(app: hearth.App) -> hearth.Auth:
    return app.auth


@pytest.fixture
def closed_port() -> int:
    """A loopback port with nothing listening (connections are refused)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def silent_port() -> Iterator[int]:
    """A port that accepts TCP connections (the kernel completes the handshake) but never answers."""
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.bind(("127.0.0.1", 0))
    server.listen(64)
    yield int(server.getsockname()[1])
    server.close()


@pytest.fixture
def recording_proxy(emulator: Emulator) -> Iterator[RecordingProxy]:
    proxy = RecordingProxy(emulator.url)
    yield proxy
    proxy.close()
