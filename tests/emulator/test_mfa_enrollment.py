"""Second-factor enrollment: v2 mfaEnrollment:start / :finalize / :withdraw for SMS and (beyond
Firebase's emulator) TOTP factors, the rules on who may enroll, lookup's mfaInfo, and factors set by
admins (emulator-reference §1b, §4)."""
import base64
import datetime
import re
import time

import pytest

from emulator_client import (ADMIN, EMULATOR, assert_bad_request, decode_jwt, make_jwt, read_log, totp_code,
                             wait_for_next_second)

RFC_6238_SECRET = base64.b32encode(b"12345678901234567890").decode()


def start_phone(emu, id_token, number, **info):
    return emu.mfa("mfaEnrollment:start", {"idToken": id_token,
                                           "phoneEnrollmentInfo": {"phoneNumber": number, **info}})


def enroll_phone(emu, user, number, display_name="Work phone") -> dict:
    session_info = emu.ok(start_phone(emu, user.id_token, number))["phoneSessionInfo"]["sessionInfo"]
    code = emu.verification_code(session_info)["code"]
    return emu.ok(emu.mfa("mfaEnrollment:finalize", {
        "idToken": user.id_token, "displayName": display_name,
        "phoneVerificationInfo": {"sessionInfo": session_info, "code": code}}))


def start_totp(emu, id_token) -> dict:
    return emu.ok(emu.mfa("mfaEnrollment:start", {"idToken": id_token, "totpEnrollmentInfo": {}}))["totpSessionInfo"]


def finalize_totp(emu, id_token, session, code=None, display_name="Authenticator"):
    return emu.mfa("mfaEnrollment:finalize", {
        "idToken": id_token, "displayName": display_name,
        "totpVerificationInfo": {"sessionInfo": session["sessionInfo"],
                                 "verificationCode": code or totp_code(session["sharedSecretKey"])}})


def wrong_totp(secret) -> str:
    """A code far from now that no accepted step produces."""
    accepted = {totp_code(secret, step_offset=offset) for offset in (-1, 0, 1, 2)}
    for offset in range(10, 40):
        candidate = totp_code(secret, step_offset=offset)
        if candidate not in accepted:
            return candidate
    raise AssertionError("no distinct code found")


def test_the_suites_totp_generator_matches_rfc_6238():
    # RFC 6238 Appendix B (SHA-1), last 6 digits of each 8-digit code.
    for at, code in [(59, "287082"), (1111111109, "081804"), (1234567890, "005924"), (2000000000, "279037")]:
        assert totp_code(RFC_6238_SECRET, at=at) == code


# --- phone factors ------------------------------------------------------------------------------

def test_phone_enrollment_texts_a_code_and_finalize_adds_the_factor(emu):
    user = emu.verified_user("enroll-phone@example.com")
    start = emu.ok(start_phone(emu, user.id_token, "+15555550200"))
    assert list(start) == ["phoneSessionInfo"]
    session_info = start["phoneSessionInfo"]["sessionInfo"]
    assert re.fullmatch(r"[A-Za-z0-9_-]{226}", session_info)
    entry = emu.verification_code(session_info)
    assert entry["phoneNumber"] == "+15555550200"
    assert f"To enroll MFA with +15555550200, use the code {entry['code']}." in read_log(until=entry["code"])

    body = emu.ok(emu.mfa("mfaEnrollment:finalize", {
        "idToken": user.id_token, "displayName": "Work phone",
        "phoneVerificationInfo": {"sessionInfo": session_info, "code": entry["code"]}}))
    assert set(body) == {"idToken", "refreshToken"}
    [factor] = emu.lookup(body["idToken"])["mfaInfo"]
    assert set(factor) == {"mfaEnrollmentId", "displayName", "enrolledAt", "phoneInfo", "unobfuscatedPhoneInfo"}
    assert re.fullmatch(r"[A-Za-z0-9]{28}", factor["mfaEnrollmentId"])
    assert factor["displayName"] == "Work phone"
    assert factor["phoneInfo"] == factor["unobfuscatedPhoneInfo"] == "+15555550200"
    enrolled_at = datetime.datetime.fromisoformat(factor["enrolledAt"].replace("Z", "+00:00"))
    assert abs(enrolled_at.timestamp() - time.time()) < 60

    _, claims, _ = decode_jwt(body["idToken"])
    assert claims["firebase"]["sign_in_provider"] == "password"
    assert claims["firebase"]["sign_in_second_factor"] == "phone"
    assert claims["firebase"]["second_factor_identifier"] == factor["mfaEnrollmentId"]


