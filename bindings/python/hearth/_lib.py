"""Loading libhearth and declaring its C API for ctypes.

Every function of ``include/hearth.h`` is declared here with its exact argument and result types:
ctypes' default result type is ``int``, which would truncate 64-bit handles, so every handle travels
as ``c_void_p``. Nothing else in the package calls ``ctypes.CDLL`` directly.
"""

from __future__ import annotations

import ctypes
import os
import sys
from ctypes import (
    CFUNCTYPE,
    POINTER,
    Structure,
    c_char_p,
    c_int,
    c_int64,
    c_size_t,
    c_uint16,
    c_uint32,
    c_uint64,
    c_void_p,
)
from enum import IntEnum
from pathlib import Path
from typing import Any, Dict, List, Sequence, Tuple

__all__ = [
    "lib",
    "library_path",
    "AppOptions",
    "OPTIONS_BUFFER_SIZE",
    "COMPLETION_CB",
    "AUTH_STATE_CB",
    "ID_TOKEN_CB",
    "POST_CB",
    "RELEASE_CB",
    "STORAGE_LOAD_CB",
    "STORAGE_SAVE_CB",
    "STORAGE_ERASE_CB",
    "OPEN_URL_CB",
    "ProviderFlowOptions",
    "FLOW_OPTIONS_BUFFER_SIZE",
    "PhoneAuthOptions",
    "PHONE_OPTIONS_BUFFER_SIZE",
    "ActionCodeSettingsStruct",
    "ACTION_CODE_SETTINGS_BUFFER_SIZE",
    "PhoneListener",
    "PHONE_CODE_SENT_CB",
    "PHONE_FAILED_CB",
    "PHONE_TIMEOUT_CB",
    "TOTP_CODE_BUFFER_SIZE",
    "NONCE_SIZE",
    "SHA256_HEX_SIZE",
    "DECLARATIONS",
    "ABI_MAJOR",
    "Op",
]

#: The header's HEARTH_VERSION_MAJOR this binding was written against.
ABI_MAJOR = 0

if sys.platform == "darwin":
    _LIBRARY_FILE = "libhearth.dylib"
    _SYSTEM_LIBRARY = f"libhearth.{ABI_MAJOR}.dylib"
elif sys.platform == "win32":
    _LIBRARY_FILE = "hearth.dll"
    _SYSTEM_LIBRARY = "hearth.dll"
else:
    _LIBRARY_FILE = "libhearth.so"
    _SYSTEM_LIBRARY = f"libhearth.so.{ABI_MAJOR}"

# Where the native library is looked for, first match wins (documented in the package docstring):
# 1. ``HEARTH_LIBRARY``: an explicit path, e.g. a development build; it must exist.
# 2. The library bundled in the package (the wheel carries one next to this file).
# 3. ``libhearth.so.<major>`` on the system's library path (``make install``; the dynamic loader's
#    search: LD_LIBRARY_PATH, the ld.so cache, /lib, /usr/lib).


def _find_library() -> str:
    override = os.environ.get("HEARTH_LIBRARY")
    if override:
        if not os.path.isfile(override):
            raise ImportError(
                f"hearth: HEARTH_LIBRARY is set to {override!r}, which is not a file. Point it at the "
                f"built {_LIBRARY_FILE} (swift build -c release --product hearth puts it in .build/release/), "
                f"or unset it to use the library bundled in the package."
            )
        return override
    bundled = Path(__file__).resolve().with_name(_LIBRARY_FILE)
    if bundled.is_file():
        return str(bundled)
    # A bare name: the dynamic loader searches its own path for an installed libhearth.
    return _SYSTEM_LIBRARY


