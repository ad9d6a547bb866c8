"""The Firebase Admin SDK for Python and a Hearth client share one emulator.

`firebase_admin`, pointed at the emulator with FIREBASE_AUTH_EMULATOR_HOST (it then sends
`Bearer owner` and needs no service account), manages the users a Hearth client signs in as: it creates,
gets (by uid and by e-mail), updates, disables, lists and deletes them, sets custom claims, revokes
sessions, mints custom tokens, and verifies the ID tokens the client obtained. Each side must see exactly
what the other did.
"""

from __future__ import annotations

import os
import threading
import time
from typing import Callable, Iterator, List, Optional

import pytest

import hearth
from hearth_testing import PROJECT, TIMEOUT, Emulator, jwt_claims, unique_email, wait_until

try:
    import firebase_admin
    from firebase_admin import auth as admin_auth
except ImportError as missing:  # a suite that cannot run must fail, never skip
    pytest.fail(f"firebase-admin is required for the Admin SDK interoperability tests: {missing} "
                "(pip install firebase-admin)", pytrace=False)

PASSWORD = "correct-horse-1"
NEW_PASSWORD = "battery-staple-2"


@pytest.fixture(scope="module")
def admin(emulator: Emulator) -> Iterator[firebase_admin.App]:
    """A firebase_admin app for the emulator's project, with no credentials, deleted afterwards."""
    expected_host = f"{emulator.host}:{emulator.port}"
    actual_host = os.environ.get("FIREBASE_AUTH_EMULATOR_HOST")
    if actual_host != expected_host:
        pytest.fail(f"FIREBASE_AUTH_EMULATOR_HOST is {actual_host!r}, but the emulator is {expected_host}: "
                    "firebase_admin would not talk to it (run the suite through scripts/with-emulator)",
                    pytrace=False)
    app = firebase_admin.initialize_app(
        options={"projectId": PROJECT}, name=f"hearth-admin-interop-{os.getpid()}")
    yield app
    firebase_admin.delete_app(app)


def sign_up(auth: hearth.Auth, email: str = "") -> hearth.User:
    return auth.create_user_with_email_and_password(email or unique_email(), PASSWORD).result(TIMEOUT).user


def wait_for_the_second_after(token: str) -> None:
    """Revocation compares whole seconds (`iat` with `validSince`): let the token's second pass."""
    issued_at = jwt_claims(token)["iat"]
    wait_until(lambda: time.time() >= issued_at + 1, what="the second after the token was issued")


def record_auth_states(auth: hearth.Auth) -> Callable[[], List[Optional[str]]]:
    """Registers an auth-state listener; the returned function gives the uids it saw (None: signed out)."""
    seen: List[Optional[str]] = []
    lock = threading.Lock()

    def listener(user: Optional[hearth.User]) -> None:
        with lock:
            seen.append(user.uid if user else None)

    auth.add_auth_state_listener(listener)

    def snapshot() -> List[Optional[str]]:
        with lock:
            return list(seen)

    return snapshot


class TestAdminCreatesUsers:
    def test_the_client_signs_in_as_a_user_the_admin_created_and_sees_its_profile(
            self, admin: firebase_admin.App, auth: hearth.Auth, emulator: Emulator) -> None:
        email = unique_email("admin-made")
        record = admin_auth.create_user(
            uid="admin-made-1", email=email, password=PASSWORD, display_name="Ada Lovelace",
            photo_url="https://example.com/ada.png", email_verified=True, app=admin)
        assert record.uid == "admin-made-1"
        stored = emulator.lookup("admin-made-1")  # the admin wrote to this emulator, not elsewhere
        assert stored is not None and stored["email"] == email

        result = auth.sign_in_with_email_and_password(email, PASSWORD).result(TIMEOUT)

        user = result.user
        assert user.uid == "admin-made-1"
        assert user.email == email
        assert user.display_name == "Ada Lovelace"
        assert user.photo_url == "https://example.com/ada.png"
        assert user.is_email_verified is True
        assert user.is_anonymous is False
        assert [info.provider_id for info in user.provider_data] == ["password"]
        assert result.additional_user_info.is_new_user is False
        assert user.metadata.creation_timestamp == record.user_metadata.creation_timestamp

    def test_the_client_cannot_sign_up_with_an_email_the_admin_already_used(
            self, admin: firebase_admin.App, auth: hearth.Auth) -> None:
        email = unique_email("taken")
        admin_auth.create_user(email=email, password=PASSWORD, app=admin)

        with pytest.raises(hearth.EmailAlreadyInUseError):
            auth.create_user_with_email_and_password(email, PASSWORD).result(TIMEOUT)
        assert auth.current_user is None

    def test_the_admin_cannot_create_a_user_with_an_email_the_client_signed_up_with(
            self, admin: firebase_admin.App, auth: hearth.Auth) -> None:
        email = unique_email("taken")
        sign_up(auth, email)

        with pytest.raises(admin_auth.EmailAlreadyExistsError):
            admin_auth.create_user(email=email, password=PASSWORD, app=admin)


