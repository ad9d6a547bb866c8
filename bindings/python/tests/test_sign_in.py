"""Signing in and out: anonymous, e-mail/password, credentials, custom tokens, and their failures."""

from __future__ import annotations

import json
import time

import pytest

import hearth
from hearth_testing import TIMEOUT, Emulator, unique_email

PASSWORD = "correct-horse-1"


def create_user(auth: hearth.Auth, email: str, password: str = PASSWORD) -> hearth.AuthResult:
    return auth.create_user_with_email_and_password(email, password).result(TIMEOUT)


class TestAnonymous:
    def test_signing_in_anonymously_creates_a_new_anonymous_user(self, auth: hearth.Auth, emulator: Emulator) -> None:
        assert auth.current_user is None

        result = auth.sign_in_anonymously().result(TIMEOUT)

        assert isinstance(result, hearth.AuthResult)
        user = result.user
        assert user.uid
        assert user.is_anonymous is True
        assert user.email is None
        assert user.provider_id == "Firebase"
        assert result.additional_user_info.is_new_user is True
        assert result.additional_user_info.provider_id == "anonymous"
        assert result.additional_user_info.user_name is None
        assert auth.current_user is not None and auth.current_user.uid == user.uid
        assert emulator.lookup(user.uid) is not None

    def test_signing_in_anonymously_again_keeps_the_same_user(self, auth: hearth.Auth) -> None:
        first = auth.sign_in_anonymously().result(TIMEOUT).user

        second = auth.sign_in_anonymously().result(TIMEOUT).user

        assert second.uid == first.uid
        assert auth.current_user is not None and auth.current_user.uid == first.uid


class TestEmailAndPassword:
    def test_creating_a_user_signs_it_in_with_a_password_provider(self, auth: hearth.Auth) -> None:
        email = unique_email()
        before_ms = int(time.time() * 1000) - 60_000

        result = create_user(auth, email)

        user = result.user
        assert user.email == email
        assert user.is_anonymous is False
        assert user.is_email_verified is False
        assert result.additional_user_info.is_new_user is True
        assert [info.provider_id for info in user.provider_data] == ["password"]
        assert user.provider_data[0].email == email
        assert user.metadata.creation_timestamp >= before_ms
        assert user.metadata.creation_time is not None
        assert user.metadata.creation_time.tzinfo is not None
        assert auth.current_user == user

    def test_signing_out_clears_the_current_user(self, auth: hearth.Auth) -> None:
        create_user(auth, unique_email())

        auth.sign_out()

        assert auth.current_user is None

    def test_signing_in_with_a_password_gives_back_the_same_account(self, auth: hearth.Auth) -> None:
        email = unique_email()
        uid = create_user(auth, email).user.uid
        auth.sign_out()

        result = auth.sign_in_with_email_and_password(email, PASSWORD).result(TIMEOUT)

        assert result.user.uid == uid
        assert result.user.email == email
        assert result.additional_user_info.is_new_user is False
        assert result.additional_user_info.provider_id == "password"
        assert auth.current_user is not None and auth.current_user.uid == uid

    def test_signing_in_with_an_email_credential_gives_the_user(self, auth: hearth.Auth) -> None:
        email = unique_email()
        uid = create_user(auth, email).user.uid
        auth.sign_out()
        credential = hearth.EmailAuthProvider.credential(email, PASSWORD)
        assert credential.provider == "password"
        assert PASSWORD not in repr(credential)

        user = auth.sign_in_with_credential(credential).result(TIMEOUT)

        assert isinstance(user, hearth.User)
        assert user.uid == uid

    def test_signing_in_and_retrieving_data_with_a_credential_gives_the_auth_result(self, auth: hearth.Auth) -> None:
        email = unique_email()
        uid = create_user(auth, email).user.uid
        auth.sign_out()

        result = auth.sign_in_and_retrieve_data_with_credential(
            hearth.EmailAuthProvider.credential(email, PASSWORD)).result(TIMEOUT)

        assert result.user.uid == uid
        assert result.additional_user_info.provider_id == "password"
        assert result.additional_user_info.is_new_user is False
        assert dict(result.additional_user_info.profile) == {}

    def test_a_wrong_password_fails_with_wrong_password(self, auth: hearth.Auth) -> None:
        email = unique_email()
        create_user(auth, email)
        auth.sign_out()

        with pytest.raises(hearth.WrongPasswordError) as raised:
            auth.sign_in_with_email_and_password(email, "not-the-password").result(TIMEOUT)

        error = raised.value
        assert isinstance(error, hearth.AuthError)
        assert error.code == hearth.ErrorCode.WRONG_PASSWORD == 12
        assert error.name == "WRONG_PASSWORD"
        assert error.message
        assert "not-the-password" not in str(error)
        assert auth.current_user is None

    def test_a_wrong_password_through_a_credential_fails_the_same_way(self, auth: hearth.Auth) -> None:
        email = unique_email()
        create_user(auth, email)
        auth.sign_out()

        with pytest.raises(hearth.WrongPasswordError):
            auth.sign_in_with_credential(hearth.EmailAuthProvider.credential(email, "nope-nope")).result(TIMEOUT)

    def test_an_unknown_email_fails_with_user_not_found(self, auth: hearth.Auth) -> None:
        with pytest.raises(hearth.UserNotFoundError) as raised:
            auth.sign_in_with_email_and_password(unique_email("nobody"), PASSWORD).result(TIMEOUT)
        assert raised.value.code == hearth.ErrorCode.USER_NOT_FOUND

    def test_creating_a_user_with_a_taken_email_fails_with_email_already_in_use(self, auth: hearth.Auth) -> None:
        email = unique_email()
        create_user(auth, email)
        auth.sign_out()

        with pytest.raises(hearth.EmailAlreadyInUseError):
            auth.create_user_with_email_and_password(email, PASSWORD).result(TIMEOUT)

    def test_a_short_password_fails_with_weak_password(self, auth: hearth.Auth) -> None:
        with pytest.raises(hearth.WeakPasswordError) as raised:
            auth.create_user_with_email_and_password(unique_email(), "12345").result(TIMEOUT)
        assert raised.value.code == hearth.ErrorCode.WEAK_PASSWORD

    def test_a_malformed_email_fails_with_invalid_email(self, auth: hearth.Auth) -> None:
        with pytest.raises(hearth.InvalidEmailError):
            auth.create_user_with_email_and_password("not-an-email", PASSWORD).result(TIMEOUT)

    def test_an_empty_email_fails_with_missing_email(self, auth: hearth.Auth) -> None:
        with pytest.raises(hearth.MissingEmailError):
            auth.sign_in_with_email_and_password("", PASSWORD).result(TIMEOUT)

    def test_an_empty_password_fails_with_missing_password(self, auth: hearth.Auth) -> None:
        with pytest.raises(hearth.MissingPasswordError):
            auth.sign_in_with_email_and_password(unique_email(), "").result(TIMEOUT)


