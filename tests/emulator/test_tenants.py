"""Identity Platform multi-tenancy as Firebase's emulator serves it: the v2 tenant resources, tenant-scoped
accounts (each tenant has its own), the tenant named by path, body, ID token or refresh token, tenants
created on first use with everything enabled, and each tenant's settings enforced."""
import base64
import json
import re
import uuid

import pytest

from emulator_client import (ADMIN, EMULATOR, IDENTITY, PROJECT_ID, SECURE_TOKEN, CUSTOM_TOKEN_AUDIENCE,
                             assert_bad_request, decode_jwt, make_jwt, query_of)

ALL_ON = {"allowPasswordSignup": True, "enableEmailLinkSignin": True, "enableAnonymousUser": True,
          "disableAuth": False, "mfaConfig": {"state": "ENABLED", "enabledProviders": ["PHONE_SMS"]}}


def fresh_project():
    """A project of its own, so a test sees only its own tenants."""
    return "tenants-" + uuid.uuid4().hex[:12]


def tenant_user(emu, tenant_id, email, password="secret-password", **extra):
    return emu.ok(emu.identity("signUp", {"email": email, "password": password, "tenantId": tenant_id,
                                          "returnSecureToken": True, **extra}))


# --- the tenant resources ---------------------------------------------------------------------

def test_creating_a_tenant_echoes_its_settings_with_a_new_id_and_name(emu):
    project = fresh_project()
    settings = {"displayName": "display", "allowPasswordSignup": True, "disableAuth": False,
                "enableAnonymousUser": True, "enableEmailLinkSignin": True,
                "mfaConfig": {"enabledProviders": ["PROVIDER_UNSPECIFIED", "PHONE_SMS"], "state": "ENABLED"}}
    tenant = emu.create_tenant(project, **settings)
    assert re.fullmatch(r"[A-Za-z0-9]{28}", tenant["tenantId"])
    assert tenant == {**settings, "tenantId": tenant["tenantId"],
                      "name": f"projects/{project}/tenants/{tenant['tenantId']}"}


def test_a_tenant_created_empty_has_everything_off(emu):
    tenant = emu.create_tenant(fresh_project())
    assert {k: tenant[k] for k in ALL_ON} == {
        "allowPasswordSignup": False, "enableEmailLinkSignin": False, "enableAnonymousUser": False,
        "disableAuth": False, "mfaConfig": {"state": "DISABLED", "enabledProviders": []}}
    assert "displayName" not in tenant


def test_getting_a_tenant(emu):
    project = fresh_project()
    tenant = emu.create_tenant(project, displayName="got")
    assert emu.ok(emu.v2_admin("GET", f"/tenants/{tenant['tenantId']}", project=project)) == tenant


def test_an_unknown_tenant_is_created_on_first_use_with_everything_enabled(emu):
    project = fresh_project()
    assert emu.ok(emu.v2_admin("GET", "/tenants", project=project)) == {"tenants": []}
    got = emu.ok(emu.v2_admin("GET", "/tenants/tenant-id", project=project))
    assert got == {"tenantId": "tenant-id", "name": f"projects/{project}/tenants/tenant-id", **ALL_ON}
    [listed] = emu.ok(emu.v2_admin("GET", "/tenants", project=project))["tenants"]
    assert listed["tenantId"] == "tenant-id"


def test_listing_tenants_in_pages(emu):
    project = fresh_project()
    ids = sorted(emu.create_tenant(project)["tenantId"] for _ in range(2))
    everything = emu.ok(emu.v2_admin("GET", "/tenants", project=project))
    assert [t["tenantId"] for t in everything["tenants"]] == ids and "nextPageToken" not in everything
    first = emu.ok(emu.v2_admin("GET", "/tenants", project=project, params={"pageSize": 1}))
    assert [t["tenantId"] for t in first["tenants"]] == ids[:1] and first["nextPageToken"] == ids[0]
    second = emu.ok(emu.v2_admin("GET", "/tenants", project=project, params={"pageToken": first["nextPageToken"]}))
    assert [t["tenantId"] for t in second["tenants"]] == ids[1:] and "nextPageToken" not in second
    # A full page always carries a token, even when nothing follows.
    full = emu.ok(emu.v2_admin("GET", "/tenants", project=project, params={"pageSize": 2}))
    assert full["nextPageToken"] == ids[1]
    assert emu.ok(emu.v2_admin("GET", "/tenants", project=project, params={"pageToken": ids[1]})) == {"tenants": []}


