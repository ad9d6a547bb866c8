"""The Firebase Admin SDK for Python, pointed at hearth-emulator with FIREBASE_AUTH_EMULATOR_HOST,
manages users (of the project and of its tenants), verifies ID tokens that a client obtained over REST,
and makes and verifies session cookies."""
import datetime
import os
import time
import uuid

import pytest

import firebase_admin  # noqa: E402  (must be installed: make deps)
from firebase_admin import auth, tenant_mgt  # noqa: E402

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


# --- session cookies ------------------------------------------------------------------------------

def test_admin_sdk_creates_and_verifies_session_cookies(emu, admin_app):
    user = emu.sign_up("cookie@example.com")
    cookie = auth.create_session_cookie(user.id_token, expires_in=datetime.timedelta(hours=2), app=admin_app)
    header, claims, signature = decode_jwt(cookie.decode() if isinstance(cookie, bytes) else cookie)
    assert header["alg"] == "none" and signature == ""
    assert claims["iss"] == f"https://session.firebase.google.com/{PROJECT_ID}"
    assert claims["exp"] - claims["iat"] == 7200
    verified = auth.verify_session_cookie(cookie, check_revoked=True, app=admin_app)
    assert verified["uid"] == user.local_id and verified["email"] == "cookie@example.com"
    assert verified["firebase"]["sign_in_provider"] == "password"


def test_admin_sdk_session_cookie_durations_and_bad_tokens(emu, admin_app):
    user = emu.sign_up("cookie-limits@example.com")
    # The SDK checks the range itself (5 minutes to 14 days); the emulator refuses what gets through.
    with pytest.raises(ValueError):
        auth.create_session_cookie(user.id_token, expires_in=60, app=admin_app)
    with pytest.raises(auth.InvalidIdTokenError):
        auth.create_session_cookie("not-a-token", expires_in=3600, app=admin_app)
    emu.ok(emu.admin(":delete", {"localId": user.local_id}))
    with pytest.raises(auth.UserNotFoundError):
        auth.create_session_cookie(user.id_token, expires_in=3600, app=admin_app)


def test_admin_sdk_sees_session_cookies_revoked_and_disabled(emu, admin_app):
    user = emu.sign_up("cookie-revoked@example.com")
    cookie = auth.create_session_cookie(user.id_token, expires_in=3600, app=admin_app)
    auth.update_user(user.local_id, disabled=True, app=admin_app)
    with pytest.raises(auth.UserDisabledError):
        auth.verify_session_cookie(cookie, check_revoked=True, app=admin_app)
    auth.update_user(user.local_id, disabled=False, app=admin_app)
    time.sleep(1.05)
    auth.revoke_refresh_tokens(user.local_id, app=admin_app)
    with pytest.raises(auth.RevokedSessionCookieError):
        auth.verify_session_cookie(cookie, check_revoked=True, app=admin_app)
    # Without the revocation check the cookie still decodes (it has not expired).
    assert auth.verify_session_cookie(cookie, app=admin_app)["uid"] == user.local_id


# --- tenants --------------------------------------------------------------------------------------
# The Python Admin SDK's tenant *resources* (tenant_mgt.create_tenant & co.) always go to production: it
# has no emulator support for them (firebase-admin 7.7.0), and tenant_mgt.auth_for_tenant needs Google
# credentials even then. Its tenant-scoped client (auth.Client(app, tenant_id), which auth_for_tenant
# returns) does use the emulator, and is what these tests drive; the resources are created with the
# requests the SDK sends and read back with the SDK's own Tenant and ListTenantsPage types.

def sdk_tenant(emu, **settings):
    body = emu.ok(emu.v2_admin("POST", "/tenants", {"displayName": "Sdk-Tenant", **settings}))
    tenant = tenant_mgt.Tenant(body)
    assert tenant.tenant_id == body["tenantId"] and tenant.display_name == "Sdk-Tenant"
    return tenant


def test_admin_sdk_reads_tenants_the_emulator_answers(emu, admin_app):
    tenant = sdk_tenant(emu, allowPasswordSignup=True)
    assert tenant.allow_password_sign_up is True and tenant.enable_email_link_sign_in is False
    # What update_tenant sends: the fields and their mask.
    updated = tenant_mgt.Tenant(emu.ok(emu.v2_admin(
        "PATCH", f"/tenants/{tenant.tenant_id}", {"displayName": "Renamed", "enableEmailLinkSignin": True},
        params={"updateMask": "displayName,enableEmailLinkSignin"})))
    assert updated.display_name == "Renamed" and updated.enable_email_link_sign_in is True
    assert updated.allow_password_sign_up is True
    # What list_tenants sends, and its page type.
    page = tenant_mgt.ListTenantsPage(
        lambda page_token, max_results: emu.ok(emu.v2_admin("GET", "/tenants", params={
            "pageSize": max_results, **({"pageToken": page_token} if page_token else {})})), None, 100)
    assert tenant.tenant_id in [t.tenant_id for t in page.iterate_all()]