class TestCustomToken:
    def test_a_json_custom_token_signs_in_that_uid(self, auth: hearth.Auth) -> None:
        token = json.dumps({"uid": "custom-user-1"})

        result = auth.sign_in_with_custom_token(token).result(TIMEOUT)

        assert result.user.uid == "custom-user-1"
        assert result.user.is_anonymous is False
        assert result.additional_user_info.is_new_user is True
        assert result.additional_user_info.provider_id == "custom"
        assert auth.current_user is not None and auth.current_user.uid == "custom-user-1"

    def test_signing_in_with_the_same_custom_token_again_finds_the_existing_user(self, auth: hearth.Auth) -> None:
        token = json.dumps({"uid": "custom-user-2"})
        auth.sign_in_with_custom_token(token).result(TIMEOUT)
        auth.sign_out()

        result = auth.sign_in_with_custom_token(token).result(TIMEOUT)

        assert result.user.uid == "custom-user-2"
        assert result.additional_user_info.is_new_user is False

    def test_a_garbage_custom_token_fails_with_invalid_custom_token(self, auth: hearth.Auth) -> None:
        with pytest.raises(hearth.InvalidCustomTokenError):
            auth.sign_in_with_custom_token("this is not a token").result(TIMEOUT)
        assert auth.current_user is None


class TestFetchProviders:
    def test_fetching_providers_of_a_password_account_lists_password(self, auth: hearth.Auth) -> None:
        email = unique_email()
        create_user(auth, email)

        assert auth.fetch_providers_for_email(email).result(TIMEOUT) == ["password"]

    def test_fetching_providers_of_an_unknown_email_gives_an_empty_list(self, auth: hearth.Auth) -> None:
        assert auth.fetch_providers_for_email(unique_email("nobody")).result(TIMEOUT) == []


class TestPasswordResetEmail:
    def test_sending_a_password_reset_email_creates_a_reset_code(self, auth: hearth.Auth, emulator: Emulator) -> None:
        email = unique_email()
        create_user(auth, email)
        auth.sign_out()

        assert auth.send_password_reset_email(email).result(TIMEOUT) is None

        codes = [code for code in emulator.oob_codes() if code.get("email") == email]
        assert [code["requestType"] for code in codes] == ["PASSWORD_RESET"]
        assert codes[0]["oobCode"]

    def test_a_password_reset_for_an_unknown_email_fails_with_user_not_found(
            self, auth: hearth.Auth, emulator: Emulator) -> None:
        email = unique_email("nobody")

        with pytest.raises(hearth.UserNotFoundError):
            auth.send_password_reset_email(email).result(TIMEOUT)

        assert [code for code in emulator.oob_codes() if code.get("email") == email] == []