def _not_found(error: OSError) -> ImportError:
    return ImportError(
        f"hearth: cannot find the native library: no HEARTH_LIBRARY, no {_LIBRARY_FILE} bundled in the "
        f"package ({Path(__file__).resolve().parent}), and no {_SYSTEM_LIBRARY} on the library path "
        f"({error}). Install the wheel (`make wheel` builds it), `make install` the library, or set "
        f"HEARTH_LIBRARY to a built {_LIBRARY_FILE} (e.g. $PWD/.build/release/{_LIBRARY_FILE} after "
        f"`swift build -c release --product hearth`)."
    )


# ---------------------------------------------------------------------------------------------------
# Callback and struct types
# ---------------------------------------------------------------------------------------------------

# void (*)(hearth_future *future, void *user_data)
COMPLETION_CB = CFUNCTYPE(None, c_void_p, c_void_p)
# void (*)(hearth_auth *auth, void *user_data)
AUTH_STATE_CB = CFUNCTYPE(None, c_void_p, c_void_p)
ID_TOKEN_CB = CFUNCTYPE(None, c_void_p, c_void_p)
# hearth_post_cb: void (*)(void *user_data, hearth_error status)
POST_CB = CFUNCTYPE(None, c_void_p, c_int)
# hearth_release_cb: void (*)(void *user_data), the final call of a listener or delegate
RELEASE_CB = CFUNCTYPE(None, c_void_p)
# int (*)(void *user_data, const char *key, hearth_storage_reply *reply)
STORAGE_LOAD_CB = CFUNCTYPE(c_int, c_void_p, c_char_p, c_void_p)
# int (*)(void *user_data, const char *key, const char *data, size_t length); data is not
# NUL-terminated for our purposes, so it arrives as a raw pointer read with its length.
STORAGE_SAVE_CB = CFUNCTYPE(c_int, c_void_p, c_char_p, c_void_p, c_size_t)
# int (*)(void *user_data, const char *key)
STORAGE_ERASE_CB = CFUNCTYPE(c_int, c_void_p, c_char_p)
# int (*)(void *user_data, const char *url)
OPEN_URL_CB = CFUNCTYPE(c_int, c_void_p, c_char_p)

# void (*on_code_sent)(void *user_data, const char *verification_id, const char *force_resending_token)
PHONE_CODE_SENT_CB = CFUNCTYPE(None, c_void_p, c_char_p, c_char_p)
# void (*on_verification_failed)(void *user_data, int error, const char *message)
PHONE_FAILED_CB = CFUNCTYPE(None, c_void_p, c_int, c_char_p)
# void (*on_code_auto_retrieval_timeout)(void *user_data, const char *verification_id)
PHONE_TIMEOUT_CB = CFUNCTYPE(None, c_void_p, c_char_p)
# hearth_log_cb(user_data, level, message)
LOG_CB = CFUNCTYPE(None, c_void_p, c_int, c_char_p)