def test_the_enrollment_tokens_second_factor_survives_a_refresh(emu):
    user = emu.verified_user("refresh-mfa@example.com")
    body = enroll_phone(emu, user, "+15555550201")
    refreshed = emu.ok(emu.refresh(body["refreshToken"]))
    firebase = decode_jwt(refreshed["id_token"])[1]["firebase"]
    assert firebase["sign_in_second_factor"] == "phone"
    assert firebase["second_factor_identifier"] == emu.lookup(body["idToken"])["mfaInfo"][0]["mfaEnrollmentId"]


def test_enrollment_does_not_revoke_the_first_factors_token(emu):
    user = emu.verified_user("keep-token@example.com")
    enroll_phone(emu, user, "+15555550202")
    assert emu.lookup(user.id_token)["mfaInfo"]


def test_a_phone_factor_can_be_enrolled_from_a_provider_sign_in(emu):
    body = emu.ok(emu.sign_in_with_idp("google.com", {"sub": "g-enroll", "email": "g-enroll@example.com",
                                                      "email_verified": True}))
    session_info = emu.ok(start_phone(emu, body["idToken"], "+15555550203"))["phoneSessionInfo"]["sessionInfo"]
    code = emu.verification_code(session_info)["code"]
    enrolled = emu.ok(emu.mfa("mfaEnrollment:finalize", {
        "idToken": body["idToken"], "phoneVerificationInfo": {"sessionInfo": session_info, "code": code}}))
    firebase = decode_jwt(enrolled["idToken"])[1]["firebase"]
    assert firebase["sign_in_provider"] == "google.com" and firebase["sign_in_second_factor"] == "phone"
    assert "displayName" not in emu.lookup(enrolled["idToken"])["mfaInfo"][0]


def test_a_number_already_enrolled_is_a_second_factor_that_exists(emu):
    user = emu.verified_user("twice@example.com")
    enroll_phone(emu, user, "+15555550204")
    assert_bad_request(start_phone(emu, user.id_token, "+15555550204"),
                       "SECOND_FACTOR_EXISTS : Phone number already enrolled as second factor for this account.")


def test_finalizing_a_number_enrolled_in_the_meantime_is_a_second_factor_that_exists(emu):
    user = emu.verified_user("race@example.com")
    first = emu.ok(start_phone(emu, user.id_token, "+15555550205"))["phoneSessionInfo"]["sessionInfo"]
    second = emu.ok(start_phone(emu, user.id_token, "+15555550205"))["phoneSessionInfo"]["sessionInfo"]
    for session_info, expected in [(first, None), (second, "SECOND_FACTOR_EXISTS")]:
        response = emu.mfa("mfaEnrollment:finalize", {"idToken": user.id_token, "phoneVerificationInfo": {
            "sessionInfo": session_info, "code": emu.verification_code(session_info)["code"]}})
        if expected is None:
            emu.ok(response)
        else:
            assert response.json()["error"]["message"].startswith(expected)


@pytest.mark.parametrize("info, message", [
    ({"code": "123456"}, "MISSING_SESSION_INFO"),
    ({"sessionInfo": "x"}, "MISSING_CODE"),
    ({"sessionInfo": "unknown", "code": "123456"}, "INVALID_SESSION_INFO"),
])
def test_finalize_needs_a_known_session_and_a_code(emu, info, message):
    user = emu.verified_user("finalize-missing@example.com")
    assert_bad_request(emu.mfa("mfaEnrollment:finalize", {"idToken": user.id_token, "phoneVerificationInfo": info}),
                       message)


def test_a_wrong_code_is_invalid_and_adds_nothing(emu):
    user = emu.verified_user("wrong-enroll@example.com")
    session_info = emu.ok(start_phone(emu, user.id_token, "+15555550206"))["phoneSessionInfo"]["sessionInfo"]
    code = emu.verification_code(session_info)["code"]
    wrong = "000000" if code != "000000" else "111111"
    assert_bad_request(emu.mfa("mfaEnrollment:finalize", {"idToken": user.id_token, "phoneVerificationInfo": {
        "sessionInfo": session_info, "code": wrong}}), "INVALID_CODE")
    assert "mfaInfo" not in emu.lookup(user.id_token)


