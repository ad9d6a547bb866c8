"""accounts:update: profile, email and password changes with token revocation, unlinking,
out-of-band codes, and the admin-only fields."""
import json
import time

import pytest

from emulator_client import assert_bad_request, decode_jwt


def update(emu, body):
    return emu.identity("update", body)


def wait_for_next_second():
    """validSince and iat have one-second resolution: move to a new second so tokens issued
    before a change are strictly older than it."""
    start = int(time.time())
    while int(time.time()) == start:
        time.sleep(0.02)


def test_profile_update_returns_the_account_without_new_tokens(emu):
    user = emu.sign_up("p@example.com")
    body = emu.ok(update(emu, {"idToken": user.id_token, "displayName": "Pat", "photoUrl": "https://x/p.png",
                               "returnSecureToken": True}))
    assert body["kind"] == "identitytoolkit#SetAccountInfoResponse"
    assert body["localId"] == user.local_id
    assert body["displayName"] == "Pat"
    assert body["photoUrl"] == "https://x/p.png"
    assert body["email"] == "p@example.com"
    assert body["emailVerified"] is False
    assert body["providerUserInfo"][0]["displayName"] == "Pat"
    assert "idToken" not in body and "refreshToken" not in body
    # The old token stays valid and the next token shows the profile.
    _, claims, _ = decode_jwt(emu.ok(emu.refresh(user.refresh_token))["id_token"])
    assert claims["name"] == "Pat" and claims["picture"] == "https://x/p.png"


def test_delete_attribute_clears_display_name_and_photo(emu):
    user = emu.sign_up("p@example.com", displayName="Pat")
    emu.ok(update(emu, {"idToken": user.id_token, "photoUrl": "https://x/p.png"}))
    body = emu.ok(update(emu, {"idToken": user.id_token, "deleteAttribute": ["DISPLAY_NAME", "PHOTO_URL"]}))
    assert "displayName" not in body and "photoUrl" not in body
    record = emu.lookup(user.id_token)
    assert "displayName" not in record and "photoUrl" not in record


def test_password_change_revokes_older_id_tokens_and_returns_new_ones(emu):
    user = emu.sign_up("pw@example.com", "old-password")
    wait_for_next_second()
    body = emu.ok(update(emu, {"idToken": user.id_token, "password": "new-password", "returnSecureToken": True}))
    assert body["expiresIn"] == "3600"
    # The token issued in the same second as the change is valid...
    assert emu.lookup(body["idToken"])["localId"] == user.local_id
    # ...the one from before is revoked.
    assert_bad_request(emu.identity("lookup", {"idToken": user.id_token}), "TOKEN_EXPIRED")
    record = emu.lookup(body["idToken"])
    assert int(record["validSince"]) == decode_jwt(body["idToken"])[1]["iat"]
    assert_bad_request(emu.identity("signInWithPassword", {"email": "pw@example.com", "password": "old-password"}),
                       "INVALID_PASSWORD")
    assert emu.sign_in("pw@example.com", "new-password").local_id == user.local_id


def test_refresh_tokens_survive_a_password_change(emu):
    user = emu.sign_up("pw@example.com", "old-password")
    wait_for_next_second()
    emu.ok(update(emu, {"idToken": user.id_token, "password": "new-password"}))
    fresh = emu.ok(emu.refresh(user.refresh_token))
    assert emu.lookup(fresh["id_token"])["localId"] == user.local_id


def test_email_change_revokes_tokens_and_needs_verification_again(emu):
    user = emu.sign_up("before@example.com")
    wait_for_next_second()
    body = emu.ok(update(emu, {"idToken": user.id_token, "email": "After@Example.com"}))
    assert body["email"] == "after@example.com"
    assert body["newEmail"] == "after@example.com"
    assert body["emailVerified"] is False
    assert body["idToken"]
    assert_bad_request(emu.identity("lookup", {"idToken": user.id_token}), "TOKEN_EXPIRED")
    _, claims, _ = decode_jwt(body["idToken"])
    assert claims["email"] == "after@example.com"
    assert claims["firebase"]["identities"] == {"email": ["after@example.com"]}
    record = emu.lookup(body["idToken"])
    assert record["initialEmail"] == "before@example.com"
    # Changing the email of a password account sends a recovery link to the old address.
    [recover] = [c for c in emu.new_oob_codes() if c["requestType"] == "RECOVER_EMAIL"]
    assert recover["email"] == "before@example.com"