class Op(IntEnum):
    """``hearth_operation``: the operations hearth_auth_last_result knows, with the header's values."""

    AUTH_SIGN_IN_ANONYMOUSLY = 0
    AUTH_CREATE_USER_WITH_EMAIL_AND_PASSWORD = 1
    AUTH_SIGN_IN_WITH_EMAIL_AND_PASSWORD = 2
    AUTH_SIGN_IN_WITH_CUSTOM_TOKEN = 3
    AUTH_SIGN_IN_WITH_CREDENTIAL = 4
    AUTH_SIGN_IN_AND_RETRIEVE_DATA_WITH_CREDENTIAL = 5
    AUTH_SEND_PASSWORD_RESET_EMAIL = 6
    AUTH_FETCH_PROVIDERS_FOR_EMAIL = 7
    USER_GET_TOKEN = 8
    USER_RELOAD = 9
    USER_UPDATE_USER_PROFILE = 10
    USER_UPDATE_PASSWORD = 11
    USER_SEND_EMAIL_VERIFICATION = 12
    USER_SEND_EMAIL_VERIFICATION_BEFORE_UPDATING_EMAIL = 13
    USER_DELETE = 14
    USER_LINK_WITH_CREDENTIAL = 15
    USER_UNLINK = 16
    USER_REAUTHENTICATE = 17
    USER_REAUTHENTICATE_AND_RETRIEVE_DATA = 18
    AUTH_SIGN_IN_WITH_PROVIDER = 19
    USER_LINK_WITH_PROVIDER = 20
    USER_REAUTHENTICATE_WITH_PROVIDER = 21
    AUTH_VERIFY_PHONE_NUMBER = 22
    USER_UPDATE_PHONE_NUMBER_CREDENTIAL = 23
    USER_MULTI_FACTOR_GET_SESSION = 24
    USER_MULTI_FACTOR_ENROLL = 25
    USER_MULTI_FACTOR_UNENROLL = 26
    TOTP_SECRET_GENERATE = 27
    MULTI_FACTOR_RESOLVER_RESOLVE_SIGN_IN = 28
    AUTH_GET_CREDENTIAL_WITH_PROVIDER = 29
    USER_UPDATE_EMAIL = 30
    AUTH_SEND_SIGN_IN_LINK_TO_EMAIL = 31
    AUTH_SIGN_IN_WITH_EMAIL_LINK = 32
    AUTH_APPLY_ACTION_CODE = 33
    AUTH_CHECK_ACTION_CODE = 34
    AUTH_VERIFY_PASSWORD_RESET_CODE = 35
    AUTH_CONFIRM_PASSWORD_RESET = 36
    AUTH_UPDATE_CURRENT_USER = 37


#: HEARTH_NONCE_SIZE and HEARTH_SHA256_HEX_SIZE: the buffers hearth_nonce_generate / hearth_nonce_hash fill.
NONCE_SIZE = 33
SHA256_HEX_SIZE = 65


class AppOptions(Structure):
    """``hearth_app_options``, field for field."""

    _fields_ = [
        ("struct_size", c_uint32),
        ("api_key", c_char_p),
        ("project_id", c_char_p),
        ("app_id", c_char_p),
        ("auth_domain", c_char_p),
        ("app_name", c_char_p),
        ("loop", c_void_p),
        ("persistence", c_int),
        ("persistence_dir", c_char_p),
        ("storage_load", STORAGE_LOAD_CB),
        ("storage_save", STORAGE_SAVE_CB),
        ("storage_erase", STORAGE_ERASE_CB),
        ("storage_user_data", c_void_p),
        ("request_timeout_ms", c_int64),
        ("ca_bundle_path", c_char_p),
    ]


class ProviderFlowOptions(Structure):
    """``hearth_provider_flow_options``, field for field."""

    _fields_ = [
        ("struct_size", c_uint32),
        ("open_url", OPEN_URL_CB),
        ("user_data", c_void_p),
        ("redirect_uri", c_char_p),
        ("loopback_port", c_uint16),
        ("timeout_ms", c_int64),
        ("use_create_auth_uri", c_int),
        ("release", RELEASE_CB),
    ]


class PhoneAuthOptions(Structure):
    """``hearth_phone_auth_options``, field for field."""

    _fields_ = [
        ("struct_size", c_uint32),
        ("phone_number", c_char_p),
        ("timeout_ms", c_int64),
        ("force_resending_token", c_char_p),
        ("multi_factor_session", c_void_p),
        ("multi_factor_hint", c_void_p),
    ]


class PhoneListener(Structure):
    """``hearth_phone_listener``, field for field (the library copies it during the call)."""

    _fields_ = [
        ("struct_size", c_uint32),
        ("on_code_sent", PHONE_CODE_SENT_CB),
        ("on_verification_failed", PHONE_FAILED_CB),
        ("on_code_auto_retrieval_timeout", PHONE_TIMEOUT_CB),
        ("user_data", c_void_p),
        ("release", RELEASE_CB),
    ]


