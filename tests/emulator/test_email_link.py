"""accounts:signInWithEmailLink: EMAIL_SIGNIN codes from sendOobCode sign in (or create, or link to the
account of an idToken) and are used up, as in Firebase's emulator; code expiry (oobCodeTtlSeconds) is
hearth-emulator's, off by default."""
import time

import pytest

from emulator_client import (IDENTITY, assert_bad_request, decode_jwt, query_of, read_log)


def sign_in_code(emu, email, **extra):
    """An EMAIL_SIGNIN code for `email`, as an admin generates the link."""
    body = emu.ok(emu.post(f"{IDENTITY}/accounts:sendOobCode",
                           {"email": email, "requestType": "EMAIL_SIGNIN", "returnOobLink": True, **extra},
                           key=False, admin=True))
    return body["oobCode"]


def sign_in_methods(emu, email):
    return emu.ok(emu.identity("createAuthUri", {"identifier": email, "continueUri": "http://example.com/"}))[
        "signinMethods"]


def email_link(emu, email, code, **extra):
    return emu.identity("signInWithEmailLink", {"email": email, "oobCode": code, **extra})


def test_a_new_email_gets_an_account_signed_in_with_the_password_provider(emu):
    emu.ok(emu.identity("sendOobCode", {"requestType": "EMAIL_SIGNIN", "email": "new-link@example.com",
                                        "continueUrl": "https://app.example.com/finish"}))
    [oob] = emu.new_oob_codes()
    assert oob["email"] == "new-link@example.com" and oob["requestType"] == "EMAIL_SIGNIN"
    assert query_of(oob["oobLink"])["mode"] == "signIn"
    assert "To sign in as new-link@example.com, follow this link: " + oob["oobLink"] in read_log(oob["oobLink"])

    body = emu.ok(email_link(emu, "new-link@example.com", oob["oobCode"]))
    assert body["kind"] == "identitytoolkit#EmailLinkSigninResponse"
    assert body["email"] == "new-link@example.com" and body["isNewUser"] is True
    assert body["expiresIn"] == "3600" and body["refreshToken"]
    header, claims, signature = decode_jwt(body["idToken"])
    assert header["alg"] == "none" and signature == ""
    # The provider of an email link is (as in production) "password".
    assert claims["firebase"]["sign_in_provider"] == "password" and "provider_id" not in claims
    assert claims["email"] == "new-link@example.com" and claims["email_verified"] is True
    user = emu.lookup(body["idToken"])
    assert user["emailLinkSignin"] is True and user["emailVerified"] is True and "passwordHash" not in user
    assert sign_in_methods(emu, "new-link@example.com") == ["emailLink"]
    # The code is used up.
    assert_bad_request(email_link(emu, "new-link@example.com", oob["oobCode"]), "INVALID_OOB_CODE")
    assert emu.new_oob_codes() == []


def test_an_existing_account_signs_in_and_gains_email_link_sign_in(emu):
    user = emu.sign_up("bob-link@example.com")
    body = emu.ok(email_link(emu, "bob-link@example.com", sign_in_code(emu, "bob-link@example.com")))
    assert body["localId"] == user.local_id and body["isNewUser"] is False
    assert emu.lookup(user.id_token)["emailLinkSignin"] is True
    assert sorted(sign_in_methods(emu, "bob-link@example.com")) == ["emailLink", "password"]


def test_the_email_is_compared_in_lower_case(emu):
    code = sign_in_code(emu, "Mixed.Case@Example.com")
    body = emu.ok(email_link(emu, "MIXED.case@example.COM", code))
    assert body["email"] == "mixed.case@example.com"


@pytest.mark.parametrize("body, message", [
    ({"oobCode": "x"}, "MISSING_EMAIL"),
    ({"email": "a@example.com"}, "MISSING_OOB_CODE"),
    ({"email": "a@example.com", "oobCode": "invalid"}, "INVALID_OOB_CODE"),
])
def test_missing_and_unknown_codes(emu, body, message):
    assert_bad_request(emu.identity("signInWithEmailLink", body), message)


def test_a_code_of_another_kind_is_invalid_here(emu):
    emu.sign_up("reset-kind@example.com")
    emu.ok(emu.identity("sendOobCode", {"requestType": "PASSWORD_RESET", "email": "reset-kind@example.com"}))
    [oob] = emu.new_oob_codes()
    assert_bad_request(email_link(emu, "reset-kind@example.com", oob["oobCode"]), "INVALID_OOB_CODE")
    assert len(emu.new_oob_codes()) == 1


def test_an_email_other_than_the_code_s_is_refused_and_the_code_kept(emu):
    code = sign_in_code(emu, "alice-link@example.com")
    assert_bad_request(email_link(emu, "NOT-alice-link@example.com", code),
                       "INVALID_EMAIL : The email provided does not match the sign-in email address.")
    emu.ok(email_link(emu, "alice-link@example.com", code))


def test_a_disabled_account_is_refused(emu):
    user = emu.sign_up("disabled-link@example.com")
    code = sign_in_code(emu, "disabled-link@example.com")
    emu.ok(emu.admin(":update", {"localId": user.local_id, "disableUser": True}))
    assert_bad_request(email_link(emu, "disabled-link@example.com", code), "USER_DISABLED")


def test_linking_moves_the_account_to_the_new_email(emu):
    user = emu.sign_up("old-address@example.com")
    code = sign_in_code(emu, "new-address@example.com")
    body = emu.ok(email_link(emu, "new-address@example.com", code, idToken=user.id_token))
    assert body["localId"] == user.local_id and body["email"] == "new-address@example.com"
    assert body["isNewUser"] is False
    assert sorted(sign_in_methods(emu, "new-address@example.com")) == ["emailLink", "password"]
    assert sign_in_methods(emu, "old-address@example.com") == []


