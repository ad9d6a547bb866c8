"""accounts:lookup for clients (idToken) and admins (ids, emails, phone numbers)."""
from emulator_client import assert_bad_request


def test_lookup_returns_the_account_of_the_id_token(emu):
    user = emu.sign_up("look@example.com", displayName="Look")
    body = emu.ok(emu.identity("lookup", {"idToken": user.id_token}))
    assert body["kind"] == "identitytoolkit#GetAccountInfoResponse"
    [record] = body["users"]
    assert record["localId"] == user.local_id
    assert record["email"] == "look@example.com"
    assert record["displayName"] == "Look"
    assert record["emailVerified"] is False
    assert record["createdAt"].isdigit() and record["lastLoginAt"].isdigit()
    assert record["validSince"].isdigit()
    assert isinstance(record["passwordUpdatedAt"], int)
    assert record["providerUserInfo"][0]["providerId"] == "password"


def test_anonymous_account_has_no_identities(emu):
    user = emu.sign_up_anonymously()
    record = emu.lookup(user.id_token)
    assert record["localId"] == user.local_id
    assert "email" not in record and "passwordHash" not in record
    assert record.get("providerUserInfo", []) == []


def test_missing_id_token(emu):
    assert_bad_request(emu.identity("lookup", {}), "MISSING_ID_TOKEN")


def test_undecodable_id_token(emu):
    assert_bad_request(emu.identity("lookup", {"idToken": "abc"}), "INVALID_ID_TOKEN")
    assert_bad_request(emu.identity("lookup", {"idToken": "a.b.c"}), "INVALID_ID_TOKEN")


def test_id_token_of_a_deleted_account_is_user_not_found(emu):
    user = emu.sign_up_anonymously()
    emu.ok(emu.identity("delete", {"idToken": user.id_token}))
    assert_bad_request(emu.identity("lookup", {"idToken": user.id_token}), "USER_NOT_FOUND")


def test_id_token_of_a_disabled_account_is_user_disabled(emu):
    user = emu.sign_up_anonymously()
    emu.ok(emu.admin(":update", {"localId": user.local_id, "disableUser": True}))
    assert_bad_request(emu.identity("lookup", {"idToken": user.id_token}), "USER_DISABLED")


def test_admin_looks_accounts_up_by_id_email_and_phone_number(emu):
    a = emu.sign_up("a@example.com")
    b = emu.ok(emu.admin("", {"phoneNumber": "+15555550100"}))["localId"]
    body = emu.ok(emu.admin(":lookup", {"localId": [a.local_id, "missing"], "email": ["a@example.com"],
                                        "phoneNumber": ["+15555550100"]}))
    assert [u["localId"] for u in body["users"]] == [a.local_id, b]


def test_admin_lookup_without_matches_omits_users(emu):
    body = emu.ok(emu.admin(":lookup", {"localId": ["nobody"]}))
    assert body == {"kind": "identitytoolkit#GetAccountInfoResponse"}


def test_admin_lookup_by_linked_identity(emu):
    user = emu.sign_up_anonymously()
    emu.ok(emu.admin(":update", {"localId": user.local_id,
                                 "linkProviderUserInfo": {"providerId": "google.com", "rawId": "g-1"}}))
    body = emu.ok(emu.admin(":lookup", {"federatedUserId": [{"providerId": "google.com", "rawId": "g-1"}]}))
    assert body["users"][0]["localId"] == user.local_id
