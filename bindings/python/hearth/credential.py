"""Credentials to sign in, link or reauthenticate with, and the providers that make them.

Every identity provider has a class whose static ``credential(...)`` method wraps the tokens your
app obtained from that provider's own SDK (Google Sign-In, Facebook Login, Sign in with Apple, ...)::

    credential = hearth.GoogleAuthProvider.credential(id_token=google_id_token)
    user = auth.sign_in_with_credential(credential).result()

:class:`OAuthProvider` is also instantiated to describe a provider for the desktop provider flow
(:meth:`hearth.Auth.sign_in_with_provider`): its id, OAuth scopes and custom parameters.
"""

from __future__ import annotations

import weakref
from typing import Dict, Iterable, Mapping, Optional, Tuple

from ._lib import lib
from ._support import decode, decode_optional, encode, encode_optional
from .errors import ErrorCode, InvalidArgumentError, last_error_message, raise_for_code

__all__ = [
    "Credential",
    "EmailAuthProvider",
    "GoogleAuthProvider",
    "FacebookAuthProvider",
    "TwitterAuthProvider",
    "GithubAuthProvider",
    "PlayGamesAuthProvider",
    "AppleAuthProvider",
    "OAuthProvider",
    "PhoneAuthProvider",
]


class Credential:
    """A credential for :meth:`hearth.Auth.sign_in_with_credential`, :meth:`hearth.User.link_with_credential`
    and :meth:`hearth.User.reauthenticate`. Made by a provider (e.g.
    :meth:`GoogleAuthProvider.credential`), or handed back by Hearth: :attr:`hearth.AuthResult.credential`
    and :attr:`hearth.AccountConflictError.updated_credential`.

    Its tokens are readable (:attr:`id_token`, :attr:`access_token`, :attr:`secret`) so that your app
    can call the provider's own API with them, but its ``repr`` never shows them: do not log them.
    """

    __slots__ = ("_ptr", "_finalizer", "__weakref__")
    _ptr: int
    _finalizer: "weakref.finalize[[int], Credential]"

    def __init__(self) -> None:
        raise TypeError("use a provider to make a Credential, e.g. hearth.EmailAuthProvider.credential()")

    @classmethod
    def _take(cls, ptr: int) -> "Credential":
        """A credential that takes over the new reference ``ptr``."""
        self = object.__new__(cls)
        self._ptr = ptr
        self._finalizer = weakref.finalize(self, lib.hearth_credential_release, ptr)
        self._finalizer.atexit = False
        return self

    @classmethod
    def _from_borrowed(cls, ptr: Optional[int]) -> Optional["Credential"]:
        """A credential of its own for a borrowed handle (e.g. of an auth result), or ``None``."""
        if not ptr:
            return None
        owned = lib.hearth_credential_retain(ptr)
        return cls._take(owned) if owned else None

    @property
    def provider(self) -> str:
        """The provider id, e.g. ``"password"``, ``"google.com"``, ``"oidc.example"``."""
        return decode(lib.hearth_credential_provider(self._ptr))

    @property
    def id_token(self) -> Optional[str]:
        """The identity provider's ID token, ``None`` when the credential has none."""
        return decode_optional(lib.hearth_credential_id_token(self._ptr))

    @property
    def access_token(self) -> Optional[str]:
        """The identity provider's access token (Twitter: the OAuth token), ``None`` when absent."""
        return decode_optional(lib.hearth_credential_access_token(self._ptr))

    @property
    def secret(self) -> Optional[str]:
        """The OAuth 1.0a token secret (Twitter), ``None`` when absent."""
        return decode_optional(lib.hearth_credential_secret(self._ptr))

    @property
    def is_valid(self) -> bool:
        """True while the native credential is live (always, for a credential you hold)."""
        return bool(lib.hearth_credential_is_valid(self._ptr))

    def __repr__(self) -> str:
        return f"<hearth.Credential provider={self.provider!r}>"


def _made(ptr: Optional[int], what: str) -> Credential:
    if not ptr:
        raise InvalidArgumentError(ErrorCode.INVALID_ARGUMENT,
                                   last_error_message() or f"Hearth rejected the {what} credential")
    return Credential._take(ptr)


class _CredentialFactory:
    """Providers that only make credentials are not instantiated."""

    PROVIDER_ID = ""

    def __init__(self) -> None:
        raise TypeError(f"{type(self).__name__} is not instantiable; call {type(self).__name__}.credential()")