def test_a_sign_in_code_cannot_enroll_a_factor(emu):
    user = emu.verified_user("purpose@example.com")
    session_info = emu.send_code("+15555550207")
    assert_bad_request(emu.mfa("mfaEnrollment:finalize", {"idToken": user.id_token, "phoneVerificationInfo": {
        "sessionInfo": session_info, "code": emu.verification_code(session_info)["code"]}}), "INVALID_SESSION_INFO")


def test_another_accounts_enrollment_session_cannot_be_finished(emu):
    owner = emu.verified_user("session-owner@example.com")
    thief = emu.verified_user("session-thief@example.com")
    session_info = emu.ok(start_phone(emu, owner.id_token, "+15555550208"))["phoneSessionInfo"]["sessionInfo"]
    assert_bad_request(emu.mfa("mfaEnrollment:finalize", {"idToken": thief.id_token, "phoneVerificationInfo": {
        "sessionInfo": session_info, "code": emu.verification_code(session_info)["code"]}}), "INVALID_SESSION_INFO")


def test_an_enrollment_session_expires(emu):
    emu.set_config(smsCodeTtlSeconds=1)
    user = emu.verified_user("expire-enroll@example.com")
    session_info = emu.ok(start_phone(emu, user.id_token, "+15555550209"))["phoneSessionInfo"]["sessionInfo"]
    time.sleep(1.3)
    assert_bad_request(emu.mfa("mfaEnrollment:finalize", {"idToken": user.id_token, "phoneVerificationInfo": {
        "sessionInfo": session_info, "code": emu.verification_code(session_info)["code"]}}), "SESSION_EXPIRED")


def test_an_invalid_number_cannot_be_enrolled(emu):
    user = emu.verified_user("bad-number@example.com")
    for number in ["", "5555550100", "+1 555"]:
        assert_bad_request(start_phone(emu, user.id_token, number), "INVALID_PHONE_NUMBER : Invalid format.")


# --- TOTP factors -------------------------------------------------------------------------------

def test_totp_enrollment_hands_out_a_160_bit_base32_secret_and_the_code_parameters(emu):
    user = emu.verified_user("totp-start@example.com")
    session = start_totp(emu, user.id_token)
    assert set(session) == {"sharedSecretKey", "verificationCodeLength", "hashingAlgorithm", "periodSec",
                            "sessionInfo", "finalizeEnrollmentTime"}
    assert re.fullmatch(r"[A-Z2-7]{32}", session["sharedSecretKey"])
    assert len(base64.b32decode(session["sharedSecretKey"])) == 20
    assert session["verificationCodeLength"] == 6
    assert session["hashingAlgorithm"] == "SHA1"
    assert session["periodSec"] == 30
    assert re.fullmatch(r"[A-Za-z0-9_-]{226}", session["sessionInfo"])
    deadline = datetime.datetime.fromisoformat(session["finalizeEnrollmentTime"].replace("Z", "+00:00"))
    assert 290 < deadline.timestamp() - time.time() < 310
    assert start_totp(emu, user.id_token)["sharedSecretKey"] != session["sharedSecretKey"]
    # No SMS: nothing is listed for it.
    assert session["sessionInfo"] not in [c["sessionInfo"] for c in emu.verification_codes()]


def test_a_code_from_the_shared_secret_enrolls_the_authenticator(emu):
    user = emu.verified_user("totp-enroll@example.com")
    session = start_totp(emu, user.id_token)
    body = emu.ok(finalize_totp(emu, user.id_token, session))
    assert set(body) == {"idToken", "refreshToken"}
    record = emu.lookup(body["idToken"])
    [factor] = record["mfaInfo"]
    assert set(factor) == {"mfaEnrollmentId", "displayName", "enrolledAt", "totpInfo"}
    assert factor["totpInfo"] == {} and factor["displayName"] == "Authenticator"
    firebase = decode_jwt(body["idToken"])[1]["firebase"]
    assert firebase["sign_in_second_factor"] == "totp"
    assert firebase["second_factor_identifier"] == factor["mfaEnrollmentId"]


def test_the_shared_secret_never_leaves_the_emulator_again(emu):
    user = emu.verified_user("totp-secret@example.com")
    session = start_totp(emu, user.id_token)
    body = emu.ok(finalize_totp(emu, user.id_token, session))
    secret = session["sharedSecretKey"]
    for response in [emu.identity("lookup", {"idToken": body["idToken"]}),
                     emu.admin(":lookup", {"localId": [user.local_id]}),
                     emu.request("GET", f"{ADMIN}/accounts:batchGet", key=False, admin=True),
                     emu.admin(":query", {})]:
        assert response.status_code == 200
        assert secret not in response.text
        assert base64.b64encode(base64.b32decode(secret)).decode() not in response.text