def test_deleting_a_tenant_with_or_without_a_body(emu):
    project = fresh_project()
    a, b = emu.create_tenant(project), emu.create_tenant(project)
    assert emu.ok(emu.v2_admin("DELETE", f"/tenants/{a['tenantId']}", project=project)) == {}
    # The Node.js Admin SDK sends `{}` with its DELETE.
    assert emu.ok(emu.v2_admin("DELETE", f"/tenants/{b['tenantId']}", {}, project=project)) == {}
    assert emu.ok(emu.v2_admin("GET", "/tenants", project=project)) == {"tenants": []}


def test_deleting_a_tenant_deletes_its_accounts(emu):
    tenant_id = emu.create_tenant(**ALL_ON)["tenantId"]
    user = tenant_user(emu, tenant_id, "gone@example.com")
    emu.ok(emu.v2_admin("DELETE", f"/tenants/{tenant_id}"))
    # The next request makes the tenant again, empty.
    assert_bad_request(emu.identity("lookup", {"idToken": user["idToken"]}), "USER_NOT_FOUND")


def test_a_masked_update_changes_the_masked_fields(emu):
    project = fresh_project()
    tenant = emu.create_tenant(project)
    mask = "allowPasswordSignup,disableAuth,displayName,enableAnonymousUser,enableEmailLinkSignin,mfaConfig"
    update = {"displayName": "display", **ALL_ON,
              "mfaConfig": {"enabledProviders": ["PROVIDER_UNSPECIFIED", "PHONE_SMS"], "state": "ENABLED"}}
    body = emu.ok(emu.v2_admin("PATCH", f"/tenants/{tenant['tenantId']}", update, project=project,
                               params={"updateMask": mask}))
    assert body == {**tenant, **update}
    # A masked field the update lacks stays as it is.
    body = emu.ok(emu.v2_admin("PATCH", f"/tenants/{tenant['tenantId']}", {}, project=project,
                               params={"updateMask": "displayName"}))
    assert body["displayName"] == "display"


def test_a_mask_into_a_value_that_is_not_an_object_changes_nothing(emu):
    project = fresh_project()
    tenant = emu.create_tenant(project, displayName="display",
                               mfaConfig={"enabledProviders": ["PROVIDER_UNSPECIFIED", "PHONE_SMS"]})
    body = emu.ok(emu.v2_admin(
        "PATCH", f"/tenants/{tenant['tenantId']}",
        {"displayName": "unused", "mfaConfig": {"enabledProviders": ["PROVIDER_UNSPECIFIED"]}}, project=project,
        params={"updateMask": "displayName.0,mfaConfig.enabledProviders.nonexistentField"}))
    assert body["displayName"] == "display"
    assert body["mfaConfig"]["enabledProviders"] == ["PROVIDER_UNSPECIFIED", "PHONE_SMS"]


def test_an_update_without_a_mask_replaces_everything_with_production_defaults(emu):
    project = fresh_project()
    tenant = emu.create_tenant(project, displayName="before", **ALL_ON)
    body = emu.ok(emu.v2_admin("PATCH", f"/tenants/{tenant['tenantId']}", {}, project=project))
    assert body == {"tenantId": tenant["tenantId"], "name": tenant["name"], "allowPasswordSignup": False,
                    "disableAuth": False, "enableAnonymousUser": False, "enableEmailLinkSignin": False,
                    "mfaConfig": {"enabledProviders": [], "state": "DISABLED"}}


def test_tenant_resources_need_the_admin(emu):
    response = emu.request("GET", f"/identitytoolkit.googleapis.com/v2/projects/{PROJECT_ID}/tenants",
                           params={"key": "fake-api-key"})
    assert_bad_request(response, "INSUFFICIENT_PERMISSION : Only authenticated requests can specify "
                                 "target_project_id.")


def test_unknown_tenant_fields_are_refused(emu):
    response = emu.v2_admin("POST", "/tenants", {"allowPasswordSignup": True, "nonsense": 1})
    assert response.status_code == 400
    assert response.json()["error"]["status"] == "INVALID_ARGUMENT"


# --- accounts of a tenant ----------------------------------------------------------------------

