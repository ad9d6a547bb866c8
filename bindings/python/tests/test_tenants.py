"""Identity Platform tenants: ``Auth.tenant_id`` signs users in to a tenant and names it on the requests
Firebase's clients send it with, a user belongs to one tenant, each tenant's settings hold, and a saved
session keeps its tenant. The emulator's tenant routes are the witness."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable, Dict

import pytest

import hearth
from hearth_testing import (API_KEY, PROJECT, TIMEOUT, Emulator, RecordingProxy, claims, jwt_claims, make_jwt,
                            query_of, unique_email)

PASSWORD = "correct-horse-1"
ALL_ON: Dict[str, Any] = {"allowPasswordSignup": True, "enableEmailLinkSignin": True, "enableAnonymousUser": True,
                          "mfaConfig": {"state": "ENABLED", "enabledProviders": ["PHONE_SMS"]}}
CUSTOM_TOKEN_AUDIENCE = "https://identitytoolkit.googleapis.com/google.identity.identitytoolkit.v1.IdentityToolkit"


def tenant_of(token: str) -> Any:
    return jwt_claims(token)["firebase"].get("tenant")


class TestSigningInToATenant:
    def test_a_user_signed_up_in_a_tenant_belongs_to_it_and_its_token_says_so(
            self, auth: hearth.Auth, emulator: Emulator) -> None:
        tenant_id = emulator.create_tenant(**ALL_ON)
        assert auth.tenant_id is None
        auth.tenant_id = tenant_id
        assert auth.tenant_id == tenant_id
        email = unique_email("tenant")

        user = auth.create_user_with_email_and_password(email, PASSWORD).result(TIMEOUT).user

        assert user.tenant_id == tenant_id
        assert auth.current_user is not None and auth.current_user.tenant_id == tenant_id
        assert tenant_of(user.get_token().result(TIMEOUT)) == tenant_id
        record = emulator.tenant_lookup(tenant_id, user.uid)
        assert record is not None and record["email"] == email and record["tenantId"] == tenant_id
        assert emulator.tenant_lookup(None, user.uid) is None

    def test_the_project_s_users_have_no_tenant(self, auth: hearth.Auth) -> None:
        user = auth.sign_in_anonymously().result(TIMEOUT).user
        assert user.tenant_id is None
        assert tenant_of(user.get_token().result(TIMEOUT)) is None

    def test_signing_in_again_finds_the_user_in_its_tenant_only(self, auth: hearth.Auth, emulator: Emulator) -> None:
        tenant_id = emulator.create_tenant(**ALL_ON)
        auth.tenant_id = tenant_id
        email = unique_email("tenant-again")
        uid = auth.create_user_with_email_and_password(email, PASSWORD).result(TIMEOUT).user.uid
        auth.sign_out()

        assert auth.sign_in_with_email_and_password(email, PASSWORD).result(TIMEOUT).user.uid == uid
        auth.sign_out()
        auth.tenant_id = None
        with pytest.raises(hearth.UserNotFoundError):
            auth.sign_in_with_email_and_password(email, PASSWORD).result(TIMEOUT)

    def test_custom_tokens_and_provider_credentials_sign_in_to_the_tenant(
            self, auth: hearth.Auth, emulator: Emulator) -> None:
        tenant_id = emulator.create_tenant(**ALL_ON)
        auth.tenant_id = tenant_id
        token = make_jwt({"aud": CUSTOM_TOKEN_AUDIENCE, "uid": "py-custom-tenant-user", "tenant_id": tenant_id})
        user = auth.sign_in_with_custom_token(token).result(TIMEOUT).user
        assert user.tenant_id == tenant_id and user.uid == "py-custom-tenant-user"
        auth.sign_out()
        with pytest.raises(hearth.TenantIdMismatchError):
            auth.sign_in_with_custom_token(make_jwt({"aud": CUSTOM_TOKEN_AUDIENCE, "uid": "x"})).result(TIMEOUT)

        credential = hearth.GoogleAuthProvider.credential(id_token=claims(sub="py-google-tenant",
                                                                          email=unique_email("g"), email_verified=True))
        result = auth.sign_in_and_retrieve_data_with_credential(credential).result(TIMEOUT)
        assert result.user.tenant_id == tenant_id
        assert emulator.tenant_lookup(tenant_id, result.user.uid) is not None

    def test_the_requests_firebase_scopes_name_the_tenant_and_the_others_do_not(
            self, auth: hearth.Auth, emulator: Emulator, recording_proxy: RecordingProxy) -> None:
        tenant_id = emulator.create_tenant(**ALL_ON)
        auth.use_emulator("127.0.0.1", recording_proxy.port)
        auth.tenant_id = tenant_id
        email = unique_email("wire")
        user = auth.create_user_with_email_and_password(email, PASSWORD).result(TIMEOUT).user
        user.update_profile(display_name="Wired").result(TIMEOUT)
        user.get_token(force_refresh=True).result(TIMEOUT)
        auth.fetch_providers_for_email(email).result(TIMEOUT)
        auth.send_password_reset_email(email).result(TIMEOUT)

        def bodies(method: str) -> list:
            return [request.json() for request in recording_proxy.matching(method)]

        for method in ("accounts:signUp", "accounts:createAuthUri", "accounts:sendOobCode"):
            assert [body.get("tenantId") for body in bodies(method)] == [tenant_id], method
        # The signed-in user's own requests carry its ID token, which names the tenant.
        for method in ("accounts:lookup", "accounts:update"):
            assert bodies(method) and all("tenantId" not in body for body in bodies(method)), method
        refreshes = recording_proxy.matching("securetoken.googleapis.com/v1/token")
        assert refreshes and all(b"tenant" not in request.body for request in refreshes)


class TestEmailActionsInATenant:
    def test_a_sign_in_link_signs_in_to_its_tenant_and_another_tenants_auth_refuses_it(
            self, make_app: Callable[..., hearth.App], emulator: Emulator) -> None:
        tenant_id = emulator.create_tenant(**ALL_ON)
        auth = make_app().auth
        auth.tenant_id = tenant_id
        email = unique_email("tenant-link")
        settings = hearth.ActionCodeSettings(url="com.example.hearth-tenants:/finishSignIn", handle_code_in_app=True)
        auth.send_sign_in_link_to_email(email, settings).result(TIMEOUT)
        [mail] = [code for code in emulator.tenant_listing(tenant_id, "oobCodes")
                  if code["email"] == email and code["requestType"] == "EMAIL_SIGNIN"]
        link = mail["oobLink"]
        assert query_of(link)["tenantId"] == tenant_id

        other = make_app().auth
        other.tenant_id = emulator.create_tenant(**ALL_ON)
        with pytest.raises(hearth.TenantIdMismatchError) as raised:
            other.sign_in_with_email_link(email, link).result(TIMEOUT)
        assert tenant_id in str(raised.value)
        with pytest.raises(hearth.TenantIdMismatchError):
            make_app().auth.sign_in_with_email_link(email, link).result(TIMEOUT)

        user = auth.sign_in_with_email_link(email, link).result(TIMEOUT).user
        assert user.tenant_id == tenant_id and user.email == email
        assert emulator.tenant_lookup(tenant_id, user.uid) is not None

    def test_a_password_reset_code_of_a_tenant_is_checked_and_used_in_it(
            self, auth: hearth.Auth, emulator: Emulator) -> None:
        tenant_id = emulator.create_tenant(**ALL_ON)
        auth.tenant_id = tenant_id
        email = unique_email("tenant-reset")
        uid = auth.create_user_with_email_and_password(email, PASSWORD).result(TIMEOUT).user.uid
        auth.sign_out()
        auth.send_password_reset_email(email).result(TIMEOUT)
        [mail] = [code for code in emulator.tenant_listing(tenant_id, "oobCodes")
                  if code["email"] == email and code["requestType"] == "PASSWORD_RESET"]
        assert auth.verify_password_reset_code(mail["oobCode"]).result(TIMEOUT) == email
        auth.confirm_password_reset(mail["oobCode"], "tenant-new-password-2").result(TIMEOUT)
        assert auth.sign_in_with_email_and_password(email, "tenant-new-password-2").result(TIMEOUT).user.uid == uid


class TestOneUserOneTenant:
    def test_requests_naming_another_tenant_fail_with_tenant_id_mismatch(
            self, auth: hearth.Auth, emulator: Emulator) -> None:
        tenant_a = emulator.create_tenant(**ALL_ON)
        auth.tenant_id = tenant_a
        user = auth.create_user_with_email_and_password(unique_email("in-a"), PASSWORD).result(TIMEOUT).user
        auth.tenant_id = emulator.create_tenant(**ALL_ON)
        assert auth.current_user is not None and auth.current_user.uid == user.uid

        google = hearth.GoogleAuthProvider.credential(id_token=claims(sub="py-link-b"))
        with pytest.raises(hearth.TenantIdMismatchError) as raised:
            user.link_with_credential(google).result(TIMEOUT)
        assert raised.value.code == hearth.ErrorCode.TENANT_ID_MISMATCH
        with pytest.raises(hearth.TenantIdMismatchError):
            user.send_email_verification().result(TIMEOUT)
        assert auth.current_user is not None and auth.current_user.tenant_id == tenant_a

    def test_update_current_user_takes_over_a_user_of_its_tenant_and_refuses_others(
            self, make_app: Callable[..., hearth.App], emulator: Emulator) -> None:
        tenant_a = emulator.create_tenant(**ALL_ON)
        source = make_app().auth
        source.tenant_id = tenant_a
        user = source.create_user_with_email_and_password(unique_email("taken"), PASSWORD).result(TIMEOUT).user

        other = make_app().auth
        other.tenant_id = emulator.create_tenant(**ALL_ON)
        with pytest.raises(hearth.TenantIdMismatchError) as raised:
            other.update_current_user(user).result(TIMEOUT)
        assert tenant_a in str(raised.value)
        assert other.current_user is None
        project = make_app().auth
        with pytest.raises(hearth.TenantIdMismatchError):
            project.update_current_user(user).result(TIMEOUT)

        same = make_app().auth
        same.tenant_id = tenant_a
        assert same.update_current_user(user).result(TIMEOUT) is None
        current = same.current_user
        assert current is not None and current.uid == user.uid and current.tenant_id == tenant_a
        assert jwt_claims(current.get_token(force_refresh=True).result(TIMEOUT))["user_id"] == user.uid
        last = same.update_current_user_last_result()
        assert last is not None and last.done()

        foreign = make_app(api_key="another-api-key").auth
        foreign.tenant_id = tenant_a
        with pytest.raises(hearth.InvalidUserTokenError):
            foreign.update_current_user(user).result(TIMEOUT)
        source.sign_out()
        with pytest.raises(hearth.NoSignedInUserError):
            make_app().auth.update_current_user(user).result(TIMEOUT)
        with pytest.raises(TypeError):
            same.update_current_user("not a user")  # type: ignore[arg-type]


class TestEachTenantsSettings:
    def test_sign_in_methods_a_tenant_turned_off_raise_the_servers_error(
            self, make_app: Callable[..., hearth.App], emulator: Emulator) -> None:
        no_anonymous = make_app().auth
        no_anonymous.tenant_id = emulator.create_tenant(allowPasswordSignup=True)
        with pytest.raises(hearth.AdminRestrictedOperationError):
            no_anonymous.sign_in_anonymously().result(TIMEOUT)

        tenant_id = emulator.create_tenant(enableAnonymousUser=True)
        no_password = make_app().auth
        no_password.tenant_id = tenant_id
        email = unique_email("no-password")
        with pytest.raises(hearth.OperationNotAllowedError):
            no_password.create_user_with_email_and_password(email, PASSWORD).result(TIMEOUT)
        emulator.tenant_admin_create(tenant_id, email=email, password=PASSWORD)
        with pytest.raises(hearth.OperationNotAllowedError):
            no_password.sign_in_with_email_and_password(email, PASSWORD).result(TIMEOUT)
        assert no_password.sign_in_anonymously().result(TIMEOUT).user.tenant_id == tenant_id

    def test_phone_sign_in_is_not_offered_in_a_tenant(self, auth: hearth.Auth, emulator: Emulator) -> None:
        auth.tenant_id = emulator.create_tenant(**ALL_ON)
        with pytest.raises(hearth.UnsupportedTenantOperationError):
            auth.verify_phone_number("+15555550199").result(TIMEOUT)


class TestSavedSessions:
    def test_a_saved_session_comes_back_with_its_tenant(self, tmp_path: Path, emulator: Emulator) -> None:
        tenant_id = emulator.create_tenant(**ALL_ON)
        options = dict(api_key=API_KEY, project_id=PROJECT, persistence="file", persistence_dir=tmp_path,
                       app_name="py-tenant-saved")
        with hearth.App(**options) as first:
            first.auth.tenant_id = tenant_id
            uid = first.auth.create_user_with_email_and_password(unique_email("saved"), PASSWORD).result(TIMEOUT).user.uid
        [saved] = list(tmp_path.iterdir())
        assert saved.stat().st_mode & 0o777 == 0o600
        document = json.loads(saved.read_text())
        assert document["format"] == 2 and document["user"]["tenantId"] == tenant_id

        with hearth.App(**options) as second:
            restored = second.auth.current_user
            assert restored is not None and restored.uid == uid and restored.tenant_id == tenant_id
            assert second.auth.tenant_id == tenant_id
            assert tenant_of(restored.get_token(force_refresh=True).result(TIMEOUT)) == tenant_id
            second.auth.sign_out()
            assert second.auth.sign_in_anonymously().result(TIMEOUT).user.tenant_id == tenant_id


class TestArguments:
    def test_empty_invalid_and_wrongly_typed_tenant_ids_are_refused(self, auth: hearth.Auth) -> None:
        auth.tenant_id = "tenant-kept"
        with pytest.raises(hearth.InvalidArgumentError) as raised:
            auth.tenant_id = ""
        assert "empty" in str(raised.value)
        with pytest.raises(ValueError):
            auth.tenant_id = "bad\x00tenant"
        with pytest.raises(ValueError):
            auth.tenant_id = "lone surrogate \ud800"
        with pytest.raises(TypeError):
            auth.tenant_id = 7  # type: ignore[assignment]
        assert auth.tenant_id == "tenant-kept"
        auth.tenant_id = None
        assert auth.tenant_id is None

    def test_an_invalid_tenant_id_from_c_is_refused_with_a_clear_message(self, auth: hearth.Auth) -> None:
        from hearth._lib import lib
        from hearth.errors import last_error_message

        code = lib.hearth_auth_set_tenant_id(auth._ptr(), b"bad-\xff\xfe")
        assert code == hearth.ErrorCode.INVALID_ARGUMENT
        assert "UTF-8" in last_error_message()
        assert auth.tenant_id is None


class TestCompressedAnswers:
    def test_the_emulator_s_answers_arrive_gzip_compressed_and_are_decoded(
            self, auth: hearth.Auth, recording_proxy: RecordingProxy) -> None:
        auth.use_emulator("127.0.0.1", recording_proxy.port)
        user = auth.create_user_with_email_and_password(unique_email("gzip"), PASSWORD).result(TIMEOUT).user
        assert user.reload().result(TIMEOUT).uid == user.uid

        for request in recording_proxy.requests:
            assert request.header("Accept-Encoding") == "gzip", request.path
        encodings = {request.path.split("?")[0].rsplit("/", 1)[-1]: request.response_encoding
                     for request in recording_proxy.requests}
        assert encodings["accounts:signUp"] == "gzip"
        assert encodings["accounts:lookup"] == "gzip"