def wait_for_fresh_totp_step() -> None:
    """So that the emulator checks a code in the step the test computed it for."""
    while time.time() % 30 > 27:
        time.sleep(0.1)


def test_a_code_of_the_previous_step_is_accepted_but_not_older_ones(emu):
    wait_for_fresh_totp_step()
    user = emu.verified_user("totp-skew@example.com")
    session = start_totp(emu, user.id_token)
    secret = session["sharedSecretKey"]
    accepted = {totp_code(secret, step_offset=offset) for offset in (-1, 0, 1)}
    stale = next(totp_code(secret, step_offset=offset) for offset in range(-3, -20, -1)
                 if totp_code(secret, step_offset=offset) not in accepted
                 and totp_code(secret, step_offset=offset) != totp_code(secret, step_offset=-2))
    assert_bad_request(finalize_totp(emu, user.id_token, session, code=stale), "INVALID_CODE")
    emu.ok(finalize_totp(emu, user.id_token, session, code=totp_code(secret, step_offset=-1)))


def test_a_wrong_totp_code_is_invalid_and_the_session_can_still_be_finished(emu):
    user = emu.verified_user("totp-wrong@example.com")
    session = start_totp(emu, user.id_token)
    for code in [wrong_totp(session["sharedSecretKey"]), "12345", "abcdef"]:
        assert_bad_request(finalize_totp(emu, user.id_token, session, code=code), "INVALID_CODE")
    emu.ok(finalize_totp(emu, user.id_token, session))


@pytest.mark.parametrize("info, message", [
    ({"verificationCode": "123456"}, "MISSING_SESSION_INFO"),
    ({"sessionInfo": "x"}, "MISSING_CODE"),
    ({"sessionInfo": "unknown", "verificationCode": "123456"}, "INVALID_SESSION_INFO"),
])
def test_totp_finalize_needs_a_known_session_and_a_code(emu, info, message):
    user = emu.verified_user("totp-missing@example.com")
    assert_bad_request(emu.mfa("mfaEnrollment:finalize", {"idToken": user.id_token, "totpVerificationInfo": info}),
                       message)


def test_a_totp_session_expires_and_belongs_to_its_account(emu):
    emu.set_config(smsCodeTtlSeconds=1)
    user = emu.verified_user("totp-expire@example.com")
    other = emu.verified_user("totp-other@example.com")
    session = start_totp(emu, user.id_token)
    assert_bad_request(finalize_totp(emu, other.id_token, session), "INVALID_SESSION_INFO")
    time.sleep(1.3)
    assert_bad_request(finalize_totp(emu, user.id_token, session), "SESSION_EXPIRED")
    assert_bad_request(finalize_totp(emu, user.id_token, session), "INVALID_SESSION_INFO")


def test_one_authenticator_per_account(emu):
    user = emu.verified_user("totp-twice@example.com")
    first = start_totp(emu, user.id_token)
    second = start_totp(emu, user.id_token)
    emu.ok(finalize_totp(emu, user.id_token, first))
    message = "SECOND_FACTOR_EXISTS : ((A TOTP authenticator is already enrolled as second factor for this account.))"
    assert_bad_request(finalize_totp(emu, user.id_token, second), message)
    assert_bad_request(emu.mfa("mfaEnrollment:start", {"idToken": user.id_token, "totpEnrollmentInfo": {}}), message)


def test_an_account_can_have_phone_and_totp_factors(emu):
    user = emu.verified_user("both@example.com")
    enroll_phone(emu, user, "+15555550210")
    emu.ok(finalize_totp(emu, user.id_token, start_totp(emu, user.id_token)))
    factors = emu.lookup(user.id_token)["mfaInfo"]
    assert ["phoneInfo" in f for f in factors] == [True, False]
    assert ["totpInfo" in f for f in factors] == [False, True]


# --- who may enroll -----------------------------------------------------------------------------

