"""Users (immutable snapshots with operations), their provider data and metadata, and auth results."""

from __future__ import annotations

import datetime
import json
import weakref
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Callable, List, Mapping, Optional, Tuple, TypeVar, Union

from ._lib import Op, lib
from ._support import KEEP, _Keep, decode, decode_optional, encode, logger
from .credential import Credential, OAuthProvider, credential_ptr, provider_ptr
from .email_actions import ActionCodeSettings, settings_buffer, settings_pointer
from .errors import AuthError, ErrorCode, InvalidHandleError
from .future import Future

if TYPE_CHECKING:
    from .app import App
    from .multi_factor import MultiFactorUser

__all__ = ["User", "UserInfo", "UserMetadata", "MultiFactorInfo", "AuthResult", "AdditionalUserInfo"]

#: A profile field argument of :meth:`User.update_profile`: a new value, ``None``/``""`` to delete
#: it, or :data:`hearth.KEEP` to leave it as it is.
ProfileValue = Union[str, None, _Keep]

R = TypeVar("R")


class _OwnedUser:
    """One ``hearth_user`` reference, released exactly once when the last snapshot using it goes."""

    __slots__ = ("ptr", "_finalizer", "__weakref__")

    def __init__(self, ptr: int) -> None:
        self.ptr = ptr
        self._finalizer = weakref.finalize(self, lib.hearth_user_release, ptr)
        self._finalizer.atexit = False


_EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)
_MILLISECOND = datetime.timedelta(milliseconds=1)


def _timestamp_to_datetime(milliseconds: int) -> Optional[datetime.datetime]:
    # Integer arithmetic: the datetime holds exactly the milliseconds Hearth reported.
    if milliseconds <= 0:
        return None
    return _EPOCH + milliseconds * _MILLISECOND


@dataclass(frozen=True)
class UserMetadata:
    """When the account was created and last signed in, in milliseconds since the Unix epoch (UTC);
    0 when unknown. :attr:`creation_time` / :attr:`last_sign_in_time` give aware datetimes."""

    creation_timestamp: int
    last_sign_in_timestamp: int

    @property
    def creation_time(self) -> Optional[datetime.datetime]:
        """:attr:`creation_timestamp` as a UTC datetime, ``None`` when unknown."""
        return _timestamp_to_datetime(self.creation_timestamp)

    @property
    def last_sign_in_time(self) -> Optional[datetime.datetime]:
        """:attr:`last_sign_in_timestamp` as a UTC datetime, ``None`` when unknown."""
        return _timestamp_to_datetime(self.last_sign_in_timestamp)


@dataclass(frozen=True)
class UserInfo:
    """One provider linked to a user (e.g. ``provider_id == "password"``). Unset fields are ``None``."""

    uid: Optional[str]
    provider_id: str
    email: Optional[str]
    display_name: Optional[str]
    photo_url: Optional[str]
    phone_number: Optional[str]

    @classmethod
    def _from_borrowed(cls, ptr: int) -> "UserInfo":
        return cls(
            uid=decode_optional(lib.hearth_user_info_uid(ptr)),
            provider_id=decode(lib.hearth_user_info_provider_id(ptr)),
            email=decode_optional(lib.hearth_user_info_email(ptr)),
            display_name=decode_optional(lib.hearth_user_info_display_name(ptr)),
            photo_url=decode_optional(lib.hearth_user_info_photo_url(ptr)),
            phone_number=decode_optional(lib.hearth_user_info_phone_number(ptr)),
        )


class _Lent:
    """A native handle Hearth lends from another object (a user snapshot, a future), and a reference
    that keeps that object alive."""

    __slots__ = ("ptr", "owner")

    def __init__(self, ptr: int, owner: object) -> None:
        self.ptr = ptr
        self.owner = owner


