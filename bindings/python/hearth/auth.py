"""``hearth.Auth``: sign-in, the current user, listeners."""

from __future__ import annotations

import ctypes
import math
import threading
from typing import TYPE_CHECKING, Any, Callable, List, Optional, TypeVar

from ._core import LISTENERS, OPEN_URLS, AppCore
from ._lib import AUTH_STATE_CB, FLOW_OPTIONS_BUFFER_SIZE, ID_TOKEN_CB, OPEN_URL_CB, RELEASE_CB, Op, ProviderFlowOptions, lib
from ._support import (
    call_logged,
    check_callable,
    check_int,
    check_seconds,
    decode,
    encode,
    encode_optional,
    logger,
)
from .credential import Credential, OAuthProvider, credential_ptr, provider_ptr
from .email_actions import ActionCodeInfo, ActionCodeSettings, settings_buffer, settings_pointer, to_action_code_info
from .errors import AppDestroyedError, AuthError, ErrorCode, InvalidHandleError, raise_for_code
from .future import Future
from .multi_factor import MultiFactorSession
from .phone import (
    CodeAutoRetrievalTimeout,
    CodeSent,
    PhoneVerification,
    VerificationFailed,
    phone_options,
    start_with_listener,
    to_phone_verification,
)
from .user import (
    AuthResult,
    MultiFactorInfo,
    User,
    auth_result_converter,
    to_none,
    to_string,
    to_strings,
    user_converter,
)

if TYPE_CHECKING:
    from .app import App

__all__ = ["Auth", "ListenerHandle", "AuthStateListener", "OpenUrl"]

R = TypeVar("R")

#: A listener: called with the current user (``None`` when signed out).
AuthStateListener = Callable[[Optional[User]], object]

#: The provider flow's UI delegate: shows a URL to the user; returning ``False`` (or raising) refuses.
OpenUrl = Callable[[str], Optional[bool]]

_MAX_TIMEOUT_MS = 2**63 - 1


class _ListenerEntry:
    __slots__ = ("auth", "callback", "kind")

    def __init__(self, auth: "Auth", callback: AuthStateListener, kind: str) -> None:
        self.auth = auth
        self.callback = callback
        self.kind = kind


class ListenerHandle:
    """A registered listener; :meth:`remove` (or leaving a ``with`` block) unregisters it.

    Dropping the handle does not remove the listener: it stays until removed or the app closes.
    """

    def __init__(self, auth: "Auth", kind: str, key: int, listener_id: int) -> None:
        self._auth = auth
        self._kind = kind
        self._key = key
        self._listener_id = listener_id
        self._lock = threading.Lock()
        self._removed = False

    @property
    def kind(self) -> str:
        """``"auth_state"`` or ``"id_token"``."""
        return self._kind

    @property
    def active(self) -> bool:
        """True until :meth:`remove` runs or the app is closed."""
        return not self._removed and not self._auth._core.closed

    def remove(self) -> None:
        """Unregisters the listener; after this returns it is never called again. Idempotent."""
        with self._lock:
            if self._removed:
                return
            self._removed = True
        core = self._auth._core
        # The library calls the listener no more once this returns, then releases it (_release_listener
        # drops the entry). A closed app has released it already.
        if not core.closed:
            remove = (
                lib.hearth_auth_remove_auth_state_listener
                if self._kind == "auth_state"
                else lib.hearth_auth_remove_id_token_listener
            )
            code = remove(core.auth_ptr, self._listener_id)
            if code != 0 and not core.closed:
                logger.warning("hearth: removing a %s listener returned error %d", self._kind, code)

    def __enter__(self) -> "ListenerHandle":
        return self

    def __exit__(self, *_: Any) -> None:
        self.remove()

    def __repr__(self) -> str:
        state = "active" if self.active else "removed"
        return f"<hearth.ListenerHandle {self._kind} {state}>"


def _dispatch(user_data: Optional[int], what: str) -> None:
    try:
        entry: Optional[_ListenerEntry] = LISTENERS.get(user_data)
        if entry is None:
            return
        try:
            user = entry.auth.current_user
        except AppDestroyedError:  # closing while this call was on its way: nothing to report
            return
        call_logged(what, entry.callback, user)
    except BaseException:  # noqa: BLE001 - must not unwind into C
        logger.exception("hearth: error while calling a %s", what)


def _on_auth_state(_auth: Optional[int], user_data: Optional[int]) -> None:
    _dispatch(user_data, "auth-state listener")


def _on_id_token(_auth: Optional[int], user_data: Optional[int]) -> None:
    _dispatch(user_data, "ID-token listener")


def _to_credential(handle: int) -> Credential:
    """The credential of a finished credential-only provider flow, as one of our own."""
    credential = Credential._from_borrowed(lib.hearth_future_credential(handle))
    if credential is None:
        raise InvalidHandleError(ErrorCode.INVALID_HANDLE, "the provider flow finished without a credential")
    return credential


