"""Phone sign-in: accounts:sendVerificationCode and accounts:signInWithPhoneNumber, the codes'
listing and log, linking and the temporaryProof conflict, reauthentication (emulator-reference §1a,
§4, §5)."""
import re

import pytest

from emulator_client import EMULATOR, assert_bad_request, decode_jwt, read_log

INVALID_FORMAT = "INVALID_PHONE_NUMBER : Invalid format."
MFA_USER_FIRST_FACTOR = ("UNSUPPORTED_FIRST_FACTOR : A phone number cannot be set as a first factor on an SMS "
                         "based MFA user.")


# --- sendVerificationCode -----------------------------------------------------------------------

def test_sending_a_code_answers_a_226_character_session_info_and_lists_a_six_digit_code(emu):
    response = emu.ok(emu.identity("sendVerificationCode", {"phoneNumber": "+15555550100"}))
    assert list(response) == ["sessionInfo"]
    session_info = response["sessionInfo"]
    assert re.fullmatch(r"[A-Za-z0-9_-]{226}", session_info)
    entry = emu.verification_code(session_info)
    assert entry["phoneNumber"] == "+15555550100"
    assert re.fullmatch(r"[0-9]{6}", entry["code"])
    assert entry["locale"] == "en"
    assert set(entry) == {"code", "phoneNumber", "sessionInfo", "locale"}


def test_the_listing_is_open_to_anyone_and_keeps_the_order_codes_were_sent(emu):
    first = emu.send_code("+15555550110")
    second = emu.send_code("+15555550111")
    listed = [c["sessionInfo"] for c in emu.verification_codes()]
    assert listed.index(first) < listed.index(second)


def test_the_code_is_logged_with_firebases_sentence_and_the_english_sms(emu):
    session_info = emu.send_code("+15555550112")
    code = emu.verification_code(session_info)["code"]
    line = f"To verify the phone number +15555550112, use the code {code}."
    log = read_log(until=line)
    assert f'{line} SMS text in locale en (no X-Firebase-Locale): "Your verification code is {code}."' in log


def test_the_app_language_is_recorded_with_the_code_and_the_sms_is_written_in_french(emu):
    session_info = emu.send_code("+15555550113", headers={"X-Firebase-Locale": "fr"})
    entry = emu.verification_code(session_info)
    assert entry["locale"] == "fr"
    code = entry["code"]
    expected = (f"To verify the phone number +15555550113, use the code {code}. SMS text in locale fr "
                f'(X-Firebase-Locale fr): "Votre code de validation est {code}."')
    assert expected in read_log(until=expected)


def test_a_regional_tag_is_recorded_as_sent_and_the_sms_uses_its_language(emu):
    session_info = emu.send_code("+15555550114", headers={"X-Firebase-Locale": "fr-CA"})
    entry = emu.verification_code(session_info)
    assert entry["locale"] == "fr-CA"
    expected = f'SMS text in locale fr (X-Firebase-Locale fr-CA): "Votre code de validation est {entry["code"]}."'
    assert expected in read_log(until=expected)


def test_a_language_without_a_translation_falls_back_to_english_and_says_so(emu):
    session_info = emu.send_code("+15555550115", headers={"X-Firebase-Locale": "ja-JP"})
    entry = emu.verification_code(session_info)
    assert entry["locale"] == "ja-JP"
    expected = f'SMS text in locale en (X-Firebase-Locale ja-JP): "Your verification code is {entry["code"]}."'
    assert expected in read_log(until=expected)


def test_a_malformed_locale_header_counts_as_none(emu):
    session_info = emu.send_code("+15555550116", headers={"X-Firebase-Locale": "fr;<script>"})
    assert emu.verification_code(session_info)["locale"] == "en"


@pytest.mark.parametrize("body", [{}, {"phoneNumber": ""}, {"phoneNumber": "5555550100"},
                                  {"phoneNumber": "+1 555 555 0100"}, {"phoneNumber": "+1555abc0100"},
                                  {"phoneNumber": "+"}, {"phoneNumber": "+1234567890123456"},
                                  {"phoneNumber": "++15555550100"}])