def first_factor_tokens(emu):
    """ID tokens of first factors that cannot carry a second factor."""
    anonymous = emu.sign_up_anonymously().id_token
    phone = emu.sign_in_with_phone("+15555550211")["idToken"]
    custom = emu.ok(emu.identity("signInWithCustomToken", {"token": '{"uid": "custom-mfa"}'}))["idToken"]
    return {"anonymous": anonymous, "phone": phone, "custom": custom}


@pytest.mark.parametrize("method, info", [
    ("mfaEnrollment:start", {"phoneEnrollmentInfo": {"phoneNumber": "+15555550212"}}),
    ("mfaEnrollment:start", {"totpEnrollmentInfo": {}}),
    ("mfaEnrollment:finalize", {"phoneVerificationInfo": {"sessionInfo": "s", "code": "123456"}}),
])
def test_anonymous_phone_and_custom_first_factors_cannot_enroll(emu, method, info):
    for id_token in first_factor_tokens(emu).values():
        assert_bad_request(emu.mfa(method, {"idToken": id_token, **info}),
                           "UNSUPPORTED_FIRST_FACTOR : MFA is not available for the given first factor.")


def test_an_unverified_email_cannot_enroll(emu):
    user = emu.sign_up("unverified@example.com")
    for info in [{"phoneEnrollmentInfo": {"phoneNumber": "+15555550213"}}, {"totpEnrollmentInfo": {}}]:
        assert_bad_request(emu.mfa("mfaEnrollment:start", {"idToken": user.id_token, **info}),
                           "UNVERIFIED_EMAIL : Need to verify email first before enrolling second factors.")


def test_the_id_token_is_required_and_checked(emu):
    for method in ["mfaEnrollment:start", "mfaEnrollment:finalize", "mfaEnrollment:withdraw"]:
        assert_bad_request(emu.mfa(method, {}), "MISSING_ID_TOKEN")
        assert_bad_request(emu.mfa(method, {"idToken": "garbage"}), "INVALID_ID_TOKEN")
        assert_bad_request(emu.mfa(method, {"idToken": make_jwt({"user_id": "nobody"})}), "USER_NOT_FOUND")


def test_start_and_finalize_need_exactly_one_kind_of_factor(emu):
    user = emu.verified_user("which-factor@example.com")
    # Neither: Firebase's emulator's words (it knows phone factors only).
    assert_bad_request(emu.mfa("mfaEnrollment:start", {"idToken": user.id_token}),
                       "INVALID_ARGUMENT : ((Missing phoneEnrollmentInfo.))")
    assert_bad_request(emu.mfa("mfaEnrollment:start", {"idToken": user.id_token, "totpEnrollmentInfo": {},
                                                       "phoneEnrollmentInfo": {"phoneNumber": "+15555550214"}}),
                       "INVALID_ARGUMENT : ((Give phoneEnrollmentInfo or totpEnrollmentInfo, not both.))")
    assert_bad_request(emu.mfa("mfaEnrollment:finalize", {"idToken": user.id_token}),
                       "INVALID_ARGUMENT : ((Missing phoneVerificationInfo.))")


def test_android_verification_proofs_are_not_implemented(emu):
    user = emu.verified_user("android@example.com")
    response = emu.mfa("mfaEnrollment:finalize", {"idToken": user.id_token, "phoneVerificationInfo": {
        "androidVerificationProof": "proof", "phoneNumber": "+15555550215"}})
    assert response.status_code == 501


def test_at_most_five_second_factors(emu):
    user = emu.verified_user("five@example.com")
    enrollments = [{"mfaEnrollmentId": f"factor-{n}", "phoneInfo": f"+1555555030{n}"} for n in range(5)]
    emu.ok(emu.admin(":update", {"localId": user.local_id, "mfa": {"enrollments": enrollments}}))
    for info in [{"phoneEnrollmentInfo": {"phoneNumber": "+15555550216"}}, {"totpEnrollmentInfo": {}}]:
        assert_bad_request(emu.mfa("mfaEnrollment:start", {"idToken": user.id_token, **info}),
                           "SECOND_FACTOR_LIMIT_EXCEEDED")


