"""Phone number verification: the options both forms share, the result, and the listener form's
callbacks (the methods themselves are :meth:`hearth.Auth.verify_phone_number` and
:meth:`hearth.Auth.verify_phone_number_with_listener`)."""

from __future__ import annotations

import ctypes
import math
from dataclasses import dataclass
from typing import Callable, Optional

from ._core import PHONE_LISTENERS, AppCore
from ._lib import (
    PHONE_CODE_SENT_CB,
    PHONE_FAILED_CB,
    PHONE_OPTIONS_BUFFER_SIZE,
    PHONE_TIMEOUT_CB,
    RELEASE_CB,
    PhoneAuthOptions,
    PhoneListener,
    lib,
)
from ._support import call_logged, check_callable, check_seconds, decode, decode_optional, encode_optional, logger
from .errors import AuthError, ErrorCode, error_from_code, raise_for_code
from .multi_factor import MultiFactorInfo, MultiFactorSession, hint_ptr, session_ptr

__all__ = [
    "PhoneVerification",
    "CodeSent",
    "VerificationFailed",
    "CodeAutoRetrievalTimeout",
]

_MAX_TIMEOUT_MS = 2**63 - 1


@dataclass(frozen=True)
class PhoneVerification:
    """A sent SMS code's verification: pair ``verification_id`` with the code the user types
    (:meth:`hearth.PhoneAuthProvider.credential`). Store the id if your app may be killed while the
    user reads the SMS: it stays valid in a new app. ``force_resending_token`` asks
    :meth:`hearth.Auth.verify_phone_number` to text a new code at once. Its ``repr`` shows neither.
    """

    verification_id: str
    force_resending_token: Optional[str] = None

    def __repr__(self) -> str:
        return "PhoneVerification(verification_id=<hidden>, force_resending_token=<hidden>)"


#: ``on_code_sent(verification)``: the SMS is on its way.
CodeSent = Callable[[PhoneVerification], object]
#: ``on_verification_failed(error)``: no SMS was sent (the error is the :class:`~hearth.AuthError`
#: subclass the future form would raise).
VerificationFailed = Callable[[AuthError], object]
#: ``on_code_auto_retrieval_timeout(verification_id)``: ``timeout`` seconds passed since the code was
#: sent; verifying the number again now texts a new code.
CodeAutoRetrievalTimeout = Callable[[str], object]


def to_phone_verification(future: int) -> PhoneVerification:
    raw = lib.hearth_future_string(future)
    if raw is None:
        raise AuthError(ErrorCode.FAILURE, "the verification succeeded but returned no verification id")
    return PhoneVerification(decode(raw), decode_optional(lib.hearth_future_phone_resend_token(future)))


class PhoneOptions:
    """A filled ``hearth_phone_auth_options`` (``buffer``, sized by the library), with the bytes and
    handles its pointers refer to. The library copies what it needs during the call."""

    __slots__ = ("buffer", "_referenced")

    def __init__(self, buffer: "ctypes.Array[ctypes.c_char]", *referenced: object) -> None:
        self.buffer = buffer
        self._referenced = referenced


def phone_options(
    phone_number: Optional[str],
    timeout: float,
    force_resending_token: Optional[str],
    multi_factor_session: Optional[MultiFactorSession],
    multi_factor_hint: Optional[MultiFactorInfo],
) -> PhoneOptions:
    """Checks the arguments of both verification forms and fills the options with them."""
    number = encode_optional(phone_number, "phone_number")
    token = encode_optional(force_resending_token, "force_resending_token")
    seconds = check_seconds(timeout, "timeout")
    if seconds <= 0:
        raise ValueError("timeout must be positive")
    session = session_ptr(multi_factor_session) if multi_factor_session is not None else None
    hint = hint_ptr(multi_factor_hint) if multi_factor_hint is not None else None
    if hint is not None and session is None:
        raise ValueError("multi_factor_hint needs the sign-in's session: multi_factor_session=resolver.session")

    buffer = ctypes.create_string_buffer(PHONE_OPTIONS_BUFFER_SIZE)
    lib.hearth_phone_auth_options_init(buffer)
    options = PhoneAuthOptions.from_buffer(buffer)
    options.phone_number = number
    options.timeout_ms = min(_MAX_TIMEOUT_MS, max(1, math.ceil(seconds * 1000)))
    options.force_resending_token = token
    options.multi_factor_session = session
    options.multi_factor_hint = hint
    return PhoneOptions(buffer, options, number, token, multi_factor_session, multi_factor_hint)