def test_numbers_not_in_e164_are_an_invalid_format(emu, body):
    assert_bad_request(emu.identity("sendVerificationCode", body), INVALID_FORMAT)


def test_app_credentials_are_ignored_unless_the_project_requires_them(emu):
    emu.send_code("+15555550117", recaptchaToken="not-checked", iosReceipt="r", iosSecret="s")


def test_the_number_of_an_account_with_second_factors_cannot_get_a_first_factor_code(emu):
    emu.ok(emu.admin("", {"email": "mfa-phone@example.com", "emailVerified": True, "phoneNumber": "+15555550118",
                          "mfaInfo": [{"phoneInfo": "+15555550119"}]}))
    assert_bad_request(emu.identity("sendVerificationCode", {"phoneNumber": "+15555550118"}), MFA_USER_FIRST_FACTOR)


# --- signInWithPhoneNumber ----------------------------------------------------------------------

def test_a_new_number_creates_a_phone_account_signed_in_with_the_phone_provider(emu):
    body = emu.sign_in_with_phone("+15555550120")
    assert body["isNewUser"] is True
    assert body["phoneNumber"] == "+15555550120"
    assert body["expiresIn"] == "3600" and body["refreshToken"]
    assert "kind" not in body
    _, claims, _ = decode_jwt(body["idToken"])
    assert claims["sub"] == body["localId"]
    assert claims["phone_number"] == "+15555550120"
    assert claims["firebase"]["sign_in_provider"] == "phone"
    assert claims["firebase"]["identities"] == {"phone": ["+15555550120"]}
    record = emu.lookup(body["idToken"])
    assert record["phoneNumber"] == "+15555550120"
    assert record["providerUserInfo"] == [{"providerId": "phone", "rawId": "+15555550120",
                                           "phoneNumber": "+15555550120"}]
    assert record["createdAt"] and record["lastLoginAt"]


def test_signing_in_again_reaches_the_same_account(emu):
    first = emu.sign_in_with_phone("+15555550121")
    again = emu.sign_in_with_phone("+15555550121")
    assert again["localId"] == first["localId"]
    assert again["isNewUser"] is False


def test_a_code_is_used_up_by_the_sign_in(emu):
    session_info = emu.send_code("+15555550122")
    code = emu.verification_code(session_info)["code"]
    emu.ok(emu.identity("signInWithPhoneNumber", {"sessionInfo": session_info, "code": code}))
    assert session_info not in [c["sessionInfo"] for c in emu.verification_codes()]
    assert_bad_request(emu.identity("signInWithPhoneNumber", {"sessionInfo": session_info, "code": code}),
                       "INVALID_SESSION_INFO")


def test_a_wrong_code_is_invalid_and_the_session_can_still_be_completed(emu):
    session_info = emu.send_code("+15555550123")
    code = emu.verification_code(session_info)["code"]
    wrong = "000000" if code != "000000" else "111111"
    assert_bad_request(emu.identity("signInWithPhoneNumber", {"sessionInfo": session_info, "code": wrong}),
                       "INVALID_CODE")
    emu.ok(emu.identity("signInWithPhoneNumber", {"sessionInfo": session_info, "code": code}))


@pytest.mark.parametrize("body, message", [
    ({"code": "123456"}, "MISSING_SESSION_INFO"),
    ({"sessionInfo": "", "code": "123456"}, "MISSING_SESSION_INFO"),
    ({"sessionInfo": "unknown"}, "MISSING_CODE"),
    ({"sessionInfo": "unknown", "code": "123456"}, "INVALID_SESSION_INFO"),
    ({"temporaryProof": "proof"}, "MISSING_PHONE_NUMBER"),
    ({"temporaryProof": "proof", "phoneNumber": "+15555550124"}, "INVALID_TEMPORARY_PROOF"),
])
def test_incomplete_or_unknown_proofs_are_refused(emu, body, message):
    assert_bad_request(emu.identity("signInWithPhoneNumber", body), message)


def test_a_disabled_account_cannot_sign_in_with_its_number(emu):
    emu.ok(emu.admin("", {"phoneNumber": "+15555550125", "disabled": True}))
    assert_bad_request(emu.verify_phone(emu.send_code("+15555550125")), "USER_DISABLED")


