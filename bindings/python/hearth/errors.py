"""Error codes and the exception hierarchy mapped from them.

Every failed operation raises an :class:`AuthError` (or a subclass picked by its code). The codes are
those of ``include/hearth.h``: equal to the Firebase C++ SDK's ``firebase::auth::AuthError`` values
(0..78), plus Hearth's own codes from 1000 up.
"""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING, Dict, Optional, Type

from ._lib import lib
from ._support import check_int

if TYPE_CHECKING:
    from .credential import Credential
    from .multi_factor import MultiFactorResolver

__all__ = [
    "ErrorCode",
    "AuthError",
    "error_from_code",
    "exception_class",
    "UnimplementedError",
    "InvalidCustomTokenError",
    "CustomTokenMismatchError",
    "InvalidCredentialError",
    "UserDisabledError",
    "AccountConflictError",
    "AccountExistsWithDifferentCredentialsError",
    "OperationNotAllowedError",
    "EmailAlreadyInUseError",
    "RequiresRecentLoginError",
    "CredentialAlreadyInUseError",
    "InvalidEmailError",
    "WrongPasswordError",
    "TooManyRequestsError",
    "UserNotFoundError",
    "ProviderAlreadyLinkedError",
    "NoSuchProviderError",
    "InvalidUserTokenError",
    "UserTokenExpiredError",
    "NetworkRequestFailedError",
    "InvalidApiKeyError",
    "AppNotAuthorizedError",
    "UserMismatchError",
    "WeakPasswordError",
    "NoSignedInUserError",
    "ExpiredActionCodeError",
    "InvalidActionCodeError",
    "MissingEmailError",
    "MissingPasswordError",
    "QuotaExceededError",
    "InvalidPhoneNumberError",
    "MissingPhoneNumberError",
    "InvalidVerificationCodeError",
    "InvalidVerificationIdError",
    "MissingVerificationCodeError",
    "MissingVerificationIdError",
    "SessionExpiredError",
    "InvalidAppCredentialError",
    "CaptchaCheckFailedError",
    "MissingAppCredentialError",
    "MissingMultiFactorSessionError",
    "MissingMultiFactorInfoError",
    "InvalidMultiFactorSessionError",
    "MultiFactorInfoNotFoundError",
    "SecondFactorAlreadyEnrolledError",
    "MaximumSecondFactorCountExceededError",
    "UnsupportedFirstFactorError",
    "InvalidContinueUriError",
    "MissingContinueUriError",
    "MissingIosBundleIdError",
    "UnauthorizedDomainError",
    "InvalidLinkDomainError",
    "WebContextAlreadyPresentedError",
    "WebContextCancelledError",
    "CancelledError",
    "InvalidProviderIdError",
    "AdminRestrictedOperationError",
    "UnverifiedEmailError",
    "EmailChangeNeedsVerificationError",
    "TenantIdMismatchError",
    "UnsupportedTenantOperationError",
    "InvalidTenantIdError",
    "InvalidArgumentError",
    "InvalidHandleError",
    "SecondFactorRequiredError",
    "WouldDeadlockError",
    "AppDestroyedError",
    "LoopFailureError",
    "PersistenceFailureError",
]


