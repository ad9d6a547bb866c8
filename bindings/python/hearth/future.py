"""``hearth.Future``: the pending or finished result of one operation."""

from __future__ import annotations

import asyncio
import math
import sys
import threading
import time
import weakref
from typing import Any, Callable, Generator, Generic, List, Optional, Tuple, TypeVar

from ._core import FUTURES, AppCore
from ._lib import COMPLETION_CB, lib
from ._support import call_logged, check_callable, check_seconds, decode, decode_optional, logger
from .credential import Credential
from .errors import (
    AccountConflictError,
    AppDestroyedError,
    AuthError,
    ErrorCode,
    InvalidHandleError,
    SecondFactorRequiredError,
    WouldDeadlockError,
    error_from_code,
    raise_for_code,
)

__all__ = ["Future", "FutureReference"]

T = TypeVar("T")

_COMPLETE = 0
_PENDING = 1
_INVALID = 2

# hearth_future_wait is called in slices so that a blocked main thread still sees Ctrl-C.
_WAIT_SLICE_MS = 200


class Future(Generic[T]):
    """The result of a Hearth operation, like :class:`concurrent.futures.Future`, and awaitable.

    - ``result(timeout=None)`` blocks until the operation finishes and returns its value, or raises
      its :class:`~hearth.AuthError` subclass; :class:`TimeoutError` when ``timeout`` seconds pass first.
    - ``exception(timeout=None)`` is the same but returns the error instead of raising it.
    - ``done()`` tells whether the operation finished.
    - ``add_done_callback(fn)`` calls ``fn(future)`` once it finishes, on Hearth's loop thread: never in
      the calling thread, also when it has finished already (then on the loop's next turn).
    - ``await future`` inside a coroutine gives the value or raises the error, without blocking the
      event loop.

    The native future is released when this object is garbage-collected; the operation itself is not
    cancelled by that. Closing the app cancels operations in flight: their futures fail with
    :class:`~hearth.CancelledError`, and their done-callbacks run on the loop thread before
    :meth:`App.close` returns.
    """

    def __init__(self, handle: int, core: AppCore, convert: Callable[[int], T], owner: object) -> None:
        self._handle = handle
        self._core = core
        self._convert = convert
        # Keeps the App (and so its loop) alive as long as anyone can still ask for this result.
        self._owner = owner
        self._lock = threading.Lock()
        self._outcome: Optional[Tuple[bool, Any]] = None

    def __del__(self, _release: Callable[[int], None] = lib.hearth_future_release,
                _finalizing: Callable[[], bool] = sys.is_finalizing) -> None:
        # The native reference goes with the last Python one (once: __del__ runs once per object, and a
        # future is never resurrected). Not weakref.finalize: registering one for every operation
        # cost more than the rest of creating the future. At interpreter exit the process frees
        # everything; releasing there could race a loop thread still running.
        if not _finalizing():
            _release(self._handle)

    # ------------------------------------------------------------------------------------------------
    # Status
    # ------------------------------------------------------------------------------------------------
    def done(self) -> bool:
        """True once the operation has finished (successfully or not)."""
        return bool(lib.hearth_future_status(self._handle) != _PENDING)

    def result(self, timeout: Optional[float] = None) -> T:
        """The operation's value, waiting up to ``timeout`` seconds (``None``: as long as it takes).

        Raises the operation's :class:`~hearth.AuthError` subclass if it failed, :class:`TimeoutError`
        if it did not finish in time, and :class:`~hearth.WouldDeadlockError` when called on Hearth's
        own loop thread (inside a callback) while still pending.
        """
        self._wait(timeout)
        succeeded, value = self._settle()
        if succeeded:
            return value  # type: ignore[no-any-return]
        raise value

    def exception(self, timeout: Optional[float] = None) -> Optional[AuthError]:
        """The operation's error, or ``None`` if it succeeded; waits up to ``timeout`` seconds and
        raises like :meth:`result` when it is still pending then."""
        self._wait(timeout)
        succeeded, value = self._settle()
        return None if succeeded else value

    @property
    def error_code(self) -> Optional[int]:
        """The error code once finished (0 on success, an :class:`~hearth.ErrorCode` otherwise);
        ``None`` while pending."""
        if not self.done():
            return None
        succeeded, value = self._settle()
        return ErrorCode.NONE if succeeded else value.code

    # ------------------------------------------------------------------------------------------------
    # Callbacks and await
    # ------------------------------------------------------------------------------------------------
    def add_done_callback(self, fn: Callable[["Future[T]"], object]) -> None:
        """Calls ``fn(self)`` once the operation finishes.

        It runs on Hearth's loop thread (so it must not block on other pending futures; hand work to
        your own thread or event loop instead), never in the calling thread: a future that has already
        finished calls it on the loop's next turn. Each callback added runs exactly once, in the order
        added; closing the app first finishes the operation with :class:`~hearth.CancelledError` and
        runs the callback then. Exceptions raised by ``fn`` are logged on the ``hearth`` logger.

        Raises :class:`~hearth.AppDestroyedError` once the app is closed: its loop is gone, so nothing
        could call ``fn`` (read :meth:`result` instead).
        """
        check_callable(fn, "fn")
        key = FUTURES.add((self, fn))
        code = lib.hearth_future_add_callback(self._handle, _ON_COMPLETION, key)
        if code != 0:
            # Refused: the library keeps nothing and will never call back.
            FUTURES.pop(key)
            if code == ErrorCode.APP_DESTROYED:
                raise AppDestroyedError(code, "the app is closed: done-callbacks run on its loop thread, which is gone")
            raise_for_code(code)

    def __await__(self) -> Generator[Any, None, T]:
        if self.done():
            # Nothing to wait for (and the app may be closed already): no callback needed.
            succeeded, value = self._settle()
            if succeeded:
                return value  # type: ignore[no-any-return]
            raise value
        loop = asyncio.get_running_loop()
        waiter: asyncio.Future[T] = loop.create_future()

        def settle() -> None:
            if waiter.done():  # the awaiting task was cancelled
                return
            succeeded, value = self._settle()
            if succeeded:
                waiter.set_result(value)
            else:
                waiter.set_exception(value)

        inbox = _inbox(loop)

        def hand_over(_: "Future[T]") -> None:
            inbox.put(settle)

        self.add_done_callback(hand_over)
        return (yield from waiter.__await__())

    # ------------------------------------------------------------------------------------------------
    # Internals
    # ------------------------------------------------------------------------------------------------
    def _wait(self, timeout: Optional[float]) -> None:
        deadline: Optional[float] = None
        if timeout is not None:
            deadline = time.monotonic() + max(0.0, check_seconds(timeout, "timeout"))
        while lib.hearth_future_status(self._handle) == _PENDING:
            slice_ms = _WAIT_SLICE_MS
            if deadline is not None:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise TimeoutError(f"the operation did not finish within {timeout} s")
                slice_ms = min(slice_ms, max(1, math.ceil(remaining * 1000)))
            code = lib.hearth_future_wait(self._handle, slice_ms)
            if code in (0, ErrorCode.TIMED_OUT):
                continue
            if code == ErrorCode.WOULD_DEADLOCK:
                raise WouldDeadlockError(
                    code,
                    "Future.result() was called on Hearth's loop thread while the future is pending; "
                    "use add_done_callback() or await instead",
                )
            raise error_from_code(code)

    def _settle(self) -> Tuple[bool, Any]:
        """(True, value) or (False, exception); computed once, after completion."""
        with self._lock:
            if self._outcome is None:
                self._outcome = self._compute_outcome()
            return self._outcome

    def _compute_outcome(self) -> Tuple[bool, Any]:
        code = lib.hearth_future_error(self._handle)
        # The error call answers INVALID_HANDLE for an invalid future too: only then is the status
        # asked, to tell the two apart.
        if code == ErrorCode.INVALID_HANDLE and lib.hearth_future_status(self._handle) == _INVALID:
            return False, InvalidHandleError(ErrorCode.INVALID_HANDLE, "the native future is invalid")
        if code != 0:
            error = error_from_code(code, decode(lib.hearth_future_error_message(self._handle)))
            if isinstance(error, AccountConflictError):
                _attach_conflict_details(error, self._handle)
            elif isinstance(error, SecondFactorRequiredError):
                _attach_resolver(error, self._handle, self._core, self._owner)
            return False, error
        try:
            return True, self._convert(self._handle)
        except AuthError as error:
            return False, error

    def __repr__(self) -> str:
        status = lib.hearth_future_status(self._handle)
        if status == _PENDING:
            return "<hearth.Future pending>"
        if status == _INVALID:
            return "<hearth.Future invalid>"
        code = lib.hearth_future_error(self._handle)
        if code == 0:
            return "<hearth.Future finished>"
        return f"<hearth.Future failed {error_from_code(code).name}>"