@dataclass(frozen=True)
class MultiFactorInfo:
    """One enrolled second factor, of a user (:attr:`hearth.MultiFactorUser.enrolled_factors`) or
    a hint of a sign-in that needs one (:attr:`hearth.MultiFactorResolver.hints`).

    - ``factor_id``: ``"phone"`` or ``"totp"``;
    - ``uid``: the enrollment id (what :meth:`hearth.MultiFactorUser.unenroll` and
      :meth:`hearth.TotpMultiFactorGenerator.assertion_for_sign_in` take);
    - ``display_name``: the name given at enrollment, ``None`` when none;
    - ``phone_number``: for a phone factor; masked (``"+*******4567"``) in sign-in hints;
    - ``enrollment_time``: when it was enrolled (UTC), ``None`` when unknown.
    """

    factor_id: str
    uid: str
    display_name: Optional[str]
    phone_number: Optional[str]
    enrollment_time: Optional[datetime.datetime]
    _native: Optional[_Lent] = field(default=None, repr=False, compare=False)

    @property
    def enrollment_timestamp(self) -> int:
        """:attr:`enrollment_time` in milliseconds since the Unix epoch; 0 when unknown."""
        if self.enrollment_time is None:
            return 0
        return (self.enrollment_time - _EPOCH) // _MILLISECOND

    @classmethod
    def _from_borrowed(cls, ptr: int, owner: object) -> "MultiFactorInfo":
        return cls(
            factor_id=decode(lib.hearth_multi_factor_info_factor_id(ptr)),
            uid=decode(lib.hearth_multi_factor_info_uid(ptr)),
            display_name=decode_optional(lib.hearth_multi_factor_info_display_name(ptr)),
            phone_number=decode_optional(lib.hearth_multi_factor_info_phone_number(ptr)),
            enrollment_time=_timestamp_to_datetime(int(lib.hearth_multi_factor_info_enrollment_timestamp(ptr))),
            _native=_Lent(ptr, owner),
        )