def test_a_fifth_factor_finalized_after_the_limit_was_reached_is_refused(emu):
    user = emu.verified_user("five-race@example.com")
    enrollments = [{"mfaEnrollmentId": f"factor-{n}", "phoneInfo": f"+1555555031{n}"} for n in range(4)]
    emu.ok(emu.admin(":update", {"localId": user.local_id, "mfa": {"enrollments": enrollments}}))
    first = emu.ok(start_phone(emu, user.id_token, "+15555550217"))["phoneSessionInfo"]["sessionInfo"]
    second = emu.ok(start_phone(emu, user.id_token, "+15555550218"))["phoneSessionInfo"]["sessionInfo"]
    results = [emu.mfa("mfaEnrollment:finalize", {"idToken": user.id_token, "phoneVerificationInfo": {
        "sessionInfo": s, "code": emu.verification_code(s)["code"]}}) for s in (first, second)]
    assert results[0].status_code == 200
    assert_bad_request(results[1], "SECOND_FACTOR_LIMIT_EXCEEDED")


def test_a_recent_sign_in_is_needed_to_enroll_when_the_project_asks(emu):
    user = emu.verified_user("recent-enroll@example.com")
    emu.set_config(recentLoginMaxAgeSeconds=1)
    wait_for_next_second()
    wait_for_next_second()
    assert_bad_request(start_phone(emu, user.id_token, "+15555550219"), "CREDENTIAL_TOO_OLD_LOGIN_AGAIN")


# --- withdraw -----------------------------------------------------------------------------------

def test_withdrawing_removes_the_factor_and_answers_plain_tokens(emu):
    user = emu.verified_user("withdraw@example.com")
    enrolled = enroll_phone(emu, user, "+15555550220")
    factor_id = emu.lookup(enrolled["idToken"])["mfaInfo"][0]["mfaEnrollmentId"]
    body = emu.ok(emu.mfa("mfaEnrollment:withdraw", {"idToken": enrolled["idToken"], "mfaEnrollmentId": factor_id}))
    assert set(body) == {"idToken", "refreshToken", "expiresIn"} and body["expiresIn"] == "3600"
    firebase = decode_jwt(body["idToken"])[1]["firebase"]
    assert firebase["sign_in_provider"] == "password"
    assert "sign_in_second_factor" not in firebase and "second_factor_identifier" not in firebase
    # The last factor withdrawn leaves an empty list, as Firebase's emulator keeps it.
    assert emu.lookup(body["idToken"])["mfaInfo"] == []
    # The account signs in with its password alone again.
    assert "idToken" in emu.ok(emu.identity("signInWithPassword", {"email": "withdraw@example.com",
                                                                    "password": "secret-password"}))


def test_withdrawing_one_factor_keeps_the_others(emu):
    user = emu.verified_user("withdraw-one@example.com")
    enroll_phone(emu, user, "+15555550221")
    emu.ok(finalize_totp(emu, user.id_token, start_totp(emu, user.id_token)))
    phone_id, totp_id = [f["mfaEnrollmentId"] for f in emu.lookup(user.id_token)["mfaInfo"]]
    emu.ok(emu.mfa("mfaEnrollment:withdraw", {"idToken": user.id_token, "mfaEnrollmentId": phone_id}))
    assert [f["mfaEnrollmentId"] for f in emu.lookup(user.id_token)["mfaInfo"]] == [totp_id]


def test_withdrawing_an_unknown_factor_is_not_found(emu):
    user = emu.verified_user("withdraw-unknown@example.com")
    for body in [{}, {"mfaEnrollmentId": "nope"}]:
        assert_bad_request(emu.mfa("mfaEnrollment:withdraw", {"idToken": user.id_token, **body}),
                           "MFA_ENROLLMENT_NOT_FOUND")
    enroll_phone(emu, user, "+15555550222")
    assert_bad_request(emu.mfa("mfaEnrollment:withdraw", {"idToken": user.id_token, "mfaEnrollmentId": "nope"}),
                       "MFA_ENROLLMENT_NOT_FOUND")


# --- factors set by admins ----------------------------------------------------------------------

def test_admin_sign_up_with_factors_generates_their_ids(emu):
    local_id = emu.ok(emu.admin("", {"email": "admin-mfa@example.com", "emailVerified": True, "mfaInfo": [
        {"phoneInfo": "+15555550230", "displayName": "Desk"}, {"phoneInfo": "+15555550231"},
        {"phoneInfo": "+15555550230"}]}))["localId"]
    [record] = emu.ok(emu.admin(":lookup", {"localId": [local_id]}))["users"]
    factors = record["mfaInfo"]
    assert [f["phoneInfo"] for f in factors] == ["+15555550230", "+15555550231"]
    assert factors[0]["displayName"] == "Desk" and factors[0]["unobfuscatedPhoneInfo"] == "+15555550230"
    assert all(re.fullmatch(r"[A-Za-z0-9]{28}", f["mfaEnrollmentId"]) for f in factors)
    # As in Firebase's emulator, no enrollment time is made up for factors given in the request.
    assert all("enrolledAt" not in f for f in factors)