def test_email_change_to_a_taken_email_fails(emu):
    emu.sign_up("taken@example.com")
    user = emu.sign_up("mine@example.com")
    assert_bad_request(update(emu, {"idToken": user.id_token, "email": "taken@example.com"}), "EMAIL_EXISTS")
    assert_bad_request(update(emu, {"idToken": user.id_token, "email": "not-an-email"}), "INVALID_EMAIL")


def test_weak_new_password(emu):
    user = emu.sign_up("pw@example.com")
    assert_bad_request(update(emu, {"idToken": user.id_token, "password": "short"}),
                       "WEAK_PASSWORD : Password should be at least 6 characters")


def test_unlinking_the_password_provider_removes_email_and_password(emu):
    user = emu.sign_up("unlink@example.com")
    body = emu.ok(update(emu, {"idToken": user.id_token, "deleteProvider": ["password"]}))
    assert "email" not in body
    assert body["providerUserInfo"] == []
    assert "passwordHash" not in body
    assert_bad_request(emu.identity("signInWithPassword", {"email": "unlink@example.com", "password": "x123456"}),
                       "EMAIL_NOT_FOUND")


def test_unlinking_a_linked_identity(emu):
    user = emu.sign_up("fed@example.com")
    emu.ok(emu.admin(":update", {"localId": user.local_id,
                                 "linkProviderUserInfo": {"providerId": "github.com", "rawId": "gh-1",
                                                          "email": "gh@example.com"}}))
    body = emu.ok(update(emu, {"idToken": user.id_token, "deleteProvider": ["github.com"]}))
    assert [p["providerId"] for p in body["providerUserInfo"]] == ["password"]


def test_update_without_id_token_or_code_is_unsupported(emu):
    assert_bad_request(update(emu, {"displayName": "x"}), "INVALID_REQ_TYPE : Unsupported request parameters.")


def test_clients_cannot_set_custom_claims_or_disable_themselves(emu):
    user = emu.sign_up_anonymously()
    assert_bad_request(update(emu, {"idToken": user.id_token, "customAttributes": "{}"}), "INSUFFICIENT_PERMISSION")
    assert_bad_request(emu.admin(":update", {"idToken": user.id_token, "localId": user.local_id,
                                             "disableUser": True}), "OPERATION_NOT_ALLOWED")


def test_expired_or_foreign_tokens_are_rejected(emu):
    assert_bad_request(update(emu, {"idToken": "x.y.z", "displayName": "n"}), "INVALID_ID_TOKEN")


def test_admin_sets_custom_claims_that_appear_in_the_next_token(emu):
    user = emu.sign_up("claims@example.com")
    body = emu.ok(emu.admin(":update", {"localId": user.local_id,
                                        "customAttributes": json.dumps({"role": "admin", "tier": 2})}))
    assert body["localId"] == user.local_id
    assert emu.lookup(user.id_token)["customAttributes"] == json.dumps({"role": "admin", "tier": 2})
    _, claims, _ = decode_jwt(emu.ok(emu.refresh(user.refresh_token))["id_token"])
    assert claims["role"] == "admin" and claims["tier"] == 2
    # Reserved claims still win over custom ones of the same name.
    assert claims["email"] == "claims@example.com"


@pytest.mark.parametrize("attributes, message", [
    ("x" * 1001, "CLAIMS_TOO_LARGE"),
    ("not json", "INVALID_CLAIMS"),
    ("[1, 2]", "INVALID_CLAIMS"),
    ('{"sub": "someone"}', "FORBIDDEN_CLAIM : sub"),
])
def test_admin_custom_claims_are_validated(emu, attributes, message):
    user = emu.sign_up_anonymously()
    assert_bad_request(emu.admin(":update", {"localId": user.local_id, "customAttributes": attributes}), message)


