"""E-mail actions: the settings of the links Firebase mails, and what checking a link's code tells.

The operations are methods of :class:`hearth.Auth` (:meth:`~hearth.Auth.send_sign_in_link_to_email`,
:meth:`~hearth.Auth.sign_in_with_email_link`, :meth:`~hearth.Auth.apply_action_code`,
:meth:`~hearth.Auth.check_action_code`, :meth:`~hearth.Auth.verify_password_reset_code`,
:meth:`~hearth.Auth.confirm_password_reset`) and of :class:`hearth.User` (the verification e-mails).

Signing in with a link on a desktop::

    settings = hearth.ActionCodeSettings(url="com.example.game:/finishSignIn", handle_code_in_app=True)
    auth.send_sign_in_link_to_email(email, settings).result()
    save_somewhere(email)                 # Firebase asks apps to keep it until the link comes back

    # later: the OS opened the app with the link (its custom URL scheme), or the user pasted it
    if not auth.handle_url(url) and auth.is_sign_in_with_email_link(url):
        result = auth.sign_in_with_email_link(load_saved_email() or ask_the_user(), url).result()
"""

from __future__ import annotations

import ctypes
from dataclasses import dataclass
from enum import IntEnum
from typing import Optional

from ._lib import ACTION_CODE_SETTINGS_BUFFER_SIZE, ActionCodeSettingsStruct, lib
from ._support import decode, encode, encode_optional
from .errors import AuthError, ErrorCode

__all__ = ["ActionCodeSettings", "ActionCodeOperation", "ActionCodeInfo"]


@dataclass(frozen=True)
class ActionCodeSettings:
    """Where an e-mail action link leads and which apps may open it (Firebase's ActionCodeSettings).

    ``url`` is the continue URL: where Firebase's action page sends the browser afterwards, and for a
    sign-in link the URL the link is handed to (a custom URL scheme your app registered, or a page of
    yours). ``handle_code_in_app`` lets your app complete the action itself; sign-in links need it.
    ``None`` leaves a field out of the request. Checked as Firebase's SDKs check them, when used:
    an empty ``url`` fails with :class:`~hearth.InvalidContinueUriError`, an empty ``link_domain`` or
    ``dynamic_link_domain`` with :class:`~hearth.InvalidLinkDomainError`, an empty ``ios_bundle_id``
    with :class:`~hearth.MissingIosBundleIdError`, and Android settings without
    ``android_package_name`` with :class:`~hearth.InvalidArgumentError`.
    """

    url: str
    handle_code_in_app: bool = False
    ios_bundle_id: Optional[str] = None
    android_package_name: Optional[str] = None
    android_install_app: bool = False
    android_minimum_version: Optional[str] = None
    link_domain: Optional[str] = None
    #: Deprecated with Firebase Dynamic Links.
    dynamic_link_domain: Optional[str] = None

    def __post_init__(self) -> None:
        # Checked here, so that a wrong value fails where it was written, not where it is used.
        encode(self.url, "url")
        for name in _OPTIONAL_TEXT:
            encode_optional(getattr(self, name), name)
        for name in ("handle_code_in_app", "android_install_app"):
            if not isinstance(getattr(self, name), bool):
                raise TypeError(f"{name} must be a bool, not {type(getattr(self, name)).__name__}")


_OPTIONAL_TEXT = ("ios_bundle_id", "android_package_name", "android_minimum_version", "link_domain",
                  "dynamic_link_domain")


class SettingsBuffer:
    """A filled ``hearth_action_code_settings`` (``buffer``, sized by the library) with the bytes its
    pointers refer to. The library copies what it needs during the call."""

    __slots__ = ("buffer", "_referenced")

    def __init__(self, buffer: "ctypes.Array[ctypes.c_char]", *referenced: object) -> None:
        self.buffer = buffer
        self._referenced = referenced


def settings_buffer(settings: Optional[ActionCodeSettings], *, required: bool = False) -> Optional[SettingsBuffer]:
    """The C settings for ``settings`` (``None`` stays NULL unless ``required``); TypeError for a
    value of the wrong type, at once."""
    if settings is None:
        if required:
            raise TypeError("settings must be a hearth.ActionCodeSettings (sign-in links need a continue URL "
                            "and handle_code_in_app=True)")
        return None
    if not isinstance(settings, ActionCodeSettings):
        raise TypeError(f"settings must be a hearth.ActionCodeSettings, not {type(settings).__name__}")
    url = encode(settings.url, "settings.url")
    strings = {name: encode_optional(getattr(settings, name), f"settings.{name}") for name in _OPTIONAL_TEXT}
    buffer = ctypes.create_string_buffer(ACTION_CODE_SETTINGS_BUFFER_SIZE)
    lib.hearth_action_code_settings_init(buffer)
    fields = ActionCodeSettingsStruct.from_buffer(buffer)
    fields.url = url
    fields.handle_code_in_app = int(settings.handle_code_in_app)
    fields.android_install_app = int(settings.android_install_app)
    for name, value in strings.items():
        setattr(fields, name, value)
    return SettingsBuffer(buffer, fields, url, *strings.values())


def settings_pointer(settings: Optional[SettingsBuffer]) -> Optional["ctypes.Array[ctypes.c_char]"]:
    return None if settings is None else settings.buffer


class ActionCodeOperation(IntEnum):
    """What an e-mail action code does (``hearth_action_code_operation``)."""

    UNKNOWN = 0
    PASSWORD_RESET = 1
    VERIFY_EMAIL = 2
    RECOVER_EMAIL = 3
    EMAIL_SIGN_IN = 4
    VERIFY_AND_CHANGE_EMAIL = 5
    REVERT_SECOND_FACTOR_ADDITION = 6


@dataclass(frozen=True)
class ActionCodeInfo:
    """What :meth:`hearth.Auth.check_action_code` tells (Firebase's ActionCodeInfo).

    ``email`` is the account's address (for a verify-before-update code the new one; ``""`` when the
    server does not say, as for a sign-in code); ``previous_email`` the address being replaced by a
    verify-before-update code, or for a recover-email code the address the account had changed to
    (``""`` otherwise)."""

    operation: ActionCodeOperation
    email: str
    previous_email: str


def to_action_code_info(future: int) -> ActionCodeInfo:
    info = lib.hearth_future_action_code_info(future)
    if not info:
        raise AuthError(ErrorCode.FAILURE, "the code was checked but Hearth returned no action code info")
    raw_operation = lib.hearth_action_code_info_operation(info)
    try:
        operation = ActionCodeOperation(raw_operation)
    except ValueError:
        operation = ActionCodeOperation.UNKNOWN
    return ActionCodeInfo(operation, decode(lib.hearth_action_code_info_email(info)),
                          decode(lib.hearth_action_code_info_previous_email(info)))