class ActionCodeSettingsStruct(Structure):
    """``hearth_action_code_settings``, field for field."""

    _fields_ = [
        ("struct_size", c_uint32),
        ("url", c_char_p),
        ("handle_code_in_app", c_int),
        ("ios_bundle_id", c_char_p),
        ("android_package_name", c_char_p),
        ("android_install_app", c_int),
        ("android_minimum_version", c_char_p),
        ("link_domain", c_char_p),
        ("dynamic_link_domain", c_char_p),
    ]


# hearth_app_options_init writes the library's sizeof(hearth_app_options): a newer library may know
# more fields than AppOptions, so the options live in a larger buffer and keep its defaults for them.
OPTIONS_BUFFER_SIZE = max(ctypes.sizeof(AppOptions), 1024)
# The same for hearth_provider_flow_options_init.
FLOW_OPTIONS_BUFFER_SIZE = max(ctypes.sizeof(ProviderFlowOptions), 256)
# The same for hearth_phone_auth_options_init.
PHONE_OPTIONS_BUFFER_SIZE = max(ctypes.sizeof(PhoneAuthOptions), 256)
# The same for hearth_action_code_settings_init.
ACTION_CODE_SETTINGS_BUFFER_SIZE = max(ctypes.sizeof(ActionCodeSettingsStruct), 256)
#: The buffer hearth_totp_code_generate writes to: up to 10 digits (RFC 4226's 31-bit value) and a NUL.
TOTP_CODE_BUFFER_SIZE = 11

# ---------------------------------------------------------------------------------------------------
# Declarations: name -> (restype, argtypes). Kept in header order.
# ---------------------------------------------------------------------------------------------------
_P = c_void_p  # every opaque handle

