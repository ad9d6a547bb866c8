"""Nonces for providers that bind an ID token to one request (Apple, Facebook Limited Login, OIDC)."""

from __future__ import annotations

import ctypes
from typing import NamedTuple

from ._lib import NONCE_SIZE, SHA256_HEX_SIZE, lib
from ._support import encode
from .errors import raise_for_code

__all__ = ["Nonce", "generate_nonce", "sha256_hex"]


class Nonce(NamedTuple):
    """A raw nonce and its SHA-256 (64 lowercase hex digits).

    Send :attr:`sha256_hex` to the provider (Apple's ``nonce`` request parameter, Facebook Limited
    Login's nonce) and give :attr:`raw` to Hearth with the ID token that comes back
    (:meth:`hearth.AppleAuthProvider.credential`, ...). Its ``repr`` hides the raw value.
    """

    raw: str
    sha256_hex: str

    def __repr__(self) -> str:
        return f"Nonce(raw=<hidden>, sha256_hex={self.sha256_hex!r})"


def generate_nonce() -> Nonce:
    """A fresh cryptographically random nonce (32 characters of ``[0-9A-Za-z-._]``) and its SHA-256."""
    raw = ctypes.create_string_buffer(NONCE_SIZE)
    digest = ctypes.create_string_buffer(SHA256_HEX_SIZE)
    raise_for_code(lib.hearth_nonce_generate(raw, digest))
    return Nonce(raw.value.decode("ascii"), digest.value.decode("ascii"))


def sha256_hex(text: str) -> str:
    """The SHA-256 of ``text`` (as UTF-8) in lowercase hex: what a provider expects for a raw nonce."""
    digest = ctypes.create_string_buffer(SHA256_HEX_SIZE)
    raise_for_code(lib.hearth_nonce_hash(encode(text, "text"), digest))
    return digest.value.decode("ascii")
