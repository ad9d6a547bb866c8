"""The native side of one app: its handles, and the Python objects C may call back into.

C only ever sees integer keys into the registries below (as ``user_data``). The library hands every
key it was given back exactly once, in a final call: a completion callback, a posted function (told
whether the app was closed first), or the release callback of a listener or UI delegate, also when the
app is closed. That final call pops the key, so nothing outlives its use, and ``hearth_app_destroy``
leaves nothing behind to settle here.
"""

from __future__ import annotations

import threading
from typing import Optional

from ._lib import lib
from ._support import Registry
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
        # Cancels what is in flight; before this returns (or, from one of its callbacks, right after
        # that callback) the library makes every final call: cancelled futures' done-callbacks,
        # posted functions' on_cancelled, listener and delegate releases.
        lib.hearth_app_destroy(self.app_ptr)
        # Storage callbacks never start after the destroy.
        STORAGES.pop(self._storage_key)
