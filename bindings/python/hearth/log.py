"""Hearth's native log, forwarded to Python's :mod:`logging`. Off until you ask for it::

    import logging
    import hearth.log

    logging.basicConfig(level=logging.INFO)
    hearth.log.forward_to_logging()      # to the "hearth" logger, at its effective level

Records arrive on the ``hearth`` logger (or the one you pass) with Python's levels: ``DEBUG`` (every
HTTP request: method, URL without its query values, outcome, time), ``INFO`` (apps created and
destroyed, sign-ins and sign-outs, operations that succeeded), ``WARNING`` (failed operations, sessions
the server ended) and ``ERROR`` (a session could not be saved or erased). Messages never hold
passwords, tokens, codes or the API key. They are emitted from Hearth's loop threads (and sometimes the
calling thread), so handlers must be thread-safe, as :mod:`logging`'s own are.

The native library asks for nothing below the level chosen here, so a quiet level costs nothing.
Forwarding is process-wide (every :class:`hearth.App`); calling :func:`forward_to_logging` again
replaces the earlier setting.
"""

from __future__ import annotations

import logging
import threading
from typing import Optional

from ._lib import LOG_CB, lib

__all__ = ["forward_to_logging", "stop_forwarding"]

# hearth_log_level values.
_DEBUG, _INFO, _WARNING, _ERROR, _OFF = 0, 1, 2, 3, 4
_TO_PYTHON = {_DEBUG: logging.DEBUG, _INFO: logging.INFO, _WARNING: logging.WARNING, _ERROR: logging.ERROR}

_NO_CALLBACK = LOG_CB()  # a NULL hearth_log_cb
_lock = threading.Lock()
# The installed ctypes callback: it must stay alive while the native side may call it.
_callback: Optional[LOG_CB] = None


def _native_level(python_level: int) -> int:
    if python_level <= logging.DEBUG:
        return _DEBUG
    if python_level <= logging.INFO:
        return _INFO
    if python_level <= logging.WARNING:
        return _WARNING
    if python_level <= logging.ERROR:
        return _ERROR
    return _OFF


def forward_to_logging(logger: Optional[logging.Logger] = None, level: Optional[int] = None) -> None:
    """Sends Hearth's messages to ``logger`` (default: ``logging.getLogger("hearth")``), from ``level``
    up (default: the logger's effective level when this is called)."""
    global _callback
    target = logger if logger is not None else logging.getLogger("hearth")
    if level is not None and not isinstance(level, int):
        raise TypeError(f"level must be a logging level (int), not {type(level).__name__}")
    native = _native_level(target.getEffectiveLevel() if level is None else level)

    def deliver(_user_data: Optional[int], native_level: int, message: Optional[bytes]) -> None:
        try:
            text = (message or b"").decode("utf-8", "replace")
            target.log(_TO_PYTHON.get(native_level, logging.ERROR), "%s", text)
        except Exception:  # an exception cannot cross the C boundary; a broken handler must not stop Hearth
            pass

    callback = LOG_CB(deliver) if native != _OFF else None
    with _lock:
        status = lib.hearth_log_set_callback(native, callback if callback is not None else _NO_CALLBACK, None)
        if status != 0:
            raise RuntimeError(f"hearth_log_set_callback failed with {status}")
        # After the call returns the previous callback is no longer running and never runs again.
        _callback = callback


def stop_forwarding() -> None:
    """Turns Hearth's log off again (the default)."""
    global _callback
    with _lock:
        lib.hearth_log_set_callback(_OFF, _NO_CALLBACK, None)
        _callback = None