class _ListenerEntry:
    __slots__ = ("core", "on_code_sent", "on_verification_failed", "on_code_auto_retrieval_timeout")

    def __init__(
        self,
        core: AppCore,
        on_code_sent: CodeSent,
        on_verification_failed: Optional[VerificationFailed],
        on_code_auto_retrieval_timeout: Optional[CodeAutoRetrievalTimeout],
    ) -> None:
        self.core = core
        self.on_code_sent = on_code_sent
        self.on_verification_failed = on_verification_failed
        self.on_code_auto_retrieval_timeout = on_code_auto_retrieval_timeout


def _release(user_data: Optional[int]) -> None:
    """The listener's final call (after its last callback, or the app closed): its entry goes."""
    PHONE_LISTENERS.pop(user_data)


def _on_code_sent(user_data: Optional[int], verification_id: Optional[bytes], token: Optional[bytes]) -> None:
    try:
        entry: Optional[_ListenerEntry] = PHONE_LISTENERS.get(user_data)
        if entry is None:
            return
        call_logged("phone listener on_code_sent", entry.on_code_sent,
                    PhoneVerification(decode(verification_id), decode_optional(token)))
    except BaseException:  # noqa: BLE001 - must not unwind into C
        logger.exception("hearth: error while reporting a sent SMS code")


def _on_verification_failed(user_data: Optional[int], code: int, message: Optional[bytes]) -> None:
    try:
        entry: Optional[_ListenerEntry] = PHONE_LISTENERS.get(user_data)
        if entry is None:
            return
        error = error_from_code(code, decode(message))
        if entry.on_verification_failed is None:
            logger.warning("hearth: phone verification failed (no on_verification_failed listener): %s", error)
            return
        call_logged("phone listener on_verification_failed", entry.on_verification_failed, error)
    except BaseException:  # noqa: BLE001
        logger.exception("hearth: error while reporting a failed phone verification")


def _on_code_auto_retrieval_timeout(user_data: Optional[int], verification_id: Optional[bytes]) -> None:
    try:
        entry: Optional[_ListenerEntry] = PHONE_LISTENERS.get(user_data)
        if entry is None or entry.on_code_auto_retrieval_timeout is None:
            return
        call_logged("phone listener on_code_auto_retrieval_timeout", entry.on_code_auto_retrieval_timeout,
                    decode(verification_id))
    except BaseException:  # noqa: BLE001
        logger.exception("hearth: error while reporting a phone verification timeout")


# Module-level, so the C function pointers live as long as the library can call them.
_ON_CODE_SENT = PHONE_CODE_SENT_CB(_on_code_sent)
_ON_VERIFICATION_FAILED = PHONE_FAILED_CB(_on_verification_failed)
_ON_CODE_AUTO_RETRIEVAL_TIMEOUT = PHONE_TIMEOUT_CB(_on_code_auto_retrieval_timeout)
_RELEASE = RELEASE_CB(_release)


def start_with_listener(
    core: AppCore,
    auth_ptr: int,
    options: PhoneOptions,
    on_code_sent: CodeSent,
    on_verification_failed: Optional[VerificationFailed],
    on_code_auto_retrieval_timeout: Optional[CodeAutoRetrievalTimeout],
) -> None:
    check_callable(on_code_sent, "on_code_sent")
    if on_verification_failed is not None:
        check_callable(on_verification_failed, "on_verification_failed")
    if on_code_auto_retrieval_timeout is not None:
        check_callable(on_code_auto_retrieval_timeout, "on_code_auto_retrieval_timeout")
    core.ensure_open()
    key = PHONE_LISTENERS.add(
        _ListenerEntry(core, on_code_sent, on_verification_failed, on_code_auto_retrieval_timeout)
    )
    listener = PhoneListener()
    listener.struct_size = ctypes.sizeof(PhoneListener)
    listener.on_code_sent = _ON_CODE_SENT
    listener.on_verification_failed = _ON_VERIFICATION_FAILED
    listener.on_code_auto_retrieval_timeout = _ON_CODE_AUTO_RETRIEVAL_TIMEOUT
    listener.release = _RELEASE
    listener.user_data = key
    code = lib.hearth_auth_verify_phone_number_with_listener(auth_ptr, options.buffer, ctypes.addressof(listener))
    if code != 0:
        # Refused: no callback will run, release included.
        PHONE_LISTENERS.pop(key)
        core.ensure_open()
        raise_for_code(code)