class TestAdminGetsTheClientsUsers:
    def test_an_anonymous_client_user_is_found_by_uid_with_no_email_or_providers(
            self, admin: firebase_admin.App, auth: hearth.Auth) -> None:
        user = auth.sign_in_anonymously().result(TIMEOUT).user

        record = admin_auth.get_user(user.uid, app=admin)

        assert record.uid == user.uid
        assert record.email is None
        assert record.display_name is None
        assert record.photo_url is None
        assert record.phone_number is None
        assert record.provider_data == []
        assert record.disabled is False
        assert record.custom_claims is None
        assert record.user_metadata.creation_timestamp == user.metadata.creation_timestamp
        assert record.user_metadata.last_sign_in_timestamp == user.metadata.last_sign_in_timestamp

    def test_an_email_client_user_is_found_by_uid_and_by_email_with_the_same_fields(
            self, admin: firebase_admin.App, auth: hearth.Auth) -> None:
        email = unique_email()
        sign_up(auth, email)
        user = auth.current_user
        assert user is not None
        user = user.update_profile(display_name="Grace Hopper",
                                   photo_url="https://example.com/grace.png").result(TIMEOUT)

        by_uid = admin_auth.get_user(user.uid, app=admin)
        by_email = admin_auth.get_user_by_email(email, app=admin)

        client_providers = [(info.provider_id, info.uid, info.email) for info in user.provider_data]
        assert client_providers == [("password", email, email)]
        for record in (by_uid, by_email):
            assert record.uid == user.uid
            assert record.email == email
            assert record.display_name == "Grace Hopper"
            assert record.photo_url == "https://example.com/grace.png"
            assert record.email_verified is False
            assert record.disabled is False
            assert [(info.provider_id, info.uid, info.email) for info in record.provider_data] == client_providers
            assert record.user_metadata.creation_timestamp == user.metadata.creation_timestamp

    def test_an_email_nobody_signed_up_with_is_not_found(self, admin: firebase_admin.App, auth: hearth.Auth) -> None:
        sign_up(auth)

        with pytest.raises(admin_auth.UserNotFoundError):
            admin_auth.get_user_by_email(unique_email("nobody"), app=admin)


class TestAdminUpdatesUsers:
    def test_a_profile_the_admin_changes_is_what_the_client_sees_after_reloading(
            self, admin: firebase_admin.App, auth: hearth.Auth) -> None:
        user = sign_up(auth)

        admin_auth.update_user(user.uid, display_name="Set By Admin", photo_url="https://example.com/admin.png",
                               email_verified=True, app=admin)

        current = auth.current_user
        assert current is not None and current.display_name is None  # the client has not asked yet
        fresh = user.reload().result(TIMEOUT)
        assert fresh.uid == user.uid
        assert fresh.display_name == "Set By Admin"
        assert fresh.photo_url == "https://example.com/admin.png"
        assert fresh.is_email_verified is True
        current = auth.current_user
        assert current is not None and current.display_name == "Set By Admin"
        claims = admin_auth.verify_id_token(fresh.get_token(force_refresh=True).result(TIMEOUT), app=admin)
        assert claims["name"] == "Set By Admin"
        assert claims["picture"] == "https://example.com/admin.png"
        assert claims["email_verified"] is True

    def test_a_disabled_user_cannot_sign_in_until_the_admin_enables_it_again(
            self, admin: firebase_admin.App, auth: hearth.Auth) -> None:
        email = unique_email()
        uid = sign_up(auth, email).uid
        auth.sign_out()

        admin_auth.update_user(uid, disabled=True, app=admin)

        assert admin_auth.get_user(uid, app=admin).disabled is True
        with pytest.raises(hearth.UserDisabledError) as raised:
            auth.sign_in_with_email_and_password(email, PASSWORD).result(TIMEOUT)
        assert raised.value.code == hearth.ErrorCode.USER_DISABLED
        assert auth.current_user is None

        admin_auth.update_user(uid, disabled=False, app=admin)

        assert auth.sign_in_with_email_and_password(email, PASSWORD).result(TIMEOUT).user.uid == uid

    def test_disabling_a_signed_in_user_signs_the_client_out_at_its_next_forced_token_refresh(
            self, admin: firebase_admin.App, auth: hearth.Auth) -> None:
        user = sign_up(auth)
        token = user.get_token().result(TIMEOUT)
        auth_states = record_auth_states(auth)
        wait_until(lambda: auth_states() == [user.uid], what="the listener's first call")

        admin_auth.update_user(user.uid, disabled=True, app=admin)

        assert auth.current_user is not None  # nothing has asked the server yet
        with pytest.raises(hearth.UserDisabledError):
            user.get_token(force_refresh=True).result(TIMEOUT)
        assert auth.current_user is None
        wait_until(lambda: auth_states()[-1:] == [None], what="the listener to hear of the sign-out")
        with pytest.raises(admin_auth.UserDisabledError):
            admin_auth.verify_id_token(token, check_revoked=True, app=admin)