@dataclass(frozen=True)
class User:
    """An immutable snapshot of a user, as it was when taken; unset fields are ``None``.

    Operations (:meth:`get_token`, :meth:`reload`, :meth:`update_profile`, ...) act on the *signed-in*
    user with this snapshot's uid and fail with :class:`~hearth.NoSignedInUserError` once that user
    is signed out. They do not change this snapshot: read :attr:`hearth.Auth.current_user` (or the
    future's result, for :meth:`reload` and :meth:`update_profile`) to see the change.

    The ``*_last_result`` methods return the most recent future of that operation for *any* user of
    the same app, like the C++ SDK's, or ``None`` if it never ran.
    """

    uid: str
    email: Optional[str]
    display_name: Optional[str]
    photo_url: Optional[str]
    phone_number: Optional[str]
    provider_id: str
    is_anonymous: bool
    is_email_verified: bool
    metadata: UserMetadata
    provider_data: Tuple[UserInfo, ...]
    #: The Identity Platform tenant the user belongs to (Firebase's ``User.tenantId``); ``None`` for
    #: the project's own users.
    tenant_id: Optional[str]
    _handle: _OwnedUser = field(repr=False, compare=False)
    _app: "App" = field(repr=False, compare=False)

    @classmethod
    def _from_owned(cls, ptr: int, app: "App") -> "User":
        """A snapshot that takes over the new reference ``ptr``."""
        handle = _OwnedUser(ptr)
        count = lib.hearth_user_provider_data_count(ptr)
        infos: List[UserInfo] = []
        for index in range(count):
            info = lib.hearth_user_provider_data_at(ptr, index)
            if info:
                infos.append(UserInfo._from_borrowed(info))
        return cls(
            uid=decode(lib.hearth_user_uid(ptr)),
            email=decode_optional(lib.hearth_user_email(ptr)),
            display_name=decode_optional(lib.hearth_user_display_name(ptr)),
            photo_url=decode_optional(lib.hearth_user_photo_url(ptr)),
            phone_number=decode_optional(lib.hearth_user_phone_number(ptr)),
            provider_id=decode(lib.hearth_user_provider_id(ptr)),
            is_anonymous=bool(lib.hearth_user_is_anonymous(ptr)),
            is_email_verified=bool(lib.hearth_user_is_email_verified(ptr)),
            metadata=UserMetadata(
                creation_timestamp=int(lib.hearth_user_creation_timestamp(ptr)),
                last_sign_in_timestamp=int(lib.hearth_user_last_sign_in_timestamp(ptr)),
            ),
            provider_data=tuple(infos),
            tenant_id=decode_optional(lib.hearth_user_tenant_id(ptr)),
            _handle=handle,
            _app=app,
        )

    @classmethod
    def _from_borrowed(cls, ptr: Optional[int], app: "App") -> "User":
        owned = lib.hearth_user_retain(ptr) if ptr else None
        if not owned:
            raise InvalidHandleError(ErrorCode.INVALID_HANDLE, "the operation returned no user")
        return cls._from_owned(owned, app)

    # ------------------------------------------------------------------------------------------------
    # Operations
    # ------------------------------------------------------------------------------------------------
    def _start(self, function: Callable[..., Optional[int]], convert: Callable[[int], R], *args: Any) -> Future[R]:
        ptr = function(self._handle.ptr, *args)
        if not ptr:
            raise InvalidHandleError(ErrorCode.INVALID_HANDLE, "the user handle was rejected")
        return Future(ptr, self._app._core, convert, self._app)

    def get_token(self, force_refresh: bool = False) -> Future[str]:
        """The ID token (a JWT): the cached one unless it expires within 5 minutes or
        ``force_refresh`` is true. Never log it."""
        if not isinstance(force_refresh, bool):
            raise TypeError(f"force_refresh must be a bool, not {type(force_refresh).__name__}")
        return self._start(lib.hearth_user_get_token, to_string, int(force_refresh))

    def reload(self) -> Future["User"]:
        """Fetches the profile from the server; the result is the fresh snapshot."""
        return self._start(lib.hearth_user_reload, user_converter(self._app))

    def update_profile(self, display_name: ProfileValue = KEEP, photo_url: ProfileValue = KEEP) -> Future["User"]:
        """Changes ``display_name`` and/or ``photo_url``; the result is the updated snapshot.

        For each field: a non-empty ``str`` sets it, ``None`` or ``""`` deletes it, and
        :data:`hearth.KEEP` (the default) leaves it unchanged. So
        ``user.update_profile(photo_url=None)`` removes the photo, and passing a field read from a
        snapshot (where unset is ``None``) always reproduces that snapshot's state.
        """
        return self._start(
            lib.hearth_user_update_user_profile,
            user_converter(self._app),
            _profile_argument(display_name, "display_name"),
            _profile_argument(photo_url, "photo_url"),
        )

    def update_password(self, password: str) -> Future[None]:
        """Sets a new password. May fail with :class:`~hearth.RequiresRecentLoginError`."""
        return self._start(lib.hearth_user_update_password, to_none, encode(password, "password"))

    def update_email(self, email: str) -> Future[None]:
        """Sets the e-mail address without verifying it first (Firebase's deprecated ``updateEmail``;
        prefer :meth:`send_email_verification_before_updating_email`). The new address starts
        unverified. Projects with email enumeration protection refuse it
        (:class:`~hearth.OperationNotAllowedError`)."""
        return self._start(lib.hearth_user_update_email, to_none, encode(email, "email"))

    def send_email_verification(self, settings: Optional[ActionCodeSettings] = None) -> Future[None]:
        """Sends the address-verification e-mail to the user's e-mail address. ``settings``
        (:class:`~hearth.ActionCodeSettings`) makes the action page continue to your app, or hands
        your app the code (then :meth:`hearth.Auth.apply_action_code`)."""
        c_settings = settings_buffer(settings)
        return self._start(lib.hearth_user_send_email_verification, to_none, settings_pointer(c_settings))

    def send_email_verification_before_updating_email(
        self, new_email: str, settings: Optional[ActionCodeSettings] = None
    ) -> Future[None]:
        """Sends a verification e-mail to ``new_email``; the address changes once it is verified.
        ``settings`` as for :meth:`send_email_verification`."""
        address = encode(new_email, "new_email")
        c_settings = settings_buffer(settings)
        return self._start(
            lib.hearth_user_send_email_verification_before_updating_email,
            to_none,
            address,
            settings_pointer(c_settings),
        )

    def delete(self) -> Future[None]:
        """Deletes the account and signs out. May fail with :class:`~hearth.RequiresRecentLoginError`."""
        return self._start(lib.hearth_user_delete, to_none)

    def update_phone_number(self, credential: Credential) -> Future["User"]:
        """Replaces the account's phone number with the one a phone credential proves
        (:meth:`hearth.PhoneAuthProvider.credential`); the result is the updated snapshot. A number
        of another account fails with :class:`~hearth.CredentialAlreadyInUseError`, whose
        ``updated_credential`` signs in to that account."""
        return self._start(
            lib.hearth_user_update_phone_number_credential, user_converter(self._app), credential_ptr(credential)
        )

    @property
    def multi_factor(self) -> "MultiFactorUser":
        """This user's second factors: :attr:`~hearth.MultiFactorUser.enrolled_factors` (as of this
        snapshot), :meth:`~hearth.MultiFactorUser.get_session`, :meth:`~hearth.MultiFactorUser.enroll`,
        :meth:`~hearth.MultiFactorUser.unenroll`."""
        from .multi_factor import MultiFactorUser  # multi_factor builds on this module

        return MultiFactorUser(self)

    def _enrolled_factors(self) -> Tuple[MultiFactorInfo, ...]:
        ptr = self._handle.ptr
        factors: List[MultiFactorInfo] = []
        for index in range(lib.hearth_user_multi_factor_count(ptr)):
            info = lib.hearth_user_multi_factor_at(ptr, index)
            if info:
                factors.append(MultiFactorInfo._from_borrowed(info, self._handle))
        return tuple(factors)

    # ------------------------------------------------------------------------------------------------
    # Linking, unlinking, reauthenticating
    # ------------------------------------------------------------------------------------------------
    def link_with_credential(self, credential: Credential) -> Future["AuthResult"]:
        """Links ``credential``'s identity to this account, so that it signs in here too (an anonymous
        user stops being anonymous). The result's user lists the new provider in ``provider_data``.

        Fails with :class:`~hearth.ProviderAlreadyLinkedError` when the account already has that
        provider, :class:`~hearth.CredentialAlreadyInUseError` or :class:`~hearth.EmailAlreadyInUseError`
        when the identity belongs to another account (their ``updated_credential`` signs in to it),
        or :class:`~hearth.RequiresRecentLoginError`.
        """
        return self._start(
            lib.hearth_user_link_with_credential, auth_result_converter(self._app), credential_ptr(credential)
        )

    def unlink(self, provider_id: str) -> Future["AuthResult"]:
        """Unlinks ``provider_id`` (``"google.com"``, ``"password"``, ``"phone"``, ...); the result's user
        is the updated account. Unlinking ``"password"`` removes the e-mail, ``"phone"`` the phone
        number. Fails with :class:`~hearth.NoSuchProviderError` when that provider is not linked."""
        return self._start(
            lib.hearth_user_unlink, auth_result_converter(self._app), encode(provider_id, "provider_id")
        )

    def reauthenticate(self, credential: Credential) -> Future[None]:
        """Signs in again with a credential of this same user, before a sensitive operation
        (password change, deletion) that would fail with :class:`~hearth.RequiresRecentLoginError`.
        A credential of another account fails with :class:`~hearth.UserMismatchError` and this user
        stays signed in."""
        return self._start(lib.hearth_user_reauthenticate, to_none, credential_ptr(credential))

    def reauthenticate_and_retrieve_data(self, credential: Credential) -> Future["AuthResult"]:
        """:meth:`reauthenticate`, with the auth result (additional user info, provider credential)."""
        return self._start(
            lib.hearth_user_reauthenticate_and_retrieve_data,
            auth_result_converter(self._app),
            credential_ptr(credential),
        )

    def link_with_provider(self, provider: OAuthProvider) -> Future["AuthResult"]:
        """Links a provider through its page (the desktop provider flow; see
        :meth:`hearth.Auth.set_provider_flow`). Errors as for :meth:`link_with_credential`, plus those
        of :meth:`hearth.Auth.sign_in_with_provider`."""
        return self._start(lib.hearth_user_link_with_provider, auth_result_converter(self._app), provider_ptr(provider))

    def reauthenticate_with_provider(self, provider: OAuthProvider) -> Future["AuthResult"]:
        """Reauthenticates through the provider's page; :class:`~hearth.UserMismatchError` when
        another account signs in there."""
        return self._start(
            lib.hearth_user_reauthenticate_with_provider, auth_result_converter(self._app), provider_ptr(provider)
        )

    # ------------------------------------------------------------------------------------------------
    # Last results (per app)
    # ------------------------------------------------------------------------------------------------
    def _last(self, operation: Op, convert: Callable[[int], R]) -> Optional[Future[R]]:
        return self._app.auth._last_result(operation, convert)

    def get_token_last_result(self) -> Optional[Future[str]]:
        """The most recent :meth:`User.get_token` future
        (a new reference to that operation), or ``None`` if it never ran."""
        return self._last(Op.USER_GET_TOKEN, to_string)

    def reload_last_result(self) -> Optional[Future["User"]]:
        """The most recent :meth:`User.reload` future
        (a new reference to that operation), or ``None`` if it never ran."""
        return self._last(Op.USER_RELOAD, user_converter(self._app))

    def update_profile_last_result(self) -> Optional[Future["User"]]:
        """The most recent :meth:`User.update_profile` future
        (a new reference to that operation), or ``None`` if it never ran."""
        return self._last(Op.USER_UPDATE_USER_PROFILE, user_converter(self._app))

    def update_password_last_result(self) -> Optional[Future[None]]:
        """The most recent :meth:`User.update_password` future
        (a new reference to that operation), or ``None`` if it never ran."""
        return self._last(Op.USER_UPDATE_PASSWORD, to_none)

    def update_email_last_result(self) -> Optional[Future[None]]:
        """The most recent :meth:`User.update_email` future
        (a new reference to that operation), or ``None`` if it never ran."""
        return self._last(Op.USER_UPDATE_EMAIL, to_none)

    def send_email_verification_last_result(self) -> Optional[Future[None]]:
        """The most recent :meth:`User.send_email_verification` future
        (a new reference to that operation), or ``None`` if it never ran."""
        return self._last(Op.USER_SEND_EMAIL_VERIFICATION, to_none)

    def send_email_verification_before_updating_email_last_result(self) -> Optional[Future[None]]:
        """The most recent :meth:`User.send_email_verification_before_updating_email` future
        (a new reference to that operation), or ``None`` if it never ran."""
        return self._last(
            Op.USER_SEND_EMAIL_VERIFICATION_BEFORE_UPDATING_EMAIL, to_none
        )

    def delete_last_result(self) -> Optional[Future[None]]:
        """The most recent :meth:`User.delete` future
        (a new reference to that operation), or ``None`` if it never ran."""
        return self._last(Op.USER_DELETE, to_none)

    def update_phone_number_last_result(self) -> Optional[Future["User"]]:
        """The most recent :meth:`User.update_phone_number` future
        (a new reference to that operation), or ``None`` if it never ran."""
        return self._last(Op.USER_UPDATE_PHONE_NUMBER_CREDENTIAL, user_converter(self._app))

    def link_with_credential_last_result(self) -> Optional[Future["AuthResult"]]:
        """The most recent :meth:`User.link_with_credential` future
        (a new reference to that operation), or ``None`` if it never ran."""
        return self._last(Op.USER_LINK_WITH_CREDENTIAL, auth_result_converter(self._app))

    def unlink_last_result(self) -> Optional[Future["AuthResult"]]:
        """The most recent :meth:`User.unlink` future
        (a new reference to that operation), or ``None`` if it never ran."""
        return self._last(Op.USER_UNLINK, auth_result_converter(self._app))

    def reauthenticate_last_result(self) -> Optional[Future[None]]:
        """The most recent :meth:`User.reauthenticate` future
        (a new reference to that operation), or ``None`` if it never ran."""
        return self._last(Op.USER_REAUTHENTICATE, to_none)

    def reauthenticate_and_retrieve_data_last_result(self) -> Optional[Future["AuthResult"]]:
        """The most recent :meth:`User.reauthenticate_and_retrieve_data` future
        (a new reference to that operation), or ``None`` if it never ran."""
        return self._last(
            Op.USER_REAUTHENTICATE_AND_RETRIEVE_DATA, auth_result_converter(self._app)
        )

    def link_with_provider_last_result(self) -> Optional[Future["AuthResult"]]:
        """The most recent :meth:`User.link_with_provider` future
        (a new reference to that operation), or ``None`` if it never ran."""
        return self._last(Op.USER_LINK_WITH_PROVIDER, auth_result_converter(self._app))

    def reauthenticate_with_provider_last_result(self) -> Optional[Future["AuthResult"]]:
        """The most recent :meth:`User.reauthenticate_with_provider` future
        (a new reference to that operation), or ``None`` if it never ran."""
        return self._last(
            Op.USER_REAUTHENTICATE_WITH_PROVIDER, auth_result_converter(self._app)
        )


