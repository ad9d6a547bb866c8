"""accounts:sendOobCode, accounts:resetPassword, applying codes with accounts:update, and the
emulator's oobCodes listing and log."""
import os
import time
from urllib.parse import parse_qs, urlparse

import pytest

from emulator_client import assert_bad_request


def send(emu, body, **kwargs):
    return emu.identity("sendOobCode", body, **kwargs)


def test_password_reset_code_is_listed_with_its_link(emu, base_url):
    emu.sign_up("reset@example.com")
    body = emu.ok(send(emu, {"requestType": "PASSWORD_RESET", "email": "Reset@Example.com",
                             "continueUrl": "https://app.example.com/done?x=1"}))
    assert body == {"kind": "identitytoolkit#GetOobConfirmationCodeResponse", "email": "reset@example.com"}
    [code] = emu.new_oob_codes()
    assert code["email"] == "reset@example.com"
    assert code["requestType"] == "PASSWORD_RESET"
    assert len(code["oobCode"]) == 54
    link = urlparse(code["oobLink"])
    assert f"{link.scheme}://{link.netloc}" == base_url
    assert link.path == "/emulator/action"
    query = parse_qs(link.query)
    assert query["mode"] == ["resetPassword"]
    assert query["lang"] == ["en"]
    assert query["oobCode"] == [code["oobCode"]]
    assert query["apiKey"] == ["fake-api-key"]
    assert query["continueUrl"] == ["https://app.example.com/done?x=1"]


def test_reset_code_sets_a_new_password_once(emu):
    user = emu.sign_up("reset@example.com", "old-password")
    emu.ok(send(emu, {"requestType": "PASSWORD_RESET", "email": "reset@example.com"}))
    [code] = emu.new_oob_codes()
    inspected = emu.ok(emu.identity("resetPassword", {"oobCode": code["oobCode"]}))
    assert inspected == {"kind": "identitytoolkit#ResetPasswordResponse", "requestType": "PASSWORD_RESET",
                         "email": "reset@example.com"}
    start = int(time.time())
    while int(time.time()) == start:
        time.sleep(0.02)
    body = emu.ok(emu.identity("resetPassword", {"oobCode": code["oobCode"], "newPassword": "new-password"}))
    assert body["requestType"] == "PASSWORD_RESET"
    assert emu.sign_in("reset@example.com", "new-password").local_id == user.local_id
    assert_bad_request(emu.identity("lookup", {"idToken": user.id_token}), "TOKEN_EXPIRED")
    assert_bad_request(emu.identity("resetPassword", {"oobCode": code["oobCode"], "newPassword": "again-pw"}),
                       "INVALID_OOB_CODE")
    assert emu.new_oob_codes() == []


def test_reset_password_errors(emu):
    emu.sign_up("reset@example.com")
    assert_bad_request(emu.identity("resetPassword", {}), "MISSING_OOB_CODE")
    assert_bad_request(emu.identity("resetPassword", {"oobCode": "nope"}), "INVALID_OOB_CODE")
    emu.ok(send(emu, {"requestType": "PASSWORD_RESET", "email": "reset@example.com"}))
    [code] = emu.new_oob_codes()
    assert_bad_request(emu.identity("resetPassword", {"oobCode": code["oobCode"], "newPassword": "123"}),
                       "WEAK_PASSWORD : Password should be at least 6 characters")


def test_reset_for_an_unknown_email_is_email_not_found(emu):
    assert_bad_request(send(emu, {"requestType": "PASSWORD_RESET", "email": "ghost@example.com"}), "EMAIL_NOT_FOUND")


def test_reset_for_an_unknown_email_with_improved_privacy_looks_sent(emu):
    emu.set_config(emailPrivacyConfig={"enableImprovedEmailPrivacy": True})
    body = emu.ok(send(emu, {"requestType": "PASSWORD_RESET", "email": "ghost@example.com"}))
    assert body == {"kind": "identitytoolkit#GetOobConfirmationCodeResponse", "email": "ghost@example.com"}
    assert emu.new_oob_codes() == []


def test_verify_email_code_marks_the_email_verified(emu):
    user = emu.sign_up("verify@example.com")
    emu.ok(send(emu, {"requestType": "VERIFY_EMAIL", "idToken": user.id_token}))
    [code] = emu.new_oob_codes()
    assert code["requestType"] == "VERIFY_EMAIL" and code["email"] == "verify@example.com"
    assert parse_qs(urlparse(code["oobLink"]).query)["mode"] == ["verifyEmail"]
    body = emu.ok(emu.identity("update", {"oobCode": code["oobCode"]}))
    assert body["emailVerified"] is True
    assert body["email"] == "verify@example.com"
    assert emu.lookup(user.id_token)["emailVerified"] is True
    assert_bad_request(emu.identity("update", {"oobCode": code["oobCode"]}), "INVALID_OOB_CODE")


def test_verify_email_needs_a_valid_id_token(emu):
    assert_bad_request(send(emu, {"requestType": "VERIFY_EMAIL"}), "INVALID_ID_TOKEN")
    anonymous = emu.sign_up_anonymously()
    assert_bad_request(send(emu, {"requestType": "VERIFY_EMAIL", "idToken": anonymous.id_token}), "MISSING_EMAIL")