class ErrorCode(enum.IntEnum):
    """Every error code of ``hearth.h`` (``HEARTH_ERROR_<NAME>`` is ``ErrorCode.<NAME>``)."""

    NONE = 0
    UNIMPLEMENTED = -1
    FAILURE = 1
    INVALID_CUSTOM_TOKEN = 2
    CUSTOM_TOKEN_MISMATCH = 3
    INVALID_CREDENTIAL = 4
    USER_DISABLED = 5
    ACCOUNT_EXISTS_WITH_DIFFERENT_CREDENTIALS = 6
    OPERATION_NOT_ALLOWED = 7
    EMAIL_ALREADY_IN_USE = 8
    REQUIRES_RECENT_LOGIN = 9
    CREDENTIAL_ALREADY_IN_USE = 10
    INVALID_EMAIL = 11
    WRONG_PASSWORD = 12
    TOO_MANY_REQUESTS = 13
    USER_NOT_FOUND = 14
    PROVIDER_ALREADY_LINKED = 15
    NO_SUCH_PROVIDER = 16
    INVALID_USER_TOKEN = 17
    USER_TOKEN_EXPIRED = 18
    NETWORK_REQUEST_FAILED = 19
    INVALID_API_KEY = 20
    APP_NOT_AUTHORIZED = 21
    USER_MISMATCH = 22
    WEAK_PASSWORD = 23
    NO_SIGNED_IN_USER = 24
    API_NOT_AVAILABLE = 25
    EXPIRED_ACTION_CODE = 26
    INVALID_ACTION_CODE = 27
    INVALID_MESSAGE_PAYLOAD = 28
    INVALID_PHONE_NUMBER = 29
    MISSING_PHONE_NUMBER = 30
    INVALID_RECIPIENT_EMAIL = 31
    INVALID_SENDER = 32
    INVALID_VERIFICATION_CODE = 33
    INVALID_VERIFICATION_ID = 34
    MISSING_VERIFICATION_CODE = 35
    MISSING_VERIFICATION_ID = 36
    MISSING_EMAIL = 37
    MISSING_PASSWORD = 38
    QUOTA_EXCEEDED = 39
    RETRY_PHONE_AUTH = 40
    SESSION_EXPIRED = 41
    APP_NOT_VERIFIED = 42
    APP_VERIFICATION_FAILED = 43
    CAPTCHA_CHECK_FAILED = 44
    INVALID_APP_CREDENTIAL = 45
    MISSING_APP_CREDENTIAL = 46
    INVALID_CLIENT_ID = 47
    INVALID_CONTINUE_URI = 48
    MISSING_CONTINUE_URI = 49
    KEYCHAIN_ERROR = 50
    MISSING_APP_TOKEN = 51
    MISSING_IOS_BUNDLE_ID = 52
    NOTIFICATION_NOT_FORWARDED = 53
    UNAUTHORIZED_DOMAIN = 54
    WEB_CONTEXT_ALREADY_PRESENTED = 55
    WEB_CONTEXT_CANCELLED = 56
    DYNAMIC_LINK_NOT_ACTIVATED = 57
    CANCELLED = 58
    INVALID_PROVIDER_ID = 59
    WEB_INTERNAL_ERROR = 60
    WEB_STORAGE_UNSUPPORTED = 61
    TENANT_ID_MISMATCH = 62
    UNSUPPORTED_TENANT_OPERATION = 63
    INVALID_LINK_DOMAIN = 64
    REJECTED_CREDENTIAL = 65
    PHONE_NUMBER_NOT_FOUND = 66
    INVALID_TENANT_ID = 67
    MISSING_CLIENT_IDENTIFIER = 68
    MISSING_MULTI_FACTOR_SESSION = 69
    MISSING_MULTI_FACTOR_INFO = 70
    INVALID_MULTI_FACTOR_SESSION = 71
    MULTI_FACTOR_INFO_NOT_FOUND = 72
    ADMIN_RESTRICTED_OPERATION = 73
    UNVERIFIED_EMAIL = 74
    SECOND_FACTOR_ALREADY_ENROLLED = 75
    MAXIMUM_SECOND_FACTOR_COUNT_EXCEEDED = 76
    UNSUPPORTED_FIRST_FACTOR = 77
    EMAIL_CHANGE_NEEDS_VERIFICATION = 78
    # Hearth's own codes: what the C++ SDK's enum lacks.
    INVALID_ARGUMENT = 1000
    INVALID_HANDLE = 1001
    SECOND_FACTOR_REQUIRED = 1002
    TIMED_OUT = 1003
    WOULD_DEADLOCK = 1004
    APP_DESTROYED = 1005
    LOOP_FAILURE = 1006
    PERSISTENCE_FAILURE = 1007


def _code_name(code: int) -> str:
    try:
        return ErrorCode(code).name
    except ValueError:
        raw = (lib.hearth_error_name(code) or b"HEARTH_ERROR_UNKNOWN").decode("utf-8", "replace")
        return raw[len("HEARTH_ERROR_"):] if raw.startswith("HEARTH_ERROR_") else raw


def _default_message(code: int) -> str:
    return (lib.hearth_error_message(code) or b"").decode("utf-8", "replace")


