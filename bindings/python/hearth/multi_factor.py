"""Multi-factor authentication: second factors by SMS (phone) and by authenticator app (TOTP).

Enrolling, for a signed-in user whose e-mail address is verified::

    session = await user.multi_factor.get_session()
    # SMS: text the new number, then prove it
    verification = await auth.verify_phone_number("+15555550100", multi_factor_session=session)
    credential = hearth.PhoneAuthProvider.credential(verification.verification_id, sms_code)
    await user.multi_factor.enroll(hearth.PhoneMultiFactorGenerator.assertion(credential), "Work phone")
    # or TOTP: show the secret (as a QR code), then prove the app has it
    secret = await hearth.TotpMultiFactorGenerator.generate_secret(session)
    qr_text = secret.qr_code_url("ada@example.com", "My Game")
    assertion = hearth.TotpMultiFactorGenerator.assertion_for_enrollment(secret, code_from_the_app)
    await user.multi_factor.enroll(assertion, "Authenticator")

Signing in, once a factor is enrolled: the first factor fails with
:class:`~hearth.SecondFactorRequiredError`, whose ``resolver`` finishes the sign-in::

    try:
        result = await auth.sign_in_with_email_and_password(email, password)
    except hearth.SecondFactorRequiredError as error:
        resolver = error.resolver
        hint = resolver.hints[0]
        if hint.factor_id == "phone":
            verification = await auth.verify_phone_number(
                multi_factor_session=resolver.session, multi_factor_hint=hint)
            credential = hearth.PhoneAuthProvider.credential(verification.verification_id, sms_code)
            assertion = hearth.PhoneMultiFactorGenerator.assertion(credential)
        else:
            assertion = hearth.TotpMultiFactorGenerator.assertion_for_sign_in(hint.uid, code_from_the_app)
        result = await resolver.resolve_sign_in(assertion)
"""

from __future__ import annotations

import ctypes
import datetime
import math
import time
import weakref
from typing import TYPE_CHECKING, List, Optional, Tuple, Union, cast

from ._core import AppCore
from ._lib import TOTP_CODE_BUFFER_SIZE, lib
from ._support import check_int, decode, encode, encode_optional
from .credential import Credential, credential_ptr
from .errors import AuthError, ErrorCode, InvalidArgumentError, InvalidHandleError, last_error_message
from .future import Future, FutureReference
from .user import AuthResult, MultiFactorInfo, User, auth_result_converter, user_converter

if TYPE_CHECKING:
    from .app import App

__all__ = [
    "MultiFactorInfo",
    "MultiFactorSession",
    "MultiFactorResolver",
    "MultiFactorAssertion",
    "MultiFactorUser",
    "PhoneMultiFactorGenerator",
    "TotpMultiFactorGenerator",
    "TotpSecret",
    "totp_code",
    "TotpTime",
]

#: A moment for a TOTP code: Unix seconds (int or float), an aware datetime, or None for now.
TotpTime = Union[None, int, float, datetime.datetime]


class MultiFactorSession:
    """Proof of the first factor, for a second-factor operation: from
    :meth:`hearth.MultiFactorUser.get_session` (enrolling: pass it to
    :meth:`hearth.Auth.verify_phone_number` with the new number, or to
    :meth:`TotpMultiFactorGenerator.generate_secret`), or :attr:`MultiFactorResolver.session`
    (signing in: pass it to :meth:`hearth.Auth.verify_phone_number` with the hint)."""

    __slots__ = ("_ptr", "_owner", "_core", "_app", "_purpose")
    _ptr: int
    _owner: object
    _core: AppCore
    _app: "App"
    _purpose: str

    def __init__(self) -> None:
        raise TypeError("sessions come from user.multi_factor.get_session() or a MultiFactorResolver")

    @classmethod
    def _lent(cls, ptr: int, owner: object, core: AppCore, app: "App", purpose: str) -> "MultiFactorSession":
        self = object.__new__(cls)
        self._ptr = ptr
        self._owner = owner  # what lends the native session: it lives as long as this object
        self._core = core
        self._app = app
        self._purpose = purpose
        return self

    @property
    def purpose(self) -> str:
        """``"enrollment"`` or ``"sign_in"``."""
        return self._purpose

    def __repr__(self) -> str:
        return f"<hearth.MultiFactorSession for {self._purpose}>"


