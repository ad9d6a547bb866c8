"""Operations on the signed-in user: tokens, reload, profile, password, e-mails, deletion."""

from __future__ import annotations

import dataclasses
import time

import pytest

import hearth
from hearth_testing import TIMEOUT, Emulator, jwt_claims, unique_email

PASSWORD = "correct-horse-1"


def signed_in_user(auth: hearth.Auth, email: str = "") -> hearth.User:
    return auth.create_user_with_email_and_password(email or unique_email(), PASSWORD).result(TIMEOUT).user


class TestSnapshots:
    def test_a_user_snapshot_is_immutable(self, auth: hearth.Auth) -> None:
        user = signed_in_user(auth)

        with pytest.raises(dataclasses.FrozenInstanceError):
            user.display_name = "changed"  # type: ignore[misc]

    def test_snapshots_of_the_same_state_are_equal_and_hashable(self, auth: hearth.Auth) -> None:
        user = signed_in_user(auth)

        again = auth.current_user

        assert again == user
        assert hash(again) == hash(user)

    def test_a_snapshot_keeps_its_values_after_the_user_signs_out(self, auth: hearth.Auth) -> None:
        email = unique_email()
        user = signed_in_user(auth, email)

        auth.sign_out()

        assert user.email == email
        assert user.uid


class TestGetToken:
    def test_the_id_token_names_the_user_and_project(self, auth: hearth.Auth) -> None:
        user = signed_in_user(auth)

        token = user.get_token().result(TIMEOUT)

        claims = jwt_claims(token)
        assert claims["user_id"] == user.uid
        assert claims["sub"] == user.uid
        assert claims["aud"] == "demo-hearth"
        assert token not in repr(user.get_token_last_result())

    def test_a_cached_token_is_returned_unless_a_refresh_is_forced(self, auth: hearth.Auth) -> None:
        user = signed_in_user(auth)
        first = user.get_token().result(TIMEOUT)

        cached = user.get_token(force_refresh=False).result(TIMEOUT)
        time.sleep(1.1)  # ID tokens carry whole-second timestamps: make the refreshed one differ
        forced = user.get_token(force_refresh=True).result(TIMEOUT)

        assert cached == first
        assert forced != first
        assert jwt_claims(forced)["user_id"] == user.uid
        assert user.get_token().result(TIMEOUT) == forced

    def test_getting_a_token_after_signing_out_fails_with_no_signed_in_user(self, auth: hearth.Auth) -> None:
        user = signed_in_user(auth)
        auth.sign_out()

        with pytest.raises(hearth.NoSignedInUserError):
            user.get_token().result(TIMEOUT)


class TestReload:
    def test_reloading_returns_the_profile_as_the_server_now_has_it(self, auth: hearth.Auth, emulator: Emulator) -> None:
        user = signed_in_user(auth)
        emulator.admin_update(user.uid, displayName="Set By Server", emailVerified=True)

        fresh = user.reload().result(TIMEOUT)

        assert fresh.uid == user.uid
        assert fresh.display_name == "Set By Server"
        assert fresh.is_email_verified is True
        assert user.display_name is None  # the old snapshot does not change
        current = auth.current_user
        assert current is not None and current.display_name == "Set By Server"


class TestUpdateProfile:
    def test_setting_display_name_and_photo_url(self, auth: hearth.Auth, emulator: Emulator) -> None:
        user = signed_in_user(auth)

        updated = user.update_profile(display_name="Ada", photo_url="https://example.com/ada.png").result(TIMEOUT)

        assert updated.display_name == "Ada"
        assert updated.photo_url == "https://example.com/ada.png"
        stored = emulator.lookup(user.uid)
        assert stored is not None
        assert stored["displayName"] == "Ada"
        assert stored["photoUrl"] == "https://example.com/ada.png"

    def test_keep_leaves_a_field_unchanged(self, auth: hearth.Auth) -> None:
        user = signed_in_user(auth)
        user.update_profile(display_name="Ada", photo_url="https://example.com/ada.png").result(TIMEOUT)

        updated = user.update_profile(display_name="Grace").result(TIMEOUT)  # photo_url defaults to KEEP
        explicit = user.update_profile(display_name=hearth.KEEP, photo_url=hearth.KEEP).result(TIMEOUT)

        assert updated.display_name == "Grace"
        assert updated.photo_url == "https://example.com/ada.png"
        assert explicit.display_name == "Grace"
        assert explicit.photo_url == "https://example.com/ada.png"

    def test_none_and_empty_string_delete_a_field(self, auth: hearth.Auth, emulator: Emulator) -> None:
        user = signed_in_user(auth)
        user.update_profile(display_name="Ada", photo_url="https://example.com/ada.png").result(TIMEOUT)

        without_photo = user.update_profile(photo_url=None).result(TIMEOUT)
        without_name = user.update_profile(display_name="").result(TIMEOUT)

        assert without_photo.photo_url is None
        assert without_photo.display_name == "Ada"
        assert without_name.display_name is None
        stored = emulator.lookup(user.uid)
        assert stored is not None
        assert "displayName" not in stored and "photoUrl" not in stored

    def test_the_current_user_reflects_the_update(self, auth: hearth.Auth) -> None:
        user = signed_in_user(auth)

        user.update_profile(display_name="Ada").result(TIMEOUT)

        current = auth.current_user
        assert current is not None and current.display_name == "Ada"


