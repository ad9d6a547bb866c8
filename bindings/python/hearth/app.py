"""``hearth.App``: one configured Firebase app, with Hearth's own loop thread."""

from __future__ import annotations

import ctypes
import math
import weakref
from typing import Any, Callable, List, Optional, Union

from ._core import POSTS, STORAGES, AppCore
from ._lib import OPTIONS_BUFFER_SIZE, POST_CB, STORAGE_ERASE_CB, STORAGE_LOAD_CB, STORAGE_SAVE_CB, AppOptions, lib
from ._support import (
    PathLikeStr,
    call_logged,
    check_callable,
    check_seconds,
    decode,
    encode,
    encode_optional,
    encode_path,
    logger,
)
from .auth import Auth
from .errors import ErrorCode, raise_for_code
from .storage import SessionStorage

__all__ = ["App"]

_PERSISTENCE_FILE = 0
_PERSISTENCE_NONE = 1
_PERSISTENCE_CALLBACKS = 2

_MAX_TIMEOUT_MS = 2**63 - 1


# ---------------------------------------------------------------------------------------------------
# Storage and post trampolines (C -> Python); nothing may unwind into C
# ---------------------------------------------------------------------------------------------------


def _storage(user_data: Optional[int]) -> Optional[SessionStorage]:
    return STORAGES.get(user_data)  # type: ignore[no-any-return]


def _storage_load(user_data: Optional[int], key: Optional[bytes], reply: Optional[int]) -> int:
    try:
        storage = _storage(user_data)
        if storage is None or key is None:
            return 1
        data = storage.load(decode(key))
        if data is None:
            return 0
        if isinstance(data, str):
            data = data.encode("utf-8")
        if not isinstance(data, (bytes, bytearray, memoryview)):
            logger.error("hearth: storage load() returned %s, expected bytes, str or None",
                         type(data).__name__)
            return 1
        payload = bytes(data)
        return int(lib.hearth_storage_reply_set(reply, payload, len(payload)))
    except BaseException:  # noqa: BLE001
        logger.exception("hearth: exception in storage load() (treated as signed out)")
        return 1


def _storage_save(user_data: Optional[int], key: Optional[bytes], data: Optional[int], length: int) -> int:
    try:
        storage = _storage(user_data)
        if storage is None or key is None:
            return 1
        payload = ctypes.string_at(data, length) if data else b""
        storage.save(decode(key), payload)
        return 0
    except BaseException:  # noqa: BLE001
        logger.exception("hearth: exception in storage save()")
        return 1


def _storage_erase(user_data: Optional[int], key: Optional[bytes]) -> int:
    try:
        storage = _storage(user_data)
        if storage is None or key is None:
            return 1
        storage.erase(decode(key))
        return 0
    except BaseException:  # noqa: BLE001
        logger.exception("hearth: exception in storage erase()")
        return 1


def _on_post(user_data: Optional[int], status: int) -> None:
    try:
        entry = POSTS.pop(user_data)
        if entry is None:
            return
        fn, on_cancelled = entry
        if status == ErrorCode.NONE:
            call_logged("App.post function", fn)
        elif on_cancelled is not None:
            call_logged("App.post on_cancelled", on_cancelled)
    except BaseException:  # noqa: BLE001
        logger.exception("hearth: error while running a posted function")


# Module-level, so the C function pointers live as long as the library can call them.
_STORAGE_LOAD = STORAGE_LOAD_CB(_storage_load)
_STORAGE_SAVE = STORAGE_SAVE_CB(_storage_save)
_STORAGE_ERASE = STORAGE_ERASE_CB(_storage_erase)
_ON_POST = POST_CB(_on_post)


# ---------------------------------------------------------------------------------------------------
# App
# ---------------------------------------------------------------------------------------------------

Persistence = Union[str, SessionStorage]


