"""Hearth: Firebase-compatible authentication for Python, on a native core.

Every operation returns a :class:`Future` at once. Block on it with ``.result(timeout=...)``, or
``await`` it in asyncio code: the same API serves both styles.

Blocking style (scripts, tools, threads)::

    import hearth

    with hearth.App(api_key="YOUR_WEB_API_KEY", project_id="your-project") as app:
        auth = app.auth
        # auth.use_emulator("127.0.0.1", 9099)   # or set FIREBASE_AUTH_EMULATOR_HOST=127.0.0.1:9099

        result = auth.create_user_with_email_and_password("ada@example.com", "correct horse").result(timeout=10)
        user = result.user                      # an immutable snapshot
        print(user.uid, user.email, result.additional_user_info.is_new_user)

        token = user.get_token().result(timeout=10)   # the ID token for your backend; never log it
        user.update_profile(display_name="Ada").result(timeout=10)
        auth.sign_out()

        try:
            auth.sign_in_with_email_and_password("ada@example.com", "wrong").result(timeout=10)
        except hearth.WrongPasswordError as error:
            print(error.code, error.name, error.message)

asyncio style (servers, bots, load tests): ``await`` suspends only the task; Hearth's own loop thread
does the I/O, so thousands of sign-ins can be in flight at once::

    import asyncio
    import hearth

    async def main() -> None:
        with hearth.App(api_key="YOUR_WEB_API_KEY", persistence="none") as app:
            accounts = [(f"bot{i}@example.com", "correct horse") for i in range(100)]
            results = await asyncio.gather(
                *(app.auth.sign_in_with_email_and_password(email, password) for email, password in accounts),
                return_exceptions=True)
            print(sum(isinstance(r, hearth.AuthResult) for r in results), "signed in")

    asyncio.run(main())

Do not call ``.result()`` inside a coroutine (it blocks the event loop), nor inside Hearth's callbacks.

Concepts:

- :class:`App` owns a native Hearth app with its own loop thread; close it (``with`` block or
  :meth:`App.close`) to cancel what is in flight. ``persistence`` chooses where the session survives
  restarts: ``"file"`` (default), ``"none"``, or your own storage object (:class:`SessionStorage`).
- :class:`Auth` (``app.auth``) signs in and out and exposes :attr:`Auth.current_user`.
- Every operation returns a :class:`Future` at once: ``.result(timeout)`` blocks, ``await`` suspends,
  ``.add_done_callback(fn)`` calls back.
- Failures raise :class:`AuthError` subclasses chosen by :class:`ErrorCode` (``WrongPasswordError``,
  ``UserNotFoundError``, ``NetworkRequestFailedError``, ...). Wrong argument types raise
  :class:`TypeError`, unusable values (NUL characters, unencodable text) :class:`ValueError`.
- Identity providers make credentials from the tokens of their own SDKs
  (:meth:`GoogleAuthProvider.credential`, :meth:`AppleAuthProvider.credential` with a
  :func:`generate_nonce`, ...). :meth:`User.link_with_credential` adds one to an account,
  :meth:`User.unlink` removes it, :meth:`User.reauthenticate` refreshes a sign-in. A conflict with
  another account raises an :class:`AccountConflictError` whose ``updated_credential`` signs in there.
- On a desktop, :meth:`Auth.sign_in_with_provider` runs the provider's page in the user's browser
  (:meth:`Auth.set_provider_flow` sets the ``open_url`` delegate, which must not block) and receives
  the redirect on a loopback port or through :meth:`Auth.handle_url`::

      auth.set_provider_flow(open_url=webbrowser.open)
      microsoft = hearth.OAuthProvider("microsoft.com", custom_parameters={"tenant": "contoso.com"})
      result = await auth.sign_in_with_provider(microsoft)

- Phone numbers: :meth:`Auth.verify_phone_number` texts a code (await it, or use
  :meth:`Auth.verify_phone_number_with_listener`), and :meth:`PhoneAuthProvider.credential` pairs its
  verification id with the code the user typed, to sign in, link, reauthenticate or
  :meth:`User.update_phone_number`::

      verification = await auth.verify_phone_number("+16505554567")
      credential = hearth.PhoneAuthProvider.credential(verification.verification_id, typed_code)
      user = await auth.sign_in_with_credential(credential)

- Second factors (SMS and TOTP): ``user.multi_factor`` enrolls them (:class:`MultiFactorUser`); a
  sign-in that needs one raises :class:`SecondFactorRequiredError`, whose ``resolver``
  (:class:`MultiFactorResolver`) finishes it with a :class:`PhoneMultiFactorGenerator` or
  :class:`TotpMultiFactorGenerator` assertion. :func:`totp_code` computes RFC 6238 codes.
- Listeners (:meth:`Auth.add_auth_state_listener`, :meth:`Auth.add_id_token_listener`) and
  done-callbacks run on Hearth's loop thread, never in the thread that registered them; exceptions
  they raise are logged on the ``hearth`` logger. Do not block on pending futures inside them.

- Logging: Hearth is silent until :func:`hearth.log.forward_to_logging` sends its messages (never
  passwords, tokens or codes) to the ``hearth`` logger.

The native library, first match wins: the file named by the ``HEARTH_LIBRARY`` environment variable
(a development build); the ``libhearth.so`` bundled in this package (installed wheels carry one);
``libhearth.so.0`` on the system's library path (``make install``). :func:`library_path` tells which.
"""