def test_an_account_belongs_to_its_tenant_and_its_tokens_say_so(emu):
    tenant_id = emu.create_tenant(**ALL_ON)["tenantId"]
    body = tenant_user(emu, tenant_id, "alice-tenant@example.com")
    claims = decode_jwt(body["idToken"])[1]
    assert claims["firebase"]["tenant"] == tenant_id
    assert json.loads(base64.b64decode(body["refreshToken"]))["tenantId"] == tenant_id
    # The ID token alone finds the tenant.
    record = emu.lookup(body["idToken"])
    assert record["tenantId"] == tenant_id and record["email"] == "alice-tenant@example.com"
    [admin_view] = emu.ok(emu.post(f"{IDENTITY}/accounts:lookup", {"localId": [body["localId"]], "tenantId": tenant_id},
                                   key=False, admin=True))["users"]
    assert admin_view["tenantId"] == tenant_id
    # The project and other tenants have accounts of their own.
    assert emu.ok(emu.admin(":lookup", {"localId": [body["localId"]]})) == {
        "kind": "identitytoolkit#GetAccountInfoResponse"}
    project_user = emu.sign_up("alice-tenant@example.com")
    assert project_user.local_id != body["localId"]
    assert "tenant" not in decode_jwt(project_user.id_token)[1]["firebase"]


def test_refreshing_a_tenant_s_token_stays_in_the_tenant(emu):
    tenant_id = emu.create_tenant(**ALL_ON)["tenantId"]
    body = tenant_user(emu, tenant_id, "refresh-tenant@example.com")
    refreshed = emu.ok(emu.request("POST", SECURE_TOKEN, data={"refresh_token": body["refreshToken"],
                                                               "grantType": "refresh_token"}))
    assert refreshed["user_id"] == body["localId"] and refreshed["project_id"] == "12345"
    assert decode_jwt(refreshed["id_token"])[1]["firebase"]["tenant"] == tenant_id
    assert json.loads(base64.b64decode(refreshed["refresh_token"]))["tenantId"] == tenant_id


def test_tenant_admin_paths(emu):
    tenant_id = emu.create_tenant(**ALL_ON)["tenantId"]
    base = f"{ADMIN}/tenants/{tenant_id}"
    created = emu.ok(emu.post(f"{base}/accounts", {"email": "admin-made@example.com", "password": "secret-pw"},
                              key=False, admin=True))
    [record] = emu.ok(emu.post(f"{base}/accounts:lookup", {"localId": [created["localId"]]}, key=False,
                               admin=True))["users"]
    assert record["tenantId"] == tenant_id
    emu.ok(emu.post(f"{base}/accounts:update", {"localId": created["localId"], "displayName": "Named"},
                    key=False, admin=True))
    listed = emu.ok(emu.request("GET", f"{base}/accounts:batchGet", key=False, admin=True))["users"]
    assert [(u["localId"], u["displayName"]) for u in listed] == [(created["localId"], "Named")]
    assert emu.ok(emu.post(f"{base}/accounts:query", {"returnUserInfo": False}, key=False, admin=True)) == {
        "recordsCount": "1"}
    emu.ok(emu.post(f"{base}/accounts:delete", {"localId": created["localId"]}, key=False, admin=True))
    assert emu.ok(emu.post(f"{base}/accounts:query", {}, key=False, admin=True))["recordsCount"] == "0"


def test_batch_get_on_the_project_path_lists_a_tenant_named_in_the_query(emu):
    tenant_id = emu.create_tenant(**ALL_ON)["tenantId"]
    body = tenant_user(emu, tenant_id, "listed-by-query@example.com")
    emu.sign_up("project-only@example.com")
    listed = emu.ok(emu.request("GET", f"{ADMIN}/accounts:batchGet", key=False, admin=True,
                                params={"tenantId": tenant_id}))["users"]
    assert [u["localId"] for u in listed] == [body["localId"]]


def test_batch_create_in_a_tenant(emu):
    tenant_id = emu.create_tenant(**ALL_ON)["tenantId"]
    base = f"{ADMIN}/tenants/{tenant_id}"
    result = emu.ok(emu.post(f"{base}/accounts:batchCreate", {"users": [
        {"localId": "imported-1", "email": "imported@example.com"},
        {"localId": "imported-2", "tenantId": "some-other-tenant"},
        {"localId": "imported-3", "tenantId": tenant_id}]}, key=False, admin=True))
    assert result["error"] == [{"index": 1, "message": "Tenant id in userInfo does not match the tenant id in request."}]
    users = emu.ok(emu.request("GET", f"{base}/accounts:batchGet", key=False, admin=True))["users"]
    assert [(u["localId"], u["tenantId"]) for u in users] == [("imported-1", tenant_id), ("imported-3", tenant_id)]


