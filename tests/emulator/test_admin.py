"""Admin routes under /identitytoolkit.googleapis.com/v1/projects/{p} with `Authorization: Bearer owner`."""
import pytest

from emulator_client import ADMIN, IDENTITY, assert_bad_request, assert_error


def test_admin_creates_accounts_without_tokens(emu):
    body = emu.ok(emu.admin("", {"localId": "chosen-id", "email": "Admin@Example.com", "password": "secret1",
                                 "displayName": "Made", "photoUrl": "https://p", "emailVerified": True,
                                 "phoneNumber": "+15555550102", "disabled": True}))
    assert body == {"kind": "identitytoolkit#SignupNewUserResponse", "localId": "chosen-id",
                    "email": "admin@example.com", "displayName": "Made"}
    [record] = emu.ok(emu.admin(":lookup", {"localId": ["chosen-id"]}))["users"]
    assert record["emailVerified"] is True and record["disabled"] is True
    assert record["phoneNumber"] == "+15555550102" and record["photoUrl"] == "https://p"
    assert sorted(p["providerId"] for p in record["providerUserInfo"]) == ["password", "phone"]


def test_admin_create_errors(emu):
    emu.ok(emu.admin("", {"localId": "dup"}))
    assert_bad_request(emu.admin("", {"localId": "dup"}), "DUPLICATE_LOCAL_ID")
    assert_bad_request(emu.admin("", {"phoneNumber": "555"}), "INVALID_PHONE_NUMBER : Invalid format.")
    emu.ok(emu.admin("", {"phoneNumber": "+1555"}))
    assert_bad_request(emu.admin("", {"phoneNumber": "+1555"}), "PHONE_NUMBER_EXISTS")
    assert_bad_request(emu.admin("", {"password": "12"}), "WEAK_PASSWORD : Password should be at least 6 characters")


def test_bearer_owner_is_case_insensitive_and_other_bearers_are_rejected(emu):
    response = emu.post(f"{ADMIN}/accounts:lookup", {"localId": ["x"]}, key=False,
                        headers={"Authorization": "bearer OWNER"})
    emu.ok(response)
    response = emu.post(f"{ADMIN}/accounts:lookup", {"localId": ["x"]}, headers={"Authorization": "Bearer nope"})
    error = assert_error(response, "Request had invalid authentication credentials. Expected OAuth 2 access token, "
                                   "login cookie or other valid authentication credential. See "
                                   "https://developers.google.com/identity/sign-in/web/devconsole-project.", 401)
    assert error["status"] == "UNAUTHENTICATED"
    assert error["errors"][0]["reason"] == "authError"
    assert error["errors"][0]["location"] == "Authorization"


def test_non_bearer_authorization_is_ignored(emu):
    response = emu.identity("signUp", {}, headers={"Authorization": "Basic dXNlcjpwYXNz"})
    assert "idToken" in emu.ok(response)


def test_api_key_callers_may_not_name_a_project(emu):
    response = emu.post(f"{ADMIN}/accounts:lookup", {"localId": ["x"]})
    assert_bad_request(response, "INSUFFICIENT_PERMISSION : Only authenticated requests can specify target_project_id.")
    response = emu.identity("lookup", {"targetProjectId": "demo-hearth", "localId": ["x"]})
    assert_bad_request(response, "INSUFFICIENT_PERMISSION : Only authenticated requests can specify target_project_id.")


def test_admin_routes_without_any_credential_need_an_api_key(emu):
    response = emu.post(f"{ADMIN}/accounts:lookup", {"localId": ["x"]}, key=False)
    assert_error(response, "The request is missing a valid API key.", 403)


def test_batch_get_pages_through_accounts_in_local_id_order(emu):
    ids = sorted(emu.ok(emu.admin("", {"localId": f"user-{i:02d}"}))["localId"] for i in range(5))
    first = emu.ok(emu.request("GET", f"{ADMIN}/accounts:batchGet", key=False, admin=True,
                               params={"maxResults": 2}))
    assert first["kind"] == "identitytoolkit#DownloadAccountResponse"
    assert [u["localId"] for u in first["users"]] == ids[:2]
    assert first["nextPageToken"] == ids[1]
    second = emu.ok(emu.request("GET", f"{ADMIN}/accounts:batchGet", key=False, admin=True,
                                params={"maxResults": 2, "nextPageToken": first["nextPageToken"]}))
    assert [u["localId"] for u in second["users"]] == ids[2:4]
    third = emu.ok(emu.request("GET", f"{ADMIN}/accounts:batchGet", key=False, admin=True,
                               params={"maxResults": 2, "nextPageToken": second["nextPageToken"]}))
    assert [u["localId"] for u in third["users"]] == ids[4:]
    assert "nextPageToken" not in third
    everything = emu.ok(emu.request("GET", f"{ADMIN}/accounts:batchGet", key=False, admin=True,
                                    params={"maxResults": -1}))
    assert [u["localId"] for u in everything["users"]] == ids
    default = emu.ok(emu.request("GET", f"{ADMIN}/accounts:batchGet", key=False, admin=True))
    assert len(default["users"]) == 5


