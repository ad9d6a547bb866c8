"""accounts:signInWithPassword, including improved email privacy."""
from emulator_client import assert_bad_request, decode_jwt


def test_correct_password_signs_in_with_tokens(emu):
    created = emu.sign_up("user@example.com", "correct-horse")
    body = emu.ok(emu.identity("signInWithPassword", {"email": "USER@example.com", "password": "correct-horse",
                                                      "returnSecureToken": True}))
    assert body["kind"] == "identitytoolkit#VerifyPasswordResponse"
    assert body["registered"] is True
    assert body["localId"] == created.local_id
    assert body["email"] == "user@example.com"
    assert body["expiresIn"] == "3600"
    _, claims, _ = decode_jwt(body["idToken"])
    assert claims["firebase"]["sign_in_provider"] == "password"
    assert emu.lookup(body["idToken"])["localId"] == created.local_id


def test_sign_in_updates_last_login(emu):
    emu.sign_up("user@example.com", "correct-horse")
    user = emu.sign_in("user@example.com", "correct-horse")
    record = emu.lookup(user.id_token)
    assert int(record["lastLoginAt"]) >= int(record["createdAt"])
    assert record["lastRefreshAt"].endswith("Z")


def test_unknown_email_is_email_not_found(emu):
    assert_bad_request(emu.identity("signInWithPassword", {"email": "nobody@example.com", "password": "123456"}),
                       "EMAIL_NOT_FOUND")


def test_wrong_password_is_invalid_password(emu):
    emu.sign_up("user@example.com", "correct-horse")
    assert_bad_request(emu.identity("signInWithPassword", {"email": "user@example.com", "password": "wrong-horse"}),
                       "INVALID_PASSWORD")


def test_account_without_password_is_invalid_password(emu):
    emu.ok(emu.admin("", {"email": "nopw@example.com"}))
    assert_bad_request(emu.identity("signInWithPassword", {"email": "nopw@example.com", "password": "123456"}),
                       "INVALID_PASSWORD")


def test_disabled_account_cannot_sign_in(emu):
    user = emu.sign_up("user@example.com", "correct-horse")
    emu.ok(emu.admin(":update", {"localId": user.local_id, "disableUser": True}))
    assert_bad_request(emu.identity("signInWithPassword", {"email": "user@example.com", "password": "correct-horse"}),
                       "USER_DISABLED")


def test_missing_fields(emu):
    assert_bad_request(emu.identity("signInWithPassword", {"password": "123456"}), "MISSING_EMAIL")
    assert_bad_request(emu.identity("signInWithPassword", {"email": "bad", "password": "123456"}), "INVALID_EMAIL")
    assert_bad_request(emu.identity("signInWithPassword", {"email": "a@b.c"}), "MISSING_PASSWORD")
    assert_bad_request(emu.identity("signInWithPassword", {"email": "a@b.c", "password": ""}), "MISSING_PASSWORD")


def test_improved_email_privacy_hides_which_part_was_wrong(emu):
    emu.sign_up("user@example.com", "correct-horse")
    emu.set_config(emailPrivacyConfig={"enableImprovedEmailPrivacy": True})
    assert_bad_request(emu.identity("signInWithPassword", {"email": "nobody@example.com", "password": "123456"}),
                       "INVALID_LOGIN_CREDENTIALS")
    assert_bad_request(emu.identity("signInWithPassword", {"email": "user@example.com", "password": "wrong-horse"}),
                       "INVALID_LOGIN_CREDENTIALS")
    assert emu.sign_in("user@example.com", "correct-horse").email == "user@example.com"


def test_captcha_and_legacy_id_token_fields_are_not_implemented(emu):
    emu.sign_up("user@example.com", "correct-horse")
    response = emu.identity("signInWithPassword", {"email": "user@example.com", "password": "correct-horse",
                                                   "captchaResponse": "x"})
    assert response.status_code == 501
    assert response.json()["error"]["status"] == "NOT_IMPLEMENTED"
    response = emu.identity("signInWithPassword", {"email": "user@example.com", "password": "correct-horse",
                                                   "pendingIdToken": "x"})
    assert response.status_code == 501