class EmailAuthProvider(_CredentialFactory):
    """E-mail and password sign-in (provider id ``"password"``)."""

    PROVIDER_ID = "password"

    @staticmethod
    def credential(email: str, password: str) -> Credential:
        """A credential for ``email`` and ``password`` (checked by the server at sign-in)."""
        return _made(lib.hearth_credential_create_email(encode(email, "email"), encode(password, "password")), "e-mail")

    @staticmethod
    def credential_with_link(email: str, link: str) -> Credential:
        """A credential for ``email``, the address a sign-in link was sent to, and ``link`` (Firebase's
        ``credentialWithLink``), for :meth:`hearth.Auth.sign_in_with_credential`,
        :meth:`hearth.User.link_with_credential` and :meth:`hearth.User.reauthenticate`. Its provider
        is ``"password"``. :class:`~hearth.InvalidArgumentError` when ``link`` is not an e-mail action
        link."""
        return _made(lib.hearth_credential_create_email_link(encode(email, "email"), encode(link, "link")),
                     "e-mail link")


class GoogleAuthProvider(_CredentialFactory):
    """Google (``"google.com"``)."""

    PROVIDER_ID = "google.com"

    @staticmethod
    def credential(id_token: Optional[str] = None, access_token: Optional[str] = None) -> Credential:
        """A credential from Google Sign-In's ``id_token`` and/or ``access_token`` (at least one;
        :class:`ValueError` for neither)."""
        if id_token is None and access_token is None:
            raise ValueError("GoogleAuthProvider.credential needs an id_token, an access_token, or both")
        return _made(
            lib.hearth_credential_create_google(
                encode_optional(id_token, "id_token"), encode_optional(access_token, "access_token")
            ),
            "Google",
        )


class FacebookAuthProvider(_CredentialFactory):
    """Facebook (``"facebook.com"``)."""

    PROVIDER_ID = "facebook.com"

    @staticmethod
    def credential(access_token: str) -> Credential:
        """A credential from Facebook Login's ``access_token``."""
        return _made(lib.hearth_credential_create_facebook(encode(access_token, "access_token")), "Facebook")

    @staticmethod
    def limited_login_credential(id_token: str, raw_nonce: str) -> Credential:
        """A credential from Facebook Limited Login: its authentication token ``id_token`` (an OIDC ID
        token) and ``raw_nonce``, the *raw* nonce the login was started with (Facebook got its SHA-256; see
        :func:`hearth.generate_nonce`)."""
        return _made(
            lib.hearth_credential_create_facebook_limited_login(encode(id_token, "id_token"), encode(raw_nonce, "raw_nonce")),
            "Facebook Limited Login",
        )


class TwitterAuthProvider(_CredentialFactory):
    """Twitter / X (``"twitter.com"``)."""

    PROVIDER_ID = "twitter.com"

    @staticmethod
    def credential(token: str, secret: str) -> Credential:
        """A credential from Twitter's OAuth 1.0a token and token secret."""
        return _made(lib.hearth_credential_create_twitter(encode(token, "token"), encode(secret, "secret")), "Twitter")


class GithubAuthProvider(_CredentialFactory):
    """GitHub (``"github.com"``)."""

    PROVIDER_ID = "github.com"

    @staticmethod
    def credential(token: str) -> Credential:
        """A credential from a GitHub OAuth access token."""
        return _made(lib.hearth_credential_create_github(encode(token, "token")), "GitHub")


class PlayGamesAuthProvider(_CredentialFactory):
    """Google Play Games (``"playgames.google.com"``)."""

    PROVIDER_ID = "playgames.google.com"

    @staticmethod
    def credential(server_auth_code: str) -> Credential:
        """A credential from ``server_auth_code``, the code Play Games services gave the game."""
        return _made(lib.hearth_credential_create_play_games(encode(server_auth_code, "server_auth_code")), "Play Games")


class AppleAuthProvider(_CredentialFactory):
    """Sign in with Apple (``"apple.com"``)."""

    PROVIDER_ID = "apple.com"

    @staticmethod
    def credential(
        id_token: str,
        raw_nonce: str,
        authorization_code: Optional[str] = None,
        given_name: Optional[str] = None,
        family_name: Optional[str] = None,
    ) -> Credential:
        """A credential from Apple's ``id_token`` and ``raw_nonce``, the *raw* nonce the request was
        made with (Apple got its SHA-256: see :func:`hearth.generate_nonce`), optionally Apple's
        ``authorization_code`` and the user's ``given_name`` / ``family_name`` (Apple sends the name
        only on the first authorization; Firebase stores it)."""
        return _made(
            lib.hearth_credential_create_apple(
                encode(id_token, "id_token"),
                encode(raw_nonce, "raw_nonce"),
                encode_optional(authorization_code, "authorization_code"),
                encode_optional(given_name, "given_name"),
                encode_optional(family_name, "family_name"),
            ),
            "Apple",
        )


