"""Signing in to an account with second factors: the first factor (password or provider) answers 200
with mfaPendingCredential and masked hints instead of tokens, and v2 mfaSignIn:start / :finalize
complete the sign-in with an SMS code or (beyond Firebase's emulator) a TOTP code (emulator-reference
§1b, §4)."""
import base64
import json
import time

import pytest

from emulator_client import assert_bad_request, decode_jwt, read_log, totp_code

PASSWORD = "secret-password"
GOOGLE_CLAIMS = {"sub": "g-mfa", "email": "g-mfa@example.com", "email_verified": True}


def with_phone_factor(emu, email, number="+15555550100", display_name="Work phone") -> str:
    """A verified password account with one SMS factor; its mfaEnrollmentId."""
    local_id = emu.ok(emu.admin("", {"email": email, "password": PASSWORD, "emailVerified": True}))["localId"]
    emu.ok(emu.admin(":update", {"localId": local_id, "mfa": {"enrollments": [
        {"mfaEnrollmentId": "phone-factor", "phoneInfo": number, "displayName": display_name,
         "enrolledAt": "2024-05-06T07:08:09.123Z"}]}}))
    return "phone-factor"


def with_totp_factor(emu, id_token) -> tuple[str, str]:
    """Enrolls an authenticator for the account of `id_token`: (mfaEnrollmentId, shared secret)."""
    session = emu.ok(emu.mfa("mfaEnrollment:start", {"idToken": id_token, "totpEnrollmentInfo": {}}))["totpSessionInfo"]
    enrolled = emu.ok(emu.mfa("mfaEnrollment:finalize", {
        "idToken": id_token, "displayName": "Authenticator",
        "totpVerificationInfo": {"sessionInfo": session["sessionInfo"],
                                 "verificationCode": totp_code(session["sharedSecretKey"])}}))
    factor = [f for f in emu.lookup(enrolled["idToken"])["mfaInfo"] if "totpInfo" in f][0]
    return factor["mfaEnrollmentId"], session["sharedSecretKey"]


def password_first_factor(emu, email) -> dict:
    return emu.ok(emu.identity("signInWithPassword", {"email": email, "password": PASSWORD,
                                                      "returnSecureToken": True}))


def start_sms(emu, pending, enrollment_id, **info) -> str:
    body = {"mfaPendingCredential": pending, "mfaEnrollmentId": enrollment_id}
    if info:
        body["phoneSignInInfo"] = info
    return emu.ok(emu.mfa("mfaSignIn:start", body))["phoneResponseInfo"]["sessionInfo"]


def finish_sms(emu, pending, session_info, **info):
    code = emu.verification_code(session_info)["code"]
    return emu.mfa("mfaSignIn:finalize", {"mfaPendingCredential": pending, "phoneVerificationInfo": {
        "sessionInfo": session_info, "code": code, **info}})


def finish_totp(emu, pending, enrollment_id, code):
    return emu.mfa("mfaSignIn:finalize", {"mfaPendingCredential": pending, "mfaEnrollmentId": enrollment_id,
                                          "totpVerificationInfo": {"verificationCode": code}})


# --- the first factor ---------------------------------------------------------------------------

def test_a_password_sign_in_needing_a_second_factor_answers_a_pending_credential_and_masked_hints(emu):
    with_phone_factor(emu, "pending@example.com")
    body = password_first_factor(emu, "pending@example.com")
    assert "idToken" not in body and "refreshToken" not in body and "expiresIn" not in body
    assert body["kind"] == "identitytoolkit#VerifyPasswordResponse" and body["registered"] is True
    assert body["email"] == "pending@example.com" and body["localId"]
    assert body["mfaInfo"] == [{"mfaEnrollmentId": "phone-factor", "displayName": "Work phone",
                                "enrolledAt": "2024-05-06T07:08:09.123Z", "phoneInfo": "+*******0100"}]
    assert body["mfaPendingCredential"]