def session_ptr(session: object) -> int:
    """The native handle of a :class:`MultiFactorSession` argument of an open app."""
    if not isinstance(session, MultiFactorSession):
        raise TypeError(f"multi_factor_session must be a hearth.MultiFactorSession, not {type(session).__name__}")
    session._core.ensure_open()
    return int(session._ptr)


def hint_ptr(hint: object) -> int:
    """The native handle of a :class:`MultiFactorInfo` given as a sign-in hint."""
    if not isinstance(hint, MultiFactorInfo):
        raise TypeError(f"multi_factor_hint must be a hearth.MultiFactorInfo, not {type(hint).__name__}")
    if hint._native is None:
        raise ValueError("multi_factor_hint must be one of MultiFactorResolver.hints (this one was made by hand)")
    return int(hint._native.ptr)


class MultiFactorAssertion:
    """A proven second factor: made by :class:`PhoneMultiFactorGenerator` or
    :class:`TotpMultiFactorGenerator`, used by :meth:`hearth.MultiFactorUser.enroll` and
    :meth:`MultiFactorResolver.resolve_sign_in`. Its ``repr`` never shows the code."""

    __slots__ = ("_ptr", "_factor_id", "_finalizer", "__weakref__")
    _ptr: int
    _factor_id: str
    _finalizer: "weakref.finalize[[int], MultiFactorAssertion]"

    def __init__(self) -> None:
        raise TypeError("use hearth.PhoneMultiFactorGenerator or hearth.TotpMultiFactorGenerator")

    @classmethod
    def _take(cls, ptr: Optional[int], factor_id: str, what: str) -> "MultiFactorAssertion":
        if not ptr:
            raise InvalidArgumentError(ErrorCode.INVALID_ARGUMENT, f"Hearth rejected the {what}")
        self = object.__new__(cls)
        self._ptr = ptr
        self._factor_id = factor_id
        self._finalizer = weakref.finalize(self, lib.hearth_multi_factor_assertion_release, ptr)
        self._finalizer.atexit = False
        return self

    @property
    def factor_id(self) -> str:
        """``"phone"`` or ``"totp"``."""
        return self._factor_id

    def __repr__(self) -> str:
        return f"<hearth.MultiFactorAssertion {self._factor_id}>"


def assertion_ptr(assertion: object) -> int:
    if not isinstance(assertion, MultiFactorAssertion):
        raise TypeError(f"assertion must be a hearth.MultiFactorAssertion, not {type(assertion).__name__}")
    return int(assertion._ptr)


class MultiFactorResolver:
    """Finishes a sign-in that needs a second factor: :attr:`hearth.SecondFactorRequiredError.resolver`.

    - :attr:`hints`: the account's enrolled factors (:class:`MultiFactorInfo`; phone numbers masked);
    - :attr:`session`: for :meth:`hearth.Auth.verify_phone_number` with one of the phone hints;
    - :meth:`resolve_sign_in`: signs in with a proven factor (auth-state listeners are told once).

    It stays usable after the failed future is gone, until the app closes.
    """

    __slots__ = ("_ptr", "_owner", "_core", "_app", "_hints", "_session")
    _ptr: int
    _owner: FutureReference
    _core: AppCore
    _app: "App"
    _hints: Tuple[MultiFactorInfo, ...]
    _session: MultiFactorSession

    def __init__(self) -> None:
        raise TypeError("a MultiFactorResolver comes from SecondFactorRequiredError.resolver")

    @classmethod
    def _from_future(cls, handle: int, core: AppCore, app: object) -> Optional["MultiFactorResolver"]:
        try:
            owner = FutureReference(handle)
        except AuthError:
            return None
        ptr = lib.hearth_future_multi_factor_resolver(owner.ptr)
        session = lib.hearth_multi_factor_resolver_session(ptr) if ptr else None
        if not ptr or not session:
            return None
        self = object.__new__(cls)
        self._ptr = ptr
        self._owner = owner
        self._core = core
        self._app = cast("App", app)
        hints: List[MultiFactorInfo] = []
        for index in range(lib.hearth_multi_factor_resolver_hint_count(ptr)):
            info = lib.hearth_multi_factor_resolver_hint_at(ptr, index)
            if info:
                hints.append(MultiFactorInfo._from_borrowed(info, owner))
        self._hints = tuple(hints)
        self._session = MultiFactorSession._lent(session, owner, core, self._app, "sign_in")
        return self

    @property
    def hints(self) -> Tuple[MultiFactorInfo, ...]:
        """The enrolled second factors, to choose from (phone numbers masked)."""
        return self._hints

    @property
    def session(self) -> MultiFactorSession:
        """The sign-in's session: ``auth.verify_phone_number(multi_factor_session=resolver.session,
        multi_factor_hint=hint)`` texts the phone of a ``"phone"`` hint."""
        return self._session

    def resolve_sign_in(self, assertion: MultiFactorAssertion) -> Future[AuthResult]:
        """Finishes the sign-in with ``assertion``, a proven second factor; the result is the signed-in
        user's :class:`~hearth.AuthResult`. Errors: :class:`~hearth.InvalidVerificationCodeError`,
        :class:`~hearth.SessionExpiredError`, :class:`~hearth.InvalidMultiFactorSessionError`,
        :class:`~hearth.MultiFactorInfoNotFoundError`, ..."""
        argument = assertion_ptr(assertion)
        self._core.ensure_open()
        ptr = lib.hearth_multi_factor_resolver_resolve_sign_in(self._ptr, argument)
        if not ptr:
            self._core.ensure_open()
            raise InvalidHandleError(ErrorCode.INVALID_HANDLE, "Hearth rejected the multi-factor resolver")
        return Future(ptr, self._core, auth_result_converter(self._app), self._app)

    def __repr__(self) -> str:
        return f"<hearth.MultiFactorResolver hints={[hint.factor_id for hint in self._hints]!r}>"


