"""What Python code learns about a call the library refused at once: the library's own sentence,
naming the argument, carried by the exception; and the version, as text and as a number."""

from __future__ import annotations

import re
import threading
from pathlib import Path

import pytest

import hearth
from hearth import _lib
from hearth.errors import last_error_message

HEADER = Path(__file__).resolve().parents[3] / "include" / "hearth.h"


def header_number(part: str) -> int:
    match = re.search(rf"^#define HEARTH_VERSION_{part} (\d+)$", HEADER.read_text(), re.M)
    assert match
    return int(match.group(1))


class TestRefusedCallsSayWhy:
    def test_a_totp_code_with_an_unknown_algorithm_names_it(self) -> None:
        with pytest.raises(hearth.InvalidArgumentError) as raised:
            hearth.totp_code("JBSWY3DPEHPK3PXP", 59, algorithm="MD5")
        assert raised.value.code == hearth.ErrorCode.INVALID_ARGUMENT
        assert raised.value.message == 'hearth_totp_code_generate: algorithm "MD5" is not SHA1, SHA256 or SHA512.'

    def test_a_totp_code_of_a_secret_that_is_not_base32_says_so(self) -> None:
        with pytest.raises(hearth.InvalidArgumentError) as raised:
            hearth.totp_code("not base32 at all!", 59)
        assert raised.value.message.startswith("hearth_totp_code_generate: ")
        assert "base32" in raised.value.message

    def test_a_refused_custom_parameter_carries_the_librarys_reason(self) -> None:
        with pytest.raises(hearth.InvalidArgumentError) as raised:
            hearth.OAuthProvider("microsoft.com", custom_parameters={"redirect_uri": "https://evil.example"})
        assert "redirect_uri" in raised.value.message

    def test_the_last_error_is_per_thread_and_names_the_function(self) -> None:
        assert _lib.lib.hearth_credential_create_github(None) is None
        assert last_error_message() == "hearth_credential_create_github: token must not be NULL."
        assert _lib.lib.hearth_last_error_code() == hearth.ErrorCode.INVALID_ARGUMENT
        seen = []
        thread = threading.Thread(target=lambda: seen.append((_lib.lib.hearth_last_error_code(), last_error_message())))
        thread.start()
        thread.join()
        assert seen == [(0, "")]
        # A success leaves it; the next failure replaces it.
        assert _lib.lib.hearth_credential_create_github(b"token")
        assert last_error_message() == "hearth_credential_create_github: token must not be NULL."
        assert _lib.lib.hearth_credential_create_twitter(b"token", None) is None
        assert last_error_message() == "hearth_credential_create_twitter: secret must not be NULL."

    def test_an_invalid_native_future_answers_invalid_handle_not_unimplemented(self) -> None:
        assert _lib.lib.hearth_future_error(None) == hearth.ErrorCode.INVALID_HANDLE
        assert _lib.lib.hearth_future_error(None) != hearth.ErrorCode.UNIMPLEMENTED


class TestVersion:
    def test_package_library_and_header_agree(self) -> None:
        major, minor, patch = (header_number(part) for part in ("MAJOR", "MINOR", "PATCH"))
        assert hearth.__version__ == f"{major}.{minor}.{patch}"
        assert hearth.library_version() == hearth.__version__
        assert hearth.library_version_number() == major * 10000 + minor * 100 + patch
