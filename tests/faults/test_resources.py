"""Faults leave nothing behind: after hundreds of failed requests and closing the app, the process has
the same file descriptors and threads as before, and its memory has not grown with the fault count."""

from __future__ import annotations

import os
import time
from typing import Callable, Dict

import hearth

from conftest import PASSWORD, REQUEST_TIMEOUT, SLACK, unique_email
from fault_proxy import Fault, FaultProxy


def open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def thread_count() -> int:
    return len(os.listdir("/proc/self/task"))


def rss_kib() -> int:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise AssertionError("no VmRSS in /proc/self/status")


def wait_for(condition: Callable[[], bool], seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.02)


FAULTS = [Fault.reset(), Fault.reset_mid_response(), Fault.truncate(), Fault.respond(503, content_type=None),
          Fault.respond(429, content_type=None), Fault.respond(200, b"<html>", "text/html")]


def run_faulted_operations(proxy: FaultProxy, rounds: int) -> Dict[str, int]:
    """One app: sign up, then `rounds` x every fault x (forced refresh, reload), plus refused
    connections and stalls; returns how many operations failed per code."""
    failed: Dict[str, int] = {}
    with hearth.App(api_key="fake-api-key", project_id="demo-hearth", persistence="none",
                    request_timeout=REQUEST_TIMEOUT, app_name=f"leaks-{time.monotonic_ns()}") as app:
        auth = app.auth
        auth.use_emulator("127.0.0.1", proxy.port)
        auth.create_user_with_email_and_password(unique_email(), PASSWORD).result(timeout=10)
        user = auth.current_user
        assert user is not None

        def expect_failure(future: "hearth.Future[object]") -> None:
            error = future.exception(timeout=REQUEST_TIMEOUT + SLACK + 5)
            assert error is not None
            failed[error.code.name] = failed.get(error.code.name, 0) + 1

        for _ in range(rounds):
            for fault in FAULTS:
                proxy.clear()
                proxy.add_rule(fault)
                expect_failure(user.get_token(force_refresh=True))
                expect_failure(user.reload())
            proxy.clear()
            proxy.refuse()
            expect_failure(user.get_token(force_refresh=True))
            proxy.accept()
        # A few stalls: each holds a connection until the request timeout drops it.
        proxy.clear()
        proxy.add_rule(Fault.stall())
        for _ in range(3):
            expect_failure(user.reload())
        proxy.clear()
        assert auth.current_user is not None and auth.current_user.uid == user.uid
        user.reload().result(timeout=10)
    return failed


def test_faulted_requests_leak_no_descriptors_threads_or_memory(proxy: FaultProxy) -> None:
    # Warm-up: the first app loads libcurl's and the binding's one-time state.
    run_faulted_operations(proxy, rounds=2)
    wait_for(lambda: proxy.open_connections == 0, 5, "the proxy's connections to close")
    fds, threads, rss = open_fds(), thread_count(), rss_kib()

    failed = run_faulted_operations(proxy, rounds=25)
    wait_for(lambda: proxy.open_connections == 0, 5, "the proxy's connections to close")

    total = sum(failed.values())
    assert total == 25 * (2 * len(FAULTS) + 1) + 3
    assert failed == {"NETWORK_REQUEST_FAILED": 25 * (2 * 3 + 1) + 3, "FAILURE": 25 * 2 * 2,
                      "TOO_MANY_REQUESTS": 25 * 2}
    # The in-process proxy's own sockets and threads come and go too (and the warm-up app's loop thread
    # may still have been on its way out when the baseline was taken), so fewer is fine; more is a leak.
    wait_for(lambda: open_fds() <= fds, 5, f"descriptors to return to {fds} (now {open_fds()})")
    wait_for(lambda: thread_count() <= threads, 5, f"threads to return to {threads} (now {thread_count()})")
    growth = rss_kib() - rss
    assert growth < 4096, f"RSS grew by {growth} KiB over {total} failed operations"