class App:
    """One configured Firebase app, running on a Hearth loop thread of its own.

    Arguments (keyword-only):

    - ``api_key`` (required): the project's Web API key.
    - ``project_id``, ``app_id`` (sent as ``X-Firebase-GMPID``), ``auth_domain``: optional.
    - ``app_name``: default ``"[DEFAULT]"``. The persisted session belongs to (name, API key).
    - ``persistence``: where the signed-in session is kept between runs:

      * ``"file"`` (default): a 0600 JSON file under ``persistence_dir`` (default
        ``$XDG_DATA_HOME/hearth`` or ``~/.local/share/hearth``);
      * ``"none"``: memory only, the session ends with the app;
      * a storage object with ``load(key) -> bytes | str | None``, ``save(key, data: bytes)`` and
        ``erase(key)`` (see :class:`hearth.SessionStorage`). ``load`` runs in the thread creating the
        app, ``save`` on Hearth's loop thread, ``erase`` there or in the thread calling
        :meth:`Auth.sign_out`; calls never overlap; raising counts as failure (and is logged).

    - ``request_timeout``: seconds per HTTP request (default 30).
    - ``ca_bundle``: a PEM file of CAs to trust for TLS besides the system store (a readable file,
      else ``ValueError``); peer and host name checks stay on.

    The persisted session is loaded before the constructor returns, so :attr:`Auth.current_user` is
    right at once. Close the app with :meth:`close` or a ``with`` block: in-flight operations end
    with :class:`~hearth.CancelledError`. An app that is garbage-collected (or still open at
    interpreter exit) is closed then.
    """

    def __init__(
        self,
        *,
        api_key: str,
        project_id: Optional[str] = None,
        app_id: Optional[str] = None,
        app_name: Optional[str] = None,
        auth_domain: Optional[str] = None,
        persistence: Persistence = "file",
        persistence_dir: Optional[PathLikeStr] = None,
        request_timeout: float = 30.0,
        ca_bundle: Optional[PathLikeStr] = None,
    ) -> None:
        # ctypes stores only pointers in the struct: these bytes must outlive hearth_app_create.
        keep: List[Any] = []

        def text(value: Optional[bytes]) -> Optional[bytes]:
            keep.append(value)
            return value

        api_key_bytes = encode(api_key, "api_key")
        if not api_key_bytes:
            raise ValueError("api_key must not be empty")
        seconds = check_seconds(request_timeout, "request_timeout")
        if seconds <= 0:
            raise ValueError("request_timeout must be positive")
        timeout_ms = min(_MAX_TIMEOUT_MS, max(1, math.ceil(seconds * 1000)))

        storage: Optional[SessionStorage] = None
        if isinstance(persistence, str):
            if persistence == "file":
                mode = _PERSISTENCE_FILE
            elif persistence == "none":
                mode = _PERSISTENCE_NONE
            else:
                raise ValueError(f'persistence must be "file", "none" or a storage object, not {persistence!r}')
        else:
            for method in ("load", "save", "erase"):
                if not callable(getattr(persistence, method, None)):
                    raise TypeError(
                        f'persistence must be "file", "none" or an object with load/save/erase methods; '
                        f"{type(persistence).__name__} has no callable {method}()"
                    )
            mode = _PERSISTENCE_CALLBACKS
            storage = persistence
        if persistence_dir is not None and mode != _PERSISTENCE_FILE:
            raise ValueError('persistence_dir only applies to persistence="file"')

        buffer = ctypes.create_string_buffer(OPTIONS_BUFFER_SIZE)
        lib.hearth_app_options_init(buffer)  # defaults, and the library's own struct_size
        options = AppOptions.from_buffer(buffer)
        options.api_key = text(api_key_bytes)
        options.project_id = text(encode_optional(project_id, "project_id"))
        options.app_id = text(encode_optional(app_id, "app_id"))
        options.auth_domain = text(encode_optional(auth_domain, "auth_domain"))
        options.app_name = text(encode_optional(app_name, "app_name"))
        options.loop = None
        options.persistence = mode
        options.persistence_dir = text(encode_path(persistence_dir, "persistence_dir"))
        options.request_timeout_ms = timeout_ms
        options.ca_bundle_path = text(encode_path(ca_bundle, "ca_bundle"))

        storage_key: Optional[int] = None
        if storage is not None:
            storage_key = STORAGES.add(storage)
            options.storage_load = _STORAGE_LOAD
            options.storage_save = _STORAGE_SAVE
            options.storage_erase = _STORAGE_ERASE
            options.storage_user_data = storage_key

        out = ctypes.c_void_p()
        code = lib.hearth_app_create(buffer, ctypes.byref(out))
        app_ptr = out.value
        if code != 0 or not app_ptr:
            STORAGES.pop(storage_key)
            raise_for_code(code or ErrorCode.FAILURE, None if code else "hearth_app_create returned no app")
            return
        auth_ptr = lib.hearth_auth_get(app_ptr)
        self._core = AppCore(app_ptr, auth_ptr or 0, storage_key)
        self._finalizer = weakref.finalize(self, self._core.destroy)
        if not auth_ptr:
            self._finalizer()
            raise_for_code(ErrorCode.INVALID_HANDLE, "the new app has no Auth")
        self._name = decode(lib.hearth_app_name(app_ptr))
        self._auth: Optional["weakref.ReferenceType[Auth]"] = None

    # ------------------------------------------------------------------------------------------------
    @property
    def name(self) -> str:
        """The app's name (``"[DEFAULT]"`` unless ``app_name`` was given)."""
        return self._name

    @property
    def auth(self) -> Auth:
        """This app's :class:`Auth`."""
        self._core.ensure_open()
        auth = self._auth() if self._auth is not None else None
        if auth is None:
            auth = Auth(self, self._core)
            # A weak cache: Auth holds the App, so a strong one would make a cycle that only the
            # cyclic collector could end, delaying the app's close until then.
            self._auth = weakref.ref(auth)
        return auth

    @property
    def closed(self) -> bool:
        """True once :meth:`close` ran (then every operation raises :class:`~hearth.AppDestroyedError`)."""
        return self._core.closed

    def close(self) -> None:
        """Closes the app: cancels operations in flight (their futures fail with
        :class:`~hearth.CancelledError`), stops the loop thread, and returns without waiting on the
        network. Idempotent. Users, credentials and futures stay readable afterwards."""
        self._finalizer()

    def post(self, fn: Callable[[], object], *, on_cancelled: Optional[Callable[[], object]] = None) -> None:
        """Runs ``fn()`` on Hearth's loop thread, on a later turn, in the order posted (exceptions are
        logged). If the app is closed before its turn comes, ``fn`` does not run: ``on_cancelled()``
        runs instead (on the loop thread, before :meth:`close` returns), when given. Exactly one of
        the two is called (or neither, with no ``on_cancelled``); raises
        :class:`~hearth.AppDestroyedError` once the app is closed."""
        check_callable(fn, "fn")
        if on_cancelled is not None:
            check_callable(on_cancelled, "on_cancelled")
        self._core.ensure_open()
        key = POSTS.add((fn, on_cancelled))
        code = lib.hearth_app_post(self._core.app_ptr, _ON_POST, key)
        if code != 0:
            POSTS.pop(key)
            self._core.ensure_open()
            raise_for_code(code)

    def is_loop_thread(self) -> bool:
        """True when called on this app's loop thread (i.e. from inside a Hearth callback)."""
        if self._core.closed:
            return False
        return bool(lib.hearth_app_is_loop_thread(self._core.app_ptr))

    def __enter__(self) -> "App":
        return self

    def __exit__(self, *_: Any) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self.closed else "open"
        return f"<hearth.App {self._name!r} {state}>"