class AuthError(Exception):
    """A failed Hearth operation.

    ``code`` is the numeric error code (an :class:`ErrorCode` when Hearth knows it), ``name`` its
    name (``"WRONG_PASSWORD"``), ``message`` the most specific text available: the server's detail
    where there is one, else the code's generic sentence. Catch a subclass (``WrongPasswordError``) for
    one condition, or ``AuthError`` for all.
    """

    code: int
    message: str

    def __init__(self, code: int, message: str = "") -> None:
        try:
            code = ErrorCode(code)
        except ValueError:
            pass
        if not message:
            message = _default_message(int(code))
        super().__init__(code, message)
        self.code = code
        self.message = message

    @property
    def name(self) -> str:
        """The code's name without the ``HEARTH_ERROR_`` prefix, e.g. ``"WRONG_PASSWORD"``."""
        return _code_name(int(self.code))

    def __str__(self) -> str:
        return f"{self.name}: {self.message}"

    def __repr__(self) -> str:
        return f"{type(self).__name__}({int(self.code)}, {self.message!r})"


class UnimplementedError(AuthError):
    """The operation is not implemented (-1)."""


class InvalidCustomTokenError(AuthError):
    """The custom token is malformed or rejected (2)."""


class CustomTokenMismatchError(AuthError):
    """The custom token belongs to another project (3)."""


class InvalidCredentialError(AuthError):
    """The credential is malformed or expired; also wrong e-mail/password with e-mail privacy on (4)."""


class UserDisabledError(AuthError):
    """The account is disabled (5)."""


class AccountConflictError(AuthError):
    """A sign-in or link failed because its identity or e-mail belongs to *another* account.

    The base of :class:`AccountExistsWithDifferentCredentialsError`,
    :class:`EmailAlreadyInUseError` and :class:`CredentialAlreadyInUseError`. When the server's
    answer names that other account:

    - ``updated_credential`` is a :class:`~hearth.Credential` that signs in to it
      (``auth.sign_in_with_credential(error.updated_credential)``), or that the user links to the
      account they prove they own (Firebase's account-linking recipe); ``None`` when there is none
      (e.g. :meth:`~hearth.Auth.create_user_with_email_and_password` with a taken e-mail);
    - ``email`` is the e-mail address the server reported, or ``None``.
    """

    updated_credential: Optional["Credential"] = None
    email: Optional[str] = None


class AccountExistsWithDifferentCredentialsError(AccountConflictError):
    """An account with this e-mail exists with another sign-in method (6): sign in with that method,
    then link :attr:`updated_credential` to it."""


class OperationNotAllowedError(AuthError):
    """The sign-in method is disabled for the project (7)."""


class EmailAlreadyInUseError(AccountConflictError):
    """Another account already uses this e-mail address (8)."""


class RequiresRecentLoginError(AuthError):
    """The operation is sensitive and the last sign-in is too old (9)."""


class CredentialAlreadyInUseError(AccountConflictError):
    """The credential is already linked to another account (10); :attr:`updated_credential` signs in
    to that account."""


class InvalidEmailError(AuthError):
    """The e-mail address is malformed (11)."""


class WrongPasswordError(AuthError):
    """The password is wrong (12)."""


class TooManyRequestsError(AuthError):
    """Requests were blocked for unusual activity (13)."""


class UserNotFoundError(AuthError):
    """No account matches (14)."""


class ProviderAlreadyLinkedError(AuthError):
    """The provider is already linked to this account (15)."""


class NoSuchProviderError(AuthError):
    """The provider is not linked to this account (16)."""


class InvalidUserTokenError(AuthError):
    """The user's credential is no longer valid; sign in again (17)."""


class UserTokenExpiredError(AuthError):
    """The user's refresh token expired or was revoked; sign in again (18)."""


class NetworkRequestFailedError(AuthError):
    """The request did not reach the server or got no answer in time (19)."""


class InvalidApiKeyError(AuthError):
    """The API key is not valid (20)."""


class AppNotAuthorizedError(AuthError):
    """The app is not authorized for this project (21)."""


class UserMismatchError(AuthError):
    """The credential belongs to another user (22)."""


class WeakPasswordError(AuthError):
    """The password is too weak (23)."""


class NoSignedInUserError(AuthError):
    """The operation needs a signed-in user, and the snapshot's user is no longer signed in (24)."""


class ExpiredActionCodeError(AuthError):
    """The out-of-band action code expired (26)."""


class InvalidActionCodeError(AuthError):
    """The out-of-band action code is malformed or already used (27)."""


class MissingEmailError(AuthError):
    """An e-mail address is required (37)."""


class MissingPasswordError(AuthError):
    """A password is required (38)."""


