"""The native side of one app: its handles, and the Python objects C may call back into.

C only ever sees integer keys into the registries below (as ``user_data``). Each app remembers which
keys are its own so that closing it can settle what C will no longer call: ``hearth_app_destroy``
promises that no callback of the app runs after it returns, including the completion callbacks of
the futures it cancels, so their Python done-callbacks are run here instead.
"""

from __future__ import annotations

import threading
from typing import Any, Optional, Set

from ._lib import lib
from ._support import Registry
from .errors import AppDestroyedError, ErrorCode

#: Futures with a completion callback registered in C, by key. A strong reference: a future whose
#: outcome someone awaits must live until that outcome is delivered.
FUTURES = Registry()
#: Listener entries by key.
LISTENERS = Registry()
#: Functions passed to App.post, by key; each runs once.
POSTS = Registry()
#: Storage objects of apps with host persistence, by key.
STORAGES = Registry()
#: The ``open_url`` delegates of provider flows, by key (see Auth.set_provider_flow).
OPEN_URLS = Registry()
#: Phone verification listeners (Auth.verify_phone_number_with_listener), by key; each is dropped
#: after its last callback (verification failed, or auto-retrieval timeout).
PHONE_LISTENERS = Registry()


class AppCore:
    """Owns one ``hearth_app``; destroyed exactly once (by App.close or by garbage collection)."""

    def __init__(self, app_ptr: int, auth_ptr: int, storage_key: Optional[int]) -> None:
        self.app_ptr = app_ptr
        self.auth_ptr = auth_ptr
        self._storage_key = storage_key
        self._lock = threading.Lock()
        self._closed = False
        self._futures: Set[int] = set()
        self._listeners: Set[int] = set()
        self._posts: Set[int] = set()
        self._open_urls: Set[int] = set()
        self._phone_listeners: Set[int] = set()
        #: What Auth.app_verification_disabled_for_testing was last set to (None: Hearth's default).
        self.app_verification_disabled_for_testing: Optional[bool] = None

    @property
    def closed(self) -> bool:
        return self._closed

    def ensure_open(self) -> None:
        if self._closed:
            raise AppDestroyedError(ErrorCode.APP_DESTROYED, "the app is closed")

    def _track(self, keys: Set[int], key: int) -> bool:
        with self._lock:
            if self._closed:
                return False
            keys.add(key)
            return True

    def _untrack(self, keys: Set[int], key: int) -> None:
        with self._lock:
            keys.discard(key)

    def track_future(self, key: int) -> bool:
        return self._track(self._futures, key)

    def untrack_future(self, key: int) -> None:
        self._untrack(self._futures, key)

    def track_listener(self, key: int) -> bool:
        return self._track(self._listeners, key)

    def untrack_listener(self, key: int) -> None:
        self._untrack(self._listeners, key)

    def track_post(self, key: int) -> bool:
        return self._track(self._posts, key)

    def untrack_post(self, key: int) -> None:
        self._untrack(self._posts, key)

    def track_open_url(self, key: int) -> bool:
        return self._track(self._open_urls, key)

    def untrack_open_url(self, key: int) -> None:
        self._untrack(self._open_urls, key)

    def track_phone_listener(self, key: int) -> bool:
        return self._track(self._phone_listeners, key)

    def untrack_phone_listener(self, key: int) -> None:
        self._untrack(self._phone_listeners, key)

    def destroy(self) -> None:
        with self._lock:
            if self._closed:
                return
            self._closed = True
        lib.hearth_app_destroy(self.app_ptr)
        # From here on C calls nothing of this app: drop what it would have called, and finish the
        # futures whose completion callbacks it will now never run (they completed as CANCELLED).
        with self._lock:
            futures, self._futures = self._futures, set()
            listeners, self._listeners = self._listeners, set()
            posts, self._posts = self._posts, set()
            open_urls, self._open_urls = self._open_urls, set()
            phone_listeners, self._phone_listeners = self._phone_listeners, set()
        for key in listeners:
            LISTENERS.pop(key)
        for key in posts:
            POSTS.pop(key)
        for key in open_urls:
            OPEN_URLS.pop(key)
        for key in phone_listeners:
            PHONE_LISTENERS.pop(key)
        STORAGES.pop(self._storage_key)
        for key in futures:
            future: Any = FUTURES.pop(key)
            if future is not None:
                future._fire()