def test_the_emulator_routes_of_a_tenant(emu):
    tenant_id = emu.create_tenant(**ALL_ON)["tenantId"]
    user = tenant_user(emu, tenant_id, "wiped-tenant@example.com")
    emu.ok(emu.identity("sendOobCode", {"requestType": "VERIFY_EMAIL", "idToken": user["idToken"]}))
    [oob] = emu.ok(emu.request("GET", f"{EMULATOR}/tenants/{tenant_id}/oobCodes", key=False))["oobCodes"]
    assert oob["email"] == "wiped-tenant@example.com" and query_of(oob["oobLink"])["tenantId"] == tenant_id
    assert all(c["oobCode"] != oob["oobCode"] for c in emu.oob_codes())
    assert emu.ok(emu.request("GET", f"{EMULATOR}/tenants/{tenant_id}/verificationCodes", key=False)) == {
        "verificationCodes": []}
    project_user = emu.sign_up("kept@example.com")
    assert emu.ok(emu.request("DELETE", f"{EMULATOR}/tenants/{tenant_id}/accounts", key=False)) == {}
    assert_bad_request(emu.identity("lookup", {"idToken": user["idToken"]}), "USER_NOT_FOUND")
    emu.lookup(project_user.id_token)


def test_a_tenant_s_action_link_applies_its_code_there(emu):
    tenant_id = emu.create_tenant(**ALL_ON)["tenantId"]
    user = tenant_user(emu, tenant_id, "verify-tenant@example.com")
    emu.ok(emu.identity("sendOobCode", {"requestType": "VERIFY_EMAIL", "idToken": user["idToken"]}))
    [oob] = emu.ok(emu.request("GET", f"{EMULATOR}/tenants/{tenant_id}/oobCodes", key=False))["oobCodes"]
    link = oob["oobLink"].split("/emulator/action", 1)[1]
    body = emu.ok(emu.session.get(emu.base_url + "/emulator/action" + link, allow_redirects=False, timeout=30))
    assert body == {"authEmulator": {"success": "The email has been successfully verified.",
                                     "email": "verify-tenant@example.com"}}
    assert emu.lookup(user["idToken"])["emailVerified"] is True


# --- one tenant per request ----------------------------------------------------------------------

def test_path_and_body_must_name_the_same_tenant(emu):
    response = emu.post(f"{ADMIN}/tenants/tenant-id/accounts:delete", {"localId": "x", "tenantId": "another"},
                        key=False, admin=True)
    assert_bad_request(response, "TENANT_ID_MISMATCH")


def test_the_id_token_s_tenant_must_match_the_path_and_the_body(emu):
    tenant_id = emu.create_tenant(**ALL_ON)["tenantId"]
    user = tenant_user(emu, tenant_id, "mismatch@example.com")
    assert_bad_request(emu.post(f"{ADMIN}/tenants/not-matching/accounts:lookup", {"idToken": user["idToken"]},
                                key=False, admin=True), "TENANT_ID_MISMATCH")
    assert_bad_request(emu.post(f"{ADMIN}/accounts:lookup", {"idToken": user["idToken"], "tenantId": "not-matching"},
                                key=False, admin=True), "TENANT_ID_MISMATCH")


def test_a_user_of_one_tenant_cannot_be_updated_or_signed_in_through_another(emu):
    tenant_a = emu.create_tenant(**ALL_ON)["tenantId"]
    tenant_b = emu.create_tenant(**ALL_ON)["tenantId"]
    user = tenant_user(emu, tenant_a, "only-in-a@example.com")
    assert_bad_request(emu.identity("update", {"idToken": user["idToken"], "displayName": "x", "tenantId": tenant_b}),
                       "TENANT_ID_MISMATCH")
    assert_bad_request(emu.identity("signInWithPassword", {"email": "only-in-a@example.com",
                                                           "password": "secret-password", "tenantId": tenant_b}),
                       "EMAIL_NOT_FOUND")
    assert_bad_request(emu.identity("signInWithPassword", {"email": "only-in-a@example.com",
                                                           "password": "secret-password"}), "EMAIL_NOT_FOUND")
    signed_in = emu.ok(emu.identity("signInWithPassword", {"email": "only-in-a@example.com",
                                                           "password": "secret-password", "tenantId": tenant_a}))
    assert decode_jwt(signed_in["idToken"])[1]["firebase"]["tenant"] == tenant_a


