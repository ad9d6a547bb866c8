"""The interface of host session storage (``App(persistence=<storage>)``)."""

from __future__ import annotations

from typing import Optional, Protocol, Union, runtime_checkable

__all__ = ["SessionStorage"]


@runtime_checkable
class SessionStorage(Protocol):
    """Where the host keeps the signed-in session (a game's save data, a keystore, ...).

    ``key`` identifies the app's session and is stable across runs for the same app name and API key.
    The data is opaque bytes that include the refresh token: store it as a secret and never log it.

    - ``load(key)`` runs once, in the thread that creates the :class:`hearth.App`; it returns the
      stored bytes (or str), or ``None`` when nothing is stored. Raising counts as "signed out".
    - ``save(key, data)`` runs on Hearth's loop thread, ``erase(key)`` there or in the thread that
      calls :meth:`hearth.Auth.sign_out` (so a sign-out is stored before it returns). Calls never
      overlap. Raising reports a persistence failure to Hearth (and is logged).
    """

    def load(self, key: str) -> Optional[Union[bytes, str]]:
        """Returns the bytes last saved under ``key``, or ``None`` when nothing is stored."""
        ...

    def save(self, key: str, data: bytes) -> None:
        """Stores ``data`` under ``key``, replacing what was there (atomically, if you can)."""
        ...

    def erase(self, key: str) -> None:
        """Forgets what is stored under ``key`` (nothing stored is not an error)."""
        ...