def test_linking_an_email_to_a_phone_account(emu):
    phone = emu.sign_in_with_phone("+15555550170")
    body = emu.ok(email_link(emu, "phone-link@example.com", sign_in_code(emu, "phone-link@example.com"),
                             idToken=phone["idToken"]))
    assert body["localId"] == phone["localId"]
    # Phone sign-in has nothing to do with the email: only the link is listed.
    assert sign_in_methods(emu, "phone-link@example.com") == ["emailLink"]
    record = emu.lookup(body["idToken"])
    assert record["phoneNumber"] == "+15555550170" and record["email"] == "phone-link@example.com"


def test_linking_an_email_another_account_has_is_email_exists_and_uses_the_code(emu):
    phone = emu.sign_in_with_phone("+15555550171")
    emu.sign_up("taken-link@example.com")
    code = sign_in_code(emu, "taken-link@example.com")
    assert_bad_request(email_link(emu, "taken-link@example.com", code, idToken=phone["idToken"]), "EMAIL_EXISTS")
    # As in Firebase's emulator, the code was used up before the accounts were compared.
    assert_bad_request(email_link(emu, "taken-link@example.com", code), "INVALID_OOB_CODE")


def test_linking_to_a_disabled_account_is_refused(emu):
    user = emu.sign_up("disabled-target@example.com")
    emu.ok(emu.admin(":update", {"localId": user.local_id, "disableUser": True}))
    code = sign_in_code(emu, "disabled-target@example.com")
    assert_bad_request(email_link(emu, "disabled-target@example.com", code, idToken=user.id_token), "USER_DISABLED")


def test_an_invalid_id_token_is_refused_first(emu):
    assert_bad_request(emu.identity("signInWithEmailLink", {"idToken": "not-a-token"}), "INVALID_ID_TOKEN")


def test_an_account_with_second_factors_gets_a_pending_credential(emu):
    user = emu.sign_up("mfa-link@example.com", mfaInfo=[{"displayName": "Cell Phone", "phoneInfo": "+15555550100"}])
    body = emu.ok(email_link(emu, "mfa-link@example.com", sign_in_code(emu, "mfa-link@example.com"),
                             idToken=user.id_token))
    assert "idToken" not in body and "refreshToken" not in body
    assert body["email"] == "mfa-link@example.com" and body["localId"] == user.local_id
    [hint] = body["mfaInfo"]
    assert hint["phoneInfo"] == "+*******0100" and hint["displayName"] == "Cell Phone"
    # The second factor completes it, with "password" as the first factor.
    start = emu.ok(emu.mfa("mfaSignIn:start", {"mfaPendingCredential": body["mfaPendingCredential"],
                                                "mfaEnrollmentId": hint["mfaEnrollmentId"]}))
    session = start["phoneResponseInfo"]["sessionInfo"]
    done = emu.ok(emu.mfa("mfaSignIn:finalize", {
        "mfaPendingCredential": body["mfaPendingCredential"],
        "phoneVerificationInfo": {"sessionInfo": session, "code": emu.verification_code(session)["code"]}}))
    firebase = decode_jwt(done["idToken"])[1]["firebase"]
    assert firebase["sign_in_provider"] == "password" and firebase["sign_in_second_factor"] == "phone"


def test_the_legacy_path_signs_in_too(emu):
    code = sign_in_code(emu, "legacy-link@example.com")
    body = emu.ok(emu.post("/www.googleapis.com/identitytoolkit/v3/relyingparty/emailLinkSignin",
                           {"email": "legacy-link@example.com", "oobCode": code}))
    assert body["kind"] == "identitytoolkit#EmailLinkSigninResponse" and body["isNewUser"] is True


def test_inspecting_an_email_sign_in_code_does_not_reveal_the_email(emu):
    code = sign_in_code(emu, "secret-address@example.com")
    assert emu.ok(emu.identity("resetPassword", {"oobCode": code})) == {
        "kind": "identitytoolkit#ResetPasswordResponse", "requestType": "EMAIL_SIGNIN"}


def test_codes_expire_when_the_project_says_so(emu):
    emu.set_config(oobCodeTtlSeconds=1)
    code = sign_in_code(emu, "expiring@example.com")
    time.sleep(1.2)
    assert_bad_request(email_link(emu, "expiring@example.com", code), "EXPIRED_OOB_CODE")
    emu.set_config(oobCodeTtlSeconds=0)
    # Expiry is checked on use: with the limit off again the same code works.
    emu.ok(email_link(emu, "expiring@example.com", code))


def test_expired_codes_are_refused_by_every_endpoint_that_takes_codes(emu):
    user = emu.sign_up("expired-all@example.com")
    emu.ok(emu.identity("sendOobCode", {"requestType": "PASSWORD_RESET", "email": "expired-all@example.com"}))
    emu.ok(emu.identity("sendOobCode", {"requestType": "VERIFY_EMAIL", "idToken": user.id_token}))
    reset, verify = [c["oobCode"] for c in emu.new_oob_codes()]
    emu.set_config(oobCodeTtlSeconds=1)
    time.sleep(1.2)
    assert_bad_request(emu.identity("resetPassword", {"oobCode": reset, "newPassword": "another-one"}),
                       "EXPIRED_OOB_CODE")
    assert_bad_request(emu.identity("update", {"oobCode": verify}), "EXPIRED_OOB_CODE")
    assert emu.lookup(user.id_token).get("emailVerified") is False