def test_admin_update_replaces_the_factors_and_an_empty_list_removes_them(emu):
    user = emu.verified_user("admin-replace@example.com")
    enroll_phone(emu, user, "+15555550232")
    enrollments = [{"mfaEnrollmentId": "given-id", "phoneInfo": "+15555550233", "displayName": "New",
                    "enrolledAt": "2024-01-02T03:04:05.678Z"}]
    emu.ok(emu.admin(":update", {"localId": user.local_id, "mfa": {"enrollments": enrollments}}))
    assert emu.lookup(user.id_token)["mfaInfo"] == [{
        "mfaEnrollmentId": "given-id", "phoneInfo": "+15555550233", "unobfuscatedPhoneInfo": "+15555550233",
        "displayName": "New", "enrolledAt": "2024-01-02T03:04:05.678Z"}]
    emu.ok(emu.admin(":update", {"localId": user.local_id, "mfa": {"enrollments": []}}))
    assert "mfaInfo" not in emu.lookup(user.id_token)


def test_admin_update_keeps_a_totp_factor_named_by_its_id(emu):
    user = emu.verified_user("admin-keep-totp@example.com")
    session = start_totp(emu, user.id_token)
    emu.ok(finalize_totp(emu, user.id_token, session))
    totp_id = emu.lookup(user.id_token)["mfaInfo"][0]["mfaEnrollmentId"]
    emu.ok(emu.admin(":update", {"localId": user.local_id, "mfa": {"enrollments": [
        {"mfaEnrollmentId": totp_id, "totpInfo": {}, "displayName": "Renamed"},
        {"mfaEnrollmentId": "phone-id", "phoneInfo": "+15555550234"}]}}))
    factors = emu.lookup(user.id_token)["mfaInfo"]
    assert factors[0]["mfaEnrollmentId"] == totp_id and factors[0]["displayName"] == "Renamed"
    # The kept factor still signs in with the authenticator's codes.
    pending = emu.ok(emu.identity("signInWithPassword", {"email": "admin-keep-totp@example.com",
                                                         "password": "secret-password"}))
    emu.ok(emu.mfa("mfaSignIn:finalize", {"mfaPendingCredential": pending["mfaPendingCredential"],
                                          "mfaEnrollmentId": totp_id,
                                          "totpVerificationInfo": {"verificationCode":
                                                                   totp_code(session["sharedSecretKey"])}}))


@pytest.mark.parametrize("enrollments, message", [
    ([{"mfaEnrollmentId": "a", "phoneInfo": "555"}], "INVALID_MFA_PHONE_NUMBER : Invalid format."),
    ([{"mfaEnrollmentId": "a"}], "INVALID_MFA_PHONE_NUMBER : Invalid format."),
    ([{"phoneInfo": "+15555550235"}], "INVALID_MFA_ENROLLMENT_ID : mfaEnrollmentId must be defined."),
    ([{"mfaEnrollmentId": "a", "phoneInfo": "+15555550235"}, {"mfaEnrollmentId": "a", "phoneInfo": "+15555550236"}],
     "DUPLICATE_MFA_ENROLLMENT_ID"),
    # Not one of the account's TOTP factors: a factor like any other, which needs a phone number.
    ([{"mfaEnrollmentId": "unknown", "totpInfo": {}}], "INVALID_MFA_PHONE_NUMBER : Invalid format."),
    ([{"mfaEnrollmentId": f"f{n}", "phoneInfo": f"+1555555024{n}"} for n in range(6)], "SECOND_FACTOR_LIMIT_EXCEEDED"),
])
def test_admin_factors_are_validated(emu, enrollments, message):
    user = emu.verified_user("admin-invalid@example.com")
    assert_bad_request(emu.admin(":update", {"localId": user.local_id, "mfa": {"enrollments": enrollments}}),
                       message)
    assert "mfaInfo" not in emu.lookup(user.id_token)


def test_mfa_routes_need_an_api_key_but_the_code_listing_does_not(emu):
    response = emu.mfa("mfaEnrollment:start", {}, key=False)
    assert response.status_code == 403
    assert emu.request("GET", f"{EMULATOR}/verificationCodes", key=False).status_code == 200
