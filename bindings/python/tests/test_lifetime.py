"""Every callback handed to Hearth gets exactly one final call, also when the app closes: done-callbacks
run once (with CancelledError for what was still in flight), posted functions run or are told they were
cancelled, listeners and the provider-flow delegate are released — and what they captured is freed
once, with nothing left behind in the binding's registries. The same scenarios as
tests/c/test_destroy.c and tests/cpp."""

from __future__ import annotations

import gc
import queue
import threading
import time
import weakref
from typing import Any, Callable, List, Tuple

import pytest

import hearth
from hearth import _core
from hearth_testing import TIMEOUT


class Captured:
    """Something a callback captures; counts how often it is freed."""

    frees: List[str] = []

    def __init__(self, name: str) -> None:
        self.name = name
        weakref.finalize(self, Captured.frees.append, name)


@pytest.fixture(autouse=True)
def fresh_counts() -> None:
    Captured.frees = []


def registries() -> Tuple[int, int, int, int, int]:
    return (len(_core.FUTURES), len(_core.LISTENERS), len(_core.POSTS), len(_core.OPEN_URLS),
            len(_core.PHONE_LISTENERS))


def freed_once(*names: str) -> bool:
    gc.collect()
    return sorted(Captured.frees) == sorted(names)


class TestClosingTheApp:
    def test_pending_done_callbacks_run_once_as_cancelled_on_the_loop_thread_before_close_returns(
            self, make_app: Callable[..., hearth.App], silent_port: int) -> None:
        app = make_app()
        before = registries()
        app.auth.use_emulator("127.0.0.1", silent_port)
        calls: "queue.Queue[Tuple[str, Any, bool]]" = queue.Queue()
        caller = threading.get_ident()
        futures = [app.auth.sign_in_anonymously(), app.auth.fetch_providers_for_email("a@example.com")]
        for index, future in enumerate(futures):
            captured = Captured(f"op{index}")
            future.add_done_callback(
                lambda f, c=captured: calls.put((c.name, type(f.exception()), threading.get_ident() != caller)))
            del captured
        time.sleep(0.1)
        assert calls.empty()

        app.close()

        # Hearth's own loop: the final calls ran before close returned.
        assert calls.qsize() == 2
        # In the order the operations started, on the loop thread (not the closing one).
        assert [calls.get_nowait() for _ in range(2)] == [("op0", hearth.CancelledError, True),
                                                          ("op1", hearth.CancelledError, True)]
        time.sleep(0.05)
        assert calls.empty()
        assert freed_once("op0", "op1")
        assert registries() == before

    def test_a_posted_function_runs_in_its_turn_or_its_on_cancelled_runs_instead(
            self, make_app: Callable[..., hearth.App]) -> None:
        app = make_app()
        before = registries()
        events: "queue.Queue[str]" = queue.Queue()
        gate = threading.Event()

        def close_when_told() -> None:
            # On the loop thread: what is queued behind this never gets its turn.
            gate.wait(TIMEOUT)
            app.close()

        app.post(lambda: events.put("ran first"))
        assert events.get(timeout=TIMEOUT) == "ran first"
        app.post(close_when_told)
        captured = Captured("late")
        app.post(lambda c=captured: events.put(f"ran {c.name}"),
                 on_cancelled=lambda c=captured: events.put(f"cancelled {c.name}"))
        del captured
        gate.set()

        assert events.get(timeout=TIMEOUT) == "cancelled late"
        time.sleep(0.05)
        assert events.empty()
        assert freed_once("late")
        assert registries() == before
        with pytest.raises(hearth.AppDestroyedError):
            app.post(lambda: None)

    def test_listeners_are_released_when_removed_or_when_the_app_closes(
            self, make_app: Callable[..., hearth.App]) -> None:
        app = make_app()
        before = registries()
        calls: "queue.Queue[str]" = queue.Queue()
        removed = Captured("removed")
        kept = Captured("kept")
        first = app.auth.add_auth_state_listener(lambda user, c=removed: calls.put(c.name))
        app.auth.add_id_token_listener(lambda user, c=kept: calls.put(c.name))
        del removed, kept
        assert sorted([calls.get(timeout=TIMEOUT), calls.get(timeout=TIMEOUT)]) == ["kept", "removed"]

        first.remove()
        deadline = time.monotonic() + TIMEOUT
        while "removed" not in Captured.frees and time.monotonic() < deadline:
            gc.collect()
            time.sleep(0.01)
        assert Captured.frees == ["removed"]
        app.auth.sign_in_anonymously().result(TIMEOUT)
        assert calls.get(timeout=TIMEOUT) == "kept"  # only the listener still added hears the sign-in

        app.close()
        time.sleep(0.05)
        assert freed_once("removed", "kept")
        assert registries() == before

    def test_a_replaced_open_url_delegate_is_released_and_the_last_one_at_close(
            self, make_app: Callable[..., hearth.App]) -> None:
        app = make_app()
        before = registries()
        first = Captured("first")
        app.auth.set_provider_flow(open_url=lambda url, c=first: True)
        second = Captured("second")
        app.auth.set_provider_flow(open_url=lambda url, c=second: True)
        del first, second
        deadline = time.monotonic() + TIMEOUT
        while "first" not in Captured.frees and time.monotonic() < deadline:
            gc.collect()
            time.sleep(0.01)
        assert Captured.frees == ["first"]
        app.close()
        assert freed_once("first", "second")
        assert registries() == before

    def test_a_phone_verification_pending_at_close_fails_as_cancelled_once_then_is_released(
            self, make_app: Callable[..., hearth.App], silent_port: int) -> None:
        app = make_app()
        before = registries()
        app.auth.use_emulator("127.0.0.1", silent_port)
        events: "queue.Queue[Any]" = queue.Queue()
        captured = Captured("phone")
        app.auth.verify_phone_number_with_listener(
            "+16505554567",
            on_code_sent=lambda verification, c=captured: events.put("sent"),
            on_verification_failed=lambda error, c=captured: events.put(type(error)))
        del captured
        time.sleep(0.1)
        assert events.empty()
        app.close()
        assert events.get_nowait() is hearth.CancelledError
        time.sleep(0.05)
        assert events.empty()
        assert freed_once("phone")
        assert registries() == before

    def test_closing_from_inside_a_callback_makes_the_final_calls_right_after_it(
            self, make_app: Callable[..., hearth.App], silent_port: int) -> None:
        app = make_app()
        app.auth.use_emulator("127.0.0.1", silent_port)
        events: "queue.Queue[str]" = queue.Queue()
        stuck = app.auth.sign_in_anonymously()
        stuck.add_done_callback(lambda f: events.put(f"done {type(f.exception()).__name__}"))

        def close_here() -> None:
            app.close()
            events.put("close returned")  # before the final calls: they run after this callback

        app.post(close_here)
        assert events.get(timeout=TIMEOUT) == "close returned"
        assert events.get(timeout=TIMEOUT) == "done CancelledError"


class TestDoneCallbacksAfterClose:
    def test_adding_one_to_a_closed_apps_future_is_refused_but_its_result_stays_readable(
            self, make_app: Callable[..., hearth.App]) -> None:
        app = make_app()
        future = app.auth.sign_in_anonymously()
        user = future.result(TIMEOUT).user
        app.close()
        with pytest.raises(hearth.AppDestroyedError):
            future.add_done_callback(lambda f: None)
        assert future.result(0).user.uid == user.uid