def test_the_pending_credential_is_the_references_base64_record(emu):
    with_phone_factor(emu, "pending-shape@example.com")
    body = password_first_factor(emu, "pending-shape@example.com")
    record = json.loads(base64.b64decode(body["mfaPendingCredential"]))
    assert record == {"_AuthEmulatorMfaPendingCredential": "DO NOT MODIFY", "localId": body["localId"],
                      "signInProvider": "password", "projectId": "demo-hearth"}


def last_login_at(emu, local_id) -> str:
    [record] = emu.ok(emu.admin(":lookup", {"localId": [local_id]}))["users"]
    return record["lastLoginAt"]


def test_the_first_factor_alone_does_not_count_as_a_sign_in(emu):
    with_phone_factor(emu, "last-login@example.com")
    local_id = emu.ok(emu.admin(":lookup", {"email": ["last-login@example.com"]}))["users"][0]["localId"]
    before = last_login_at(emu, local_id)
    time.sleep(0.02)
    password_first_factor(emu, "last-login@example.com")
    assert last_login_at(emu, local_id) == before


def test_a_wrong_password_is_still_refused_before_any_second_factor(emu):
    with_phone_factor(emu, "wrong-first@example.com")
    assert_bad_request(emu.identity("signInWithPassword", {"email": "wrong-first@example.com",
                                                           "password": "nope-nope"}), "INVALID_PASSWORD")


def test_hints_mask_every_digit_but_the_last_four_and_show_totp_factors(emu):
    user = emu.verified_user("hints@example.com")
    emu.ok(emu.admin(":update", {"localId": user.local_id, "mfa": {"enrollments": [
        {"mfaEnrollmentId": "uk", "phoneInfo": "+447700900123"}]}}))
    totp_id, _ = with_totp_factor(emu, user.id_token)
    hints = password_first_factor(emu, "hints@example.com")["mfaInfo"]
    assert hints[0]["phoneInfo"] == "+********0123"
    assert hints[1] == {"mfaEnrollmentId": totp_id, "displayName": "Authenticator",
                        "enrolledAt": hints[1]["enrolledAt"], "totpInfo": {}}


def test_a_provider_sign_in_needing_a_second_factor_answers_a_pending_credential(emu):
    first = emu.ok(emu.sign_in_with_idp("google.com", GOOGLE_CLAIMS))
    emu.ok(emu.admin(":update", {"localId": first["localId"], "mfa": {"enrollments": [
        {"mfaEnrollmentId": "g-phone", "phoneInfo": "+15555550250"}]}}))
    body = emu.ok(emu.sign_in_with_idp("google.com", GOOGLE_CLAIMS))
    assert "idToken" not in body and "refreshToken" not in body
    assert body["providerId"] == "google.com" and body["localId"] == first["localId"]
    assert body["mfaInfo"][0]["phoneInfo"] == "+*******0250"
    record = json.loads(base64.b64decode(body["mfaPendingCredential"]))
    assert record["signInProvider"] == "google.com"


def test_sign_up_with_an_id_token_is_not_challenged(emu):
    user = emu.verified_user("link-no-mfa@example.com")
    with_totp_factor(emu, user.id_token)
    body = emu.ok(emu.identity("signUp", {"idToken": user.id_token, "email": "link-no-mfa-2@example.com",
                                          "password": PASSWORD}))
    assert body["idToken"] and "mfaPendingCredential" not in body


# --- SMS second factor --------------------------------------------------------------------------