def test_batch_get_of_an_empty_project(emu):
    body = emu.ok(emu.request("GET", f"{ADMIN}/accounts:batchGet", key=False, admin=True))
    assert body == {"kind": "identitytoolkit#DownloadAccountResponse", "users": []}


def test_batch_get_rejects_a_non_numeric_page_size(emu):
    response = emu.request("GET", f"{ADMIN}/accounts:batchGet", key=False, admin=True, params={"maxResults": "many"})
    assert response.status_code == 400
    assert response.json()["error"]["status"] == "INVALID_ARGUMENT"


def test_batch_delete_deletes_disabled_accounts_or_all_with_force(emu):
    emu.ok(emu.admin("", {"localId": "enabled"}))
    emu.ok(emu.admin("", {"localId": "disabled", "disabled": True}))
    body = emu.ok(emu.admin(":batchDelete", {"localIds": ["enabled", "disabled", "missing"]}))
    assert body == {"errors": [{"index": 0, "localId": "enabled",
                                "message": "NOT_DISABLED : Disable the account before batch deletion."}]}
    remaining = emu.ok(emu.admin(":lookup", {"localId": ["enabled", "disabled"]}))["users"]
    assert [u["localId"] for u in remaining] == ["enabled"]
    assert emu.ok(emu.admin(":batchDelete", {"localIds": ["enabled"], "force": True})) == {}
    assert "users" not in emu.ok(emu.admin(":lookup", {"localId": ["enabled"]}))


def test_batch_delete_limits(emu):
    assert_bad_request(emu.admin(":batchDelete", {"localIds": []}), "LOCAL_ID_LIST_EXCEEDS_LIMIT")
    assert_bad_request(emu.admin(":batchDelete", {"localIds": [str(i) for i in range(1001)]}),
                       "LOCAL_ID_LIST_EXCEEDS_LIMIT")


def test_query_counts_and_lists_accounts(emu):
    for i in range(3):
        emu.ok(emu.admin("", {"localId": f"q{i}"}))
    assert emu.ok(emu.admin(":query", {"returnUserInfo": False})) == {"recordsCount": "3"}
    body = emu.ok(emu.admin(":query", {}))
    assert body["recordsCount"] == "3"
    assert [u["localId"] for u in body["userInfo"]] == ["q0", "q1", "q2"]
    body = emu.ok(emu.admin(":query", {"order": "DESC", "sortBy": "USER_ID"}))
    assert [u["localId"] for u in body["userInfo"]] == ["q2", "q1", "q0"]
    same = emu.ok(emu.post(f"{ADMIN}:queryAccounts", {}, key=False, admin=True))
    assert same["recordsCount"] == "3"


@pytest.mark.parametrize("body, message", [
    ({"expression": [{"email": "a@b.c"}]}, "expression is not implemented."),
    ({"limit": "10"}, "limit is not implemented."),
    ({"offset": "5"}, "offset is not implemented."),
    ({"sortBy": "NAME"}, "Only sorting by USER_ID is implemented."),
])
def test_query_features_beyond_the_reference_answer_501(emu, body, message):
    assert_error(emu.admin(":query", body), message, 501)


def test_admin_may_use_another_project(emu):
    other = f"{IDENTITY}/projects/other-project"
    emu.ok(emu.post(f"{other}/accounts", {"localId": "elsewhere"}, key=False, admin=True))
    assert "users" not in emu.ok(emu.admin(":lookup", {"localId": ["elsewhere"]}))
    found = emu.ok(emu.post(f"{other}/accounts:lookup", {"localId": ["elsewhere"]}, key=False, admin=True))
    assert found["users"][0]["localId"] == "elsewhere"
    emu.ok(emu.request("DELETE", "/emulator/v1/projects/other-project/accounts", key=False))
