"""Credentials to sign in with, and the providers that make them."""

from __future__ import annotations

import weakref

from ._lib import lib
from ._support import decode, encode
from .errors import ErrorCode, InvalidArgumentError

__all__ = ["Credential", "EmailAuthProvider"]


class Credential:
    """A credential for :meth:`hearth.Auth.sign_in_with_credential`. Opaque: it never shows its
    secret. Made by a provider, e.g. :meth:`EmailAuthProvider.credential`."""

    __slots__ = ("_ptr", "_finalizer", "__weakref__")
    _ptr: int
    _finalizer: "weakref.finalize[[int], Credential]"

    def __init__(self) -> None:
        raise TypeError("use a provider to make a Credential, e.g. hearth.EmailAuthProvider.credential()")

    @classmethod
    def _take(cls, ptr: int) -> "Credential":
        self = object.__new__(cls)
        self._ptr = ptr
        self._finalizer = weakref.finalize(self, lib.hearth_credential_release, ptr)
        self._finalizer.atexit = False
        return self

    @property
    def provider(self) -> str:
        """The provider id, e.g. ``"password"``."""
        return decode(lib.hearth_credential_provider(self._ptr))

    @property
    def is_valid(self) -> bool:
        return bool(lib.hearth_credential_is_valid(self._ptr))

    def __repr__(self) -> str:
        return f"<hearth.Credential provider={self.provider!r}>"


class EmailAuthProvider:
    """E-mail and password sign-in (provider id ``"password"``)."""

    PROVIDER_ID = "password"

    def __init__(self) -> None:
        raise TypeError("EmailAuthProvider is not instantiable; call EmailAuthProvider.credential()")

    @staticmethod
    def credential(email: str, password: str) -> Credential:
        """A credential for ``email`` and ``password`` (checked by the server at sign-in)."""
        ptr = lib.hearth_email_credential(encode(email, "email"), encode(password, "password"))
        if not ptr:
            raise InvalidArgumentError(ErrorCode.INVALID_ARGUMENT, "Hearth rejected the e-mail credential")
        return Credential._take(ptr)
