"""Auth-state and ID-token listeners: when they are called, on which thread, and removal."""

from __future__ import annotations

import logging
import queue
import threading
import time
from typing import List, Optional, Tuple

import pytest

import hearth
from hearth_testing import TIMEOUT, unique_email

Call = Tuple[Optional[str], int]  # (uid or None, thread ident)


class Recorder:
    """A listener that records (uid, thread) of each call, for the test thread to wait on."""

    def __init__(self) -> None:
        self.calls: "queue.Queue[Call]" = queue.Queue()

    def __call__(self, user: Optional[hearth.User]) -> None:
        self.calls.put((user.uid if user is not None else None, threading.get_ident()))

    def next(self) -> Call:
        try:
            return self.calls.get(timeout=TIMEOUT)
        except queue.Empty:
            raise AssertionError("the listener was not called") from None

    def next_uid(self) -> Optional[str]:
        return self.next()[0]

    def pending(self) -> List[Call]:
        calls = []
        while True:
            try:
                calls.append(self.calls.get_nowait())
            except queue.Empty:
                return calls


class TestAuthStateListener:
    def test_it_is_called_once_when_added_then_on_sign_in_and_sign_out(self, app: hearth.App) -> None:
        auth = app.auth
        recorder = Recorder()

        auth.add_auth_state_listener(recorder)
        assert recorder.next_uid() is None
        uid = auth.sign_in_anonymously().result(TIMEOUT).user.uid
        assert recorder.next_uid() == uid
        auth.sign_out()
        assert recorder.next_uid() is None

    def test_it_runs_on_the_loop_thread_never_the_registering_thread(self, app: hearth.App) -> None:
        seen: "queue.Queue[Tuple[int, bool]]" = queue.Queue()

        app.auth.add_auth_state_listener(lambda _user: seen.put((threading.get_ident(), app.is_loop_thread())))

        thread, on_loop_thread = seen.get(timeout=TIMEOUT)
        assert thread != threading.get_ident()
        assert on_loop_thread is True
        assert app.is_loop_thread() is False

    def test_it_is_not_called_for_a_token_refresh(self, app: hearth.App) -> None:
        auth = app.auth
        user = auth.sign_in_anonymously().result(TIMEOUT).user
        state = Recorder()
        tokens = Recorder()
        auth.add_auth_state_listener(state)
        auth.add_id_token_listener(tokens)
        assert state.next_uid() == user.uid
        assert tokens.next_uid() == user.uid

        time.sleep(1.1)  # whole-second token timestamps: the refreshed token must differ
        user.get_token(force_refresh=True).result(TIMEOUT)

        assert tokens.next_uid() == user.uid  # the ID-token listener hears of the new token...
        assert state.pending() == []  # ...the auth-state listener does not (the uid is unchanged)

    def test_after_removal_it_is_never_called_again(self, app: hearth.App) -> None:
        auth = app.auth
        removed = Recorder()
        witness = Recorder()
        handle = auth.add_auth_state_listener(removed)
        assert removed.next_uid() is None

        auth.remove_auth_state_listener(handle)
        auth.add_auth_state_listener(witness)
        assert witness.next_uid() is None
        uid = auth.sign_in_anonymously().result(TIMEOUT).user.uid
        assert witness.next_uid() == uid

        assert removed.pending() == []
        assert handle.active is False
        handle.remove()  # removing twice is harmless

    def test_a_handle_used_as_a_context_manager_removes_the_listener(self, app: hearth.App) -> None:
        auth = app.auth
        recorder = Recorder()
        witness = Recorder()
        auth.add_auth_state_listener(witness)
        assert witness.next_uid() is None

        with auth.add_auth_state_listener(recorder):
            assert recorder.next_uid() is None
        auth.sign_in_anonymously().result(TIMEOUT)
        witness.next_uid()

        assert recorder.pending() == []

    def test_removing_with_the_wrong_kind_of_handle_is_refused(self, app: hearth.App) -> None:
        handle = app.auth.add_id_token_listener(lambda _user: None)

        with pytest.raises(ValueError):
            app.auth.remove_auth_state_listener(handle)
        with pytest.raises(TypeError):
            app.auth.remove_auth_state_listener(42)  # type: ignore[arg-type]
        app.auth.remove_id_token_listener(handle)

    def test_an_exception_in_a_listener_is_logged_and_does_not_stop_others(
            self, app: hearth.App, caplog: pytest.LogCaptureFixture) -> None:
        auth = app.auth
        caplog.set_level(logging.ERROR, logger="hearth")

        def broken(_user: Optional[hearth.User]) -> None:
            raise RuntimeError("listener bug")

        witness = Recorder()
        auth.add_auth_state_listener(broken)
        auth.add_auth_state_listener(witness)
        witness.next_uid()
        uid = auth.sign_in_anonymously().result(TIMEOUT).user.uid

        assert witness.next_uid() == uid
        failures = [record for record in caplog.records if record.exc_info and "listener bug" in str(record.exc_info[1])]
        assert len(failures) >= 2  # once when added, once for the sign-in
        assert all(record.name == "hearth" for record in failures)

    def test_a_listener_may_call_hearth_from_inside_the_callback(self, app: hearth.App) -> None:
        auth = app.auth
        tokens: "queue.Queue[str]" = queue.Queue()

        def on_change(user: Optional[hearth.User]) -> None:
            if user is not None:
                user.get_token().add_done_callback(lambda future: tokens.put(future.result()))

        auth.add_auth_state_listener(on_change)
        user = auth.sign_in_anonymously().result(TIMEOUT).user

        assert tokens.get(timeout=TIMEOUT) == user.get_token().result(TIMEOUT)

    def test_a_non_callable_listener_is_a_type_error(self, auth: hearth.Auth) -> None:
        with pytest.raises(TypeError):
            auth.add_auth_state_listener("not callable")  # type: ignore[arg-type]


class TestIdTokenListener:
    def test_it_hears_sign_in_refresh_and_sign_out_in_order(self, app: hearth.App) -> None:
        auth = app.auth
        recorder = Recorder()

        auth.add_id_token_listener(recorder)
        first = recorder.next()
        assert first[0] is None and first[1] != threading.get_ident()
        user = signed_in(auth)
        assert recorder.next_uid() == user.uid
        time.sleep(1.1)  # whole-second token timestamps: the refreshed token must differ
        user.get_token(force_refresh=True).result(TIMEOUT)
        assert recorder.next_uid() == user.uid
        auth.sign_out()
        assert recorder.next_uid() is None

    def test_after_removal_it_is_not_called(self, app: hearth.App) -> None:
        auth = app.auth
        recorder = Recorder()
        witness = Recorder()
        handle = auth.add_id_token_listener(recorder)
        assert recorder.next_uid() is None

        auth.remove_id_token_listener(handle)
        auth.add_id_token_listener(witness)
        witness.next_uid()
        signed_in(auth)
        witness.next_uid()

        assert recorder.pending() == []


def signed_in(auth: hearth.Auth) -> hearth.User:
    return auth.create_user_with_email_and_password(unique_email(), "correct-horse-1").result(TIMEOUT).user