def _attach_conflict_details(error: AccountConflictError, handle: int) -> None:
    """A failed sign-in or link whose answer names another account still has an auth result: its
    updated credential (signs in to that account) and the e-mail the server reported."""
    result = lib.hearth_future_auth_result(handle)
    if not result:
        return
    error.updated_credential = Credential._from_borrowed(lib.hearth_auth_result_updated_credential(result))
    error.email = decode_optional(lib.hearth_auth_result_email(result))


def _attach_resolver(error: SecondFactorRequiredError, handle: int, core: AppCore, owner: object) -> None:
    """A sign-in that needs a second factor carries the resolver that finishes it."""
    from .multi_factor import MultiFactorResolver  # multi_factor builds on this module

    error.resolver = MultiFactorResolver._from_future(handle, core, owner)


class FutureReference:
    """A native future reference of its own, for what Hearth lends from a future (a multi-factor
    resolver, session or TOTP secret): those live as long as this reference, independently of the
    :class:`Future` (and without a reference cycle through its outcome)."""

    __slots__ = ("ptr", "_finalizer", "__weakref__")

    def __init__(self, handle: int) -> None:
        ptr = lib.hearth_future_retain(handle)
        if not ptr:
            raise InvalidHandleError(ErrorCode.INVALID_HANDLE, "the native future is invalid")
        self.ptr: int = ptr
        self._finalizer = weakref.finalize(self, lib.hearth_future_release, ptr)
        self._finalizer.atexit = False


