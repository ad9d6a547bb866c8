"""The native side of one app: its handles, and the Python objects C may call back into.

C only ever sees integer keys into the registries below (as ``user_data``). The library hands every
key it was given back exactly once, in a final call: a completion callback, a posted function (told
whether the app was closed first), or the release callback of a listener or UI delegate, also when the
app is closed. That final call pops the key, so nothing outlives its use, and ``hearth_app_destroy``
leaves nothing behind to settle here.
"""

from __future__ import annotations

import ctypes
import threading
from typing import Optional

from ._lib import POST_CB, lib
from ._support import Registry, logger
from .errors import AppDestroyedError, ErrorCode

#: Done-callbacks waiting for their future, by key: (future, fn). A strong reference: a future whose
#: outcome someone awaits must live until that outcome is delivered.
FUTURES = Registry()
#: Listener entries by key.
LISTENERS = Registry()
#: Functions passed to App.post, by key: (fn, on_cancelled).
POSTS = Registry()
#: Storage objects of apps with host persistence, by key.
STORAGES = Registry()
#: The ``open_url`` delegates of provider flows, by key (see Auth.set_provider_flow).
OPEN_URLS = Registry()
#: Phone verification listeners (Auth.verify_phone_number_with_listener), by key.
PHONE_LISTENERS = Registry()
#: Apps whose loop thread is taking or giving back its Python thread state, by key.
THREAD_STATES = Registry()

# Hearth calls Python on an app's loop thread through ctypes, which gives a thread without a Python
# thread state a new one for each call and deletes it afterwards: an allocation, a 16 KiB frame stack
# mapped and unmapped, and the interpreter's thread bookkeeping, on every completion (about as much
# CPU as the rest of delivering it). Each loop thread keeps one thread state for its app's lifetime
# instead: a PyGILState_Ensure made there when the app starts, matched by a PyGILState_Release made
# there when it closes (both in calls on that thread, where the GIL is held).
_gil_ensure = ctypes.pythonapi.PyGILState_Ensure
_gil_ensure.restype = ctypes.c_int
_gil_ensure.argtypes = []
_gil_release = ctypes.pythonapi.PyGILState_Release
_gil_release.restype = None
_gil_release.argtypes = [ctypes.c_int]


def _keep_thread_state(user_data: Optional[int], status: int) -> None:
    try:
        core = THREAD_STATES.pop(user_data)
        # Cancelled: the app closed before its loop ran this; nothing is kept, nothing to give back.
        if core is not None and status == ErrorCode.NONE:
            core._loop_thread_state = _gil_ensure()
    except BaseException:  # noqa: BLE001 - must not unwind into C
        logger.exception("hearth: could not keep the loop thread's Python thread state")


def _give_back_thread_state(user_data: Optional[int], status: int) -> None:
    # Runs in its turn or, cancelled, while the app closes: on the loop thread either way, after
    # _keep_thread_state (posts run in order).
    try:
        core = THREAD_STATES.pop(user_data)
        if core is not None and core._loop_thread_state is not None:
            state, core._loop_thread_state = core._loop_thread_state, None
            _gil_release(state)
    except BaseException:  # noqa: BLE001 - must not unwind into C
        logger.exception("hearth: could not give back the loop thread's Python thread state")


# Module-level, so the C function pointers live as long as the library can call them.
_KEEP_THREAD_STATE = POST_CB(_keep_thread_state)
_GIVE_BACK_THREAD_STATE = POST_CB(_give_back_thread_state)


class AppCore:
    """Owns one ``hearth_app``; destroyed exactly once (by App.close or by garbage collection)."""

    def __init__(self, app_ptr: int, auth_ptr: int, storage_key: Optional[int]) -> None:
        self.app_ptr = app_ptr
        self.auth_ptr = auth_ptr
        self._storage_key = storage_key
        self._lock = threading.Lock()
        self._closed = False
        #: What Auth.app_verification_disabled_for_testing was last set to (None: Hearth's default).
        self.app_verification_disabled_for_testing: Optional[bool] = None
        #: The PyGILState_Ensure result held on the loop thread (set and cleared there only).
        self._loop_thread_state: Optional[int] = None
        self._post_thread_state(_KEEP_THREAD_STATE)

    def _post_thread_state(self, function: object) -> None:
        key = THREAD_STATES.add(self)
        if lib.hearth_app_post(self.app_ptr, function, key) != 0:
            THREAD_STATES.pop(key)

    @property
    def closed(self) -> bool:
        return self._closed

    def ensure_open(self) -> None:
        if self._closed:
            raise AppDestroyedError(ErrorCode.APP_DESTROYED, "the app is closed")

    def destroy(self) -> None:
        with self._lock:
            if self._closed:
                return
            self._closed = True
        # The loop thread's kept thread state goes back in the last call there.
        self._post_thread_state(_GIVE_BACK_THREAD_STATE)
        # Cancels what is in flight; before this returns (or, from one of its callbacks, right after
        # that callback) the library makes every final call: cancelled futures' done-callbacks,
        # posted functions' on_cancelled, listener and delegate releases.
        lib.hearth_app_destroy(self.app_ptr)
        # Storage callbacks never start after the destroy.
        STORAGES.pop(self._storage_key)