def test_admin_sdk_manages_a_tenant_s_users(emu, admin_app):
    tenant = sdk_tenant(emu, allowPasswordSignup=True)
    client = auth.Client(admin_app, tenant_id=tenant.tenant_id)
    created = client.create_user(email="tenant-sdk@example.com", password="tenant-password")
    assert created.tenant_id == tenant.tenant_id
    assert client.get_user_by_email("tenant-sdk@example.com").uid == created.uid
    # The project (and its other tenants) do not have the account.
    with pytest.raises(auth.UserNotFoundError):
        auth.get_user(created.uid, app=admin_app)
    client.update_user(created.uid, display_name="Tenant Sdk")
    assert [u.display_name for u in client.list_users().iterate_all()] == ["Tenant Sdk"]

    signed_in = emu.ok(emu.identity("signInWithPassword", {"email": "tenant-sdk@example.com",
                                                           "password": "tenant-password",
                                                           "tenantId": tenant.tenant_id}))
    claims = client.verify_id_token(signed_in["idToken"], check_revoked=True)
    assert claims["uid"] == created.uid and claims["firebase"]["tenant"] == tenant.tenant_id
    # Another tenant's client, and the project's, see the tenant mismatch.
    other = auth.Client(admin_app, tenant_id=sdk_tenant(emu).tenant_id)
    with pytest.raises(tenant_mgt.TenantIdMismatchError):
        other.verify_id_token(signed_in["idToken"])
    client.delete_user(created.uid)
    with pytest.raises(auth.UserNotFoundError):
        client.get_user(created.uid)


def test_admin_sdk_tenant_custom_tokens_sign_in_to_their_tenant(emu, admin_app):
    tenant = sdk_tenant(emu)
    client = auth.Client(admin_app, tenant_id=tenant.tenant_id)
    token = client.create_custom_token("tenant-custom-uid", {"tier": "gold"}).decode()
    assert decode_jwt(token)[1]["tenant_id"] == tenant.tenant_id
    body = emu.ok(emu.identity("signInWithCustomToken", {"token": token, "tenantId": tenant.tenant_id}))
    claims = client.verify_id_token(body["idToken"])
    assert claims["uid"] == "tenant-custom-uid" and claims["tier"] == "gold"
    # The same token refused by another tenant.
    response = emu.identity("signInWithCustomToken", {"token": token, "tenantId": sdk_tenant(emu).tenant_id})
    assert response.json()["error"]["message"] == "TENANT_ID_MISMATCH"


def test_admin_sdk_imports_users_into_a_tenant(emu, admin_app):
    tenant = sdk_tenant(emu)
    client = auth.Client(admin_app, tenant_id=tenant.tenant_id)
    result = client.import_users([auth.ImportUserRecord(uid="imported-tenant-user", email="imported-t@example.com")])
    assert result.success_count == 1
    assert client.get_user("imported-tenant-user").tenant_id == tenant.tenant_id


# --- accounts with second factors set in the request ----------------------------------------------
# The Python Admin SDK has no second-factor API (firebase-admin 7.7.0). These send what the Node.js
# Admin SDK sends for createUser / updateUser with `multiFactor` (signUp `mfaInfo`, accounts:update
# `mfa.enrollments`), and check the results with the Python SDK where it can see them.

def test_node_admin_shaped_second_factors_then_a_verified_second_factor_sign_in(emu, admin_app):
    # createUser({email, password, emailVerified, multiFactor: {enrolledFactors: [{phoneNumber, displayName,
    # factorId: 'phone'}]}}): no uid and no enrollment time go to the emulator.
    created = emu.ok(emu.admin("", {"email": "node-mfa@example.com", "password": "node-password",
                                    "emailVerified": True,
                                    "mfaInfo": [{"displayName": "Work", "phoneInfo": "+15555550270"}]}))
    record = auth.get_user(created["localId"], app=admin_app)
    assert record.email_verified is True
    pending = emu.ok(emu.identity("signInWithPassword", {"email": "node-mfa@example.com",
                                                         "password": "node-password"}))
    assert "idToken" not in pending
    [hint] = pending["mfaInfo"]
    assert hint["displayName"] == "Work" and hint["phoneInfo"] == "+*******0270"
    start = emu.ok(emu.mfa("mfaSignIn:start", {"mfaPendingCredential": pending["mfaPendingCredential"],
                                                "mfaEnrollmentId": hint["mfaEnrollmentId"]}))
    session = start["phoneResponseInfo"]["sessionInfo"]
    done = emu.ok(emu.mfa("mfaSignIn:finalize", {"mfaPendingCredential": pending["mfaPendingCredential"],
                                                  "phoneVerificationInfo": {
                                                      "sessionInfo": session,
                                                      "code": emu.verification_code(session)["code"]}}))
    claims = auth.verify_id_token(done["idToken"], check_revoked=True, app=admin_app)
    assert claims["firebase"]["second_factor_identifier"] == hint["mfaEnrollmentId"]

    # updateUser(uid, {multiFactor: {enrolledFactors: [{uid, phoneNumber, displayName, enrollmentTime}]}})
    emu.ok(emu.admin(":update", {"localId": created["localId"], "mfa": {"enrollments": [
        {"mfaEnrollmentId": "node-factor", "displayName": "Home", "phoneInfo": "+15555550271",
         "enrolledAt": "2024-01-02T03:04:05.000Z"}]}}))
    [factor] = emu.ok(emu.admin(":lookup", {"localId": [created["localId"]]}))["users"][0]["mfaInfo"]
    assert factor == {"mfaEnrollmentId": "node-factor", "displayName": "Home", "phoneInfo": "+15555550271",
                      "unobfuscatedPhoneInfo": "+15555550271", "enrolledAt": "2024-01-02T03:04:05.000Z"}
    # updateUser(uid, {multiFactor: {enrolledFactors: null}}) sends `mfa: {}`: every factor goes.
    emu.ok(emu.admin(":update", {"localId": created["localId"], "mfa": {}}))
    assert "mfaInfo" not in emu.ok(emu.admin(":lookup", {"localId": [created["localId"]]}))["users"][0]
    signed_in = emu.ok(emu.identity("signInWithPassword", {"email": "node-mfa@example.com",
                                                           "password": "node-password"}))
    assert auth.verify_id_token(signed_in["idToken"], app=admin_app)["uid"] == created["localId"]