DECLARATIONS: Dict[str, Tuple[Any, Sequence[Any]]] = {
    # Errors and library
    "hearth_error_name": (c_char_p, [c_int]),
    "hearth_error_message": (c_char_p, [c_int]),
    "hearth_last_error_code": (c_int, []),
    "hearth_last_error_message": (c_char_p, []),
    "hearth_version": (c_char_p, []),
    "hearth_version_number": (c_int, []),
    "hearth_free": (None, [c_void_p]),
    "hearth_log_set_callback": (c_int, [c_int, LOG_CB, c_void_p]),
    # App
    "hearth_storage_reply_set": (c_int, [_P, c_char_p, c_size_t]),
    "hearth_app_options_init": (None, [c_void_p]),
    "hearth_app_create": (c_int, [c_void_p, POINTER(c_void_p)]),
    "hearth_app_destroy": (None, [_P]),
    "hearth_app_name": (c_char_p, [_P]),
    "hearth_app_set_user_data": (None, [_P, c_void_p]),
    "hearth_app_get_user_data": (c_void_p, [_P]),
    "hearth_app_post": (c_int, [_P, POST_CB, c_void_p]),
    "hearth_app_is_loop_thread": (c_int, [_P]),
    # Futures
    "hearth_future_status": (c_int, [_P]),
    "hearth_future_error": (c_int, [_P]),
    "hearth_future_error_message": (c_char_p, [_P]),
    "hearth_future_add_callback": (c_int, [_P, COMPLETION_CB, c_void_p]),
    "hearth_future_wait": (c_int, [_P, c_int64]),
    "hearth_future_release": (None, [_P]),
    "hearth_future_retain": (_P, [_P]),
    "hearth_future_auth_result": (_P, [_P]),
    "hearth_future_user": (_P, [_P]),
    "hearth_future_string": (c_char_p, [_P]),
    "hearth_future_string_count": (c_size_t, [_P]),
    "hearth_future_string_at": (c_char_p, [_P, c_size_t]),
    # Credentials
    "hearth_credential_create_email": (_P, [c_char_p, c_char_p]),
    "hearth_credential_create_google": (_P, [c_char_p, c_char_p]),
    "hearth_credential_create_facebook": (_P, [c_char_p]),
    "hearth_credential_create_facebook_limited_login": (_P, [c_char_p, c_char_p]),
    "hearth_credential_create_twitter": (_P, [c_char_p, c_char_p]),
    "hearth_credential_create_github": (_P, [c_char_p]),
    "hearth_credential_create_play_games": (_P, [c_char_p]),
    "hearth_credential_create_oauth": (_P, [c_char_p, c_char_p, c_char_p]),
    "hearth_credential_create_oauth_with_nonce": (_P, [c_char_p, c_char_p, c_char_p, c_char_p]),
    "hearth_credential_create_apple": (_P, [c_char_p, c_char_p, c_char_p, c_char_p, c_char_p]),
    "hearth_credential_provider": (c_char_p, [_P]),
    "hearth_credential_id_token": (c_char_p, [_P]),
    "hearth_credential_access_token": (c_char_p, [_P]),
    "hearth_credential_secret": (c_char_p, [_P]),
    # Output buffers of HEARTH_NONCE_SIZE / HEARTH_SHA256_HEX_SIZE bytes (ctypes string buffers).
    "hearth_nonce_generate": (c_int, [c_char_p, c_char_p]),
    "hearth_nonce_hash": (c_int, [c_char_p, c_char_p]),
    "hearth_credential_is_valid": (c_int, [_P]),
    "hearth_credential_retain": (_P, [_P]),
    "hearth_credential_release": (None, [_P]),
    # Email actions (the settings struct travels as a raw pointer to its buffer)
    "hearth_action_code_settings_init": (None, [c_void_p]),
    "hearth_auth_send_sign_in_link_to_email": (_P, [_P, c_char_p, c_void_p]),
    "hearth_auth_is_sign_in_with_email_link": (c_int, [_P, c_char_p]),
    "hearth_auth_sign_in_with_email_link": (_P, [_P, c_char_p, c_char_p]),
    "hearth_credential_create_email_link": (_P, [c_char_p, c_char_p]),
    "hearth_auth_apply_action_code": (_P, [_P, c_char_p]),
    "hearth_auth_check_action_code": (_P, [_P, c_char_p]),
    "hearth_future_action_code_info": (_P, [_P]),
    "hearth_action_code_info_operation": (c_int, [_P]),
    "hearth_action_code_info_email": (c_char_p, [_P]),
    "hearth_action_code_info_previous_email": (c_char_p, [_P]),
    "hearth_auth_verify_password_reset_code": (_P, [_P, c_char_p]),
    "hearth_auth_confirm_password_reset": (_P, [_P, c_char_p, c_char_p]),
    # Auth
    "hearth_auth_get": (_P, [_P]),
    "hearth_auth_app": (_P, [_P]),
    "hearth_auth_use_emulator": (c_int, [_P, c_char_p, c_uint16]),
    "hearth_auth_set_language_code": (c_int, [_P, c_char_p]),
    # Returns memory the caller frees with hearth_free: must stay a raw pointer.
    "hearth_auth_language_code": (c_void_p, [_P]),
    "hearth_auth_set_tenant_id": (c_int, [_P, c_char_p]),
    # Freed with hearth_free, as the language code.
    "hearth_auth_tenant_id": (c_void_p, [_P]),
    "hearth_auth_update_current_user": (_P, [_P, _P]),
    "hearth_auth_current_user": (_P, [_P]),
    "hearth_auth_sign_out": (c_int, [_P]),
    "hearth_auth_sign_in_anonymously": (_P, [_P]),
    "hearth_auth_create_user_with_email_and_password": (_P, [_P, c_char_p, c_char_p]),
    "hearth_auth_sign_in_with_email_and_password": (_P, [_P, c_char_p, c_char_p]),
    "hearth_auth_sign_in_with_custom_token": (_P, [_P, c_char_p]),
    "hearth_auth_sign_in_with_credential": (_P, [_P, _P]),
    "hearth_auth_sign_in_and_retrieve_data_with_credential": (_P, [_P, _P]),
    "hearth_auth_send_password_reset_email": (_P, [_P, c_char_p, c_void_p]),
    "hearth_auth_fetch_providers_for_email": (_P, [_P, c_char_p]),
    # The operation is a hearth_operation value (Op below).
    "hearth_auth_last_result": (_P, [_P, c_int]),
    "hearth_auth_add_auth_state_listener": (c_uint64, [_P, AUTH_STATE_CB, RELEASE_CB, c_void_p]),
    "hearth_auth_remove_auth_state_listener": (c_int, [_P, c_uint64]),
    "hearth_auth_add_id_token_listener": (c_uint64, [_P, ID_TOKEN_CB, RELEASE_CB, c_void_p]),
    "hearth_auth_remove_id_token_listener": (c_int, [_P, c_uint64]),
    # Provider sign-in on a desktop
    "hearth_oauth_provider_create": (_P, [c_char_p]),
    "hearth_oauth_provider_release": (None, [_P]),
    "hearth_oauth_provider_id": (c_char_p, [_P]),
    "hearth_oauth_provider_add_scope": (c_int, [_P, c_char_p]),
    "hearth_oauth_provider_set_custom_parameter": (c_int, [_P, c_char_p, c_char_p]),
    "hearth_provider_flow_options_init": (None, [c_void_p]),
    "hearth_auth_set_provider_flow_options": (c_int, [_P, c_void_p]),
    "hearth_auth_sign_in_with_provider": (_P, [_P, _P]),
    "hearth_auth_get_credential_with_provider": (_P, [_P, _P]),
    "hearth_future_credential": (_P, [_P]),
    "hearth_user_link_with_provider": (_P, [_P, _P]),
    "hearth_user_reauthenticate_with_provider": (_P, [_P, _P]),
    "hearth_auth_handle_url": (c_int, [_P, c_char_p]),
    "hearth_auth_cancel_provider_flow": (c_int, [_P]),
    # Auth results
    "hearth_auth_result_user": (_P, [_P]),
    "hearth_auth_result_provider_id": (c_char_p, [_P]),
    "hearth_auth_result_user_name": (c_char_p, [_P]),
    "hearth_auth_result_profile_json": (c_char_p, [_P]),
    "hearth_auth_result_is_new_user": (c_int, [_P]),
    "hearth_auth_result_credential": (_P, [_P]),
    "hearth_auth_result_updated_credential": (_P, [_P]),
    "hearth_auth_result_email": (c_char_p, [_P]),
    # Users
    "hearth_user_retain": (_P, [_P]),
    "hearth_user_release": (None, [_P]),
    "hearth_user_uid": (c_char_p, [_P]),
    "hearth_user_email": (c_char_p, [_P]),
    "hearth_user_display_name": (c_char_p, [_P]),
    "hearth_user_photo_url": (c_char_p, [_P]),
    "hearth_user_phone_number": (c_char_p, [_P]),
    "hearth_user_provider_id": (c_char_p, [_P]),
    "hearth_user_is_anonymous": (c_int, [_P]),
    "hearth_user_is_email_verified": (c_int, [_P]),
    "hearth_user_creation_timestamp": (c_uint64, [_P]),
    "hearth_user_last_sign_in_timestamp": (c_uint64, [_P]),
    "hearth_user_tenant_id": (c_char_p, [_P]),
    "hearth_user_provider_data_count": (c_size_t, [_P]),
    "hearth_user_provider_data_at": (_P, [_P, c_size_t]),
    "hearth_user_info_uid": (c_char_p, [_P]),
    "hearth_user_info_provider_id": (c_char_p, [_P]),
    "hearth_user_info_email": (c_char_p, [_P]),
    "hearth_user_info_display_name": (c_char_p, [_P]),
    "hearth_user_info_photo_url": (c_char_p, [_P]),
    "hearth_user_info_phone_number": (c_char_p, [_P]),
    "hearth_user_get_token": (_P, [_P, c_int]),
    "hearth_user_reload": (_P, [_P]),
    "hearth_user_update_user_profile": (_P, [_P, c_char_p, c_char_p]),
    "hearth_user_update_password": (_P, [_P, c_char_p]),
    "hearth_user_update_email": (_P, [_P, c_char_p]),
    "hearth_user_send_email_verification": (_P, [_P, c_void_p]),
    "hearth_user_send_email_verification_before_updating_email": (_P, [_P, c_char_p, c_void_p]),
    "hearth_user_delete": (_P, [_P]),
    "hearth_user_link_with_credential": (_P, [_P, _P]),
    "hearth_user_unlink": (_P, [_P, c_char_p]),
    "hearth_user_reauthenticate": (_P, [_P, _P]),
    "hearth_user_reauthenticate_and_retrieve_data": (_P, [_P, _P]),
    # Phone number sign-in (the option and listener structs travel as raw pointers to their buffers)
    "hearth_phone_auth_options_init": (None, [c_void_p]),
    "hearth_auth_verify_phone_number": (_P, [_P, c_void_p]),
    "hearth_future_phone_resend_token": (c_char_p, [_P]),
    "hearth_auth_verify_phone_number_with_listener": (c_int, [_P, c_void_p, c_void_p]),
    "hearth_credential_create_phone": (_P, [c_char_p, c_char_p]),
    "hearth_user_update_phone_number_credential": (_P, [_P, _P]),
    "hearth_auth_set_app_verification_disabled_for_testing": (c_int, [_P, c_int]),
    # Multi-factor authentication
    "hearth_future_multi_factor_resolver": (_P, [_P]),
    "hearth_multi_factor_resolver_hint_count": (c_size_t, [_P]),
    "hearth_multi_factor_resolver_hint_at": (_P, [_P, c_size_t]),
    "hearth_multi_factor_resolver_session": (_P, [_P]),
    "hearth_multi_factor_resolver_resolve_sign_in": (_P, [_P, _P]),
    "hearth_multi_factor_info_factor_id": (c_char_p, [_P]),
    "hearth_multi_factor_info_uid": (c_char_p, [_P]),
    "hearth_multi_factor_info_display_name": (c_char_p, [_P]),
    "hearth_multi_factor_info_phone_number": (c_char_p, [_P]),
    "hearth_multi_factor_info_enrollment_timestamp": (c_uint64, [_P]),
    "hearth_user_multi_factor_count": (c_size_t, [_P]),
    "hearth_user_multi_factor_at": (_P, [_P, c_size_t]),
    "hearth_user_multi_factor_get_session": (_P, [_P]),
    "hearth_future_multi_factor_session": (_P, [_P]),
    "hearth_user_multi_factor_enroll": (_P, [_P, _P, c_char_p]),
    "hearth_user_multi_factor_unenroll": (_P, [_P, c_char_p]),
    "hearth_multi_factor_assertion_create_phone": (_P, [_P]),
    "hearth_multi_factor_assertion_create_totp_enrollment": (_P, [_P, c_char_p]),
    "hearth_multi_factor_assertion_create_totp_sign_in": (_P, [c_char_p, c_char_p]),
    "hearth_multi_factor_assertion_release": (None, [_P]),
    "hearth_totp_secret_generate": (_P, [_P]),
    "hearth_future_totp_secret": (_P, [_P]),
    "hearth_totp_secret_shared_secret_key": (c_char_p, [_P]),
    "hearth_totp_secret_code_length": (c_int, [_P]),
    "hearth_totp_secret_period_seconds": (c_int, [_P]),
    "hearth_totp_secret_algorithm": (c_char_p, [_P]),
    # Returns memory the caller frees with hearth_free: must stay a raw pointer.
    "hearth_totp_secret_qr_code_url": (c_void_p, [_P, c_char_p, c_char_p]),
    # `out` is a ctypes string buffer of out_size bytes.
    "hearth_totp_code_generate": (c_int, [c_char_p, c_char_p, c_int, c_int, c_int64, c_char_p, c_size_t]),
}


