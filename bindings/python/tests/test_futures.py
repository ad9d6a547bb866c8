"""hearth.Future: blocking results, timeouts, done-callbacks, asyncio, last results, cancellation."""

from __future__ import annotations

import asyncio
import gc
import logging
import queue
import threading
import time
from typing import Any, Callable, List, Tuple

import pytest

import hearth
from hearth_testing import TIMEOUT, Emulator, unique_email

PASSWORD = "correct-horse-1"


class TestBlockingResults:
    def test_result_waits_for_completion_and_done_reports_it(self, auth: hearth.Auth) -> None:
        future = auth.sign_in_anonymously()

        result = future.result(TIMEOUT)

        assert future.done() is True
        assert future.exception() is None
        assert future.error_code == hearth.ErrorCode.NONE
        assert future.result() is result  # the outcome is computed once

    def test_exception_returns_the_error_instead_of_raising(self, auth: hearth.Auth) -> None:
        future = auth.sign_in_with_email_and_password(unique_email("nobody"), PASSWORD)

        error = future.exception(TIMEOUT)

        assert isinstance(error, hearth.UserNotFoundError)
        assert future.error_code == hearth.ErrorCode.USER_NOT_FOUND
        assert "failed USER_NOT_FOUND" in repr(future)

    def test_result_with_a_timeout_raises_timeout_error_while_pending(
            self, app: hearth.App, silent_port: int) -> None:
        app.auth.use_emulator("127.0.0.1", silent_port)
        future = app.auth.sign_in_anonymously()

        started = time.monotonic()
        with pytest.raises(TimeoutError):
            future.result(timeout=0.3)

        assert 0.25 <= time.monotonic() - started < 5
        assert future.done() is False
        assert repr(future) == "<hearth.Future pending>"
        with pytest.raises(TimeoutError):
            future.exception(timeout=0)

    def test_a_timeout_of_the_wrong_type_is_a_type_error(self, auth: hearth.Auth) -> None:
        future = auth.sign_in_anonymously()
        with pytest.raises(TypeError):
            future.result(timeout="soon")  # type: ignore[arg-type]
        future.result(TIMEOUT)

    def test_many_threads_can_run_operations_on_one_app_at_once(self, auth: hearth.Auth, emulator: Emulator) -> None:
        uids: "queue.Queue[str]" = queue.Queue()

        def worker() -> None:
            futures = [auth.create_user_with_email_and_password(unique_email(), PASSWORD) for _ in range(5)]
            for future in futures:
                uids.put(future.result(TIMEOUT).user.uid)

        threads = [threading.Thread(target=worker) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(TIMEOUT * 2)

        created = [uids.get_nowait() for _ in range(uids.qsize())]
        assert len(created) == 20
        assert len(set(created)) == 20
        assert all(emulator.lookup(uid) is not None for uid in created[:3])


class TestDoneCallbacks:
    def test_a_done_callback_runs_once_on_the_loop_thread(self, app: hearth.App) -> None:
        calls: "queue.Queue[Any]" = queue.Queue()
        future = app.auth.sign_in_anonymously()

        future.add_done_callback(lambda f: calls.put((f, threading.get_ident(), app.is_loop_thread(), f.result())))

        finished, thread, on_loop, result = calls.get(timeout=TIMEOUT)
        assert finished is future
        assert thread != threading.get_ident()
        assert on_loop is True
        assert result.user.is_anonymous
        time.sleep(0.05)
        assert calls.empty()

    def test_every_done_callback_runs_in_the_order_added(self, auth: hearth.Auth) -> None:
        order: List[int] = []
        done = threading.Event()
        future = auth.sign_in_anonymously()

        def last(_future: hearth.Future[hearth.AuthResult]) -> None:
            order.append(3)
            done.set()

        future.add_done_callback(lambda _f: order.append(1))
        future.add_done_callback(lambda _f: order.append(2))
        future.add_done_callback(last)

        assert done.wait(TIMEOUT)
        assert order == [1, 2, 3]

    def test_a_callback_added_after_completion_runs_on_the_loop_thread_never_in_the_caller(
            self, app: hearth.App) -> None:
        future = app.auth.sign_in_anonymously()
        future.result(TIMEOUT)
        seen: "queue.Queue[Tuple[int, bool]]" = queue.Queue()
        # The loop thread is held in a function posted first, so the check below cannot race a loop
        # thread that runs the callback the moment it is queued (a woken loop thread may well run
        # before this thread's next line).
        go_on = threading.Event()
        app.post(lambda: go_on.wait(TIMEOUT))

        future.add_done_callback(lambda _f: seen.put((threading.get_ident(), app.is_loop_thread())))

        assert seen.empty()  # not inside add_done_callback
        go_on.set()
        thread, on_loop = seen.get(timeout=TIMEOUT)
        assert thread != threading.get_ident()
        assert on_loop is True
        time.sleep(0.05)
        assert seen.empty()  # once

    def test_a_failing_done_callback_is_logged_and_later_ones_still_run(
            self, auth: hearth.Auth, caplog: pytest.LogCaptureFixture) -> None:
        caplog.set_level(logging.ERROR, logger="hearth")
        ran = threading.Event()
        future = auth.sign_in_anonymously()

        def broken(_future: hearth.Future[Any]) -> None:
            raise ValueError("callback bug")

        future.add_done_callback(broken)
        future.add_done_callback(lambda _f: ran.set())

        assert ran.wait(TIMEOUT)
        assert any(record.exc_info and "callback bug" in str(record.exc_info[1]) for record in caplog.records)

    def test_blocking_on_a_pending_future_on_the_loop_thread_raises_would_deadlock(
            self, app: hearth.App, silent_port: int) -> None:
        outcome: "queue.Queue[BaseException]" = queue.Queue()
        app.auth.use_emulator("127.0.0.1", silent_port)
        pending = app.auth.sign_in_anonymously()

        def blocks() -> None:
            try:
                pending.result()
            except BaseException as error:  # noqa: BLE001 - handed to the test thread
                outcome.put(error)

        app.post(blocks)

        error = outcome.get(timeout=TIMEOUT)
        assert isinstance(error, hearth.WouldDeadlockError)
        assert isinstance(error, RuntimeError)
        assert error.code == hearth.ErrorCode.WOULD_DEADLOCK
        assert not pending.done()

    def test_a_non_callable_done_callback_is_a_type_error(self, auth: hearth.Auth) -> None:
        future = auth.sign_in_anonymously()
        with pytest.raises(TypeError):
            future.add_done_callback(None)  # type: ignore[arg-type]
        future.result(TIMEOUT)


class TestAsyncio:
    def test_awaiting_several_sign_ins_concurrently(self, make_app: Callable[..., hearth.App]) -> None:
        auth = make_app().auth
        emails = [unique_email() for _ in range(5)]
        for email in emails:
            auth.create_user_with_email_and_password(email, PASSWORD).result(TIMEOUT)
        auth.sign_out()

        async def sign_in_all() -> List[hearth.AuthResult]:
            loop_thread = threading.get_ident()
            results = await asyncio.gather(
                *(auth.sign_in_with_email_and_password(email, PASSWORD) for email in emails))
            assert threading.get_ident() == loop_thread  # resumed on the event loop, not Hearth's thread
            return list(results)

        results = asyncio.run(sign_in_all())

        assert [result.user.email for result in results] == emails
        assert len({result.user.uid for result in results}) == 5

    def test_awaiting_concurrent_creations_across_apps(self, make_app: Callable[..., hearth.App]) -> None:
        apps = [make_app() for _ in range(3)]

        async def create_all() -> List[hearth.AuthResult]:
            return list(await asyncio.gather(
                *(app.auth.create_user_with_email_and_password(unique_email(), PASSWORD) for app in apps)))

        results = asyncio.run(create_all())

        for app, result in zip(apps, results):
            current = app.auth.current_user
            assert current is not None and current.uid == result.user.uid

    def test_awaiting_a_failed_operation_raises_its_error(self, auth: hearth.Auth) -> None:
        async def sign_in() -> None:
            await auth.sign_in_with_email_and_password(unique_email("nobody"), PASSWORD)

        with pytest.raises(hearth.UserNotFoundError):
            asyncio.run(sign_in())

    def test_awaiting_an_already_finished_future(self, auth: hearth.Auth) -> None:
        future = auth.sign_in_anonymously()
        expected = future.result(TIMEOUT)

        async def again() -> hearth.AuthResult:
            return await future

        assert asyncio.run(again()) is expected

    def test_the_event_loop_keeps_running_while_an_operation_is_pending(self, app: hearth.App) -> None:
        ticks = 0
        # The app's loop thread is held until the event loop has ticked a few times, so the operation is
        # certainly pending while it ticks (a fast loop thread could otherwise finish it first).
        go_on = threading.Event()
        app.post(lambda: go_on.wait(TIMEOUT))

        async def ticker() -> None:
            nonlocal ticks
            while True:
                ticks += 1
                if ticks == 5:
                    go_on.set()
                await asyncio.sleep(0)

        async def main() -> None:
            task = asyncio.ensure_future(ticker())
            future = app.auth.create_user_with_email_and_password(unique_email(), PASSWORD)
            assert not future.done()
            await future
            task.cancel()

        asyncio.run(main())
        assert ticks >= 5


class TestLastResults:
    def test_every_auth_operation_remembers_its_latest_future(self, auth: hearth.Auth) -> None:
        assert auth.sign_in_anonymously_last_result() is None
        assert auth.create_user_with_email_and_password_last_result() is None
        assert auth.sign_in_with_email_and_password_last_result() is None
        assert auth.sign_in_with_custom_token_last_result() is None
        assert auth.sign_in_with_credential_last_result() is None
        assert auth.sign_in_and_retrieve_data_with_credential_last_result() is None
        assert auth.send_password_reset_email_last_result() is None
        assert auth.fetch_providers_for_email_last_result() is None

        email = unique_email()
        created = auth.create_user_with_email_and_password(email, PASSWORD).result(TIMEOUT)
        auth.fetch_providers_for_email(email).result(TIMEOUT)
        with pytest.raises(hearth.WrongPasswordError):
            auth.sign_in_with_email_and_password(email, "wrong-password").result(TIMEOUT)

        last_create = auth.create_user_with_email_and_password_last_result()
        assert last_create is not None
        assert last_create.result(TIMEOUT).user.uid == created.user.uid
        last_fetch = auth.fetch_providers_for_email_last_result()
        assert last_fetch is not None and last_fetch.result(TIMEOUT) == ["password"]
        last_sign_in = auth.sign_in_with_email_and_password_last_result()
        assert last_sign_in is not None
        assert isinstance(last_sign_in.exception(TIMEOUT), hearth.WrongPasswordError)
        assert auth.sign_in_anonymously_last_result() is None

    def test_the_last_result_is_the_most_recent_call(self, auth: hearth.Auth) -> None:
        auth.sign_in_with_custom_token('{"uid":"first"}').result(TIMEOUT)
        auth.sign_in_with_custom_token('{"uid":"second"}').result(TIMEOUT)

        last = auth.sign_in_with_custom_token_last_result()

        assert last is not None and last.result(TIMEOUT).user.uid == "second"

    def test_dropping_a_future_does_not_cancel_its_operation(self, auth: hearth.Auth, emulator: Emulator) -> None:
        email = unique_email()
        auth.create_user_with_email_and_password(email, PASSWORD)  # the returned future is dropped at once
        gc.collect()

        last = auth.create_user_with_email_and_password_last_result()
        assert last is not None
        uid = last.result(TIMEOUT).user.uid
        assert emulator.lookup(uid) is not None


class TestClosingWithOperationsInFlight:
    def test_pending_futures_fail_with_cancelled_and_their_callbacks_run(
            self, make_app: Callable[..., hearth.App], silent_port: int) -> None:
        app = make_app()
        app.auth.use_emulator("127.0.0.1", silent_port)
        blocked = app.auth.sign_in_anonymously()
        with_callback = app.auth.create_user_with_email_and_password(unique_email(), PASSWORD)
        called: "queue.Queue[Any]" = queue.Queue()
        with_callback.add_done_callback(lambda f: called.put(f.exception()))
        waiter_error: "queue.Queue[BaseException]" = queue.Queue()

        def wait_in_thread() -> None:
            try:
                blocked.result(TIMEOUT)
            except BaseException as error:  # noqa: BLE001
                waiter_error.put(error)

        waiter = threading.Thread(target=wait_in_thread)
        waiter.start()
        time.sleep(0.2)
        assert not blocked.done()

        started = time.monotonic()
        app.close()
        assert time.monotonic() - started < 2  # close does not wait on the network

        waiter.join(TIMEOUT)
        error = waiter_error.get(timeout=1)
        assert isinstance(error, hearth.CancelledError)
        assert not isinstance(error, asyncio.CancelledError)
        assert error.code == hearth.ErrorCode.CANCELLED
        assert isinstance(called.get(timeout=TIMEOUT), hearth.CancelledError)
        with pytest.raises(hearth.CancelledError):
            with_callback.result(0)

    def test_closing_the_app_from_inside_a_callback_cancels_the_rest(
            self, make_app: Callable[..., hearth.App], silent_port: int) -> None:
        app = make_app()
        app.auth.use_emulator("127.0.0.1", silent_port)
        stuck = app.auth.sign_in_anonymously()
        outcome: "queue.Queue[Any]" = queue.Queue()
        stuck.add_done_callback(lambda f: outcome.put(f.exception()))

        app.post(app.close)

        assert isinstance(outcome.get(timeout=TIMEOUT), hearth.CancelledError)
        assert app.closed

    def test_an_awaiting_coroutine_gets_cancelled_error(self, make_app: Callable[..., hearth.App],
                                                        silent_port: int) -> None:
        app = make_app()
        app.auth.use_emulator("127.0.0.1", silent_port)

        async def main() -> None:
            future = app.auth.sign_in_anonymously()
            asyncio.get_running_loop().call_later(0.2, app.close)
            await future

        with pytest.raises(hearth.CancelledError):
            asyncio.run(asyncio.wait_for(main(), TIMEOUT))