class TestAdminListsUsers:
    def test_paging_through_the_users_finds_every_user_the_client_created_once(
            self, admin: firebase_admin.App, auth: hearth.Auth) -> None:
        created = []
        for _ in range(2):
            created.append(auth.sign_in_anonymously().result(TIMEOUT).user.uid)
            auth.sign_out()
        for _ in range(3):
            created.append(sign_up(auth).uid)
            auth.sign_out()
        assert len(set(created)) == 5

        page: Optional[admin_auth.ListUsersPage] = admin_auth.list_users(max_results=2, app=admin)
        pages: List[List[str]] = []
        while page is not None:
            pages.append([record.uid for record in page.users])
            page = page.get_next_page()

        assert [len(uids) for uids in pages] == [2, 2, 1]
        listed = [uid for uids in pages for uid in uids]
        assert sorted(listed) == sorted(created)
        everyone = admin_auth.list_users(max_results=2, app=admin).iterate_all()
        assert sorted(record.uid for record in everyone) == sorted(created)

    def test_listed_users_carry_the_clients_profile(self, admin: firebase_admin.App, auth: hearth.Auth) -> None:
        email = unique_email()
        user = sign_up(auth, email)
        user.update_profile(display_name="Listed").result(TIMEOUT)

        records = list(admin_auth.list_users(app=admin).iterate_all())

        assert [(record.uid, record.email, record.display_name) for record in records] == \
            [(user.uid, email, "Listed")]


class TestAdminDeletesUsers:
    def test_a_user_the_admin_deletes_is_signed_out_at_the_clients_next_reload(
            self, admin: firebase_admin.App, auth: hearth.Auth) -> None:
        email = unique_email()
        user = sign_up(auth, email)
        auth_states = record_auth_states(auth)

        admin_auth.delete_user(user.uid, app=admin)

        with pytest.raises(admin_auth.UserNotFoundError):
            admin_auth.get_user(user.uid, app=admin)
        with pytest.raises(hearth.UserNotFoundError) as raised:
            user.reload().result(TIMEOUT)
        assert raised.value.code == hearth.ErrorCode.USER_NOT_FOUND
        assert auth.current_user is None
        wait_until(lambda: auth_states()[-1:] == [None], what="the listener to hear of the sign-out")
        with pytest.raises(hearth.NoSignedInUserError):
            user.get_token().result(TIMEOUT)
        with pytest.raises(hearth.UserNotFoundError):
            auth.sign_in_with_email_and_password(email, PASSWORD).result(TIMEOUT)

    def test_a_user_the_client_deletes_is_gone_for_the_admin(
            self, admin: firebase_admin.App, auth: hearth.Auth) -> None:
        user = sign_up(auth)
        assert admin_auth.get_user(user.uid, app=admin).uid == user.uid

        user.delete().result(TIMEOUT)

        with pytest.raises(admin_auth.UserNotFoundError):
            admin_auth.get_user(user.uid, app=admin)


class TestAdminVerifiesTheClientsIdTokens:
    def test_an_email_users_token_verifies_with_its_uid_provider_and_email(
            self, admin: firebase_admin.App, auth: hearth.Auth) -> None:
        email = unique_email()
        user = sign_up(auth, email)
        token = user.get_token().result(TIMEOUT)

        claims = admin_auth.verify_id_token(token, check_revoked=True, app=admin)

        assert claims["uid"] == user.uid
        assert claims["sub"] == user.uid
        assert claims["aud"] == PROJECT
        assert claims["iss"] == f"https://securetoken.google.com/{PROJECT}"
        assert claims["email"] == email
        assert claims["email_verified"] is False
        assert claims["firebase"]["sign_in_provider"] == "password"
        assert claims["firebase"]["identities"] == {"email": [email]}

    def test_an_anonymous_users_token_verifies_with_the_anonymous_provider_and_no_email(
            self, admin: firebase_admin.App, auth: hearth.Auth) -> None:
        user = auth.sign_in_anonymously().result(TIMEOUT).user

        claims = admin_auth.verify_id_token(user.get_token().result(TIMEOUT), check_revoked=True, app=admin)

        assert claims["uid"] == user.uid
        assert claims["firebase"]["sign_in_provider"] == "anonymous"
        assert "email" not in claims

    def test_a_custom_token_the_admin_minted_signs_the_client_in_with_its_claims(
            self, admin: firebase_admin.App, auth: hearth.Auth) -> None:
        custom_token = admin_auth.create_custom_token("minted-1", {"role": "tester"}, app=admin)

        result = auth.sign_in_with_custom_token(custom_token.decode("ascii")).result(TIMEOUT)

        assert result.user.uid == "minted-1"
        assert result.additional_user_info.is_new_user is True
        assert admin_auth.get_user("minted-1", app=admin).uid == "minted-1"
        token = result.user.get_token().result(TIMEOUT)
        claims = admin_auth.verify_id_token(token, check_revoked=True, app=admin)
        assert claims["uid"] == "minted-1"
        assert claims["role"] == "tester"
        assert claims["firebase"]["sign_in_provider"] == "custom"