def test_verify_and_change_email_applies_the_new_address(emu):
    user = emu.sign_up("old@example.com")
    emu.ok(send(emu, {"requestType": "VERIFY_AND_CHANGE_EMAIL", "idToken": user.id_token,
                      "newEmail": "New@Example.com"}))
    [code] = emu.new_oob_codes()
    assert code["newEmail"] == "new@example.com" and code["email"] == "old@example.com"
    inspected = emu.ok(emu.identity("resetPassword", {"oobCode": code["oobCode"]}))
    assert inspected["requestType"] == "VERIFY_AND_CHANGE_EMAIL" and inspected["newEmail"] == "new@example.com"
    body = emu.ok(emu.identity("update", {"oobCode": code["oobCode"]}))
    assert body["email"] == "new@example.com" and body["newEmail"] == "new@example.com"
    assert body["emailVerified"] is True
    assert emu.sign_in("new@example.com", "secret-password").local_id == user.local_id


def test_verify_and_change_email_errors(emu):
    user = emu.sign_up("old@example.com")
    emu.sign_up("taken@example.com")
    assert_bad_request(send(emu, {"requestType": "VERIFY_AND_CHANGE_EMAIL", "idToken": user.id_token}),
                       "MISSING_NEW_EMAIL")
    assert_bad_request(send(emu, {"requestType": "VERIFY_AND_CHANGE_EMAIL", "newEmail": "n@example.com"}),
                       "MISSING_ID_TOKEN")
    assert_bad_request(send(emu, {"requestType": "VERIFY_AND_CHANGE_EMAIL", "idToken": user.id_token,
                                  "newEmail": "taken@example.com"}), "EMAIL_EXISTS")


def test_email_sign_in_code_does_not_reveal_its_email(emu):
    emu.ok(send(emu, {"requestType": "EMAIL_SIGNIN", "email": "Link@Example.com"}))
    [code] = emu.new_oob_codes()
    assert code["email"] == "link@example.com"
    assert parse_qs(urlparse(code["oobLink"]).query)["mode"] == ["signIn"]
    body = emu.ok(emu.identity("resetPassword", {"oobCode": code["oobCode"]}))
    assert body == {"kind": "identitytoolkit#ResetPasswordResponse", "requestType": "EMAIL_SIGNIN"}


def test_send_oob_code_request_errors(emu):
    assert_bad_request(send(emu, {"email": "a@b.c"}), "MISSING_REQ_TYPE")
    assert_bad_request(send(emu, {"requestType": "OOB_REQ_TYPE_UNSPECIFIED"}), "MISSING_REQ_TYPE")
    assert_bad_request(send(emu, {"requestType": "PASSWORD_RESET"}), "MISSING_EMAIL")
    assert_bad_request(send(emu, {"requestType": "EMAIL_SIGNIN"}), "MISSING_EMAIL")
    assert_bad_request(send(emu, {"requestType": "EMAIL_SIGNIN", "email": "a@b.c", "continueUrl": "not a url"}),
                       "INVALID_CONTINUE_URI : ((expected an absolute URI with valid scheme and host))")
    response = send(emu, {"requestType": "OLD_EMAIL_AGREE", "email": "a@b.c"})
    assert response.status_code == 501 and response.json()["error"]["message"] == "OLD_EMAIL_AGREE"


def test_only_admins_get_the_link_in_the_response(emu):
    emu.sign_up("admin-link@example.com")
    assert_bad_request(send(emu, {"requestType": "PASSWORD_RESET", "email": "admin-link@example.com",
                                  "returnOobLink": True}), "INSUFFICIENT_PERMISSION")
    body = emu.ok(emu.admin(":sendOobCode", {"requestType": "PASSWORD_RESET", "email": "admin-link@example.com",
                                             "returnOobLink": True}))
    [code] = emu.new_oob_codes()
    assert body["oobCode"] == code["oobCode"] and body["oobLink"] == code["oobLink"]
    body = emu.ok(emu.admin(":sendOobCode", {"requestType": "VERIFY_EMAIL", "email": "admin-link@example.com",
                                             "returnOobLink": True}))
    assert body["email"] == "admin-link@example.com" and body["oobLink"]
    assert_bad_request(emu.admin(":sendOobCode", {"requestType": "VERIFY_EMAIL", "email": "ghost@example.com",
                                                  "returnOobLink": True}), "USER_NOT_FOUND")


def test_codes_survive_wiping_accounts(emu):
    emu.ok(send(emu, {"requestType": "EMAIL_SIGNIN", "email": "keep@example.com"}))
    [code] = emu.new_oob_codes()
    emu.wipe()
    assert emu.oob_codes()[-1] == code


def test_links_are_logged_readably_without_passwords(emu):
    log_path = os.environ.get("HEARTH_EMULATOR_LOG")
    if not log_path:
        pytest.fail("HEARTH_EMULATOR_LOG is not set: run through scripts/with-emulator")
    emu.sign_up("logged@example.com", "pa55word-in-log")
    emu.ok(send(emu, {"requestType": "PASSWORD_RESET", "email": "logged@example.com"}))
    [code] = emu.new_oob_codes()
    deadline = time.time() + 5
    log = ""
    while time.time() < deadline:
        with open(log_path, encoding="utf-8", errors="replace") as f:
            log = f.read()
        if code["oobCode"] in log:
            break
        time.sleep(0.05)
    assert f"To reset the password for logged@example.com, follow this link: {code['oobLink']}" \
           f"&newPassword=NEW_PASSWORD_HERE" in log
    assert "pa55word-in-log" not in log