def test_admin_disables_and_enables_an_account(emu):
    user = emu.sign_up("d@example.com")
    body = emu.ok(emu.admin(":update", {"localId": user.local_id, "disableUser": True}))
    assert body["localId"] == user.local_id
    assert_bad_request(emu.refresh(user.refresh_token), "USER_DISABLED")
    emu.ok(emu.admin(":update", {"localId": user.local_id, "disableUser": False}))
    assert emu.sign_in("d@example.com", "secret-password").local_id == user.local_id


def test_admin_marks_the_email_verified(emu):
    user = emu.sign_up("v@example.com")
    body = emu.ok(emu.admin(":update", {"localId": user.local_id, "emailVerified": True}))
    assert body["emailVerified"] is True
    _, claims, _ = decode_jwt(emu.ok(emu.refresh(user.refresh_token))["id_token"])
    assert claims["email_verified"] is True


def test_admin_revokes_tokens_with_valid_since(emu):
    user = emu.sign_up("r@example.com")
    emu.ok(emu.admin(":update", {"localId": user.local_id, "validSince": str(int(time.time()) + 5)}))
    assert_bad_request(emu.identity("lookup", {"idToken": user.id_token}), "TOKEN_EXPIRED")


def test_admin_update_needs_an_existing_local_id(emu):
    assert_bad_request(emu.admin(":update", {"displayName": "x"}), "MISSING_LOCAL_ID")
    assert_bad_request(emu.admin(":update", {"localId": "nobody", "displayName": "x"}), "USER_NOT_FOUND")


def test_admin_phone_number_becomes_the_phone_identity(emu):
    user = emu.sign_up_anonymously()
    body = emu.ok(emu.admin(":update", {"localId": user.local_id, "phoneNumber": "+15555550101"}))
    assert {"providerId": "phone", "rawId": "+15555550101", "phoneNumber": "+15555550101"} in body["providerUserInfo"]
    assert_bad_request(emu.admin(":update", {"localId": user.local_id, "phoneNumber": "5555550101"}),
                       "INVALID_PHONE_NUMBER : Invalid format.")
    other = emu.sign_up_anonymously()
    assert_bad_request(emu.admin(":update", {"localId": other.local_id, "phoneNumber": "+15555550101"}),
                       "PHONE_NUMBER_EXISTS")


def test_linking_a_provider_needs_provider_and_raw_id(emu):
    user = emu.sign_up_anonymously()
    assert_bad_request(emu.admin(":update", {"localId": user.local_id, "linkProviderUserInfo": {"rawId": "1"}}),
                       "MISSING_PROVIDER_ID")
    assert_bad_request(emu.admin(":update", {"localId": user.local_id,
                                             "linkProviderUserInfo": {"providerId": "google.com"}}),
                       "MISSING_RAW_ID")


def test_linked_identities_appear_in_the_token(emu):
    user = emu.sign_up("id@example.com")
    emu.ok(emu.admin(":update", {"localId": user.local_id,
                                 "linkProviderUserInfo": {"providerId": "google.com", "rawId": "g-7"}}))
    _, claims, _ = decode_jwt(emu.ok(emu.refresh(user.refresh_token))["id_token"])
    assert claims["firebase"]["identities"] == {"email": ["id@example.com"], "google.com": ["g-7"]}


def test_unimplemented_fields_answer_501(emu):
    user = emu.sign_up_anonymously()
    for body in [{"provider": ["x"]}, {"upgradeToFederatedLogin": True}, {"deleteAttribute": ["PROVIDER"]}]:
        response = update(emu, {"idToken": user.id_token, **body})
        assert response.status_code == 501, body
        assert response.json()["error"]["status"] == "NOT_IMPLEMENTED"