def test_a_custom_token_must_carry_its_tenant(emu):
    tenant_id = emu.create_tenant(**ALL_ON)["tenantId"]
    claims = {"aud": CUSTOM_TOKEN_AUDIENCE, "uid": "custom-tenant-user"}
    assert_bad_request(emu.identity("signInWithCustomToken", {"token": make_jwt(claims), "tenantId": tenant_id}),
                       "TENANT_ID_MISMATCH")
    assert_bad_request(emu.identity("signInWithCustomToken", {"token": make_jwt({**claims, "tenant_id": "other"}),
                                                              "tenantId": tenant_id}), "TENANT_ID_MISMATCH")
    # Checked even before the token is decoded, as in Firebase's emulator.
    assert_bad_request(emu.identity("signInWithCustomToken", {"token": "garbage", "tenantId": tenant_id}),
                       "TENANT_ID_MISMATCH")
    body = emu.ok(emu.identity("signInWithCustomToken", {"token": make_jwt({**claims, "tenant_id": tenant_id}),
                                                         "tenantId": tenant_id}))
    assert decode_jwt(body["idToken"])[1]["firebase"]["tenant"] == tenant_id
    assert emu.lookup(body["idToken"])["tenantId"] == tenant_id


def test_identity_provider_sign_in_in_a_tenant(emu):
    tenant_id = emu.create_tenant(**ALL_ON)["tenantId"]
    body = emu.ok(emu.identity("signInWithIdp", {
        "requestUri": "http://localhost", "returnSecureToken": True, "tenantId": tenant_id,
        "postBody": "providerId=google.com&id_token=" + json.dumps({"sub": "idp-tenant", "email": "i@example.com"})}))
    assert body["tenantId"] == tenant_id and body["isNewUser"] is True
    assert emu.lookup(body["idToken"])["tenantId"] == tenant_id


def test_an_oob_link_names_its_tenant(emu):
    tenant_id = emu.create_tenant(**ALL_ON)["tenantId"]
    body = emu.ok(emu.post(f"{IDENTITY}/accounts:sendOobCode", {
        "requestType": "EMAIL_SIGNIN", "email": "link-tenant@example.com", "returnOobLink": True,
        "tenantId": tenant_id}, key=False, admin=True))
    assert query_of(body["oobLink"])["tenantId"] == tenant_id
    signed_in = emu.ok(emu.identity("signInWithEmailLink", {"email": "link-tenant@example.com",
                                                            "oobCode": body["oobCode"], "tenantId": tenant_id}))
    assert emu.lookup(signed_in["idToken"])["tenantId"] == tenant_id


# --- each tenant's settings ---------------------------------------------------------------------

def test_a_disabled_tenant_refuses_its_endpoints(emu):
    tenant_id = emu.create_tenant(disableAuth=True)["tenantId"]
    for method, body in [("signUp", {}), ("signInWithPassword", {}), ("lookup", {}), ("update", {}),
                         ("delete", {}), ("sendOobCode", {}), ("resetPassword", {}), ("createAuthUri", {}),
                         ("signInWithCustomToken", {}), ("signInWithIdp", {}), ("signInWithEmailLink", {})]:
        response = emu.identity(method, {**body, "tenantId": tenant_id})
        assert response.status_code == 400 and response.json()["error"]["message"] == "PROJECT_DISABLED", method
    for method in ["mfaEnrollment:start", "mfaEnrollment:withdraw", "mfaSignIn:start", "passkeySignIn:start"]:
        assert_bad_request(emu.mfa(method, {"tenantId": tenant_id}), "PROJECT_DISABLED")