def test_an_account_that_enrolled_second_factors_after_the_code_was_sent_is_refused(emu):
    session_info = emu.send_code("+15555550126")
    local_id = emu.ok(emu.admin("", {"phoneNumber": "+15555550126"}))["localId"]
    emu.ok(emu.admin(":update", {"localId": local_id, "mfa": {"enrollments": [
        {"mfaEnrollmentId": "factor-1", "phoneInfo": "+15555550127"}]}}))
    assert_bad_request(emu.verify_phone(session_info), MFA_USER_FIRST_FACTOR)


def test_codes_survive_wiping_accounts(emu):
    session_info = emu.send_code("+15555550128")
    emu.wipe()
    assert emu.verification_code(session_info)["phoneNumber"] == "+15555550128"


# --- linking, updating and the temporaryProof conflict -------------------------------------------

def test_linking_a_number_to_an_email_account_keeps_the_account_and_signs_in_with_phone(emu):
    user = emu.sign_up("link-phone@example.com")
    body = emu.ok(emu.verify_phone(emu.send_code("+15555550130"), idToken=user.id_token))
    assert body["localId"] == user.local_id
    assert body["isNewUser"] is False
    _, claims, _ = decode_jwt(body["idToken"])
    assert claims["firebase"]["sign_in_provider"] == "phone"
    assert claims["firebase"]["identities"] == {"email": ["link-phone@example.com"], "phone": ["+15555550130"]}
    record = emu.lookup(body["idToken"])
    assert record["email"] == "link-phone@example.com" and record["phoneNumber"] == "+15555550130"
    assert sorted(p["providerId"] for p in record["providerUserInfo"]) == ["password", "phone"]


@pytest.mark.parametrize("operation", ["LINK", "SIGN_UP_OR_IN", "VERIFY_OP_UNSPECIFIED"])
def test_the_operations_that_link_accept_an_id_token(emu, operation):
    user = emu.sign_up_anonymously()
    body = emu.ok(emu.verify_phone(emu.send_code("+15555550131"), idToken=user.id_token, operation=operation))
    assert body["localId"] == user.local_id


def test_update_replaces_the_accounts_number(emu):
    first = emu.sign_in_with_phone("+15555550132")
    body = emu.ok(emu.verify_phone(emu.send_code("+15555550133"), idToken=first["idToken"], operation="UPDATE"))
    assert body["localId"] == first["localId"]
    assert emu.lookup(body["idToken"])["phoneNumber"] == "+15555550133"
    # The old number is free again: it now signs up a new account.
    assert emu.sign_in_with_phone("+15555550132")["isNewUser"] is True


@pytest.mark.parametrize("operation", ["LINK", "UPDATE"])
def test_linking_operations_need_an_id_token(emu, operation):
    assert_bad_request(emu.verify_phone(emu.send_code("+15555550134"), operation=operation), "MISSING_ID_TOKEN")


def test_verifying_the_accounts_own_number_again_is_no_conflict(emu):
    owner = emu.sign_in_with_phone("+15555550135")
    body = emu.ok(emu.verify_phone(emu.send_code("+15555550135"), idToken=owner["idToken"], operation="LINK"))
    assert body["localId"] == owner["localId"] and "temporaryProof" not in body


def conflict(emu, number="+15555550140"):
    """`number` belongs to one account while another tries to link it: (owner, linker, 200 body)."""
    owner = emu.sign_in_with_phone(number)
    linker = emu.sign_up("linker@example.com")
    body = emu.ok(emu.verify_phone(emu.send_code(number), idToken=linker.id_token))
    return owner, linker, body


def test_linking_another_accounts_number_answers_a_temporary_proof_and_changes_nothing(emu):
    owner, linker, body = conflict(emu)
    assert set(body) == {"temporaryProof", "temporaryProofExpiresIn", "phoneNumber"}
    assert re.fullmatch(r"[A-Za-z0-9_-]{119}", body["temporaryProof"])
    assert body["temporaryProofExpiresIn"] == "3600"
    assert body["phoneNumber"] == "+15555550140"
    assert "phoneNumber" not in emu.lookup(linker.id_token)
    assert emu.lookup(owner["idToken"])["phoneNumber"] == "+15555550140"