@dataclass(frozen=True)
class AdditionalUserInfo:
    """What the sign-in said beyond the user: the provider used (``"password"``, ``"anonymous"``,
    ``"custom"``, ``"google.com"``, ...), the identity provider's user name (GitHub login, Twitter
    screen name) and profile (its claims, e.g. ``profile["email"]``; empty for Firebase's own
    providers), and whether this sign-in created the account."""

    provider_id: Optional[str]
    user_name: Optional[str]
    profile: Mapping[str, Any]
    is_new_user: bool


@dataclass(frozen=True)
class AuthResult:
    """The result of a sign-in, link or reauthentication: the signed-in :class:`User`, the
    :class:`AdditionalUserInfo`, and the identity provider's :class:`~hearth.Credential` the server
    returned (its access token, ID token, secret), or ``None`` (e-mail, anonymous, custom token)."""

    user: User
    additional_user_info: AdditionalUserInfo
    credential: Optional[Credential] = field(default=None, compare=False)


# ---------------------------------------------------------------------------------------------------
# Converters: a complete, successful native future -> its Python value
# ---------------------------------------------------------------------------------------------------


def _missing(kind: str) -> AuthError:
    return AuthError(ErrorCode.FAILURE, f"the operation succeeded but returned no {kind}")


def to_none(_future: int) -> None:
    return None