class TestCustomClaims:
    def test_claims_the_admin_sets_appear_in_the_clients_token_after_a_forced_refresh(
            self, admin: firebase_admin.App, auth: hearth.Auth) -> None:
        user = sign_up(auth)
        before = user.get_token().result(TIMEOUT)

        admin_auth.set_custom_user_claims(user.uid, {"admin": True, "tier": "gold"}, app=admin)

        assert admin_auth.get_user(user.uid, app=admin).custom_claims == {"admin": True, "tier": "gold"}
        assert user.get_token().result(TIMEOUT) == before  # the cached token predates the claims
        assert "admin" not in jwt_claims(before)
        refreshed = user.get_token(force_refresh=True).result(TIMEOUT)
        claims = admin_auth.verify_id_token(refreshed, check_revoked=True, app=admin)
        assert claims["uid"] == user.uid
        assert claims["admin"] is True
        assert claims["tier"] == "gold"

    def test_claims_the_admin_removes_leave_the_clients_next_refreshed_token(
            self, admin: firebase_admin.App, auth: hearth.Auth) -> None:
        user = sign_up(auth)
        admin_auth.set_custom_user_claims(user.uid, {"admin": True}, app=admin)
        assert jwt_claims(user.get_token(force_refresh=True).result(TIMEOUT))["admin"] is True

        admin_auth.set_custom_user_claims(user.uid, None, app=admin)

        claims = admin_auth.verify_id_token(user.get_token(force_refresh=True).result(TIMEOUT), app=admin)
        assert "admin" not in claims
        assert admin_auth.get_user(user.uid, app=admin).custom_claims is None


class TestRevocation:
    def test_changing_the_password_revokes_earlier_tokens_and_the_client_holds_a_valid_new_one(
            self, admin: firebase_admin.App, auth: hearth.Auth) -> None:
        user = sign_up(auth)
        old_token = user.get_token().result(TIMEOUT)
        assert admin_auth.verify_id_token(old_token, check_revoked=True, app=admin)["uid"] == user.uid
        wait_for_the_second_after(old_token)

        user.update_password(NEW_PASSWORD).result(TIMEOUT)

        with pytest.raises(admin_auth.RevokedIdTokenError):
            admin_auth.verify_id_token(old_token, check_revoked=True, app=admin)
        # Without the revocation check a revoked token still verifies until it expires (documented).
        assert admin_auth.verify_id_token(old_token, app=admin)["uid"] == user.uid
        new_token = user.get_token().result(TIMEOUT)  # no forced refresh: the one the password change issued
        assert new_token != old_token
        new_claims = admin_auth.verify_id_token(new_token, check_revoked=True, app=admin)
        assert new_claims["uid"] == user.uid
        valid_after = admin_auth.get_user(user.uid, app=admin).tokens_valid_after_timestamp
        assert jwt_claims(old_token)["iat"] * 1000 < valid_after <= new_claims["iat"] * 1000
        refreshed = user.get_token(force_refresh=True).result(TIMEOUT)
        assert admin_auth.verify_id_token(refreshed, check_revoked=True, app=admin)["uid"] == user.uid
        assert auth.current_user is not None and auth.current_user.uid == user.uid

    def test_revoking_a_users_sessions_revokes_its_token_and_signs_the_client_out_at_its_next_reload(
            self, admin: firebase_admin.App, auth: hearth.Auth) -> None:
        user = sign_up(auth)
        token = user.get_token().result(TIMEOUT)
        wait_for_the_second_after(token)

        admin_auth.revoke_refresh_tokens(user.uid, app=admin)

        with pytest.raises(admin_auth.RevokedIdTokenError):
            admin_auth.verify_id_token(token, check_revoked=True, app=admin)
        with pytest.raises(hearth.UserTokenExpiredError):
            user.reload().result(TIMEOUT)
        assert auth.current_user is None