class _Inbox:
    """Finished futures handed from Hearth's loop threads to one asyncio event loop. Waking the event
    loop (call_soon_threadsafe: a handle, a lock and a write to its self-pipe, then a read) is done once
    for every completion that arrives before it has run, not once per completion."""

    __slots__ = ("_loop", "_lock", "_waiting", "__weakref__")

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._lock = threading.Lock()
        self._waiting: List[Callable[[], None]] = []

    def put(self, settle: Callable[[], None]) -> None:
        """Any thread: ``settle`` runs on the event loop's thread."""
        with self._lock:
            self._waiting.append(settle)
            if len(self._waiting) > 1:
                return  # a wake-up is on its way and will take this one too
        try:
            self._loop.call_soon_threadsafe(self._run)
        except RuntimeError:
            # The event loop closed: nobody can be awaiting on it any more.
            with self._lock:
                self._waiting.clear()
            logger.debug("hearth: the event loop awaiting a future closed before it finished")

    def _run(self) -> None:
        with self._lock:
            waiting, self._waiting = self._waiting, []
        for settle in waiting:
            try:
                settle()
            except Exception:  # noqa: BLE001 - the rest must still be delivered
                logger.exception("hearth: error while handing a finished future to asyncio")


_INBOXES: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Inbox]" = weakref.WeakKeyDictionary()
_INBOXES_LOCK = threading.Lock()


def _inbox(loop: asyncio.AbstractEventLoop) -> _Inbox:
    with _INBOXES_LOCK:
        inbox = _INBOXES.get(loop)
        if inbox is None:
            inbox = _INBOXES[loop] = _Inbox(loop)
        return inbox


def _on_completion(_handle: Optional[int], user_data: Optional[int]) -> None:
    try:
        entry = FUTURES.pop(user_data)
        if entry is None:
            return
        future, fn = entry
        call_logged("Future done-callback", fn, future)
    except BaseException:  # noqa: BLE001 - must not unwind into C
        logger.exception("hearth: error while completing a future")


# Module-level, so the C function pointer lives as long as the library can call it.
_ON_COMPLETION = COMPLETION_CB(_on_completion)