class InvalidPhoneNumberError(AuthError, ValueError):
    """The phone number is not in E.164 form (``+`` and 7 to 15 digits; spaces, dashes, dots and
    parentheses are ignored) (29). Raised before any request. Also a :class:`ValueError`."""


class MissingPhoneNumberError(AuthError, ValueError):
    """A phone number is required (30). Also a :class:`ValueError`."""


class InvalidVerificationCodeError(AuthError):
    """The SMS or TOTP code is wrong (33)."""


class InvalidVerificationIdError(AuthError):
    """The verification id is unknown to the server (34)."""


class MissingVerificationCodeError(AuthError):
    """The phone credential has no code (35)."""


class MissingVerificationIdError(AuthError):
    """The phone credential has no verification id (36)."""


class QuotaExceededError(AuthError):
    """The project's quota is exceeded (39)."""


class SessionExpiredError(AuthError):
    """The SMS code (or TOTP enrollment session) expired: verify the number again (41)."""


class InvalidAppCredentialError(AuthError):
    """The app verification (reCAPTCHA token) was refused (45)."""


class CaptchaCheckFailedError(AuthError):
    """The reCAPTCHA check failed or returned no token (44)."""


class MissingAppCredentialError(AuthError):
    """App verification is required, and there is no way to run it: set the provider flow
    (:meth:`hearth.Auth.set_provider_flow`), or disable it for testing (46)."""


class MissingMultiFactorSessionError(AuthError):
    """A multi-factor session is required (69)."""


class MissingMultiFactorInfoError(AuthError):
    """Signing in with a phone second factor needs the hint to text (70)."""


class InvalidMultiFactorSessionError(AuthError):
    """The multi-factor session is invalid or expired (71)."""


class MultiFactorInfoNotFoundError(AuthError):
    """No enrolled second factor has this enrollment id (72)."""


class SecondFactorAlreadyEnrolledError(AuthError):
    """This second factor is already enrolled (75)."""


class MaximumSecondFactorCountExceededError(AuthError):
    """The account has the most second factors allowed (76)."""


class UnsupportedFirstFactorError(AuthError):
    """This kind of sign-in cannot have second factors (anonymous, phone, custom token), or a phone
    number cannot be a first factor of an account with SMS second factors (77)."""


class InvalidContinueUriError(AuthError):
    """The continue URL is invalid (48)."""


class MissingContinueUriError(AuthError):
    """A continue URL is required (49)."""


class MissingIosBundleIdError(AuthError):
    """Action code settings name an empty iOS bundle id (52)."""


class UnauthorizedDomainError(AuthError):
    """The continue URL's domain is not authorized in the project (54)."""


class InvalidLinkDomainError(AuthError):
    """The link domain of action code settings is empty or not one of the project's (64)."""


class WebContextAlreadyPresentedError(AuthError):
    """A provider flow is already waiting for the user: one at a time per app (55)."""


class WebContextCancelledError(AuthError):
    """The provider flow ended without an answer: cancelled, timed out, or refused by the
    ``open_url`` delegate (56)."""


class InvalidProviderIdError(AuthError):
    """The provider id is not one Firebase knows (59)."""


class CancelledError(AuthError):
    """The operation was cancelled, e.g. by :meth:`hearth.App.close` while in flight (58).

    Not :class:`asyncio.CancelledError`: awaiting a cancelled Hearth future raises this ordinary
    exception and does not cancel the awaiting task.
    """


class AdminRestrictedOperationError(AuthError):
    """The operation is restricted to administrators (73)."""


class UnverifiedEmailError(AuthError):
    """The operation needs a verified e-mail address (74)."""


class EmailChangeNeedsVerificationError(AuthError):
    """Changing the e-mail address needs verification first (78)."""


class TenantIdMismatchError(AuthError):
    """The user belongs to another tenant than the one the request names (62): a user of another
    tenant than :attr:`hearth.Auth.tenant_id` signed in or handed to
    :meth:`hearth.Auth.update_current_user`, or an operation of the signed-in user after the tenant
    id changed."""


class UnsupportedTenantOperationError(AuthError):
    """Tenants do not offer this operation (63), e.g. phone-number sign-in."""


class InvalidTenantIdError(AuthError):
    """The project has no tenant with this id (67)."""


class InvalidArgumentError(AuthError, ValueError):
    """Hearth rejected an argument (1000). Also a :class:`ValueError`."""