class TestUpdatePassword:
    def test_after_updating_the_password_only_the_new_one_signs_in(self, auth: hearth.Auth) -> None:
        email = unique_email()
        user = signed_in_user(auth, email)

        assert user.update_password("brand-new-secret").result(TIMEOUT) is None
        auth.sign_out()

        with pytest.raises(hearth.WrongPasswordError):
            auth.sign_in_with_email_and_password(email, PASSWORD).result(TIMEOUT)
        result = auth.sign_in_with_email_and_password(email, "brand-new-secret").result(TIMEOUT)
        assert result.user.uid == user.uid

    def test_a_weak_new_password_fails_with_weak_password(self, auth: hearth.Auth) -> None:
        user = signed_in_user(auth)

        with pytest.raises(hearth.WeakPasswordError):
            user.update_password("123").result(TIMEOUT)


class TestUpdateEmail:
    def test_the_new_address_signs_in_and_starts_unverified(self, auth: hearth.Auth, emulator: Emulator) -> None:
        email, new_email = unique_email(), unique_email()
        user = signed_in_user(auth, email)

        assert user.update_email(new_email).result(TIMEOUT) is None

        current = auth.current_user
        assert current is not None and current.uid == user.uid
        assert current.email == new_email and not current.is_email_verified
        assert emulator.lookup(user.uid)["email"] == new_email
        last = user.update_email_last_result()
        assert last is not None and last.result(TIMEOUT) is None
        auth.sign_out()
        with pytest.raises(hearth.UserNotFoundError):
            auth.sign_in_with_email_and_password(email, PASSWORD).result(TIMEOUT)
        assert auth.sign_in_with_email_and_password(new_email, PASSWORD).result(TIMEOUT).user.uid == user.uid

    def test_another_accounts_address_fails_with_email_already_in_use(self, auth: hearth.Auth) -> None:
        taken = unique_email()
        signed_in_user(auth, taken)
        user = signed_in_user(auth)

        with pytest.raises(hearth.EmailAlreadyInUseError):
            user.update_email(taken).result(TIMEOUT)

    def test_an_empty_or_malformed_address_fails(self, auth: hearth.Auth) -> None:
        user = signed_in_user(auth)

        with pytest.raises(hearth.MissingEmailError):
            user.update_email("").result(TIMEOUT)
        with pytest.raises(hearth.InvalidEmailError):
            user.update_email("not-an-address").result(TIMEOUT)


class TestVerificationEmails:
    def test_sending_email_verification_creates_a_verify_email_code(self, auth: hearth.Auth, emulator: Emulator) -> None:
        email = unique_email()
        user = signed_in_user(auth, email)

        assert user.send_email_verification().result(TIMEOUT) is None

        codes = [code for code in emulator.oob_codes() if code.get("email") == email]
        assert [code["requestType"] for code in codes] == ["VERIFY_EMAIL"]

    def test_verifying_before_updating_email_sends_the_code_for_the_new_address(
            self, auth: hearth.Auth, emulator: Emulator) -> None:
        email = unique_email()
        new_email = unique_email("new")
        user = signed_in_user(auth, email)

        user.send_email_verification_before_updating_email(new_email).result(TIMEOUT)

        codes = [code for code in emulator.oob_codes() if code.get("requestType") == "VERIFY_AND_CHANGE_EMAIL"]
        assert len(codes) == 1
        assert codes[0]["email"] == email
        assert codes[0]["newEmail"] == new_email
        current = auth.current_user
        assert current is not None and current.email == email  # unchanged until verified


class TestDelete:
    def test_deleting_the_user_signs_out_and_removes_the_account(self, auth: hearth.Auth, emulator: Emulator) -> None:
        email = unique_email()
        user = signed_in_user(auth, email)

        assert user.delete().result(TIMEOUT) is None

        assert auth.current_user is None
        assert emulator.lookup(user.uid) is None
        with pytest.raises(hearth.UserNotFoundError):
            auth.sign_in_with_email_and_password(email, PASSWORD).result(TIMEOUT)


class TestUserLastResults:
    def test_each_user_operation_remembers_its_latest_future(self, auth: hearth.Auth) -> None:
        user = signed_in_user(auth)
        assert user.get_token_last_result() is None
        assert user.update_profile_last_result() is None

        token = user.get_token().result(TIMEOUT)
        updated = user.update_profile(display_name="Last").result(TIMEOUT)

        last_token = user.get_token_last_result()
        assert last_token is not None and last_token.result(TIMEOUT) == token
        last_update = user.update_profile_last_result()
        assert last_update is not None and last_update.result(TIMEOUT).display_name == updated.display_name
        assert user.reload_last_result() is None
        assert user.delete_last_result() is None