class MultiFactorUser:
    """The second factors of a user: ``user.multi_factor``. Operations act on the signed-in user
    with that uid, like the user's own."""

    __slots__ = ("_user",)

    def __init__(self, user: User) -> None:
        if not isinstance(user, User):
            raise TypeError(f"user must be a hearth.User, not {type(user).__name__}")
        self._user = user

    @property
    def enrolled_factors(self) -> Tuple[MultiFactorInfo, ...]:
        """The enrolled second factors, as of the user snapshot (take a new one to see changes)."""
        return self._user._enrolled_factors()

    def get_session(self) -> Future[MultiFactorSession]:
        """A session for enrolling a second factor (it proves the first). The account's e-mail
        address must be verified to enroll (:class:`~hearth.UnverifiedEmailError` otherwise)."""
        app = self._user._app
        core = app._core

        def convert(handle: int) -> MultiFactorSession:
            owner = FutureReference(handle)
            ptr = lib.hearth_future_multi_factor_session(owner.ptr)
            if not ptr:
                raise AuthError(ErrorCode.FAILURE, "the operation succeeded but returned no session")
            return MultiFactorSession._lent(ptr, owner, core, app, "enrollment")

        return self._user._start(lib.hearth_user_multi_factor_get_session, convert)

    def enroll(self, assertion: MultiFactorAssertion, display_name: Optional[str] = None) -> Future[User]:
        """Enrolls ``assertion``, a proven second factor, under ``display_name``; the result is the
        updated user.
        Errors: :class:`~hearth.SecondFactorAlreadyEnrolledError`,
        :class:`~hearth.MaximumSecondFactorCountExceededError`, :class:`~hearth.UnverifiedEmailError`,
        :class:`~hearth.UnsupportedFirstFactorError`, :class:`~hearth.InvalidVerificationCodeError`, ..."""
        return self._user._start(
            lib.hearth_user_multi_factor_enroll,
            user_converter(self._user._app),
            assertion_ptr(assertion),
            encode_optional(display_name, "display_name"),
        )

    def unenroll(self, factor: Union[str, MultiFactorInfo]) -> Future[User]:
        """Removes an enrolled factor, given as its :class:`MultiFactorInfo` or enrollment id; the
        result is the updated user. :class:`~hearth.MultiFactorInfoNotFoundError` when there is none."""
        enrollment_id = factor.uid if isinstance(factor, MultiFactorInfo) else factor
        return self._user._start(
            lib.hearth_user_multi_factor_unenroll,
            user_converter(self._user._app),
            encode(enrollment_id, "factor"),
        )

    def __repr__(self) -> str:
        return f"<hearth.MultiFactorUser of {self._user.uid!r}: {[f.factor_id for f in self.enrolled_factors]!r}>"