class PhoneAuthProvider(_CredentialFactory):
    """Phone numbers (``"phone"``): an SMS code proves the number.

    :meth:`hearth.Auth.verify_phone_number` texts the code and gives the verification id; the
    credential pairs that id with the code the user typed::

        verification = await auth.verify_phone_number("+16505554567")
        code = input("The code we texted you: ")
        user = await auth.sign_in_with_credential(
            hearth.PhoneAuthProvider.credential(verification.verification_id, code))

    The credential also links a number (:meth:`hearth.User.link_with_credential`), reauthenticates
    (:meth:`hearth.User.reauthenticate`), changes the number (:meth:`hearth.User.update_phone_number`)
    and proves a second factor (:meth:`hearth.PhoneMultiFactorGenerator.assertion`).
    """

    PROVIDER_ID = "phone"

    @staticmethod
    def credential(verification_id: str, code: str) -> Credential:
        """A credential from ``verification_id`` and the SMS ``code`` (both checked by the server; an
        empty one fails the sign-in with :class:`~hearth.MissingVerificationIdError` or
        :class:`~hearth.MissingVerificationCodeError`)."""
        return _made(
            lib.hearth_credential_create_phone(encode(verification_id, "verification_id"), encode(code, "code")),
            "phone",
        )


class OAuthProvider:
    """Any OAuth / OIDC provider: ``"microsoft.com"``, ``"yahoo.com"``, ``"apple.com"``,
    ``"twitter.com"``, ``"oidc.<name>"``, ...

    As a class, it makes credentials from tokens your app already has
    (:meth:`OAuthProvider.credential`). As an instance, it describes the provider for the desktop
    provider flow (:meth:`hearth.Auth.sign_in_with_provider`, :meth:`hearth.User.link_with_provider`,
    :meth:`hearth.User.reauthenticate_with_provider`)::

        microsoft = hearth.OAuthProvider(
            "microsoft.com",
            scopes=["mail.read", "calendars.read"],
            custom_parameters={"tenant": "contoso.onmicrosoft.com", "prompt": "consent"},
        )

    Custom parameters go to the provider's page (Microsoft ``tenant``, ``prompt``, ``login_hint``;
    Twitter ``lang``; Apple ``locale``; ...). Those Firebase sets itself (``client_id``,
    ``redirect_uri``, ``response_type``, ``scope``, ``state``, ``response_mode``) are refused with
    :class:`~hearth.InvalidArgumentError` (a ``ValueError``) right away. An unknown provider id is
    accepted here and fails the flow with :class:`~hearth.InvalidProviderIdError`.
    """

    def __init__(
        self,
        provider_id: str,
        scopes: Iterable[str] = (),
        custom_parameters: Optional[Mapping[str, str]] = None,
    ) -> None:
        encode(provider_id, "provider_id")
        self._provider_id = provider_id
        self._scopes: Tuple[str, ...] = ()
        self._parameters: Dict[str, str] = {}
        self._ptr = 0
        self._finalizer: Optional[weakref.finalize] = None  # type: ignore[type-arg]
        self._apply(_checked_scopes(scopes), dict(_checked_parameters(custom_parameters or {})))

    # ------------------------------------------------------------------------------------------------
    @property
    def provider_id(self) -> str:
        """The identity provider's id (``"microsoft.com"``, ``"apple.com"``, ...)."""
        return self._provider_id

    @property
    def scopes(self) -> Tuple[str, ...]:
        """The OAuth scopes requested, in the order added."""
        return self._scopes

    @property
    def custom_parameters(self) -> Mapping[str, str]:
        """A copy of the custom parameters."""
        return dict(self._parameters)

    def add_scope(self, scope: str) -> "OAuthProvider":
        """Requests one more OAuth scope (``"email"``, ``"mail.read"``, ...). Returns ``self``."""
        self._apply(self._scopes + _checked_scopes([scope]), self._parameters)
        return self

    def set_custom_parameters(self, custom_parameters: Mapping[str, str]) -> "OAuthProvider":
        """Replaces the custom parameters with ``custom_parameters`` (as the Firebase JS SDK's method
        does); Firebase-reserved names raise :class:`~hearth.InvalidArgumentError` (a
        :class:`ValueError`). Returns ``self``."""
        self._apply(self._scopes, dict(_checked_parameters(custom_parameters)))
        return self

    def _apply(self, scopes: Tuple[str, ...], parameters: Dict[str, str]) -> None:
        """Builds the native provider for this state; the old one stays if Hearth refuses it."""
        ptr = lib.hearth_oauth_provider_create(encode(self._provider_id, "provider_id"))
        if not ptr:
            raise InvalidArgumentError(ErrorCode.INVALID_ARGUMENT, last_error_message() or "Hearth rejected the provider id")
        finalizer = weakref.finalize(self, lib.hearth_oauth_provider_release, ptr)
        finalizer.atexit = False
        try:
            for scope in scopes:
                raise_for_code(lib.hearth_oauth_provider_add_scope(ptr, encode(scope, "scope")))
            for key, value in parameters.items():
                code = lib.hearth_oauth_provider_set_custom_parameter(
                    ptr, encode(key, "custom parameter name"), encode(value, f"custom parameter {key!r}")
                )
                if code == ErrorCode.INVALID_ARGUMENT:
                    raise InvalidArgumentError(
                        code, f"the custom parameter {key!r} is not allowed: Firebase sets it itself"
                    )
                raise_for_code(code)
        except BaseException:
            finalizer()
            raise
        if self._finalizer is not None:
            self._finalizer()
        self._ptr, self._finalizer = ptr, finalizer
        self._scopes, self._parameters = scopes, parameters

    # ------------------------------------------------------------------------------------------------
    @staticmethod
    def credential(
        provider_id: str,
        id_token: Optional[str] = None,
        access_token: Optional[str] = None,
        raw_nonce: Optional[str] = None,
    ) -> Credential:
        """A credential for ``provider_id`` from its ``id_token`` and/or ``access_token``.

        With ``raw_nonce`` (the *raw* nonce the ID token was requested with; the token carries its
        SHA-256) the ID token is required; for ``"apple.com"`` this is Sign in with Apple, with
        ``access_token`` as Apple's authorization code.
        """
        provider = encode(provider_id, "provider_id")
        if raw_nonce is not None:
            if id_token is None:
                raise ValueError("OAuthProvider.credential with a raw_nonce needs the id_token it was issued for")
            ptr = lib.hearth_credential_create_oauth_with_nonce(
                provider,
                encode(id_token, "id_token"),
                encode(raw_nonce, "raw_nonce"),
                encode_optional(access_token, "access_token"),
            )
        else:
            if id_token is None and access_token is None:
                raise ValueError("OAuthProvider.credential needs an id_token, an access_token, or both")
            ptr = lib.hearth_credential_create_oauth(
                provider, encode_optional(id_token, "id_token"), encode_optional(access_token, "access_token")
            )
        return _made(ptr, provider_id)

    def __repr__(self) -> str:
        return (
            f"<hearth.OAuthProvider {self._provider_id!r} scopes={list(self._scopes)!r} "
            f"custom_parameters={sorted(self._parameters)!r}>"
        )