def test_password_sign_up_and_sign_in_follow_allow_password_signup(emu):
    project = PROJECT_ID
    tenant = emu.create_tenant(project, enableAnonymousUser=True)
    tenant_id = tenant["tenantId"]
    assert_bad_request(emu.identity("signUp", {"email": "no-pw@example.com", "password": "secret-password",
                                               "tenantId": tenant_id}), "OPERATION_NOT_ALLOWED")
    assert_bad_request(emu.identity("signInWithPassword", {"email": "no-pw@example.com", "password": "x",
                                                           "tenantId": tenant_id}), "PASSWORD_LOGIN_DISABLED")
    assert_bad_request(emu.identity("resetPassword", {"oobCode": "x", "tenantId": tenant_id}),
                       "PASSWORD_LOGIN_DISABLED")
    # The admin may still create password accounts.
    emu.ok(emu.post(f"{ADMIN}/tenants/{tenant_id}/accounts", {"email": "no-pw@example.com", "password": "secret-pw"},
                    key=False, admin=True))
    # Turned on, it works at once.
    emu.ok(emu.v2_admin("PATCH", f"/tenants/{tenant_id}", {"allowPasswordSignup": True},
                        params={"updateMask": "allowPasswordSignup"}))
    emu.ok(emu.identity("signInWithPassword", {"email": "no-pw@example.com", "password": "secret-pw",
                                               "tenantId": tenant_id}))


def test_anonymous_users_follow_enable_anonymous_user(emu):
    tenant_id = emu.create_tenant(allowPasswordSignup=True)["tenantId"]
    assert_bad_request(emu.identity("signUp", {"returnSecureToken": True, "tenantId": tenant_id}),
                       "ADMIN_ONLY_OPERATION")
    emu.ok(emu.v2_admin("PATCH", f"/tenants/{tenant_id}", {"enableAnonymousUser": True},
                        params={"updateMask": "enableAnonymousUser"}))
    body = emu.ok(emu.identity("signUp", {"returnSecureToken": True, "tenantId": tenant_id}))
    claims = decode_jwt(body["idToken"])[1]
    assert claims["provider_id"] == "anonymous" and claims["firebase"]["tenant"] == tenant_id


def test_email_link_sign_in_follows_enable_email_link_signin(emu):
    tenant_id = emu.create_tenant(allowPasswordSignup=True)["tenantId"]
    assert_bad_request(emu.identity("sendOobCode", {"requestType": "EMAIL_SIGNIN", "email": "l@example.com",
                                                    "tenantId": tenant_id}), "OPERATION_NOT_ALLOWED")
    assert_bad_request(emu.identity("signInWithEmailLink", {"email": "l@example.com", "oobCode": "x",
                                                            "tenantId": tenant_id}), "OPERATION_NOT_ALLOWED")


def test_second_factors_follow_the_tenant_s_mfa_config(emu):
    tenant_id = emu.create_tenant(allowPasswordSignup=True)["tenantId"]
    user = tenant_user(emu, tenant_id, "mfa-off@example.com",
                       mfaInfo=[{"phoneInfo": "+15555550180", "displayName": "Desk"}])
    assert_bad_request(emu.mfa("mfaEnrollment:start", {"idToken": user["idToken"], "tenantId": tenant_id,
                                                        "phoneEnrollmentInfo": {"phoneNumber": "+15555550181"}}),
                       "OPERATION_NOT_ALLOWED : SMS based MFA not enabled.")
    # With MFA off, an account's factors are not asked for.
    signed_in = emu.ok(emu.identity("signInWithPassword", {"email": "mfa-off@example.com",
                                                           "password": "secret-password", "tenantId": tenant_id}))
    assert "idToken" in signed_in and "mfaPendingCredential" not in signed_in
    # ENABLED asks for them, even without PHONE_SMS among the providers (whose endpoints stay refused).
    emu.ok(emu.v2_admin("PATCH", f"/tenants/{tenant_id}", {"mfaConfig": {"state": "ENABLED"}},
                        params={"updateMask": "mfaConfig"}))
    pending = emu.ok(emu.identity("signInWithPassword", {"email": "mfa-off@example.com",
                                                         "password": "secret-password", "tenantId": tenant_id}))
    assert "idToken" not in pending and pending["mfaInfo"][0]["phoneInfo"] == "+*******0180"
    assert_bad_request(emu.mfa("mfaSignIn:start", {"mfaPendingCredential": pending["mfaPendingCredential"],
                                                    "mfaEnrollmentId": pending["mfaInfo"][0]["mfaEnrollmentId"],
                                                    "tenantId": tenant_id}),
                       "OPERATION_NOT_ALLOWED : SMS based MFA not enabled.")