def _load() -> Tuple[ctypes.CDLL, str]:
    path = _find_library()
    try:
        library = ctypes.CDLL(path)
    except OSError as error:
        if path == _SYSTEM_LIBRARY:
            raise _not_found(error) from error
        raise ImportError(f"hearth: cannot load {path}: {error}") from error
    missing: List[str] = []
    for name, (restype, argtypes) in DECLARATIONS.items():
        try:
            function = getattr(library, name)
        except AttributeError:
            missing.append(name)
            continue
        function.restype = restype
        function.argtypes = list(argtypes)
    if missing:
        raise ImportError(
            f"hearth: {path} does not export {', '.join(missing)}; it is not a libhearth matching this "
            f"binding (rebuild it, or point HEARTH_LIBRARY at the right file)."
        )
    version = (library.hearth_version() or b"").decode("ascii", "replace")
    major = version.split(".", 1)[0]
    if major != str(ABI_MAJOR):
        raise ImportError(
            f"hearth: {path} is libhearth {version}, but this binding needs major version {ABI_MAJOR}."
        )
    probe = ctypes.create_string_buffer(OPTIONS_BUFFER_SIZE)
    library.hearth_app_options_init(probe)
    struct_size = AppOptions.from_buffer(probe).struct_size
    if not ctypes.sizeof(AppOptions) <= struct_size <= OPTIONS_BUFFER_SIZE:
        raise ImportError(
            f"hearth: {path} has a {struct_size}-byte hearth_app_options; this binding needs at least "
            f"{ctypes.sizeof(AppOptions)} (and room for at most {OPTIONS_BUFFER_SIZE}): rebuild the library."
        )
    flow_probe = ctypes.create_string_buffer(FLOW_OPTIONS_BUFFER_SIZE)
    library.hearth_provider_flow_options_init(flow_probe)
    flow_size = ProviderFlowOptions.from_buffer(flow_probe).struct_size
    if not ctypes.sizeof(ProviderFlowOptions) <= flow_size <= FLOW_OPTIONS_BUFFER_SIZE:
        raise ImportError(
            f"hearth: {path} has a {flow_size}-byte hearth_provider_flow_options; this binding needs at least "
            f"{ctypes.sizeof(ProviderFlowOptions)} (and room for at most {FLOW_OPTIONS_BUFFER_SIZE}): rebuild "
            f"the library."
        )
    phone_probe = ctypes.create_string_buffer(PHONE_OPTIONS_BUFFER_SIZE)
    library.hearth_phone_auth_options_init(phone_probe)
    phone_size = PhoneAuthOptions.from_buffer(phone_probe).struct_size
    if not ctypes.sizeof(PhoneAuthOptions) <= phone_size <= PHONE_OPTIONS_BUFFER_SIZE:
        raise ImportError(
            f"hearth: {path} has a {phone_size}-byte hearth_phone_auth_options; this binding needs at least "
            f"{ctypes.sizeof(PhoneAuthOptions)} (and room for at most {PHONE_OPTIONS_BUFFER_SIZE}): rebuild "
            f"the library."
        )
    settings_probe = ctypes.create_string_buffer(ACTION_CODE_SETTINGS_BUFFER_SIZE)
    library.hearth_action_code_settings_init(settings_probe)
    settings_size = ActionCodeSettingsStruct.from_buffer(settings_probe).struct_size
    if not ctypes.sizeof(ActionCodeSettingsStruct) <= settings_size <= ACTION_CODE_SETTINGS_BUFFER_SIZE:
        raise ImportError(
            f"hearth: {path} has a {settings_size}-byte hearth_action_code_settings; this binding needs at "
            f"least {ctypes.sizeof(ActionCodeSettingsStruct)} (and room for at most "
            f"{ACTION_CODE_SETTINGS_BUFFER_SIZE}): rebuild the library."
        )
    return library, path


lib, library_path = _load()
