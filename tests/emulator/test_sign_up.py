"""accounts:signUp: anonymous accounts, email/password accounts and linking email/password."""
import time

from emulator_client import (PROJECT_ID, assert_bad_request, decode_jwt)


def test_empty_body_creates_an_anonymous_account_with_tokens(emu):
    response = emu.request("POST", "/identitytoolkit.googleapis.com/v1/accounts:signUp", data=b"")
    body = emu.ok(response)
    assert body["kind"] == "identitytoolkit#SignupNewUserResponse"
    assert len(body["localId"]) == 28 and body["localId"].isalnum()
    assert body["expiresIn"] == "3600"
    assert "email" not in body
    header, claims, signature = decode_jwt(body["idToken"])
    assert header == {"alg": "none", "typ": "JWT"}
    assert signature == "" and body["idToken"].endswith(".")
    assert claims["provider_id"] == "anonymous"
    assert claims["firebase"] == {"identities": {}, "sign_in_provider": "anonymous"}
    assert claims["user_id"] == claims["sub"] == body["localId"]
    assert "email" not in claims and "email_verified" not in claims


def test_id_token_carries_firebase_claims(emu):
    before = int(time.time())
    user = emu.sign_up("Ada@Example.com", displayName="Ada")
    _, claims, _ = decode_jwt(user.id_token)
    assert claims["iss"] == f"https://securetoken.google.com/{PROJECT_ID}"
    assert claims["aud"] == PROJECT_ID
    assert claims["sub"] == claims["user_id"] == user.local_id
    assert before <= claims["iat"] <= int(time.time())
    assert claims["exp"] == claims["iat"] + 3600
    assert before <= claims["auth_time"] <= claims["iat"]
    assert claims["email"] == "ada@example.com"
    assert claims["email_verified"] is False
    assert claims["name"] == "Ada"
    assert "provider_id" not in claims
    assert claims["firebase"] == {"identities": {"email": ["ada@example.com"]}, "sign_in_provider": "password"}


def test_email_sign_up_lower_cases_the_email_and_stores_a_password_identity(emu):
    user = emu.sign_up("Grace@Example.COM", "hopper!")
    assert user.email == "grace@example.com"
    record = emu.lookup(user.id_token)
    assert record["email"] == "grace@example.com"
    assert record["emailVerified"] is False
    assert record["providerUserInfo"] == [{
        "providerId": "password", "rawId": "grace@example.com", "federatedId": "grace@example.com",
        "email": "grace@example.com"}]
    assert record["passwordHash"] == f"fakeHash:salt={record['salt']}:password=hopper!"
    assert record["salt"].startswith("fakeSalt") and len(record["salt"]) == 28


def test_signing_up_an_existing_email_in_any_case_fails_with_email_exists(emu):
    emu.sign_up("taken@example.com")
    assert_bad_request(emu.identity("signUp", {"email": "TAKEN@example.com", "password": "123456"}),
                       "EMAIL_EXISTS")


def test_short_password_is_weak(emu):
    assert_bad_request(emu.identity("signUp", {"email": "a@b.c", "password": "12345"}),
                       "WEAK_PASSWORD : Password should be at least 6 characters")


def test_email_without_password_is_missing_password(emu):
    assert_bad_request(emu.identity("signUp", {"email": "a@b.c"}), "MISSING_PASSWORD")


def test_password_without_email_is_missing_email(emu):
    assert_bad_request(emu.identity("signUp", {"password": "123456"}), "MISSING_EMAIL")


def test_malformed_email_is_invalid(emu):
    for email in ["no-at-sign", "two@@example.com", "@example.com", "name@"]:
        assert_bad_request(emu.identity("signUp", {"email": email, "password": "123456"}), "INVALID_EMAIL")


def test_empty_email_with_password_is_an_error_not_an_anonymous_sign_up(emu):
    assert_bad_request(emu.identity("signUp", {"email": "", "password": "123456"}), "MISSING_EMAIL")


def test_clients_may_not_choose_the_local_id(emu):
    assert_bad_request(emu.identity("signUp", {"localId": "mine"}), "UNEXPECTED_PARAMETER : User ID")


def test_linking_email_and_password_upgrades_an_anonymous_account(emu):
    anonymous = emu.sign_up_anonymously()
    body = emu.ok(emu.identity("signUp", {"idToken": anonymous.id_token, "email": "up@example.com",
                                          "password": "upgrade1", "returnSecureToken": True}))
    assert body["localId"] == anonymous.local_id
    assert body["email"] == "up@example.com"
    _, claims, _ = decode_jwt(body["idToken"])
    assert claims["firebase"]["sign_in_provider"] == "password"
    assert "provider_id" not in claims
    # The account is now reachable by password, with the same uid.
    assert emu.sign_in("up@example.com", "upgrade1").local_id == anonymous.local_id


def test_linking_keeps_the_display_name(emu):
    anonymous = emu.sign_up_anonymously()
    emu.ok(emu.identity("update", {"idToken": anonymous.id_token, "displayName": "Kept"}))
    body = emu.ok(emu.identity("signUp", {"idToken": anonymous.id_token, "email": "k@example.com",
                                          "password": "upgrade1"}))
    assert body["displayName"] == "Kept"


def test_linking_an_email_that_belongs_to_another_account_fails(emu):
    emu.sign_up("owner@example.com")
    anonymous = emu.sign_up_anonymously()
    assert_bad_request(emu.identity("signUp", {"idToken": anonymous.id_token, "email": "owner@example.com",
                                               "password": "123456"}), "EMAIL_EXISTS")


def test_linking_with_an_undecodable_id_token_fails(emu):
    assert_bad_request(emu.identity("signUp", {"idToken": "not-a-jwt", "email": "x@example.com",
                                               "password": "123456"}), "INVALID_ID_TOKEN")


def test_each_sign_up_creates_a_distinct_account(emu):
    ids = {emu.sign_up_anonymously().local_id for _ in range(20)}
    assert len(ids) == 20