def test_a_second_factor_sign_in_in_a_tenant(emu):
    tenant_id = emu.create_tenant(**ALL_ON)["tenantId"]
    emu.ok(emu.post(f"{ADMIN}/tenants/{tenant_id}/accounts", {
        "email": "mfa-tenant@example.com", "password": "secret-password", "emailVerified": True,
        "mfaInfo": [{"phoneInfo": "+15555550182"}]}, key=False, admin=True))
    pending = emu.ok(emu.identity("signInWithPassword", {"email": "mfa-tenant@example.com",
                                                         "password": "secret-password", "tenantId": tenant_id}))
    credential = pending["mfaPendingCredential"]
    record = json.loads(base64.b64decode(credential))
    assert record["tenantId"] == tenant_id and record["projectId"] == PROJECT_ID
    enrollment_id = pending["mfaInfo"][0]["mfaEnrollmentId"]
    # Another tenant cannot use it.
    other = emu.create_tenant(**ALL_ON)["tenantId"]
    assert_bad_request(emu.mfa("mfaSignIn:start", {"mfaPendingCredential": credential,
                                                    "mfaEnrollmentId": enrollment_id, "tenantId": other}),
                       "INVALID_PROJECT_ID : Project ID does not match MFA pending credential.")
    start = emu.ok(emu.mfa("mfaSignIn:start", {"mfaPendingCredential": credential, "mfaEnrollmentId": enrollment_id,
                                                "tenantId": tenant_id}))
    session = start["phoneResponseInfo"]["sessionInfo"]
    [code] = [c for c in emu.ok(emu.request("GET", f"{EMULATOR}/tenants/{tenant_id}/verificationCodes",
                                            key=False))["verificationCodes"] if c["sessionInfo"] == session]
    done = emu.ok(emu.mfa("mfaSignIn:finalize", {"mfaPendingCredential": credential, "tenantId": tenant_id,
                                                  "phoneVerificationInfo": {"sessionInfo": session,
                                                                            "code": code["code"]}}))
    firebase = decode_jwt(done["idToken"])[1]["firebase"]
    assert firebase["tenant"] == tenant_id and firebase["sign_in_second_factor"] == "phone"


def test_phone_sign_in_is_not_offered_in_tenants(emu):
    tenant_id = emu.create_tenant(**ALL_ON)["tenantId"]
    assert_bad_request(emu.identity("sendVerificationCode", {"phoneNumber": "+15555550183", "tenantId": tenant_id}),
                       "UNSUPPORTED_TENANT_OPERATION")
    assert_bad_request(emu.identity("signInWithPhoneNumber", {"sessionInfo": "x", "code": "1", "tenantId": tenant_id}),
                       "UNSUPPORTED_TENANT_OPERATION")


def test_tenants_share_the_project_s_settings(emu):
    tenant_id = emu.create_tenant(**ALL_ON)["tenantId"]
    emu.set_config(emailPrivacyConfig={"enableImprovedEmailPrivacy": True})
    assert_bad_request(emu.identity("signInWithPassword", {"email": "nobody@example.com", "password": "x",
                                                           "tenantId": tenant_id}), "INVALID_LOGIN_CREDENTIALS")
    emu.set_config(emailPrivacyConfig={"enableImprovedEmailPrivacy": False})
    assert_bad_request(emu.identity("signInWithPassword", {"email": "nobody@example.com", "password": "x",
                                                           "tenantId": tenant_id}), "EMAIL_NOT_FOUND")


def test_a_tenant_s_session_cookie(emu):
    tenant_id = emu.create_tenant(**ALL_ON)["tenantId"]
    user = tenant_user(emu, tenant_id, "cookie-tenant@example.com")
    body = emu.ok(emu.post(f"{ADMIN}/tenants/{tenant_id}:createSessionCookie", {"idToken": user["idToken"]},
                           key=False, admin=True))
    claims = decode_jwt(body["sessionCookie"])[1]
    assert claims["firebase"]["tenant"] == tenant_id and claims["iss"] == f"https://session.firebase.google.com/{PROJECT_ID}"
    assert claims["exp"] - claims["iat"] == 14 * 24 * 3600
    assert_bad_request(emu.post(f"{ADMIN}/tenants/another:createSessionCookie", {"idToken": user["idToken"]},
                                key=False, admin=True), "TENANT_ID_MISMATCH")
