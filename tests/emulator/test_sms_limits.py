"""Beyond Firebase's emulator: verification sessions expire (SESSION_EXPIRED) and each phone number
may be sent only so many codes per window (TOO_MANY_ATTEMPTS_TRY_LATER), both set per project in
/emulator/v1/projects/{p}/config."""
import time

import pytest

from emulator_client import EMULATOR, assert_bad_request, assert_invalid_argument


def test_defaults_are_five_minute_sessions_and_five_codes_per_number_per_minute(emu):
    config = emu.ok(emu.request("GET", f"{EMULATOR}/config", key=False))
    assert config["smsCodeTtlSeconds"] == 300
    assert config["smsRateLimit"] == {"maxSends": 5, "windowSeconds": 60}


def test_a_session_older_than_its_lifetime_is_expired_and_then_gone(emu):
    emu.set_config(smsCodeTtlSeconds=1)
    session_info = emu.send_code("+15555550160")
    code = emu.verification_code(session_info)["code"]
    time.sleep(1.3)
    assert_bad_request(emu.identity("signInWithPhoneNumber", {"sessionInfo": session_info, "code": code}),
                       "SESSION_EXPIRED")
    assert_bad_request(emu.identity("signInWithPhoneNumber", {"sessionInfo": session_info, "code": code}),
                       "INVALID_SESSION_INFO")


def test_a_session_keeps_the_lifetime_it_was_sent_with(emu):
    emu.set_config(smsCodeTtlSeconds=1)
    short = emu.send_code("+15555550161")
    emu.set_config(smsCodeTtlSeconds=300)
    long = emu.send_code("+15555550162")
    time.sleep(1.3)
    assert_bad_request(emu.verify_phone(short), "SESSION_EXPIRED")
    emu.ok(emu.verify_phone(long))


def test_a_session_used_within_its_lifetime_works(emu):
    emu.set_config(smsCodeTtlSeconds=5)
    emu.ok(emu.verify_phone(emu.send_code("+15555550163")))


def test_more_sends_than_the_limit_are_too_many_attempts(emu):
    emu.set_config(smsRateLimit={"maxSends": 2, "windowSeconds": 60})
    emu.send_code("+15555550164")
    emu.send_code("+15555550164")
    assert_bad_request(emu.identity("sendVerificationCode", {"phoneNumber": "+15555550164"}),
                       "TOO_MANY_ATTEMPTS_TRY_LATER")
    # The limit is per number.
    emu.send_code("+15555550165")


def test_the_default_limit_allows_five_sends_per_number(emu):
    for _ in range(5):
        emu.send_code("+15555550166")
    assert_bad_request(emu.identity("sendVerificationCode", {"phoneNumber": "+15555550166"}),
                       "TOO_MANY_ATTEMPTS_TRY_LATER")


def test_sends_count_again_once_the_window_has_passed(emu):
    emu.set_config(smsRateLimit={"maxSends": 1, "windowSeconds": 1})
    emu.send_code("+15555550167")
    assert_bad_request(emu.identity("sendVerificationCode", {"phoneNumber": "+15555550167"}),
                       "TOO_MANY_ATTEMPTS_TRY_LATER")
    time.sleep(1.2)
    emu.send_code("+15555550167")


def test_a_refused_send_creates_no_session(emu):
    emu.set_config(smsRateLimit={"maxSends": 1, "windowSeconds": 60})
    emu.send_code("+15555550168")
    before = emu.verification_codes()
    emu.identity("sendVerificationCode", {"phoneNumber": "+15555550168"})
    assert emu.verification_codes() == before


def test_a_zero_limit_turns_limiting_off(emu):
    emu.set_config(smsRateLimit={"maxSends": 0})
    for _ in range(8):
        emu.send_code("+15555550169")


def test_changing_the_limit_or_wiping_forgets_earlier_sends(emu):
    emu.set_config(smsRateLimit={"maxSends": 1, "windowSeconds": 60})
    emu.send_code("+15555550170")
    emu.set_config(smsRateLimit={"maxSends": 1, "windowSeconds": 61})
    emu.send_code("+15555550170")
    emu.ok(emu.request("DELETE", f"{EMULATOR}/accounts", key=False))
    emu.send_code("+15555550170")


def test_second_factor_codes_count_against_the_same_number(emu):
    emu.set_config(smsRateLimit={"maxSends": 1, "windowSeconds": 60})
    user = emu.verified_user("limited@example.com")
    emu.send_code("+15555550171")
    response = emu.mfa("mfaEnrollment:start", {"idToken": user.id_token,
                                               "phoneEnrollmentInfo": {"phoneNumber": "+15555550171"}})
    assert_bad_request(response, "TOO_MANY_ATTEMPTS_TRY_LATER")


@pytest.mark.parametrize("patch, field", [
    ({"smsCodeTtlSeconds": 0}, "smsCodeTtlSeconds"), ({"smsCodeTtlSeconds": -5}, "smsCodeTtlSeconds"),
    ({"smsRateLimit": {"maxSends": -1}}, "smsRateLimit.maxSends"),
    ({"smsRateLimit": {"windowSeconds": 0}}, "smsRateLimit.windowSeconds"),
    ({"smsRateLimit": {"maxSends": 3, "windowSeconds": 0}}, "smsRateLimit.windowSeconds"),
])
def test_invalid_limits_are_refused_and_change_nothing(emu, patch, field):
    response = emu.request("PATCH", f"{EMULATOR}/config", key=False, json_body=patch)
    assert_invalid_argument(response, f"Invalid JSON payload received. Invalid value at '{field}' (TYPE_INT32)")
    config = emu.ok(emu.request("GET", f"{EMULATOR}/config", key=False))
    assert config["smsCodeTtlSeconds"] == 300
    assert config["smsRateLimit"] == {"maxSends": 5, "windowSeconds": 60}


def test_unknown_limit_fields_are_refused(emu):
    response = emu.request("PATCH", f"{EMULATOR}/config", key=False, json_body={"smsRateLimit": {"perHour": 3}})
    assert_invalid_argument(response, 'Invalid JSON payload received. Unknown name "perHour" at \'smsRateLimit\'')