def test_an_sms_second_factor_completes_a_password_sign_in(emu):
    factor = with_phone_factor(emu, "sms-sign-in@example.com", number="+15555550251")
    pending = password_first_factor(emu, "sms-sign-in@example.com")
    session_info = start_sms(emu, pending["mfaPendingCredential"], factor)
    entry = emu.verification_code(session_info)
    assert entry["phoneNumber"] == "+15555550251"
    assert f"To sign in with MFA using +15555550251, use the code {entry['code']}." in read_log(until=entry["code"])

    body = emu.ok(finish_sms(emu, pending["mfaPendingCredential"], session_info))
    assert set(body) == {"idToken", "refreshToken"}
    _, claims, _ = decode_jwt(body["idToken"])
    assert claims["sub"] == pending["localId"]
    assert claims["firebase"]["sign_in_provider"] == "password"
    assert claims["firebase"]["sign_in_second_factor"] == "phone"
    assert claims["firebase"]["second_factor_identifier"] == factor
    assert abs(int(last_login_at(emu, pending["localId"])) / 1000 - time.time()) < 60
    # The code is used up.
    assert_bad_request(emu.mfa("mfaSignIn:finalize", {
        "mfaPendingCredential": pending["mfaPendingCredential"],
        "phoneVerificationInfo": {"sessionInfo": session_info, "code": entry["code"]}}), "INVALID_SESSION_INFO")


def test_the_second_factor_claims_survive_a_refresh(emu):
    factor = with_phone_factor(emu, "sms-refresh@example.com")
    pending = password_first_factor(emu, "sms-refresh@example.com")["mfaPendingCredential"]
    body = emu.ok(finish_sms(emu, pending, start_sms(emu, pending, factor)))
    firebase = decode_jwt(emu.ok(emu.refresh(body["refreshToken"]))["id_token"])[1]["firebase"]
    assert firebase["sign_in_second_factor"] == "phone" and firebase["second_factor_identifier"] == factor


@pytest.mark.parametrize("stated", ["+15555550252", "+*******0252"])
def test_finalize_accepts_the_real_or_the_masked_number(emu, stated):
    factor = with_phone_factor(emu, "masked@example.com", number="+15555550252")
    pending = password_first_factor(emu, "masked@example.com")["mfaPendingCredential"]
    session_info = start_sms(emu, pending, factor, phoneNumber="+*******0252")
    emu.ok(finish_sms(emu, pending, session_info, phoneNumber=stated))


def test_finalize_refuses_a_number_the_code_was_not_sent_to(emu):
    factor = with_phone_factor(emu, "other-number@example.com", number="+15555550253")
    pending = password_first_factor(emu, "other-number@example.com")["mfaPendingCredential"]
    session_info = start_sms(emu, pending, factor)
    assert_bad_request(finish_sms(emu, pending, session_info, phoneNumber="+15555550254"),
                       "INVALID_PHONE_NUMBER : ((The phone number is not the one the code was sent to.))")
    emu.ok(finish_sms(emu, pending, session_info))


def test_an_sms_second_factor_completes_a_provider_sign_in(emu):
    first = emu.ok(emu.sign_in_with_idp("google.com", GOOGLE_CLAIMS))
    session_info = emu.ok(emu.mfa("mfaEnrollment:start", {
        "idToken": first["idToken"], "phoneEnrollmentInfo": {"phoneNumber": "+15555550255"}}))["phoneSessionInfo"]
    emu.ok(emu.mfa("mfaEnrollment:finalize", {"idToken": first["idToken"], "phoneVerificationInfo": {
        "sessionInfo": session_info["sessionInfo"],
        "code": emu.verification_code(session_info["sessionInfo"])["code"]}}))

    pending = emu.ok(emu.sign_in_with_idp("google.com", GOOGLE_CLAIMS))
    factor = pending["mfaInfo"][0]["mfaEnrollmentId"]
    body = emu.ok(finish_sms(emu, pending["mfaPendingCredential"],
                             start_sms(emu, pending["mfaPendingCredential"], factor)))
    firebase = decode_jwt(body["idToken"])[1]["firebase"]
    assert firebase["sign_in_provider"] == "google.com"
    assert firebase["sign_in_second_factor"] == "phone" and firebase["second_factor_identifier"] == factor


def test_a_wrong_sms_code_is_invalid(emu):
    factor = with_phone_factor(emu, "sms-wrong@example.com")
    pending = password_first_factor(emu, "sms-wrong@example.com")["mfaPendingCredential"]
    session_info = start_sms(emu, pending, factor)
    code = emu.verification_code(session_info)["code"]
    assert_bad_request(emu.mfa("mfaSignIn:finalize", {"mfaPendingCredential": pending, "phoneVerificationInfo": {
        "sessionInfo": session_info, "code": "000000" if code != "000000" else "111111"}}), "INVALID_CODE")