def _release_listener(user_data: Optional[int]) -> None:
    """The listener's final call (removed, or the app closed): its entry goes."""
    LISTENERS.pop(user_data)


def _release_open_url(user_data: Optional[int]) -> None:
    """No flow uses this delegate any more (replaced, or the app closed)."""
    OPEN_URLS.pop(user_data)


def _on_open_url(user_data: Optional[int], url: Optional[bytes]) -> int:
    """Hearth asks the host's delegate to show a URL: 0 when shown, 1 to refuse (cancels the flow)."""
    try:
        open_url = OPEN_URLS.get(user_data)
        if open_url is None or url is None:
            return 1
        try:
            shown = open_url(decode(url))
        except BaseException:  # noqa: BLE001 - must not unwind into C; the flow fails instead
            logger.exception("hearth: exception in the provider flow's open_url %r (the flow is cancelled)", open_url)
            return 1
        return 1 if shown is False else 0
    except BaseException:  # noqa: BLE001
        logger.exception("hearth: error while opening a provider flow's URL")
        return 1


# Module-level, so the C function pointers live as long as the library can call them.
_ON_AUTH_STATE = AUTH_STATE_CB(_on_auth_state)
_ON_ID_TOKEN = ID_TOKEN_CB(_on_id_token)
_ON_OPEN_URL = OPEN_URL_CB(_on_open_url)
_RELEASE_LISTENER = RELEASE_CB(_release_listener)
_RELEASE_OPEN_URL = RELEASE_CB(_release_open_url)