from ._lib import lib as _native
from ._lib import library_path as _library_path
from ._support import KEEP
from .app import App
from .auth import Auth, AuthStateListener, ListenerHandle, OpenUrl
from .credential import (
    AppleAuthProvider,
    Credential,
    EmailAuthProvider,
    FacebookAuthProvider,
    GithubAuthProvider,
    GoogleAuthProvider,
    OAuthProvider,
    PhoneAuthProvider,
    PlayGamesAuthProvider,
    TwitterAuthProvider,
)
from .errors import *  # noqa: F401,F403 - the exception hierarchy is part of the top-level API
from .email_actions import ActionCodeInfo, ActionCodeOperation, ActionCodeSettings
from .errors import __all__ as _error_names
from .future import Future
from .multi_factor import (
    MultiFactorAssertion,
    MultiFactorResolver,
    MultiFactorSession,
    MultiFactorUser,
    PhoneMultiFactorGenerator,
    TotpMultiFactorGenerator,
    TotpSecret,
    totp_code,
)
from .nonce import Nonce, generate_nonce, sha256_hex
from .phone import PhoneVerification
from .storage import SessionStorage
from .user import AdditionalUserInfo, AuthResult, MultiFactorInfo, User, UserInfo, UserMetadata

__version__ = "0.1.0"


def library_version() -> str:
    """The native libhearth's version ("MAJOR.MINOR.PATCH")."""
    return (_native.hearth_version() or b"").decode("ascii", "replace")


def library_version_number() -> int:
    """The native libhearth's version as MAJOR * 10000 + MINOR * 100 + PATCH (1.2.3 is 10203), for
    comparisons: ``hearth.library_version_number() >= 10200``."""
    return int(_native.hearth_version_number())


def library_path() -> str:
    """The file the native library was loaded from: ``HEARTH_LIBRARY``'s value, the library bundled in
    this package, or ``libhearth.so.0`` when the dynamic loader found an installed one."""
    return _library_path


__all__ = [
    "App",
    "Auth",
    "AuthStateListener",
    "ListenerHandle",
    "OpenUrl",
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
    "ActionCodeSettings",
    "ActionCodeOperation",
    "ActionCodeInfo",
    "PhoneVerification",
    "MultiFactorInfo",
    "MultiFactorSession",
    "MultiFactorResolver",
    "MultiFactorAssertion",
    "MultiFactorUser",
    "PhoneMultiFactorGenerator",
    "TotpMultiFactorGenerator",
    "TotpSecret",
    "totp_code",
    "Nonce",
    "generate_nonce",
    "sha256_hex",
    "Future",
    "SessionStorage",
    "User",
    "UserInfo",
    "UserMetadata",
    "AuthResult",
    "AdditionalUserInfo",
    "KEEP",
    "library_version",
    "library_version_number",
    "library_path",
]
__all__ += _error_names