def test_an_expired_sms_session_cannot_finish_the_sign_in(emu):
    emu.set_config(smsCodeTtlSeconds=1)
    factor = with_phone_factor(emu, "sms-expired@example.com")
    pending = password_first_factor(emu, "sms-expired@example.com")["mfaPendingCredential"]
    session_info = start_sms(emu, pending, factor)
    time.sleep(1.3)
    assert_bad_request(finish_sms(emu, pending, session_info), "SESSION_EXPIRED")


def test_a_first_factor_code_cannot_finish_a_second_factor_sign_in(emu):
    with_phone_factor(emu, "sms-purpose@example.com", number="+15555550256")
    pending = password_first_factor(emu, "sms-purpose@example.com")["mfaPendingCredential"]
    assert_bad_request(finish_sms(emu, pending, emu.send_code("+15555550256")), "INVALID_SESSION_INFO")


def test_another_accounts_second_factor_session_does_not_fit(emu):
    factor = with_phone_factor(emu, "sms-a@example.com", number="+15555550257")
    with_phone_factor(emu, "sms-b@example.com", number="+15555550258")
    pending_a = password_first_factor(emu, "sms-a@example.com")["mfaPendingCredential"]
    pending_b = password_first_factor(emu, "sms-b@example.com")["mfaPendingCredential"]
    assert_bad_request(finish_sms(emu, pending_b, start_sms(emu, pending_a, factor)), "INVALID_SESSION_INFO")


def test_a_factor_withdrawn_meanwhile_is_not_found(emu):
    factor = with_phone_factor(emu, "sms-withdrawn@example.com")
    pending = password_first_factor(emu, "sms-withdrawn@example.com")
    session_info = start_sms(emu, pending["mfaPendingCredential"], factor)
    emu.ok(emu.admin(":update", {"localId": pending["localId"], "mfa": {}}))
    assert_bad_request(finish_sms(emu, pending["mfaPendingCredential"], session_info), "MFA_ENROLLMENT_NOT_FOUND")


def test_a_disabled_account_cannot_finish_the_sign_in(emu):
    factor = with_phone_factor(emu, "sms-disabled@example.com")
    pending = password_first_factor(emu, "sms-disabled@example.com")
    session_info = start_sms(emu, pending["mfaPendingCredential"], factor)
    emu.ok(emu.admin(":update", {"localId": pending["localId"], "disableUser": True}))
    assert_bad_request(finish_sms(emu, pending["mfaPendingCredential"], session_info), "USER_DISABLED")


# --- TOTP second factor -------------------------------------------------------------------------

def test_a_totp_code_completes_a_password_sign_in(emu):
    user = emu.verified_user("totp-sign-in@example.com")
    factor, secret = with_totp_factor(emu, user.id_token)
    pending = password_first_factor(emu, "totp-sign-in@example.com")
    assert pending["mfaInfo"] == [{"mfaEnrollmentId": factor, "displayName": "Authenticator",
                                   "enrolledAt": pending["mfaInfo"][0]["enrolledAt"], "totpInfo": {}}]
    body = emu.ok(finish_totp(emu, pending["mfaPendingCredential"], factor, totp_code(secret)))
    assert set(body) == {"idToken", "refreshToken"}
    firebase = decode_jwt(body["idToken"])[1]["firebase"]
    assert firebase["sign_in_provider"] == "password"
    assert firebase["sign_in_second_factor"] == "totp" and firebase["second_factor_identifier"] == factor