def test_the_conflicts_code_is_used_up(emu):
    owner = emu.sign_in_with_phone("+15555550141")
    linker = emu.sign_up("linker2@example.com")
    session_info = emu.send_code("+15555550141")
    code = emu.verification_code(session_info)["code"]
    emu.ok(emu.identity("signInWithPhoneNumber", {"sessionInfo": session_info, "code": code,
                                                  "idToken": linker.id_token}))
    assert_bad_request(emu.identity("signInWithPhoneNumber", {"sessionInfo": session_info, "code": code}),
                       "INVALID_SESSION_INFO")
    assert owner["localId"]


def test_linking_again_with_the_temporary_proof_is_phone_number_exists(emu):
    _, linker, body = conflict(emu)
    proof = {"temporaryProof": body["temporaryProof"], "phoneNumber": body["phoneNumber"]}
    assert_bad_request(emu.identity("signInWithPhoneNumber", {**proof, "idToken": linker.id_token}),
                       "PHONE_NUMBER_EXISTS")
    assert_bad_request(emu.identity("signInWithPhoneNumber", {**proof, "idToken": linker.id_token,
                                                              "operation": "LINK"}), "PHONE_NUMBER_EXISTS")


def test_the_temporary_proof_signs_in_to_the_numbers_owner(emu):
    owner, _, body = conflict(emu)
    signed = emu.ok(emu.identity("signInWithPhoneNumber", {"temporaryProof": body["temporaryProof"],
                                                           "phoneNumber": body["phoneNumber"]}))
    assert signed["localId"] == owner["localId"]
    assert signed["isNewUser"] is False
    assert decode_jwt(signed["idToken"])[1]["firebase"]["sign_in_provider"] == "phone"


def test_a_temporary_proof_only_proves_its_own_number(emu):
    _, _, body = conflict(emu)
    assert_bad_request(emu.identity("signInWithPhoneNumber", {"temporaryProof": body["temporaryProof"],
                                                              "phoneNumber": "+15555550149"}),
                       "INVALID_TEMPORARY_PROOF")


# --- reauthentication ---------------------------------------------------------------------------

def test_reauthentication_signs_in_to_the_numbers_account(emu):
    owner = emu.sign_in_with_phone("+15555550150")
    body = emu.ok(emu.verify_phone(emu.send_code("+15555550150"), operation="REAUTH",
                                   idToken=owner["idToken"]))
    assert body["localId"] == owner["localId"] and body["isNewUser"] is False


def test_reauthenticating_with_another_accounts_number_answers_that_account(emu):
    owner = emu.sign_in_with_phone("+15555550151")
    other = emu.sign_up("reauth-other@example.com")
    body = emu.ok(emu.verify_phone(emu.send_code("+15555550151"), operation="REAUTH", idToken=other.id_token))
    # The SDK sees a different `sub` and reports a user mismatch; nothing is linked.
    assert decode_jwt(body["idToken"])[1]["sub"] == owner["localId"] != other.local_id
    assert "phoneNumber" not in emu.lookup(other.id_token)


def test_reauthentication_never_creates_an_account(emu):
    user = emu.sign_up("reauth-none@example.com")
    assert_bad_request(emu.verify_phone(emu.send_code("+15555550152"), operation="REAUTH", idToken=user.id_token),
                       "USER_NOT_FOUND")
    assert emu.ok(emu.admin(":lookup", {"phoneNumber": ["+15555550152"]})) == {
        "kind": "identitytoolkit#GetAccountInfoResponse"}
    assert emu.ok(emu.admin(":query", {"returnUserInfo": False})) == {"recordsCount": "1"}


def test_phone_sign_in_is_refused_in_a_tenant(emu):
    # Firebase's emulator supports no phone sign-in in tenants; nothing is sent.
    assert_bad_request(emu.identity("sendVerificationCode", {"phoneNumber": "+15555550160", "tenantId": "t1"}),
                       "UNSUPPORTED_TENANT_OPERATION")
    assert emu.ok(emu.request("GET", f"{EMULATOR}/tenants/t1/verificationCodes", key=False)) == {
        "verificationCodes": []}