class _GeneratorNamespace:
    """Generators are used through their static methods only."""

    FACTOR_ID = ""

    def __init__(self) -> None:
        raise TypeError(f"{type(self).__name__} is not instantiable; use its static methods")


class PhoneMultiFactorGenerator(_GeneratorNamespace):
    """SMS second factors (``"phone"``)."""

    FACTOR_ID = "phone"

    @staticmethod
    def assertion(credential: Credential) -> MultiFactorAssertion:
        """The assertion of a phone credential whose verification used a multi-factor session
        (:meth:`hearth.Auth.verify_phone_number` with ``multi_factor_session``). Any other kind of
        credential is an :class:`~hearth.InvalidArgumentError` (a ``ValueError``)."""
        return MultiFactorAssertion._take(
            lib.hearth_multi_factor_assertion_create_phone(credential_ptr(credential)), "phone", "credential (not a phone one)"
        )


class TotpMultiFactorGenerator(_GeneratorNamespace):
    """Authenticator-app second factors (``"totp"``)."""

    FACTOR_ID = "totp"

    @staticmethod
    def generate_secret(session: MultiFactorSession) -> Future["TotpSecret"]:
        """Starts enrolling an authenticator: the result is the :class:`TotpSecret` to show the user
        (as a QR code: :meth:`TotpSecret.qr_code_url`). ``session`` is an enrollment session."""
        ptr_argument = session_ptr(session)
        core, app = session._core, session._app
        ptr = lib.hearth_totp_secret_generate(ptr_argument)
        if not ptr:
            core.ensure_open()
            raise InvalidHandleError(ErrorCode.INVALID_HANDLE, "Hearth rejected the multi-factor session")

        def convert(handle: int) -> TotpSecret:
            owner = FutureReference(handle)
            secret = lib.hearth_future_totp_secret(owner.ptr)
            if not secret:
                raise AuthError(ErrorCode.FAILURE, "the operation succeeded but returned no TOTP secret")
            return TotpSecret._lent(secret, owner)

        return Future(ptr, core, convert, app)

    @staticmethod
    def assertion_for_enrollment(secret: "TotpSecret", code: str) -> MultiFactorAssertion:
        """Finishes enrolling ``secret``: with a code the user's authenticator shows."""
        if not isinstance(secret, TotpSecret):
            raise TypeError(f"secret must be a hearth.TotpSecret, not {type(secret).__name__}")
        return MultiFactorAssertion._take(
            lib.hearth_multi_factor_assertion_create_totp_enrollment(secret._ptr, encode(code, "code")),
            "totp",
            "TOTP enrollment",
        )

    @staticmethod
    def assertion_for_sign_in(enrollment_id: Union[str, MultiFactorInfo], code: str) -> MultiFactorAssertion:
        """Signs in with an enrolled authenticator: ``enrollment_id`` is its hint
        (:class:`~hearth.MultiFactorInfo`) or the hint's ``uid``, ``code`` a code the app shows."""
        factor = enrollment_id.uid if isinstance(enrollment_id, MultiFactorInfo) else enrollment_id
        return MultiFactorAssertion._take(
            lib.hearth_multi_factor_assertion_create_totp_sign_in(encode(factor, "enrollment_id"), encode(code, "code")),
            "totp",
            "TOTP sign-in (empty enrollment id or code?)",
        )