def test_a_totp_code_completes_a_provider_sign_in(emu):
    first = emu.ok(emu.sign_in_with_idp("google.com", GOOGLE_CLAIMS))
    factor, secret = with_totp_factor(emu, first["idToken"])
    pending = emu.ok(emu.sign_in_with_idp("google.com", GOOGLE_CLAIMS))
    assert pending["mfaInfo"][0]["totpInfo"] == {}
    body = emu.ok(finish_totp(emu, pending["mfaPendingCredential"], factor, totp_code(secret)))
    firebase = decode_jwt(body["idToken"])[1]["firebase"]
    assert firebase["sign_in_provider"] == "google.com" and firebase["sign_in_second_factor"] == "totp"


def test_a_wrong_totp_code_is_invalid(emu):
    user = emu.verified_user("totp-wrong-sign-in@example.com")
    factor, secret = with_totp_factor(emu, user.id_token)
    pending = password_first_factor(emu, "totp-wrong-sign-in@example.com")["mfaPendingCredential"]
    accepted = {totp_code(secret, step_offset=offset) for offset in (-1, 0, 1, 2)}
    wrong = next(totp_code(secret, step_offset=o) for o in range(10, 40) if totp_code(secret, step_offset=o)
                 not in accepted)
    assert_bad_request(finish_totp(emu, pending, factor, wrong), "INVALID_CODE")
    emu.ok(finish_totp(emu, pending, factor, totp_code(secret)))


def test_totp_sign_in_needs_the_enrollment_id_and_a_code(emu):
    user = emu.verified_user("totp-missing@example.com")
    factor, _ = with_totp_factor(emu, user.id_token)
    pending = password_first_factor(emu, "totp-missing@example.com")["mfaPendingCredential"]
    assert_bad_request(emu.mfa("mfaSignIn:finalize", {"mfaPendingCredential": pending,
                                                      "totpVerificationInfo": {"verificationCode": "123456"}}),
                       "MISSING_MFA_ENROLLMENT_ID : No second factor identifier is provided.")
    assert_bad_request(emu.mfa("mfaSignIn:finalize", {"mfaPendingCredential": pending, "mfaEnrollmentId": factor,
                                                      "totpVerificationInfo": {}}), "MISSING_CODE")
    assert_bad_request(finish_totp(emu, pending, "unknown", "123456"), "MFA_ENROLLMENT_NOT_FOUND")


def test_a_phone_factor_cannot_take_a_totp_code(emu):
    factor = with_phone_factor(emu, "phone-not-totp@example.com")
    pending = password_first_factor(emu, "phone-not-totp@example.com")["mfaPendingCredential"]
    assert_bad_request(finish_totp(emu, pending, factor, "123456"), "MFA_ENROLLMENT_NOT_FOUND")


def test_a_totp_factor_has_no_sms_to_start(emu):
    user = emu.verified_user("totp-no-start@example.com")
    factor, _ = with_totp_factor(emu, user.id_token)
    pending = password_first_factor(emu, "totp-no-start@example.com")["mfaPendingCredential"]
    assert_bad_request(emu.mfa("mfaSignIn:start", {"mfaPendingCredential": pending, "mfaEnrollmentId": factor}),
                       "INVALID_ARGUMENT : MFA provider not supported!")


# --- request errors -----------------------------------------------------------------------------

def test_start_needs_a_pending_credential_and_a_known_enrollment(emu):
    with_phone_factor(emu, "start-errors@example.com")
    pending = password_first_factor(emu, "start-errors@example.com")["mfaPendingCredential"]
    assert_bad_request(emu.mfa("mfaSignIn:start", {"mfaEnrollmentId": "phone-factor"}),
                       "MISSING_MFA_PENDING_CREDENTIAL : Request does not have MFA pending credential.")
    assert_bad_request(emu.mfa("mfaSignIn:start", {"mfaPendingCredential": pending}),
                       "MISSING_MFA_ENROLLMENT_ID : No second factor identifier is provided.")
    assert_bad_request(emu.mfa("mfaSignIn:start", {"mfaPendingCredential": pending, "mfaEnrollmentId": "nope"}),
                       "MFA_ENROLLMENT_NOT_FOUND")