class InvalidHandleError(AuthError):
    """A released or foreign handle reached Hearth (1001)."""


class SecondFactorRequiredError(AuthError):
    """The account needs a second factor to finish signing in (1002).

    ``resolver`` (a :class:`~hearth.MultiFactorResolver`) lists the enrolled factors
    (``resolver.hints``) and finishes the sign-in with one of them (``resolver.resolve_sign_in``);
    ``None`` only for an error not raised by an operation (e.g. made by hand).
    """

    resolver: Optional["MultiFactorResolver"] = None


class WouldDeadlockError(AuthError, RuntimeError):
    """A blocking call was made on Hearth's loop thread (1004), e.g. ``Future.result()`` inside a
    listener or done-callback while that future is still pending."""


class AppDestroyedError(AuthError):
    """The app that owns this object is closed (1005)."""


class LoopFailureError(AuthError):
    """libuv or libcurl could not be set up (1006)."""


class PersistenceFailureError(AuthError):
    """The session could not be saved or erased (1007)."""


_CLASSES: Dict[int, Type[AuthError]] = {
    ErrorCode.UNIMPLEMENTED: UnimplementedError,
    ErrorCode.INVALID_CUSTOM_TOKEN: InvalidCustomTokenError,
    ErrorCode.CUSTOM_TOKEN_MISMATCH: CustomTokenMismatchError,
    ErrorCode.INVALID_CREDENTIAL: InvalidCredentialError,
    ErrorCode.USER_DISABLED: UserDisabledError,
    ErrorCode.ACCOUNT_EXISTS_WITH_DIFFERENT_CREDENTIALS: AccountExistsWithDifferentCredentialsError,
    ErrorCode.OPERATION_NOT_ALLOWED: OperationNotAllowedError,
    ErrorCode.EMAIL_ALREADY_IN_USE: EmailAlreadyInUseError,
    ErrorCode.REQUIRES_RECENT_LOGIN: RequiresRecentLoginError,
    ErrorCode.CREDENTIAL_ALREADY_IN_USE: CredentialAlreadyInUseError,
    ErrorCode.INVALID_EMAIL: InvalidEmailError,
    ErrorCode.WRONG_PASSWORD: WrongPasswordError,
    ErrorCode.TOO_MANY_REQUESTS: TooManyRequestsError,
    ErrorCode.USER_NOT_FOUND: UserNotFoundError,
    ErrorCode.PROVIDER_ALREADY_LINKED: ProviderAlreadyLinkedError,
    ErrorCode.NO_SUCH_PROVIDER: NoSuchProviderError,
    ErrorCode.INVALID_USER_TOKEN: InvalidUserTokenError,
    ErrorCode.USER_TOKEN_EXPIRED: UserTokenExpiredError,
    ErrorCode.NETWORK_REQUEST_FAILED: NetworkRequestFailedError,
    ErrorCode.INVALID_API_KEY: InvalidApiKeyError,
    ErrorCode.APP_NOT_AUTHORIZED: AppNotAuthorizedError,
    ErrorCode.USER_MISMATCH: UserMismatchError,
    ErrorCode.WEAK_PASSWORD: WeakPasswordError,
    ErrorCode.NO_SIGNED_IN_USER: NoSignedInUserError,
    ErrorCode.EXPIRED_ACTION_CODE: ExpiredActionCodeError,
    ErrorCode.INVALID_ACTION_CODE: InvalidActionCodeError,
    ErrorCode.MISSING_EMAIL: MissingEmailError,
    ErrorCode.MISSING_PASSWORD: MissingPasswordError,
    ErrorCode.INVALID_PHONE_NUMBER: InvalidPhoneNumberError,
    ErrorCode.MISSING_PHONE_NUMBER: MissingPhoneNumberError,
    ErrorCode.INVALID_VERIFICATION_CODE: InvalidVerificationCodeError,
    ErrorCode.INVALID_VERIFICATION_ID: InvalidVerificationIdError,
    ErrorCode.MISSING_VERIFICATION_CODE: MissingVerificationCodeError,
    ErrorCode.MISSING_VERIFICATION_ID: MissingVerificationIdError,
    ErrorCode.QUOTA_EXCEEDED: QuotaExceededError,
    ErrorCode.SESSION_EXPIRED: SessionExpiredError,
    ErrorCode.CAPTCHA_CHECK_FAILED: CaptchaCheckFailedError,
    ErrorCode.INVALID_APP_CREDENTIAL: InvalidAppCredentialError,
    ErrorCode.MISSING_APP_CREDENTIAL: MissingAppCredentialError,
    ErrorCode.MISSING_MULTI_FACTOR_SESSION: MissingMultiFactorSessionError,
    ErrorCode.MISSING_MULTI_FACTOR_INFO: MissingMultiFactorInfoError,
    ErrorCode.INVALID_MULTI_FACTOR_SESSION: InvalidMultiFactorSessionError,
    ErrorCode.MULTI_FACTOR_INFO_NOT_FOUND: MultiFactorInfoNotFoundError,
    ErrorCode.SECOND_FACTOR_ALREADY_ENROLLED: SecondFactorAlreadyEnrolledError,
    ErrorCode.MAXIMUM_SECOND_FACTOR_COUNT_EXCEEDED: MaximumSecondFactorCountExceededError,
    ErrorCode.UNSUPPORTED_FIRST_FACTOR: UnsupportedFirstFactorError,
    ErrorCode.INVALID_CONTINUE_URI: InvalidContinueUriError,
    ErrorCode.MISSING_CONTINUE_URI: MissingContinueUriError,
    ErrorCode.MISSING_IOS_BUNDLE_ID: MissingIosBundleIdError,
    ErrorCode.UNAUTHORIZED_DOMAIN: UnauthorizedDomainError,
    ErrorCode.INVALID_LINK_DOMAIN: InvalidLinkDomainError,
    ErrorCode.WEB_CONTEXT_ALREADY_PRESENTED: WebContextAlreadyPresentedError,
    ErrorCode.WEB_CONTEXT_CANCELLED: WebContextCancelledError,
    ErrorCode.CANCELLED: CancelledError,
    ErrorCode.INVALID_PROVIDER_ID: InvalidProviderIdError,
    ErrorCode.ADMIN_RESTRICTED_OPERATION: AdminRestrictedOperationError,
    ErrorCode.UNVERIFIED_EMAIL: UnverifiedEmailError,
    ErrorCode.EMAIL_CHANGE_NEEDS_VERIFICATION: EmailChangeNeedsVerificationError,
    ErrorCode.TENANT_ID_MISMATCH: TenantIdMismatchError,
    ErrorCode.UNSUPPORTED_TENANT_OPERATION: UnsupportedTenantOperationError,
    ErrorCode.INVALID_TENANT_ID: InvalidTenantIdError,
    ErrorCode.INVALID_ARGUMENT: InvalidArgumentError,
    ErrorCode.INVALID_HANDLE: InvalidHandleError,
    ErrorCode.SECOND_FACTOR_REQUIRED: SecondFactorRequiredError,
    ErrorCode.WOULD_DEADLOCK: WouldDeadlockError,
    ErrorCode.APP_DESTROYED: AppDestroyedError,
    ErrorCode.LOOP_FAILURE: LoopFailureError,
    ErrorCode.PERSISTENCE_FAILURE: PersistenceFailureError,
}


def exception_class(code: int) -> Type[AuthError]:
    """The exception class raised for ``code`` (``AuthError`` itself when no subclass is specific)."""
    return _CLASSES.get(check_int(code, "code"), AuthError)


def error_from_code(code: int, message: Optional[str] = None) -> AuthError:
    """A new exception of the class mapped from ``code`` (see :func:`exception_class`), carrying
    ``message`` (default ``""``)."""
    if message is not None and not isinstance(message, str):
        raise TypeError(f"message must be a str or None, not {type(message).__name__}")
    return exception_class(code)(code, message or "")


def last_error_message() -> str:
    """The library's sentence for the last call that failed at once on this thread
    (``hearth_last_error_message``): which argument, and what was wrong with it."""
    text = lib.hearth_last_error_message()
    return text.decode("utf-8", "replace") if text else ""


def raise_for_code(code: int, message: Optional[str] = None) -> None:
    """Raises the mapped exception unless ``code`` is 0. Without ``message`` the exception carries the
    library's own sentence for the failure (:func:`last_error_message`), as the call that returned
    ``code`` left it."""
    if code != 0:
        if message is None and lib.hearth_last_error_code() == code:
            message = last_error_message() or None
        raise error_from_code(code, message)
