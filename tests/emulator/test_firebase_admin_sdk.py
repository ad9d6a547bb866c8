"""The Firebase Admin SDK for Python, pointed at hearth-emulator with FIREBASE_AUTH_EMULATOR_HOST,
manages users and verifies ID tokens that a client obtained over REST."""
import os
import time
import uuid

import pytest

import firebase_admin  # noqa: E402  (must be installed: make deps)
from firebase_admin import auth  # noqa: E402

from emulator_client import PROJECT_ID, decode_jwt  # noqa: E402


@pytest.fixture()
def admin_app(emu, base_url):
    host = os.environ.get("FIREBASE_AUTH_EMULATOR_HOST", "")
    if not host:
        pytest.fail("FIREBASE_AUTH_EMULATOR_HOST is not set: run through scripts/with-emulator")
    assert base_url == f"http://{host}", "the Admin SDK and the REST client must talk to the same emulator"
    app = firebase_admin.initialize_app(options={"projectId": PROJECT_ID}, name=f"hearth-{uuid.uuid4()}")
    yield app
    firebase_admin.delete_app(app)


def test_admin_sdk_creates_gets_updates_lists_and_deletes_users(emu, admin_app):
    created = auth.create_user(uid="sdk-user", email="SDK@Example.com", password="sdk-password",
                               display_name="Sdk User", photo_url="https://example.com/p.png",
                               email_verified=False, phone_number="+15555550100", app=admin_app)
    assert created.uid == "sdk-user"
    assert created.email == "sdk@example.com"
    assert created.display_name == "Sdk User"
    assert created.phone_number == "+15555550100"
    assert {p.provider_id for p in created.provider_data} == {"password", "phone"}
    assert created.user_metadata.creation_timestamp > 0

    assert auth.get_user("sdk-user", app=admin_app).email == "sdk@example.com"
    assert auth.get_user_by_email("sdk@example.com", app=admin_app).uid == "sdk-user"
    assert auth.get_user_by_phone_number("+15555550100", app=admin_app).uid == "sdk-user"

    updated = auth.update_user("sdk-user", display_name="Renamed", email_verified=True, disabled=True,
                               photo_url=auth.DELETE_ATTRIBUTE, app=admin_app)
    assert updated.display_name == "Renamed"
    assert updated.email_verified is True
    assert updated.disabled is True
    assert updated.photo_url is None

    auth.set_custom_user_claims("sdk-user", {"role": "editor"}, app=admin_app)
    assert auth.get_user("sdk-user", app=admin_app).custom_claims == {"role": "editor"}

    for i in range(3):
        auth.create_user(uid=f"extra-{i}", app=admin_app)
    listed = [u.uid for u in auth.list_users(max_results=2, app=admin_app).iterate_all()]
    assert sorted(listed) == ["extra-0", "extra-1", "extra-2", "sdk-user"]

    auth.delete_user("sdk-user", app=admin_app)
    with pytest.raises(auth.UserNotFoundError):
        auth.get_user("sdk-user", app=admin_app)
    result = auth.delete_users(["extra-0", "extra-1", "extra-2"], app=admin_app)
    assert result.success_count == 3 and result.failure_count == 0
    assert list(auth.list_users(app=admin_app).iterate_all()) == []


def test_admin_sdk_reports_missing_and_duplicate_users(emu, admin_app):
    with pytest.raises(auth.UserNotFoundError):
        auth.get_user_by_email("nobody@example.com", app=admin_app)
    auth.create_user(uid="once", app=admin_app)
    with pytest.raises(auth.UidAlreadyExistsError):
        auth.create_user(uid="once", app=admin_app)
    auth.create_user(email="taken@example.com", app=admin_app)
    with pytest.raises(auth.EmailAlreadyExistsError):
        auth.create_user(email="taken@example.com", app=admin_app)


def test_admin_sdk_imports_users_and_reports_the_ones_it_cannot(emu, admin_app):
    result = auth.import_users([
        auth.ImportUserRecord("imported-1", email="Imported@Example.com", email_verified=True,
                              display_name="Imported", custom_claims={"plan": "pro"},
                              user_metadata=auth.UserMetadata(creation_timestamp=1700000000000),
                              provider_data=[auth.UserProvider("gh-77", "github.com", email="imported@example.com")]),
        auth.ImportUserRecord("imported-2", phone_number="+1 not a number"),
    ], app=admin_app)
    assert (result.success_count, result.failure_count) == (1, 1)
    assert (result.errors[0].index, result.errors[0].reason) == (1, "phone number format is invalid")

    user = auth.get_user("imported-1", app=admin_app)
    assert (user.email, user.email_verified, user.display_name) == ("imported@example.com", True, "Imported")
    assert user.custom_claims == {"plan": "pro"}
    assert user.user_metadata.creation_timestamp == 1700000000000
    assert [(p.provider_id, p.uid) for p in user.provider_data] == [("github.com", "gh-77")]
    with pytest.raises(auth.UserNotFoundError):
        auth.get_user("imported-2", app=admin_app)