def to_string(future: int) -> str:
    raw = lib.hearth_future_string(future)
    if raw is None:
        raise _missing("string")
    return decode(raw)


def to_strings(future: int) -> List[str]:
    count = lib.hearth_future_string_count(future)
    return [decode(lib.hearth_future_string_at(future, index)) for index in range(count)]


def user_converter(app: "App") -> Callable[[int], User]:
    def convert(future: int) -> User:
        user = lib.hearth_future_user(future)
        if not user:
            raise _missing("user")
        return User._from_borrowed(user, app)

    return convert


def _parse_profile(text: str) -> Mapping[str, Any]:
    try:
        value = json.loads(text) if text else {}
    except ValueError:
        logger.warning("hearth: the sign-in's provider profile is not valid JSON; ignoring it")
        return MappingProxyType({})
    return MappingProxyType(value if isinstance(value, dict) else {})


def auth_result_converter(app: "App") -> Callable[[int], AuthResult]:
    def convert(future: int) -> AuthResult:
        result = lib.hearth_future_auth_result(future)
        if not result:
            raise _missing("auth result")
        user = User._from_borrowed(lib.hearth_auth_result_user(result), app)
        info = AdditionalUserInfo(
            provider_id=decode_optional(lib.hearth_auth_result_provider_id(result)),
            user_name=decode_optional(lib.hearth_auth_result_user_name(result)),
            profile=_parse_profile(decode(lib.hearth_auth_result_profile_json(result))),
            is_new_user=bool(lib.hearth_auth_result_is_new_user(result)),
        )
        credential = Credential._from_borrowed(lib.hearth_auth_result_credential(result))
        return AuthResult(user=user, additional_user_info=info, credential=credential)

    return convert


def _profile_argument(value: object, name: str) -> Optional[bytes]:
    if value is KEEP:
        return None
    if value is None:
        return b""
    return encode(value, name)