class Auth:
    """The app's authentication: obtained as :attr:`hearth.App.auth`.

    Every operation returns a :class:`hearth.Future` at once; the work happens on Hearth's loop
    thread. Listeners and done-callbacks run on that thread too.
    """

    def __init__(self, app: "App", core: AppCore) -> None:
        self._app = app
        self._core = core

    @property
    def app(self) -> "App":
        """The :class:`~hearth.App` this Auth belongs to."""
        return self._app

    def _ptr(self) -> int:
        self._core.ensure_open()
        return self._core.auth_ptr

    def _start(self, function: Callable[..., Optional[int]], convert: Callable[[int], R], *args: Any) -> Future[R]:
        ptr = function(self._ptr(), *args)
        if not ptr:
            self._core.ensure_open()
            raise InvalidHandleError(ErrorCode.INVALID_HANDLE, "Hearth rejected the auth handle")
        return Future(ptr, self._core, convert, self._app)

    def _last_result(self, operation: Op, convert: Callable[[int], R]) -> Optional[Future[R]]:
        ptr = lib.hearth_auth_last_result(self._ptr(), operation)
        if not ptr:
            return None
        return Future(ptr, self._core, convert, self._app)

    # ------------------------------------------------------------------------------------------------
    # Configuration
    # ------------------------------------------------------------------------------------------------
    def use_emulator(self, host: str, port: int) -> None:
        """Routes every endpoint (token refresh included) to the Auth emulator at ``host:port``.

        The ``FIREBASE_AUTH_EMULATOR_HOST`` environment variable (``"host:port"``) does the same when
        the app is created.
        """
        host_bytes = encode(host, "host")
        check_int(port, "port")
        if not 1 <= port <= 65535:
            raise ValueError(f"port must be in 1..65535, not {port}")
        raise_for_code(lib.hearth_auth_use_emulator(self._ptr(), host_bytes, port))

    @property
    def language_code(self) -> Optional[str]:
        """The language sent as ``X-Firebase-Locale`` (localizes e-mails); ``None`` when unset.
        Assign ``None`` or ``""`` to clear it."""
        raw = lib.hearth_auth_language_code(self._ptr())
        if not raw:
            return None
        try:
            return ctypes.string_at(raw).decode("utf-8", "replace") or None
        finally:
            lib.hearth_free(raw)

    @language_code.setter
    def language_code(self, value: Optional[str]) -> None:
        encoded = encode_optional(value, "language_code")
        raise_for_code(lib.hearth_auth_set_language_code(self._ptr(), encoded))

    @property
    def tenant_id(self) -> Optional[str]:
        """The Identity Platform tenant users sign in to (Firebase's ``Auth.tenantId``); ``None`` for
        the project's own users (the default).

        Assigning it applies to operations started afterwards: sign-up and every sign-in then create
        or find users of that tenant, and a sign-in whose user belongs to another tenant fails with
        :class:`~hearth.TenantIdMismatchError`. The signed-in user stays signed in. A restored session
        sets it to its user's tenant. ``""`` raises :class:`~hearth.InvalidArgumentError` (no tenant
        is ``None``); whether a tenant exists is the server's answer
        (:class:`~hearth.InvalidTenantIdError`).
        """
        raw = lib.hearth_auth_tenant_id(self._ptr())
        if not raw:
            return None
        try:
            return ctypes.string_at(raw).decode("utf-8", "replace")
        finally:
            lib.hearth_free(raw)

    @tenant_id.setter
    def tenant_id(self, value: Optional[str]) -> None:
        raise_for_code(lib.hearth_auth_set_tenant_id(self._ptr(), encode_optional(value, "tenant_id")))

    @property
    def app_verification_disabled_for_testing(self) -> Optional[bool]:
        """Whether phone verification skips app verification (reCAPTCHA), as Firebase's SDKs allow
        for tests: Firebase then accepts only the project's fictional test numbers.

        ``None`` until assigned: Hearth's default applies, which is ``True`` against the emulator and
        ``False`` otherwise. With ``False``, :meth:`verify_phone_number` shows the reCAPTCHA page
        through the provider-flow delegate (:meth:`set_provider_flow`) and fails with
        :class:`~hearth.MissingAppCredentialError` when there is none.
        """
        return self._core.app_verification_disabled_for_testing

    @app_verification_disabled_for_testing.setter
    def app_verification_disabled_for_testing(self, disabled: bool) -> None:
        if not isinstance(disabled, bool):
            raise TypeError(f"app_verification_disabled_for_testing must be a bool, not {type(disabled).__name__}")
        raise_for_code(lib.hearth_auth_set_app_verification_disabled_for_testing(self._ptr(), int(disabled)))
        self._core.app_verification_disabled_for_testing = disabled

    # ------------------------------------------------------------------------------------------------
    # Current user
    # ------------------------------------------------------------------------------------------------
    @property
    def current_user(self) -> Optional[User]:
        """A snapshot of the signed-in user, or ``None`` when signed out."""
        ptr = lib.hearth_auth_current_user(self._ptr())
        if not ptr:
            return None
        return User._from_owned(ptr, self._app)

    def sign_out(self) -> None:
        """Signs the current user out and erases the persisted session (synchronously)."""
        raise_for_code(lib.hearth_auth_sign_out(self._ptr()))

    def update_current_user(self, user: User) -> Future[None]:
        """Makes ``user``, signed in to another app of the same project (same API key), this app's
        current user too (Firebase's ``updateCurrentUser``): its session is taken over and persisted
        here; the other app keeps it. The result is ``None``.

        Fails with :class:`~hearth.TenantIdMismatchError` when the user's tenant is not
        :attr:`tenant_id`, :class:`~hearth.InvalidUserTokenError` for an app with another API key, and
        :class:`~hearth.NoSignedInUserError` when the user is no longer signed in to its own app; the
        current user stays then. Raises :class:`TypeError` at once for anything but a
        :class:`~hearth.User`."""
        if not isinstance(user, User):
            raise TypeError(f"user must be a hearth.User, not {type(user).__name__}")
        return self._start(lib.hearth_auth_update_current_user, to_none, user._handle.ptr)

    def update_current_user_last_result(self) -> Optional[Future[None]]:
        """The most recent future of :meth:`update_current_user`, or ``None``."""
        return self._last_result(Op.AUTH_UPDATE_CURRENT_USER, to_none)

    # ------------------------------------------------------------------------------------------------
    # Operations
    # ------------------------------------------------------------------------------------------------
    def sign_in_anonymously(self) -> Future[AuthResult]:
        """Signs in a new anonymous user, or gives the current one if it is already anonymous."""
        return self._start(lib.hearth_auth_sign_in_anonymously, auth_result_converter(self._app))

    def create_user_with_email_and_password(self, email: str, password: str) -> Future[AuthResult]:
        """Creates an account with ``email`` and ``password`` and signs it in.

        The future's result is an :class:`~hearth.AuthResult` (``additional_user_info.is_new_user`` is
        true). It fails with :class:`~hearth.EmailAlreadyInUseError`, :class:`~hearth.InvalidEmailError`,
        :class:`~hearth.WeakPasswordError`, or :class:`~hearth.MissingEmailError` /
        :class:`~hearth.MissingPasswordError` for empty arguments. Raises :class:`TypeError` at once for
        arguments that are not ``str``."""
        return self._start(
            lib.hearth_auth_create_user_with_email_and_password,
            auth_result_converter(self._app),
            encode(email, "email"),
            encode(password, "password"),
        )

    def sign_in_with_email_and_password(self, email: str, password: str) -> Future[AuthResult]:
        """Signs in the account with ``email`` and ``password``; the result is an
        :class:`~hearth.AuthResult`. Fails with :class:`~hearth.WrongPasswordError`,
        :class:`~hearth.UserNotFoundError`, or :class:`~hearth.InvalidCredentialError` when the project
        hides which one it is (e-mail enumeration protection)."""
        return self._start(
            lib.hearth_auth_sign_in_with_email_and_password,
            auth_result_converter(self._app),
            encode(email, "email"),
            encode(password, "password"),
        )

    def sign_in_with_custom_token(self, token: str) -> Future[AuthResult]:
        """Signs in with a custom token minted by your server (never log it)."""
        return self._start(
            lib.hearth_auth_sign_in_with_custom_token, auth_result_converter(self._app), encode(token, "token")
        )

    def sign_in_with_credential(self, credential: Credential) -> Future[User]:
        """Signs in with a credential; the result is the user (see also
        :meth:`sign_in_and_retrieve_data_with_credential`).

        With an identity provider's credential, the account is found by that identity, else by a
        *verified* provider e-mail (the identity is then linked to it), else created. An
        *unverified* provider e-mail that another account already has fails with
        :class:`~hearth.AccountExistsWithDifferentCredentialsError`: sign in that account the way it
        knows, then link the error's ``updated_credential`` to it.
        """
        return self._start(
            lib.hearth_auth_sign_in_with_credential, user_converter(self._app), credential_ptr(credential)
        )

    def sign_in_and_retrieve_data_with_credential(self, credential: Credential) -> Future[AuthResult]:
        """Signs in with a credential; the result includes the additional user info and the
        identity provider's credential the server returned."""
        return self._start(
            lib.hearth_auth_sign_in_and_retrieve_data_with_credential,
            auth_result_converter(self._app),
            credential_ptr(credential),
        )

    def send_password_reset_email(self, email: str, settings: Optional[ActionCodeSettings] = None) -> Future[None]:
        """Sends a password-reset e-mail to ``email`` (localized by :attr:`language_code`); the result
        is ``None``. ``settings`` (:class:`~hearth.ActionCodeSettings`) makes the action page continue
        to your app, or hands your app the code (then :meth:`verify_password_reset_code` and
        :meth:`confirm_password_reset`). Fails with :class:`~hearth.UserNotFoundError` or
        :class:`~hearth.InvalidEmailError`."""
        address = encode(email, "email")
        c_settings = settings_buffer(settings)
        return self._start(lib.hearth_auth_send_password_reset_email, to_none, address, settings_pointer(c_settings))

    def fetch_providers_for_email(self, email: str) -> Future[List[str]]:
        """The sign-in methods of the account with ``email`` (e.g. ``["password"]``); empty when
        there is none, or when the project hides it (e-mail enumeration protection)."""
        return self._start(lib.hearth_auth_fetch_providers_for_email, to_strings, encode(email, "email"))

    # ------------------------------------------------------------------------------------------------
    # E-mail actions: sign-in links and the other out-of-band codes (see hearth.email_actions)
    # ------------------------------------------------------------------------------------------------
    def send_sign_in_link_to_email(self, email: str, settings: ActionCodeSettings) -> Future[None]:
        """Mails ``email`` a link that signs in to its account (created on first use); the result is
        ``None``. ``settings`` needs ``url`` and ``handle_code_in_app=True``
        (:class:`~hearth.InvalidArgumentError` otherwise, as in Firebase). Keep ``email`` until the
        link comes back: :meth:`sign_in_with_email_link` needs it."""
        address = encode(email, "email")
        c_settings = settings_buffer(settings, required=True)
        return self._start(lib.hearth_auth_send_sign_in_link_to_email, to_none, address, settings_pointer(c_settings))

    def is_sign_in_with_email_link(self, link: str) -> bool:
        """Whether ``link`` is an e-mail sign-in link (also wrapped in a Firebase Dynamic Link or
        Hosting link, or pasted with whitespace around it)."""
        return bool(lib.hearth_auth_is_sign_in_with_email_link(self._ptr(), encode(link, "link")))

    def sign_in_with_email_link(self, email: str, link: str) -> Future[AuthResult]:
        """Signs in with ``email``, the address the link was sent to, and ``link``, as received or
        pasted; the account is created on first use (``additional_user_info.is_new_user``). Fails with
        :class:`~hearth.InvalidArgumentError` (not an e-mail action link),
        :class:`~hearth.InvalidEmailError` (not the link's address),
        :class:`~hearth.InvalidActionCodeError` (used, unknown or not a sign-in code),
        :class:`~hearth.ExpiredActionCodeError`, :class:`~hearth.UserDisabledError`,
        :class:`~hearth.SecondFactorRequiredError`, or :class:`~hearth.TenantIdMismatchError` (the
        link names another tenant than :attr:`tenant_id`; nothing is sent)."""
        return self._start(lib.hearth_auth_sign_in_with_email_link, auth_result_converter(self._app),
                           encode(email, "email"), encode(link, "link"))

    def apply_action_code(self, code: str) -> Future[None]:
        """Uses ``code``, a code that verifies an address, changes it (verify before update) or takes a
        changed address back; no user need be signed in. Fails with :class:`~hearth.InvalidActionCodeError` or
        :class:`~hearth.ExpiredActionCodeError`."""
        return self._start(lib.hearth_auth_apply_action_code, to_none, encode(code, "code"))

    def check_action_code(self, code: str) -> Future[ActionCodeInfo]:
        """What ``code`` is for and which addresses it concerns, without using it (an
        :class:`~hearth.ActionCodeInfo`)."""
        return self._start(lib.hearth_auth_check_action_code, to_action_code_info, encode(code, "code"))

    def verify_password_reset_code(self, code: str) -> Future[str]:
        """The address the password reset ``code`` was sent to, without using the code."""
        return self._start(lib.hearth_auth_verify_password_reset_code, to_string, encode(code, "code"))

    def confirm_password_reset(self, code: str, new_password: str) -> Future[None]:
        """Sets ``new_password`` as the password, with the password reset ``code``, which is used up.
        Fails with
        :class:`~hearth.InvalidActionCodeError`, :class:`~hearth.ExpiredActionCodeError`,
        :class:`~hearth.WeakPasswordError` or :class:`~hearth.MissingPasswordError`."""
        return self._start(lib.hearth_auth_confirm_password_reset, to_none, encode(code, "code"),
                           encode(new_password, "new_password"))

    def send_sign_in_link_to_email_last_result(self) -> Optional[Future[None]]:
        """The most recent :meth:`Auth.send_sign_in_link_to_email` future
        (a new reference to that operation), or ``None`` if it never ran."""
        return self._last_result(Op.AUTH_SEND_SIGN_IN_LINK_TO_EMAIL, to_none)

    def sign_in_with_email_link_last_result(self) -> Optional[Future[AuthResult]]:
        """The most recent :meth:`Auth.sign_in_with_email_link` future
        (a new reference to that operation), or ``None`` if it never ran."""
        return self._last_result(Op.AUTH_SIGN_IN_WITH_EMAIL_LINK, auth_result_converter(self._app))

    def apply_action_code_last_result(self) -> Optional[Future[None]]:
        """The most recent :meth:`Auth.apply_action_code` future
        (a new reference to that operation), or ``None`` if it never ran."""
        return self._last_result(Op.AUTH_APPLY_ACTION_CODE, to_none)

    def check_action_code_last_result(self) -> Optional[Future[ActionCodeInfo]]:
        """The most recent :meth:`Auth.check_action_code` future
        (a new reference to that operation), or ``None`` if it never ran."""
        return self._last_result(Op.AUTH_CHECK_ACTION_CODE, to_action_code_info)

    def verify_password_reset_code_last_result(self) -> Optional[Future[str]]:
        """The most recent :meth:`Auth.verify_password_reset_code` future
        (a new reference to that operation), or ``None`` if it never ran."""
        return self._last_result(Op.AUTH_VERIFY_PASSWORD_RESET_CODE, to_string)

    def confirm_password_reset_last_result(self) -> Optional[Future[None]]:
        """The most recent :meth:`Auth.confirm_password_reset` future
        (a new reference to that operation), or ``None`` if it never ran."""
        return self._last_result(Op.AUTH_CONFIRM_PASSWORD_RESET, to_none)

    # ------------------------------------------------------------------------------------------------
    # Phone numbers
    # ------------------------------------------------------------------------------------------------
    def verify_phone_number(
        self,
        phone_number: Optional[str] = None,
        *,
        timeout: float = 60.0,
        force_resending_token: Optional[str] = None,
        multi_factor_session: Optional[MultiFactorSession] = None,
        multi_factor_hint: Optional[MultiFactorInfo] = None,
    ) -> Future[PhoneVerification]:
        """Texts a verification code; the result is the :class:`~hearth.PhoneVerification` (its
        ``verification_id`` and the code make a :meth:`~hearth.PhoneAuthProvider.credential`).

        - ``phone_number`` in E.164 (``"+16505554567"``; spaces, dashes, dots and parentheses are
          ignored). Malformed numbers fail with :class:`~hearth.InvalidPhoneNumberError` before any
          request; none at all with :class:`~hearth.MissingPhoneNumberError`.
        - ``timeout`` (seconds): while a code sent to this number is this fresh, verifying it again
          texts nothing and gives the same verification id (as Firebase documents);
          ``force_resending_token`` (from an earlier :class:`~hearth.PhoneVerification`) texts a new
          code at once.
        - Second factors: enrolling a phone, pass the number and ``multi_factor_session`` (from
          :meth:`hearth.MultiFactorUser.get_session`); signing in, pass
          ``multi_factor_session=resolver.session`` and ``multi_factor_hint=`` one of
          ``resolver.hints`` (no number: Hearth texts the enrolled one).

        Other errors: :class:`~hearth.TooManyRequestsError`, :class:`~hearth.QuotaExceededError`,
        :class:`~hearth.CaptchaCheckFailedError`, :class:`~hearth.MissingAppCredentialError`,
        :class:`~hearth.WebContextCancelledError` (see :attr:`app_verification_disabled_for_testing`).
        """
        options = phone_options(phone_number, timeout, force_resending_token, multi_factor_session, multi_factor_hint)
        return self._start(lib.hearth_auth_verify_phone_number, to_phone_verification, options.buffer)

    def verify_phone_number_with_listener(
        self,
        phone_number: Optional[str] = None,
        *,
        on_code_sent: CodeSent,
        on_verification_failed: Optional[VerificationFailed] = None,
        on_code_auto_retrieval_timeout: Optional[CodeAutoRetrievalTimeout] = None,
        timeout: float = 60.0,
        force_resending_token: Optional[str] = None,
        multi_factor_session: Optional[MultiFactorSession] = None,
        multi_factor_hint: Optional[MultiFactorInfo] = None,
    ) -> None:
        """:meth:`verify_phone_number` with callbacks, as the C++ SDK's ``PhoneAuthProvider::Listener``:

        - ``on_code_sent(verification)`` (a :class:`~hearth.PhoneVerification`) or
          ``on_verification_failed(error)`` (an :class:`~hearth.AuthError` subclass): exactly one runs;
        - ``on_code_auto_retrieval_timeout(verification_id)`` runs ``timeout`` seconds after a code was
          sent (a desktop never reads the SMS itself: the user types the code).

        They run on Hearth's loop thread and must not block; exceptions they raise are logged. A
        failure without ``on_verification_failed`` is logged as a warning. Closing the app before the
        code was sent ends the verification with ``on_verification_failed`` (a
        :class:`~hearth.CancelledError`); a timeout still to come is dropped. ``phone_number``, ``timeout``, ``force_resending_token``,
        ``multi_factor_session`` and ``multi_factor_hint`` mean and are checked as for
        :meth:`verify_phone_number` (a malformed number comes to ``on_verification_failed``).
        """
        options = phone_options(phone_number, timeout, force_resending_token, multi_factor_session, multi_factor_hint)
        start_with_listener(self._core, self._ptr(), options, on_code_sent, on_verification_failed,
                            on_code_auto_retrieval_timeout)

    def verify_phone_number_last_result(self) -> Optional[Future[PhoneVerification]]:
        """The most recent :meth:`Auth.verify_phone_number` future
        (a new reference to that operation), or ``None`` if it never ran."""
        return self._last_result(Op.AUTH_VERIFY_PHONE_NUMBER, to_phone_verification)

    # ------------------------------------------------------------------------------------------------
    # Provider sign-in on a desktop
    # ------------------------------------------------------------------------------------------------
    def set_provider_flow(
        self,
        open_url: OpenUrl,
        *,
        redirect_uri: Optional[str] = None,
        loopback_port: int = 0,
        timeout: float = 300.0,
        use_create_auth_uri: bool = False,
    ) -> None:
        """Sets how provider flows (:meth:`sign_in_with_provider`, :meth:`hearth.User.link_with_provider`,
        :meth:`hearth.User.reauthenticate_with_provider`) reach the user and come back.

        - ``open_url(url)`` shows the provider's page: open the system browser
          (``webbrowser.open``), an in-game web view, ... It runs **on Hearth's loop thread and must
          not block**: the redirect that completes the flow is received on that same thread, so a
          delegate that waited for the user would wait forever. Hand the URL to your UI thread and
          return. Returning ``False`` or raising refuses it: the flow fails with
          :class:`~hearth.WebContextCancelledError` (exceptions are also logged).
        - ``redirect_uri``: ``None`` (default) receives the redirect on a one-shot loopback receiver
          on 127.0.0.1 (``loopback_port``, 0 = a free port), which answers the browser with a small
          page and closes. Or a URI of a custom scheme your app registered (e.g.
          ``"com.example.game:/oauth"``): pass every URL your app is opened with to
          :meth:`handle_url`.
        - ``timeout``: seconds the whole flow may take (default 5 minutes); then it fails with
          :class:`~hearth.WebContextCancelledError`.
        - ``use_create_auth_uri``: take the production path (Firebase's ``createAuthUri`` and the
          provider's page) even against the emulator, whose ``createAuthUri`` serves a fake consent
          page; by default the emulator's own handler page is used when emulating.

        Calling it again replaces the settings for later flows.
        """
        check_callable(open_url, "open_url")
        redirect = encode_optional(redirect_uri, "redirect_uri")
        if redirect is not None and not redirect:
            raise ValueError("redirect_uri must not be empty (None uses the loopback receiver)")
        check_int(loopback_port, "loopback_port")
        if not 0 <= loopback_port <= 65535:
            raise ValueError(f"loopback_port must be in 0..65535, not {loopback_port}")
        seconds = check_seconds(timeout, "timeout")
        if seconds <= 0:
            raise ValueError("timeout must be positive")
        if not isinstance(use_create_auth_uri, bool):
            raise TypeError(f"use_create_auth_uri must be a bool, not {type(use_create_auth_uri).__name__}")
        auth_ptr = self._ptr()

        buffer = ctypes.create_string_buffer(FLOW_OPTIONS_BUFFER_SIZE)
        lib.hearth_provider_flow_options_init(buffer)
        options = ProviderFlowOptions.from_buffer(buffer)
        # An earlier delegate stays until the library releases it: a flow already under way keeps the
        # settings it started with.
        key = OPEN_URLS.add(open_url)
        options.open_url = _ON_OPEN_URL
        options.release = _RELEASE_OPEN_URL
        options.user_data = key
        options.redirect_uri = redirect
        options.loopback_port = loopback_port
        options.timeout_ms = min(_MAX_TIMEOUT_MS, max(1, math.ceil(seconds * 1000)))
        options.use_create_auth_uri = int(use_create_auth_uri)
        code = lib.hearth_auth_set_provider_flow_options(auth_ptr, buffer)
        if code != 0:
            OPEN_URLS.pop(key)  # refused: the library keeps nothing
            self._core.ensure_open()
            raise_for_code(code)

    def sign_in_with_provider(self, provider: OAuthProvider) -> Future[AuthResult]:
        """Signs in through the provider's page (set the UI delegate first with
        :meth:`set_provider_flow`). The result carries the provider's credential
        (:attr:`hearth.AuthResult.credential`).

        One flow at a time per app: another fails with
        :class:`~hearth.WebContextAlreadyPresentedError`. :meth:`cancel_provider_flow`, the
        timeout, or a refusing ``open_url`` fail it with :class:`~hearth.WebContextCancelledError`;
        an unknown provider id with :class:`~hearth.InvalidProviderIdError`; no flow settings with
        :class:`~hearth.InvalidArgumentError`. For ``"apple.com"`` and ``"oidc.*"`` providers Hearth
        adds a ``nonce`` custom parameter (the SHA-256 of a raw nonce it keeps and sends to
        Firebase) unless you set one.
        """
        return self._start(lib.hearth_auth_sign_in_with_provider, auth_result_converter(self._app),
                           provider_ptr(provider))

    def get_credential_with_provider(self, provider: OAuthProvider) -> Future[Credential]:
        """Runs the provider's page like :meth:`sign_in_with_provider` but signs nobody in: the
        future's value is the :class:`Credential` the page yields (the Apple SDK's
        ``getCredentialWith``). Sign in, link or reauthenticate with it afterwards
        (:meth:`sign_in_with_credential`, :meth:`User.link_with_credential`,
        :meth:`User.reauthenticate`). Its ``provider`` is the provider's id; it carries the provider's
        answer, not its tokens (``id_token`` and ``access_token`` are ``None``). Errors as for
        :meth:`sign_in_with_provider`."""
        return self._start(lib.hearth_auth_get_credential_with_provider, _to_credential, provider_ptr(provider))

    def handle_url(self, url: str) -> bool:
        """For apps with a custom URL scheme (``set_provider_flow(redirect_uri=...)``): offers ``url``,
        a URL the app was opened with. ``True`` when it was the pending flow's redirect (Hearth consumed
        it); ``False`` when it is not (another scheme or path, a wrong state, no flow pending):
        handle it yourself. An e-mail sign-in link is always ``False``: complete it with
        :meth:`sign_in_with_email_link`."""
        return bool(lib.hearth_auth_handle_url(self._ptr(), encode(url, "url")))

    def cancel_provider_flow(self) -> None:
        """Cancels the pending provider flow, if any: its future fails with
        :class:`~hearth.WebContextCancelledError`."""
        raise_for_code(lib.hearth_auth_cancel_provider_flow(self._ptr()))

    def get_credential_with_provider_last_result(self) -> Optional[Future[Credential]]:
        """The most recent :meth:`Auth.get_credential_with_provider` future
        (a new reference to that operation), or ``None`` if it never ran."""
        return self._last_result(Op.AUTH_GET_CREDENTIAL_WITH_PROVIDER, _to_credential)

    def sign_in_with_provider_last_result(self) -> Optional[Future[AuthResult]]:
        """The most recent :meth:`Auth.sign_in_with_provider` future
        (a new reference to that operation), or ``None`` if it never ran."""
        return self._last_result(Op.AUTH_SIGN_IN_WITH_PROVIDER, auth_result_converter(self._app))

    # ------------------------------------------------------------------------------------------------
    # Last results: the most recent future of each operation, or None if it never ran
    # ------------------------------------------------------------------------------------------------
    def sign_in_anonymously_last_result(self) -> Optional[Future[AuthResult]]:
        """The most recent :meth:`sign_in_anonymously` future (a new reference to the same
        operation), or ``None`` if it never ran. The other ``*_last_result`` methods work alike."""
        return self._last_result(Op.AUTH_SIGN_IN_ANONYMOUSLY, auth_result_converter(self._app))

    def create_user_with_email_and_password_last_result(self) -> Optional[Future[AuthResult]]:
        """The most recent :meth:`Auth.create_user_with_email_and_password` future
        (a new reference to that operation), or ``None`` if it never ran."""
        return self._last_result(
            Op.AUTH_CREATE_USER_WITH_EMAIL_AND_PASSWORD, auth_result_converter(self._app)
        )

    def sign_in_with_email_and_password_last_result(self) -> Optional[Future[AuthResult]]:
        """The most recent :meth:`Auth.sign_in_with_email_and_password` future
        (a new reference to that operation), or ``None`` if it never ran."""
        return self._last_result(
            Op.AUTH_SIGN_IN_WITH_EMAIL_AND_PASSWORD, auth_result_converter(self._app)
        )

    def sign_in_with_custom_token_last_result(self) -> Optional[Future[AuthResult]]:
        """The most recent :meth:`Auth.sign_in_with_custom_token` future
        (a new reference to that operation), or ``None`` if it never ran."""
        return self._last_result(
            Op.AUTH_SIGN_IN_WITH_CUSTOM_TOKEN, auth_result_converter(self._app)
        )

    def sign_in_with_credential_last_result(self) -> Optional[Future[User]]:
        """The most recent :meth:`Auth.sign_in_with_credential` future
        (a new reference to that operation), or ``None`` if it never ran."""
        return self._last_result(Op.AUTH_SIGN_IN_WITH_CREDENTIAL, user_converter(self._app))

    def sign_in_and_retrieve_data_with_credential_last_result(self) -> Optional[Future[AuthResult]]:
        """The most recent :meth:`Auth.sign_in_and_retrieve_data_with_credential` future
        (a new reference to that operation), or ``None`` if it never ran."""
        return self._last_result(
            Op.AUTH_SIGN_IN_AND_RETRIEVE_DATA_WITH_CREDENTIAL, auth_result_converter(self._app)
        )

    def send_password_reset_email_last_result(self) -> Optional[Future[None]]:
        """The most recent :meth:`Auth.send_password_reset_email` future
        (a new reference to that operation), or ``None`` if it never ran."""
        return self._last_result(Op.AUTH_SEND_PASSWORD_RESET_EMAIL, to_none)

    def fetch_providers_for_email_last_result(self) -> Optional[Future[List[str]]]:
        """The most recent :meth:`Auth.fetch_providers_for_email` future
        (a new reference to that operation), or ``None`` if it never ran."""
        return self._last_result(Op.AUTH_FETCH_PROVIDERS_FOR_EMAIL, to_strings)

    # ------------------------------------------------------------------------------------------------
    # Listeners
    # ------------------------------------------------------------------------------------------------
    def add_auth_state_listener(self, listener: AuthStateListener) -> ListenerHandle:
        """Calls ``listener(current_user)`` whenever the signed-in user changes (sign-in, sign-out),
        and once soon after being added. Runs on Hearth's loop thread; exceptions are logged."""
        return self._add_listener(listener, "auth_state")

    def remove_auth_state_listener(self, handle: ListenerHandle) -> None:
        """Same as ``handle.remove()``, checking that it is an auth-state listener of this app."""
        self._remove_listener(handle, "auth_state")

    def add_id_token_listener(self, listener: AuthStateListener) -> ListenerHandle:
        """Calls ``listener(current_user)`` whenever the ID token changes (sign-in, refresh,
        sign-out), and once soon after being added. Runs on Hearth's loop thread."""
        return self._add_listener(listener, "id_token")

    def remove_id_token_listener(self, handle: ListenerHandle) -> None:
        """Unregisters a listener added by :meth:`add_id_token_listener` (the same as
        ``handle.remove()``); after this returns it is never called again. Idempotent."""
        self._remove_listener(handle, "id_token")

    def _add_listener(self, listener: AuthStateListener, kind: str) -> ListenerHandle:
        check_callable(listener, "listener")
        auth_ptr = self._ptr()
        key = LISTENERS.add(_ListenerEntry(self, listener, kind))
        if kind == "auth_state":
            listener_id = lib.hearth_auth_add_auth_state_listener(auth_ptr, _ON_AUTH_STATE, _RELEASE_LISTENER, key)
        else:
            listener_id = lib.hearth_auth_add_id_token_listener(auth_ptr, _ON_ID_TOKEN, _RELEASE_LISTENER, key)
        if listener_id == 0:
            LISTENERS.pop(key)  # refused: the library keeps nothing
            self._core.ensure_open()
            code = lib.hearth_last_error_code()
            raise_for_code(code or ErrorCode.FAILURE, None if code else f"Hearth could not add the {kind} listener")
        return ListenerHandle(self, kind, key, int(listener_id))

    def _remove_listener(self, handle: ListenerHandle, kind: str) -> None:
        if not isinstance(handle, ListenerHandle):
            raise TypeError(f"expected a ListenerHandle, not {type(handle).__name__}")
        if handle._auth._core is not self._core:
            raise ValueError("this listener belongs to another app")
        if handle.kind != kind:
            raise ValueError(f"this is a {handle.kind} listener, not a {kind} listener")
        handle.remove()

    def __repr__(self) -> str:
        return f"<hearth.Auth of {self._app!r}>"

