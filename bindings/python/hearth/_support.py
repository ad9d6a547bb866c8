"""Small shared pieces: argument checks, C string conversion, and the callback registry."""

from __future__ import annotations

import itertools
import logging
import os
import threading
from typing import Any, Callable, Dict, Optional, Union

logger = logging.getLogger("hearth")


class _Keep:
    """The type of :data:`hearth.KEEP`."""

    _instance: Optional["_Keep"] = None

    def __new__(cls) -> "_Keep":
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "hearth.KEEP"

    def __reduce__(self) -> str:
        return "KEEP"


#: "Leave this field as it is" — the default of :meth:`hearth.User.update_profile`'s fields.
KEEP = _Keep()


def encode(value: object, name: str) -> bytes:
    """``value`` as UTF-8 bytes for a required C string: TypeError unless a str, ValueError when it
    cannot travel as a NUL-terminated UTF-8 string."""
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a str, not {type(value).__name__}")
    if "\x00" in value:
        raise ValueError(f"{name} must not contain NUL characters")
    try:
        return value.encode("utf-8")
    except UnicodeEncodeError as error:
        raise ValueError(f"{name} is not encodable as UTF-8 ({error.reason} at index {error.start})") from None


def encode_optional(value: object, name: str) -> Optional[bytes]:
    """Like :func:`encode`, with ``None`` passed through as C's NULL."""
    if value is None:
        return None
    return encode(value, name)


def encode_path(value: object, name: str) -> Optional[bytes]:
    """A ``str`` or ``os.PathLike`` (or ``None``) as bytes for a C path."""
    if value is None:
        return None
    if not isinstance(value, (str, os.PathLike)):
        raise TypeError(f"{name} must be a str or os.PathLike, not {type(value).__name__}")
    path = os.fspath(value)
    if isinstance(path, bytes):
        if b"\x00" in path:
            raise ValueError(f"{name} must not contain NUL bytes")
        return path
    return encode(path, name)


def decode(raw: Optional[bytes]) -> str:
    """A borrowed C string (already copied by ctypes) as str; ``""`` for NULL."""
    if raw is None:
        return ""
    return raw.decode("utf-8", "replace")


def decode_optional(raw: Optional[bytes]) -> Optional[str]:
    """A C string where ``""`` means unset, as ``None`` in that case."""
    text = decode(raw)
    return text or None


def check_callable(value: object, name: str) -> None:
    if not callable(value):
        raise TypeError(f"{name} must be callable, not {type(value).__name__}")


def check_int(value: object, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    return value


def check_seconds(value: object, name: str) -> float:
    """A duration in seconds: an int or float, not bool, finite."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{name} must be a number of seconds, not {type(value).__name__}")
    seconds = float(value)
    if seconds != seconds or seconds in (float("inf"), float("-inf")):
        raise ValueError(f"{name} must be finite")
    return seconds


def call_logged(what: str, function: Callable[..., Any], *args: Any) -> Any:
    """Calls user code from Hearth's loop thread. Nothing may propagate into C: exceptions are logged
    on the ``hearth`` logger and ``None`` is returned."""
    try:
        return function(*args)
    except BaseException:  # noqa: BLE001 - C frames are above us; raising would only print garbage
        logger.exception("hearth: exception in %s %r (ignored)", what, function)
        return None


class Registry:
    """Maps small integer keys (passed to C as ``user_data``) to Python objects.

    C never sees a Python object's address: a late or unknown callback finds no entry and is ignored
    instead of touching freed memory.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._entries: Dict[int, Any] = {}
        self._counter = itertools.count(1)

    def add(self, entry: Any) -> int:
        with self._lock:
            key = next(self._counter)
            self._entries[key] = entry
            return key

    def get(self, key: Optional[int]) -> Any:
        if key is None:
            return None
        with self._lock:
            return self._entries.get(key)

    def pop(self, key: Optional[int]) -> Any:
        if key is None:
            return None
        with self._lock:
            return self._entries.pop(key, None)

    def __len__(self) -> int:
        with self._lock:
            return len(self._entries)


PathLikeStr = Union[str, "os.PathLike[str]"]