class TotpSecret:
    """A TOTP secret being enrolled (:meth:`TotpMultiFactorGenerator.generate_secret`).

    ``shared_secret_key`` (base32) is what an authenticator app stores; show it to the user (or
    :meth:`qr_code_url` as a QR code) and never log it: its ``repr`` leaves it out.
    """

    __slots__ = ("_ptr", "_owner", "_shared_secret_key", "_code_length", "_period", "_algorithm")
    _ptr: int
    _owner: object
    _shared_secret_key: str
    _code_length: int
    _period: int
    _algorithm: str

    def __init__(self) -> None:
        raise TypeError("a TotpSecret comes from TotpMultiFactorGenerator.generate_secret()")

    @classmethod
    def _lent(cls, ptr: int, owner: object) -> "TotpSecret":
        self = object.__new__(cls)
        self._ptr = ptr
        self._owner = owner
        self._shared_secret_key = decode(lib.hearth_totp_secret_shared_secret_key(ptr))
        self._code_length = int(lib.hearth_totp_secret_code_length(ptr))
        self._period = int(lib.hearth_totp_secret_period_seconds(ptr))
        self._algorithm = decode(lib.hearth_totp_secret_algorithm(ptr))
        return self

    @property
    def shared_secret_key(self) -> str:
        """The shared secret, base32 without padding."""
        return self._shared_secret_key

    @property
    def code_length(self) -> int:
        """Digits per code (6 for Firebase)."""
        return self._code_length

    @property
    def period(self) -> int:
        """Seconds each code is valid (30 for Firebase)."""
        return self._period

    @property
    def algorithm(self) -> str:
        """The HMAC hash: ``"SHA1"``, ``"SHA256"`` or ``"SHA512"``."""
        return self._algorithm

    def qr_code_url(self, account_name: str, issuer: str = "") -> str:
        """The ``otpauth://totp/...`` URI to show as a QR code; ``account_name`` is usually the
        user's e-mail, ``issuer`` your app's name (``""`` leaves it out)."""
        raw = lib.hearth_totp_secret_qr_code_url(
            self._ptr, encode(account_name, "account_name"), encode(issuer, "issuer")
        )
        if not raw:
            raise InvalidArgumentError(ErrorCode.INVALID_ARGUMENT, "Hearth could not make the otpauth URI")
        try:
            return ctypes.string_at(raw).decode("utf-8")
        finally:
            lib.hearth_free(raw)

    def generate_code(self, at: TotpTime = None) -> str:
        """The code an authenticator holding this secret shows at ``at`` (default: now)."""
        return totp_code(
            self._shared_secret_key, at, digits=self._code_length, period=self._period, algorithm=self._algorithm
        )

    def __repr__(self) -> str:
        return (
            f"<hearth.TotpSecret {self._algorithm} {self._code_length} digits every {self._period} s "
            f"(shared secret hidden)>"
        )


def _unix_seconds(at: TotpTime) -> int:
    if at is None:
        return int(time.time())
    if isinstance(at, datetime.datetime):
        if at.tzinfo is None:
            raise ValueError("at must be an aware datetime (e.g. datetime.now(timezone.utc)), not a naive one")
        seconds = at.timestamp()
    elif isinstance(at, bool) or not isinstance(at, (int, float)):
        raise TypeError(f"at must be Unix seconds, a datetime or None, not {type(at).__name__}")
    else:
        seconds = float(at)
    if seconds != seconds or math.isinf(seconds):
        raise ValueError("at must be finite")
    if not 0 <= seconds < 2**62:
        raise ValueError("at must be between 1970 and the far future (Unix seconds 0 .. 2**62)")
    return math.floor(seconds)


def totp_code(
    secret: str, at: TotpTime = None, *, digits: int = 6, period: int = 30, algorithm: str = "SHA1"
) -> str:
    """The RFC 6238 code of a base32 ``secret`` at ``at`` (Unix seconds, an aware datetime, or
    ``None`` for now): what an authenticator app shows. For tests and for apps that are their own
    authenticator. Firebase's factors use the defaults (6 digits, 30 s, SHA1).

    Raises :class:`~hearth.InvalidArgumentError` (a ``ValueError``) for a secret that is not base32,
    an unknown algorithm (not SHA1, SHA256, SHA512), ``digits`` outside 6..10 or a period < 1.
    """
    secret_bytes = encode(secret, "secret")
    algorithm_bytes = encode(algorithm, "algorithm")
    check_int(digits, "digits")
    check_int(period, "period")
    unix_time = _unix_seconds(at)
    if not (-(2**31) <= digits < 2**31 and -(2**31) <= period < 2**31):
        raise InvalidArgumentError(ErrorCode.INVALID_ARGUMENT, "digits and period must fit a C int")
    out = ctypes.create_string_buffer(TOTP_CODE_BUFFER_SIZE)
    code = lib.hearth_totp_code_generate(
        secret_bytes, algorithm_bytes, digits, period, unix_time, out, TOTP_CODE_BUFFER_SIZE
    )
    if code != 0:
        # The library names what it refused ("algorithm \"MD5\" is not SHA1, SHA256 or SHA512.").
        raise InvalidArgumentError(code, last_error_message() or "cannot make a TOTP code")
    return out.value.decode("ascii")