def test_finalize_needs_a_pending_credential_and_a_verification(emu):
    with_phone_factor(emu, "finalize-errors@example.com")
    pending = password_first_factor(emu, "finalize-errors@example.com")["mfaPendingCredential"]
    assert_bad_request(emu.mfa("mfaSignIn:finalize", {"phoneVerificationInfo": {"sessionInfo": "s", "code": "1"}}),
                       "MISSING_CREDENTIAL : Please set MFA Pending Credential.")
    assert_bad_request(emu.mfa("mfaSignIn:finalize", {"mfaPendingCredential": pending}),
                       "INVALID_ARGUMENT : MFA provider not supported!")
    assert_bad_request(emu.mfa("mfaSignIn:finalize", {"mfaPendingCredential": pending,
                                                      "phoneVerificationInfo": {"sessionInfo": "s"}}), "MISSING_CODE")
    assert_bad_request(emu.mfa("mfaSignIn:finalize", {"mfaPendingCredential": pending,
                                                      "phoneVerificationInfo": {"code": "123456"}}),
                       "MISSING_SESSION_INFO")
    assert_bad_request(emu.mfa("mfaSignIn:finalize", {"mfaPendingCredential": pending, "phoneVerificationInfo": {
        "sessionInfo": "unknown", "code": "123456"}}), "INVALID_SESSION_INFO")


@pytest.mark.parametrize("credential", ["garbage!", base64.b64encode(b"{}").decode(),
                                        base64.b64encode(json.dumps({"localId": "x", "signInProvider": "password",
                                                                     "projectId": "demo-hearth"}).encode()).decode()])
def test_a_pending_credential_the_emulator_did_not_issue_is_invalid(emu, credential):
    for method, body in [("mfaSignIn:start", {"mfaEnrollmentId": "phone-factor"}),
                         ("mfaSignIn:finalize", {"mfaEnrollmentId": "f", "totpVerificationInfo": {
                             "verificationCode": "123456"}})]:
        assert_bad_request(emu.mfa(method, {"mfaPendingCredential": credential, **body}),
                           "INVALID_MFA_PENDING_CREDENTIAL")


def test_a_pending_credential_of_a_deleted_account_is_invalid(emu):
    with_phone_factor(emu, "deleted-pending@example.com")
    pending = password_first_factor(emu, "deleted-pending@example.com")
    emu.ok(emu.admin(":delete", {"localId": pending["localId"]}))
    response = emu.mfa("mfaSignIn:start", {"mfaPendingCredential": pending["mfaPendingCredential"],
                                           "mfaEnrollmentId": "phone-factor"})
    assert response.status_code == 400
    assert response.json()["error"]["message"].startswith("INVALID_MFA_PENDING_CREDENTIAL : ")


def test_a_pending_credential_of_another_project_does_not_fit(emu):
    with_phone_factor(emu, "other-project@example.com")
    pending = password_first_factor(emu, "other-project@example.com")
    record = json.loads(base64.b64decode(pending["mfaPendingCredential"]))
    record["projectId"] = "someone-else"
    forged = base64.b64encode(json.dumps(record).encode()).decode()
    assert_bad_request(emu.mfa("mfaSignIn:start", {"mfaPendingCredential": forged, "mfaEnrollmentId": "phone-factor"}),
                       "INVALID_PROJECT_ID : Project ID does not match MFA pending credential.")


def test_finalize_takes_one_kind_of_verification(emu):
    with_phone_factor(emu, "both-kinds@example.com")
    pending = password_first_factor(emu, "both-kinds@example.com")["mfaPendingCredential"]
    assert_bad_request(emu.mfa("mfaSignIn:finalize", {
        "mfaPendingCredential": pending, "mfaEnrollmentId": "phone-factor",
        "phoneVerificationInfo": {"sessionInfo": "s", "code": "1"}, "totpVerificationInfo": {"verificationCode": "1"}}),
        "INVALID_ARGUMENT : ((Give phoneVerificationInfo or totpVerificationInfo, not both.))")