def test_admin_sdk_verifies_id_tokens_from_rest_sign_up_and_sign_in(emu, admin_app):
    user = emu.sign_up("verified@example.com", "client-password")
    claims = auth.verify_id_token(user.id_token, app=admin_app)
    assert claims["uid"] == user.local_id
    assert claims["email"] == "verified@example.com"
    assert claims["firebase"]["sign_in_provider"] == "password"

    signed_in = emu.sign_in("verified@example.com", "client-password")
    assert auth.verify_id_token(signed_in.id_token, check_revoked=True, app=admin_app)["uid"] == user.local_id

    anonymous = emu.sign_up_anonymously()
    assert auth.verify_id_token(anonymous.id_token, app=admin_app)["provider_id"] == "anonymous"


def test_admin_sdk_sees_tokens_revoked_by_a_password_change(emu, admin_app):
    user = emu.sign_up("revoke@example.com", "first-password")
    start = int(time.time())
    while int(time.time()) == start:
        time.sleep(0.02)
    changed = emu.ok(emu.identity("update", {"idToken": user.id_token, "password": "second-password",
                                             "returnSecureToken": True}))
    # Signature-level verification still accepts the old token (it has not expired)...
    assert auth.verify_id_token(user.id_token, app=admin_app)["uid"] == user.local_id
    # ...but a revocation check rejects it, and accepts the token issued with the change.
    with pytest.raises(auth.RevokedIdTokenError):
        auth.verify_id_token(user.id_token, check_revoked=True, app=admin_app)
    fresh = auth.verify_id_token(changed["idToken"], check_revoked=True, app=admin_app)
    assert fresh["uid"] == user.local_id
    assert auth.get_user(user.local_id, app=admin_app).tokens_valid_after_timestamp == \
        decode_jwt(changed["idToken"])[1]["iat"] * 1000


def test_admin_sdk_revocation_and_disabling(emu, admin_app):
    user = emu.sign_up("r@example.com")
    auth.update_user(user.local_id, disabled=True, app=admin_app)
    with pytest.raises(auth.UserDisabledError):
        auth.verify_id_token(user.id_token, check_revoked=True, app=admin_app)
    auth.update_user(user.local_id, disabled=False, app=admin_app)
    time.sleep(1.05)
    auth.revoke_refresh_tokens(user.local_id, app=admin_app)
    with pytest.raises(auth.RevokedIdTokenError):
        auth.verify_id_token(user.id_token, check_revoked=True, app=admin_app)


def test_admin_sdk_custom_tokens_sign_in_over_rest(emu, admin_app):
    token = auth.create_custom_token("custom-uid", {"premium": True}, app=admin_app).decode()
    header, payload, _ = decode_jwt(token)
    assert header["alg"] == "none"
    body = emu.ok(emu.identity("signInWithCustomToken", {"token": token, "returnSecureToken": True}))
    claims = auth.verify_id_token(body["idToken"], app=admin_app)
    assert claims["uid"] == "custom-uid" and claims["premium"] is True


def test_admin_sdk_generates_action_links(emu, admin_app):
    auth.create_user(email="links@example.com", password="links-password", app=admin_app)
    link = auth.generate_password_reset_link("links@example.com", app=admin_app)
    assert "/emulator/action?mode=resetPassword" in link
    assert any(c["oobLink"] == link for c in emu.new_oob_codes())


def test_admin_sdk_reads_and_verifies_a_second_factor_sign_in(emu, admin_app):
    user = emu.verified_user("sdk-mfa@example.com")
    session_info = emu.ok(emu.mfa("mfaEnrollment:start", {
        "idToken": user.id_token, "phoneEnrollmentInfo": {"phoneNumber": "+15555550260"}}))["phoneSessionInfo"]
    enrolled = emu.ok(emu.mfa("mfaEnrollment:finalize", {"idToken": user.id_token, "phoneVerificationInfo": {
        "sessionInfo": session_info["sessionInfo"],
        "code": emu.verification_code(session_info["sessionInfo"])["code"]}}))
    record = auth.get_user(user.local_id, app=admin_app)
    assert record.email == "sdk-mfa@example.com"
    claims = auth.verify_id_token(enrolled["idToken"], app=admin_app)
    assert claims["uid"] == user.local_id
    assert claims["firebase"]["sign_in_second_factor"] == "phone"
