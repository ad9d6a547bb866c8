"""Test phone numbers with fixed codes, as in the Firebase console (hearth-emulator only), set through
/emulator/v1/projects/{p}/config. The command-line flag is covered in test_process.py."""
import pytest

from emulator_client import EMULATOR, assert_invalid_argument, read_log

# Firebase's documented example of a fictional number and its code.
FICTIONAL = "+16505554567"
FICTIONAL_CODE = "123456"


def test_config_stores_test_numbers_in_e164_whatever_their_spacing(emu):
    config = emu.set_config(testPhoneNumbers={"+1 650-555-3434": "654321", "+44 (20) 7946.0018": "000111"})
    assert config["testPhoneNumbers"] == {"+16505553434": "654321", "+442079460018": "000111"}
    assert emu.ok(emu.request("GET", f"{EMULATOR}/config", key=False))["testPhoneNumbers"] == \
        config["testPhoneNumbers"]


def test_a_test_number_gets_its_fixed_code_which_signs_in(emu):
    emu.set_config(testPhoneNumbers={FICTIONAL: FICTIONAL_CODE})
    session_info = emu.send_code(FICTIONAL)
    entry = emu.verification_code(session_info)
    assert entry["code"] == FICTIONAL_CODE and entry["phoneNumber"] == FICTIONAL
    body = emu.ok(emu.identity("signInWithPhoneNumber", {"sessionInfo": session_info, "code": FICTIONAL_CODE}))
    assert body["phoneNumber"] == FICTIONAL and body["isNewUser"] is True


def test_every_send_to_a_test_number_gets_a_new_session_with_the_same_code(emu):
    emu.set_config(testPhoneNumbers={FICTIONAL: FICTIONAL_CODE})
    first, second = emu.send_code(FICTIONAL), emu.send_code(FICTIONAL)
    assert first != second
    assert emu.verification_code(first)["code"] == emu.verification_code(second)["code"] == FICTIONAL_CODE


def test_no_sms_is_logged_for_a_test_number(emu):
    emu.set_config(testPhoneNumbers={"+16505550001": "987654"})
    emu.send_code("+16505550001")
    marker = emu.send_code("+15555550190")
    real_code = emu.verification_code(marker)["code"]
    log = read_log(until=f"use the code {real_code}.")
    assert f"To verify the phone number +15555550190, use the code {real_code}." in log
    assert "+16505550001" not in log


def test_test_numbers_are_exempt_from_the_rate_limit(emu):
    emu.set_config(testPhoneNumbers={FICTIONAL: FICTIONAL_CODE}, smsRateLimit={"maxSends": 1, "windowSeconds": 60})
    for _ in range(4):
        emu.send_code(FICTIONAL)


def test_test_numbers_need_no_app_verification(emu):
    emu.set_config(testPhoneNumbers={FICTIONAL: FICTIONAL_CODE}, appVerificationRequired=True)
    session_info = emu.send_code(FICTIONAL)
    emu.ok(emu.identity("signInWithPhoneNumber", {"sessionInfo": session_info, "code": FICTIONAL_CODE}))


def test_a_wrong_code_for_a_test_number_is_invalid(emu):
    emu.set_config(testPhoneNumbers={FICTIONAL: FICTIONAL_CODE})
    session_info = emu.send_code(FICTIONAL)
    response = emu.identity("signInWithPhoneNumber", {"sessionInfo": session_info, "code": "654321"})
    assert response.status_code == 400 and response.json()["error"]["message"] == "INVALID_CODE"


def test_a_patch_replaces_the_whole_set_and_an_empty_one_clears_it(emu):
    emu.set_config(testPhoneNumbers={"+16505550002": "111111"})
    assert emu.set_config(testPhoneNumbers={"+16505550003": "222222"})["testPhoneNumbers"] == {
        "+16505550003": "222222"}
    assert emu.set_config(testPhoneNumbers={})["testPhoneNumbers"] == {}
    session_info = emu.send_code("+16505550003")
    # No longer a test number: a random code, logged like any other.
    code = emu.verification_code(session_info)["code"]
    assert f"To verify the phone number +16505550003, use the code {code}." in read_log(until=code)


def test_a_patch_without_test_numbers_keeps_them(emu):
    emu.set_config(testPhoneNumbers={FICTIONAL: FICTIONAL_CODE})
    assert emu.set_config(appVerificationRequired=False)["testPhoneNumbers"] == {FICTIONAL: FICTIONAL_CODE}


@pytest.mark.parametrize("numbers", [{"+1650abc": "123456"}, {"16505554567": "123456"}, {"+": "123456"},
                                     {FICTIONAL: "12345"}, {FICTIONAL: "1234567"}, {FICTIONAL: "12345a"},
                                     {FICTIONAL: True}])
def test_invalid_test_numbers_or_codes_are_refused_and_change_nothing(emu, numbers):
    emu.set_config(testPhoneNumbers={"+16505550004": "333333"})
    response = emu.request("PATCH", f"{EMULATOR}/config", key=False,
                           json_body={"testPhoneNumbers": numbers, "appVerificationRequired": True})
    assert_invalid_argument(response, "Invalid JSON payload received. Invalid value at 'testPhoneNumbers")
    config = emu.ok(emu.request("GET", f"{EMULATOR}/config", key=False))
    assert config["testPhoneNumbers"] == {"+16505550004": "333333"}
    assert config["appVerificationRequired"] is False


def test_a_test_number_as_second_factor_gets_its_fixed_code_too(emu):
    emu.set_config(testPhoneNumbers={FICTIONAL: FICTIONAL_CODE})
    user = emu.verified_user("fictional-factor@example.com")
    start = emu.ok(emu.mfa("mfaEnrollment:start", {"idToken": user.id_token,
                                                   "phoneEnrollmentInfo": {"phoneNumber": FICTIONAL}}))
    emu.ok(emu.mfa("mfaEnrollment:finalize", {"idToken": user.id_token, "phoneVerificationInfo": {
        "sessionInfo": start["phoneSessionInfo"]["sessionInfo"], "code": FICTIONAL_CODE}}))
    pending = emu.ok(emu.identity("signInWithPassword", {"email": "fictional-factor@example.com",
                                                         "password": "secret-password"}))
    [hint] = pending["mfaInfo"]
    session_info = emu.ok(emu.mfa("mfaSignIn:start", {"mfaPendingCredential": pending["mfaPendingCredential"],
                                                      "mfaEnrollmentId": hint["mfaEnrollmentId"]}))[
        "phoneResponseInfo"]["sessionInfo"]
    emu.ok(emu.mfa("mfaSignIn:finalize", {"mfaPendingCredential": pending["mfaPendingCredential"],
                                          "phoneVerificationInfo": {"sessionInfo": session_info,
                                                                    "code": FICTIONAL_CODE}}))
    assert FICTIONAL not in read_log()