def _checked_scopes(scopes: Iterable[str]) -> Tuple[str, ...]:
    if isinstance(scopes, (str, bytes)):
        raise TypeError("scopes must be an iterable of str (e.g. a list), not a single string")
    checked = []
    for scope in scopes:
        encode(scope, "scope")
        if not scope:
            raise ValueError("a scope must not be empty")
        checked.append(scope)
    return tuple(checked)


def _checked_parameters(parameters: Mapping[str, str]) -> Iterable[Tuple[str, str]]:
    if not isinstance(parameters, Mapping):
        raise TypeError(f"custom_parameters must be a mapping of str to str, not {type(parameters).__name__}")
    for key, value in parameters.items():
        encode(key, "custom parameter name")
        encode(value, f"custom parameter {key!r}")
        yield key, value


def provider_ptr(provider: object) -> int:
    """The native handle of an :class:`OAuthProvider` argument (TypeError for anything else)."""
    if not isinstance(provider, OAuthProvider):
        raise TypeError(f"provider must be a hearth.OAuthProvider, not {type(provider).__name__}")
    return int(provider._ptr)


def credential_ptr(credential: object) -> int:
    """The native handle of a :class:`Credential` argument (TypeError for anything else)."""
    if not isinstance(credential, Credential):
        raise TypeError(f"credential must be a hearth.Credential, not {type(credential).__name__}")
    return int(credential._ptr)

