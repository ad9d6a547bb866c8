"""Second factors: enrolling SMS and TOTP factors, signing in with them after a password or a
provider sign-in (SecondFactorRequiredError and its resolver), unenrolling, the mapped errors, and
the lifetimes of sessions, resolvers and secrets."""

from __future__ import annotations

import asyncio
import base64
import datetime
import gc
import queue
import re
import time
import urllib.parse
from typing import Any, Callable, Optional, Tuple

import pytest

import hearth
from hearth_testing import (
    TIMEOUT,
    Emulator,
    claims,
    jwt_claims,
    masked,
    rfc6238_code,
    unique_email,
    unique_phone_number,
)

PASSWORD = "correct-horse-1"


# ---------------------------------------------------------------------------------------------------
# Helpers: each step is the public API a game would call
# ---------------------------------------------------------------------------------------------------


def verified_password_user(auth: hearth.Auth, emulator: Emulator, email: str) -> hearth.User:
    """A signed-in password account whose e-mail is verified (second factors need one)."""
    user = auth.create_user_with_email_and_password(email, PASSWORD).result(TIMEOUT).user
    emulator.admin_update(user.uid, emailVerified=True)
    return user.reload().result(TIMEOUT)


def google_credential(sub: str, email: str) -> hearth.Credential:
    """A fake Google ID token with a verified e-mail, as the emulator accepts."""
    return hearth.GoogleAuthProvider.credential(id_token=claims(sub=sub, email=email, email_verified=True))


def sms_code(emulator: Emulator, verification: hearth.PhoneVerification) -> str:
    return str(emulator.verification_code(verification.verification_id)["code"])


def phone_assertion(emulator: Emulator, verification: hearth.PhoneVerification) -> hearth.MultiFactorAssertion:
    credential = hearth.PhoneAuthProvider.credential(verification.verification_id, sms_code(emulator, verification))
    return hearth.PhoneMultiFactorGenerator.assertion(credential)


def enroll_phone(auth: hearth.Auth, emulator: Emulator, user: hearth.User, number: str,
                 display_name: Optional[str] = "Work phone", **verify_options: Any) -> hearth.User:
    session = user.multi_factor.get_session().result(TIMEOUT)
    verification = auth.verify_phone_number(number, multi_factor_session=session, **verify_options).result(TIMEOUT)
    return user.multi_factor.enroll(phone_assertion(emulator, verification), display_name).result(TIMEOUT)


def now() -> int:
    return int(time.time())


def enroll_totp(user: hearth.User, display_name: str = "Authenticator") -> Tuple[hearth.User, hearth.TotpSecret]:
    session = user.multi_factor.get_session().result(TIMEOUT)
    secret = hearth.TotpMultiFactorGenerator.generate_secret(session).result(TIMEOUT)
    code = rfc6238_code(secret.shared_secret_key, now())
    assertion = hearth.TotpMultiFactorGenerator.assertion_for_enrollment(secret, code)
    return user.multi_factor.enroll(assertion, display_name).result(TIMEOUT), secret


def a_code_the_server_refuses(secret: str) -> str:
    """A six-digit code that is none of those the server accepts around now (±1 step)."""
    accepted = {rfc6238_code(secret, now() + shift) for shift in (-60, -30, 0, 30, 60)}
    return next(code for code in (f"{n:06d}" for n in range(1000000)) if code not in accepted)


def second_factor_required(future: "hearth.Future[object]") -> hearth.MultiFactorResolver:
    with pytest.raises(hearth.SecondFactorRequiredError) as failure:
        future.result(TIMEOUT)
    assert failure.value.code == hearth.ErrorCode.SECOND_FACTOR_REQUIRED
    resolver = failure.value.resolver
    assert isinstance(resolver, hearth.MultiFactorResolver)
    return resolver


def sign_in_second_factor(user: hearth.User) -> Tuple[Optional[str], Optional[str]]:
    firebase = jwt_claims(user.get_token().result(TIMEOUT))["firebase"]
    return firebase.get("sign_in_second_factor"), firebase.get("second_factor_identifier")


def rfc3339(text: str) -> datetime.datetime:
    """The server's enrolledAt ("2024-05-06T07:08:09.123Z")."""
    return datetime.datetime.strptime(text.replace("Z", "+0000"), "%Y-%m-%dT%H:%M:%S.%f%z")


def recently(moment: Optional[datetime.datetime]) -> bool:
    if moment is None:
        return False
    age = datetime.datetime.now(datetime.timezone.utc) - moment
    return datetime.timedelta(seconds=-5) < age < datetime.timedelta(seconds=60)


# ---------------------------------------------------------------------------------------------------
# SMS second factors
# ---------------------------------------------------------------------------------------------------


class TestPhoneSecondFactor:
    def test_enrolling_a_phone_lists_it_on_the_user_and_in_the_id_token(
            self, auth: hearth.Auth, emulator: Emulator) -> None:
        number = unique_phone_number()
        user = verified_password_user(auth, emulator, unique_email())
        assert user.multi_factor.enrolled_factors == ()

        enrolled = enroll_phone(auth, emulator, user, number, "Work phone")

        [factor] = enrolled.multi_factor.enrolled_factors
        assert factor.factor_id == hearth.PhoneMultiFactorGenerator.FACTOR_ID == "phone"
        assert factor.display_name == "Work phone" and factor.phone_number == number
        assert factor.uid and recently(factor.enrollment_time)
        [stored] = emulator.lookup(user.uid)["mfaInfo"]  # type: ignore[index]
        assert stored["mfaEnrollmentId"] == factor.uid and stored["phoneInfo"] == number
        assert factor.enrollment_time == rfc3339(stored["enrolledAt"])
        assert factor.enrollment_timestamp == int(rfc3339(stored["enrolledAt"]).timestamp()) * 1000 + \
            rfc3339(stored["enrolledAt"]).microsecond // 1000
        assert sign_in_second_factor(enrolled) == ("phone", factor.uid)
        current = auth.current_user
        assert current is not None and current.multi_factor.enrolled_factors == (factor,)

    def test_a_password_sign_in_then_needs_the_sms_code_of_the_enrolled_phone(
            self, auth: hearth.Auth, emulator: Emulator) -> None:
        email, number = unique_email(), unique_phone_number()
        enrolled = enroll_phone(auth, emulator, verified_password_user(auth, emulator, email), number)
        [factor] = enrolled.multi_factor.enrolled_factors
        auth.sign_out()

        resolver = second_factor_required(auth.sign_in_with_email_and_password(email, PASSWORD))
        assert auth.current_user is None
        [hint] = resolver.hints
        assert (hint.factor_id, hint.uid, hint.display_name) == ("phone", factor.uid, "Work phone")
        assert hint.phone_number == masked(number)
        assert hint.enrollment_time is not None and factor.enrollment_time is not None
        assert abs((hint.enrollment_time - factor.enrollment_time).total_seconds()) < 1
        verification = auth.verify_phone_number(multi_factor_session=resolver.session,
                                                multi_factor_hint=hint).result(TIMEOUT)
        assert emulator.verification_code(verification.verification_id)["phoneNumber"] == number
        result = resolver.resolve_sign_in(phone_assertion(emulator, verification)).result(TIMEOUT)

        assert result.user.uid == enrolled.uid and result.user.email == email
        assert auth.current_user is not None and auth.current_user.uid == enrolled.uid
        assert sign_in_second_factor(result.user) == ("phone", factor.uid)

    def test_a_provider_sign_in_needing_a_second_factor_is_finished_by_sms(
            self, auth: hearth.Auth, emulator: Emulator) -> None:
        email, number = unique_email(), unique_phone_number()
        user = auth.sign_in_with_credential(google_credential("g-sms", email)).result(TIMEOUT)
        assert user.is_email_verified
        enroll_phone(auth, emulator, user, number, "Phone")
        auth.sign_out()

        resolver = second_factor_required(auth.sign_in_with_credential(google_credential("g-sms", email)))
        [hint] = resolver.hints
        verification = auth.verify_phone_number(multi_factor_session=resolver.session,
                                                multi_factor_hint=hint).result(TIMEOUT)
        result = resolver.resolve_sign_in(phone_assertion(emulator, verification)).result(TIMEOUT)

        assert result.user.uid == user.uid
        assert [info.provider_id for info in result.user.provider_data] == ["google.com"]
        assert sign_in_second_factor(result.user)[0] == "phone"

    def test_auth_state_listeners_hear_a_second_factor_sign_in_once_when_it_resolves(
            self, auth: hearth.Auth, emulator: Emulator) -> None:
        email = unique_email()
        enroll_phone(auth, emulator, verified_password_user(auth, emulator, email), unique_phone_number())
        auth.sign_out()
        heard: "queue.Queue[Optional[str]]" = queue.Queue()
        auth.add_auth_state_listener(lambda user: heard.put(user.uid if user else None))
        assert heard.get(timeout=TIMEOUT) is None

        resolver = second_factor_required(auth.sign_in_with_email_and_password(email, PASSWORD))
        [hint] = resolver.hints
        verification = auth.verify_phone_number(multi_factor_session=resolver.session,
                                                multi_factor_hint=hint).result(TIMEOUT)
        time.sleep(0.2)
        assert heard.empty(), "the first factor alone signed nobody in"
        uid = resolver.resolve_sign_in(phone_assertion(emulator, verification)).result(TIMEOUT).user.uid

        assert heard.get(timeout=TIMEOUT) == uid
        time.sleep(0.3)
        assert heard.empty()

    def test_a_wrong_sms_code_does_not_finish_the_sign_in(self, auth: hearth.Auth, emulator: Emulator) -> None:
        email = unique_email()
        enroll_phone(auth, emulator, verified_password_user(auth, emulator, email), unique_phone_number())
        auth.sign_out()
        resolver = second_factor_required(auth.sign_in_with_email_and_password(email, PASSWORD))
        verification = auth.verify_phone_number(multi_factor_session=resolver.session,
                                                multi_factor_hint=resolver.hints[0]).result(TIMEOUT)
        code = sms_code(emulator, verification)
        wrong = f"{(int(code) + 1) % 1000000:06d}"
        assertion = hearth.PhoneMultiFactorGenerator.assertion(
            hearth.PhoneAuthProvider.credential(verification.verification_id, wrong))

        with pytest.raises(hearth.InvalidVerificationCodeError):
            resolver.resolve_sign_in(assertion).result(TIMEOUT)
        assert auth.current_user is None

    def test_a_sign_in_session_without_a_hint_is_missing_the_factor_to_text(
            self, auth: hearth.Auth, emulator: Emulator) -> None:
        email = unique_email()
        enroll_phone(auth, emulator, verified_password_user(auth, emulator, email), unique_phone_number())
        auth.sign_out()
        resolver = second_factor_required(auth.sign_in_with_email_and_password(email, PASSWORD))

        with pytest.raises(hearth.MissingMultiFactorInfoError):
            auth.verify_phone_number(multi_factor_session=resolver.session).result(TIMEOUT)

    def test_an_enrollment_code_used_after_its_session_expired_is_refused(
            self, auth: hearth.Auth, emulator_config: Emulator) -> None:
        emulator_config.set_config(smsCodeTtlSeconds=1)
        user = verified_password_user(auth, emulator_config, unique_email())
        session = user.multi_factor.get_session().result(TIMEOUT)
        verification = auth.verify_phone_number(unique_phone_number(), multi_factor_session=session).result(TIMEOUT)
        assertion = phone_assertion(emulator_config, verification)
        time.sleep(1.5)

        with pytest.raises(hearth.SessionExpiredError):
            user.multi_factor.enroll(assertion).result(TIMEOUT)

    def test_enrolling_needs_a_verified_email(self, auth: hearth.Auth) -> None:
        user = auth.create_user_with_email_and_password(unique_email(), PASSWORD).result(TIMEOUT).user
        session = user.multi_factor.get_session().result(TIMEOUT)

        with pytest.raises(hearth.UnverifiedEmailError):
            auth.verify_phone_number(unique_phone_number(), multi_factor_session=session).result(TIMEOUT)
        with pytest.raises(hearth.UnverifiedEmailError):
            hearth.TotpMultiFactorGenerator.generate_secret(session).result(TIMEOUT)

    def test_a_phone_first_factor_cannot_have_second_factors(self, auth: hearth.Auth, emulator: Emulator) -> None:
        verification = auth.verify_phone_number(unique_phone_number()).result(TIMEOUT)
        user = auth.sign_in_with_credential(hearth.PhoneAuthProvider.credential(
            verification.verification_id, sms_code(emulator, verification))).result(TIMEOUT)
        session = user.multi_factor.get_session().result(TIMEOUT)

        with pytest.raises(hearth.UnsupportedFirstFactorError):
            auth.verify_phone_number(unique_phone_number(), multi_factor_session=session).result(TIMEOUT)

    def test_the_same_phone_cannot_be_enrolled_twice(self, auth: hearth.Auth, emulator: Emulator) -> None:
        number = unique_phone_number()
        enrolled = enroll_phone(auth, emulator, verified_password_user(auth, emulator, unique_email()), number)

        with pytest.raises(hearth.SecondFactorAlreadyEnrolledError):
            # A code texted less than `timeout` ago would be reused: this one is no longer fresh.
            enroll_phone(auth, emulator, enrolled, number, "Same phone", timeout=0.001)

    def test_an_account_has_at_most_five_second_factors(self, auth: hearth.Auth, emulator: Emulator) -> None:
        user = verified_password_user(auth, emulator, unique_email())
        for index in range(5):
            user = enroll_phone(auth, emulator, user, unique_phone_number(), f"Phone {index}")
        assert len(user.multi_factor.enrolled_factors) == 5

        with pytest.raises(hearth.MaximumSecondFactorCountExceededError):
            enroll_phone(auth, emulator, user, unique_phone_number(), "One too many")


# ---------------------------------------------------------------------------------------------------
# TOTP second factors
# ---------------------------------------------------------------------------------------------------


class TestTotpSecondFactor:
    def test_a_new_secret_has_firebases_code_parameters_and_a_qr_code_uri(
            self, auth: hearth.Auth, emulator: Emulator) -> None:
        user = verified_password_user(auth, emulator, unique_email())
        session = user.multi_factor.get_session().result(TIMEOUT)

        secret = hearth.TotpMultiFactorGenerator.generate_secret(session).result(TIMEOUT)
        uri = urllib.parse.urlsplit(secret.qr_code_url("ada@example.com", "Hearth Game"))
        query = dict(urllib.parse.parse_qsl(uri.query))

        assert (secret.code_length, secret.period, secret.algorithm) == (6, 30, "SHA1")
        assert re.fullmatch(r"[A-Z2-7]{32}", secret.shared_secret_key)
        assert len(base64.b32decode(secret.shared_secret_key)) == 20
        assert (uri.scheme, uri.netloc) == ("otpauth", "totp")
        assert urllib.parse.unquote(uri.path) == "/Hearth Game:ada@example.com"
        assert query == {"secret": secret.shared_secret_key, "issuer": "Hearth Game", "algorithm": "SHA1",
                         "digits": "6", "period": "30"}
        assert secret.shared_secret_key not in repr(secret)
        without_issuer = urllib.parse.urlsplit(secret.qr_code_url("ada@example.com"))
        assert urllib.parse.unquote(without_issuer.path) == "/ada@example.com"
        assert "issuer" not in dict(urllib.parse.parse_qsl(without_issuer.query))

    def test_the_secrets_codes_are_rfc_6238_codes_computed_here(self, auth: hearth.Auth, emulator: Emulator) -> None:
        user = verified_password_user(auth, emulator, unique_email())
        session = user.multi_factor.get_session().result(TIMEOUT)
        secret = hearth.TotpMultiFactorGenerator.generate_secret(session).result(TIMEOUT)
        key = secret.shared_secret_key

        for moment in (0, 29, 30, 59, 1111111109, 1234567890, 2000000000, now(), now() - 30):
            expected = rfc6238_code(key, moment)
            assert secret.generate_code(moment) == expected, moment
            assert hearth.totp_code(key, moment) == expected, moment
            at = datetime.datetime.fromtimestamp(moment, tz=datetime.timezone.utc)
            assert secret.generate_code(at) == expected, moment
        before = now()
        current = secret.generate_code()
        assert current in {rfc6238_code(key, before), rfc6238_code(key, now())}

    def test_a_code_computed_from_the_shared_secret_enrolls_the_authenticator(
            self, auth: hearth.Auth, emulator: Emulator) -> None:
        user = verified_password_user(auth, emulator, unique_email())

        enrolled, _ = enroll_totp(user, "Authenticator")

        [factor] = enrolled.multi_factor.enrolled_factors
        assert factor.factor_id == hearth.TotpMultiFactorGenerator.FACTOR_ID == "totp"
        assert factor.display_name == "Authenticator" and factor.phone_number is None
        assert recently(factor.enrollment_time)
        assert sign_in_second_factor(enrolled) == ("totp", factor.uid)
        [stored] = emulator.lookup(user.uid)["mfaInfo"]  # type: ignore[index]
        assert stored["mfaEnrollmentId"] == factor.uid and "totpInfo" in stored

    def test_a_wrong_totp_code_enrolls_nothing(self, auth: hearth.Auth, emulator: Emulator) -> None:
        user = verified_password_user(auth, emulator, unique_email())
        session = user.multi_factor.get_session().result(TIMEOUT)
        secret = hearth.TotpMultiFactorGenerator.generate_secret(session).result(TIMEOUT)
        assertion = hearth.TotpMultiFactorGenerator.assertion_for_enrollment(
            secret, a_code_the_server_refuses(secret.shared_secret_key))

        with pytest.raises(hearth.InvalidVerificationCodeError):
            user.multi_factor.enroll(assertion).result(TIMEOUT)
        assert "mfaInfo" not in (emulator.lookup(user.uid) or {})

    def test_a_password_sign_in_is_finished_with_a_totp_code(self, auth: hearth.Auth, emulator: Emulator) -> None:
        email = unique_email()
        enrolled, secret = enroll_totp(verified_password_user(auth, emulator, email))
        auth.sign_out()

        resolver = second_factor_required(auth.sign_in_with_email_and_password(email, PASSWORD))
        [hint] = resolver.hints
        assert (hint.factor_id, hint.display_name, hint.phone_number) == ("totp", "Authenticator", None)
        code = rfc6238_code(secret.shared_secret_key, now())
        result = resolver.resolve_sign_in(hearth.TotpMultiFactorGenerator.assertion_for_sign_in(hint.uid, code)
                                          ).result(TIMEOUT)

        assert result.user.uid == enrolled.uid
        assert sign_in_second_factor(result.user) == ("totp", hint.uid)

    def test_a_provider_sign_in_is_finished_with_a_totp_code(self, auth: hearth.Auth, emulator: Emulator) -> None:
        email = unique_email()
        user = auth.sign_in_with_credential(google_credential("g-totp", email)).result(TIMEOUT)
        enrolled, secret = enroll_totp(user)
        auth.sign_out()

        resolver = second_factor_required(
            auth.sign_in_and_retrieve_data_with_credential(google_credential("g-totp", email)))
        [hint] = resolver.hints
        result = resolver.resolve_sign_in(hearth.TotpMultiFactorGenerator.assertion_for_sign_in(
            hint, hearth.totp_code(secret.shared_secret_key))).result(TIMEOUT)

        assert result.user.uid == enrolled.uid
        assert auth.current_user is not None and auth.current_user.uid == enrolled.uid

    def test_a_wrong_totp_code_does_not_finish_the_sign_in(self, auth: hearth.Auth, emulator: Emulator) -> None:
        email = unique_email()
        _, secret = enroll_totp(verified_password_user(auth, emulator, email))
        auth.sign_out()
        resolver = second_factor_required(auth.sign_in_with_email_and_password(email, PASSWORD))
        assertion = hearth.TotpMultiFactorGenerator.assertion_for_sign_in(
            resolver.hints[0], a_code_the_server_refuses(secret.shared_secret_key))

        with pytest.raises(hearth.InvalidVerificationCodeError):
            resolver.resolve_sign_in(assertion).result(TIMEOUT)
        assert auth.current_user is None

    def test_a_sign_in_offers_every_enrolled_factor_as_a_hint(self, auth: hearth.Auth, emulator: Emulator) -> None:
        email, number = unique_email(), unique_phone_number()
        user = enroll_phone(auth, emulator, verified_password_user(auth, emulator, email), number, "Phone")
        enrolled, _ = enroll_totp(user, "App")
        auth.sign_out()

        resolver = second_factor_required(auth.sign_in_with_email_and_password(email, PASSWORD))

        assert sorted((h.factor_id, h.display_name, h.phone_number) for h in resolver.hints) == [
            ("phone", "Phone", masked(number)), ("totp", "App", None)]
        assert {h.uid for h in resolver.hints} == {f.uid for f in enrolled.multi_factor.enrolled_factors}


# ---------------------------------------------------------------------------------------------------
# Unenrolling
# ---------------------------------------------------------------------------------------------------


class TestUnenrolling:
    def test_unenrolling_the_only_factor_lets_the_password_alone_sign_in_again(
            self, auth: hearth.Auth, emulator: Emulator) -> None:
        email = unique_email()
        enrolled = enroll_phone(auth, emulator, verified_password_user(auth, emulator, email), unique_phone_number())
        [factor] = enrolled.multi_factor.enrolled_factors

        updated = enrolled.multi_factor.unenroll(factor).result(TIMEOUT)
        auth.sign_out()
        again = auth.sign_in_with_email_and_password(email, PASSWORD).result(TIMEOUT)

        assert updated.multi_factor.enrolled_factors == ()
        # Firebase's emulator keeps an empty list after the last factor is withdrawn.
        assert (emulator.lookup(enrolled.uid) or {}).get("mfaInfo", []) == []
        assert again.user.uid == enrolled.uid
        assert sign_in_second_factor(again.user) == (None, None)

    def test_unenrolling_one_factor_by_its_enrollment_id_keeps_the_others(
            self, auth: hearth.Auth, emulator: Emulator) -> None:
        user = enroll_phone(auth, emulator, verified_password_user(auth, emulator, unique_email()),
                            unique_phone_number(), "Phone")
        enrolled, _ = enroll_totp(user, "App")
        totp = next(f for f in enrolled.multi_factor.enrolled_factors if f.factor_id == "totp")

        updated = enrolled.multi_factor.unenroll(totp.uid).result(TIMEOUT)

        assert [f.factor_id for f in updated.multi_factor.enrolled_factors] == ["phone"]

    def test_unenrolling_an_unknown_factor_is_not_found(self, auth: hearth.Auth, emulator: Emulator) -> None:
        user = enroll_phone(auth, emulator, verified_password_user(auth, emulator, unique_email()),
                            unique_phone_number())

        with pytest.raises(hearth.MultiFactorInfoNotFoundError):
            user.multi_factor.unenroll("no-such-enrollment").result(TIMEOUT)
        assert len((emulator.lookup(user.uid) or {}).get("mfaInfo", [])) == 1


# ---------------------------------------------------------------------------------------------------
# asyncio
# ---------------------------------------------------------------------------------------------------


class TestAsyncio:
    def test_an_sms_second_factor_sign_in_can_be_awaited_end_to_end(
            self, auth: hearth.Auth, emulator: Emulator) -> None:
        email, number = unique_email(), unique_phone_number()

        async def enroll_then_sign_in() -> Tuple[str, str]:
            loop = asyncio.get_running_loop()
            created = await auth.create_user_with_email_and_password(email, PASSWORD)
            await loop.run_in_executor(None, lambda: emulator.admin_update(created.user.uid, emailVerified=True))
            session = await created.user.multi_factor.get_session()
            verification = await auth.verify_phone_number(number, multi_factor_session=session)
            code = await loop.run_in_executor(None, sms_code, emulator, verification)
            credential = hearth.PhoneAuthProvider.credential(verification.verification_id, code)
            await created.user.multi_factor.enroll(hearth.PhoneMultiFactorGenerator.assertion(credential), "Phone")
            auth.sign_out()
            try:
                await auth.sign_in_with_email_and_password(email, PASSWORD)
            except hearth.SecondFactorRequiredError as error:
                resolver = error.resolver
            else:
                raise AssertionError("the sign-in did not ask for the second factor")
            assert resolver is not None
            verification = await auth.verify_phone_number(multi_factor_session=resolver.session,
                                                          multi_factor_hint=resolver.hints[0])
            code = await loop.run_in_executor(None, sms_code, emulator, verification)
            credential = hearth.PhoneAuthProvider.credential(verification.verification_id, code)
            result = await resolver.resolve_sign_in(hearth.PhoneMultiFactorGenerator.assertion(credential))
            return created.user.uid, result.user.uid

        created_uid, signed_in_uid = asyncio.run(enroll_then_sign_in())

        assert signed_in_uid == created_uid

    def test_a_totp_enrollment_and_sign_in_can_be_awaited(self, auth: hearth.Auth, emulator: Emulator) -> None:
        email = unique_email()
        user = verified_password_user(auth, emulator, email)

        async def enroll_then_sign_in() -> hearth.AuthResult:
            secret = await hearth.TotpMultiFactorGenerator.generate_secret(await user.multi_factor.get_session())
            enrollment = hearth.TotpMultiFactorGenerator.assertion_for_enrollment(
                secret, rfc6238_code(secret.shared_secret_key, now()))
            await user.multi_factor.enroll(enrollment, "App")
            auth.sign_out()
            try:
                await auth.sign_in_with_email_and_password(email, PASSWORD)
            except hearth.SecondFactorRequiredError as error:
                assert error.resolver is not None
                return await error.resolver.resolve_sign_in(hearth.TotpMultiFactorGenerator.assertion_for_sign_in(
                    error.resolver.hints[0], rfc6238_code(secret.shared_secret_key, now())))
            raise AssertionError("the sign-in did not ask for the second factor")

        assert asyncio.run(enroll_then_sign_in()).user.uid == user.uid


# ---------------------------------------------------------------------------------------------------
# Bad input and lifetimes
# ---------------------------------------------------------------------------------------------------


class TestBadInputAndLifetimes:
    def test_a_phone_assertion_needs_a_phone_credential(self) -> None:
        with pytest.raises(hearth.InvalidArgumentError) as failure:
            hearth.PhoneMultiFactorGenerator.assertion(hearth.EmailAuthProvider.credential("a@example.com", "pw"))
        assert isinstance(failure.value, ValueError)
        with pytest.raises(TypeError):
            hearth.PhoneMultiFactorGenerator.assertion("verification-id")  # type: ignore[arg-type]

    def test_totp_assertions_check_their_arguments(self) -> None:
        with pytest.raises(TypeError):
            hearth.TotpMultiFactorGenerator.assertion_for_enrollment("JBSWY3DPEHPK3PXP", "123456")  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            hearth.TotpMultiFactorGenerator.assertion_for_sign_in(None, "123456")  # type: ignore[arg-type]
        with pytest.raises(ValueError):
            hearth.TotpMultiFactorGenerator.assertion_for_sign_in("enrollment", "12\x003456")
        with pytest.raises(ValueError):
            hearth.TotpMultiFactorGenerator.assertion_for_sign_in("enrollment\udcff", "123456")
        assertion = hearth.TotpMultiFactorGenerator.assertion_for_sign_in("enrollment", "123456")
        assert assertion.factor_id == "totp" and "123456" not in repr(assertion)

    def test_multi_factor_operations_check_their_arguments(self, auth: hearth.Auth, emulator: Emulator) -> None:
        user = verified_password_user(auth, emulator, unique_email())
        for call in (lambda: user.multi_factor.enroll("assertion"),  # type: ignore[arg-type]
                     lambda: user.multi_factor.unenroll(42),  # type: ignore[arg-type]
                     lambda: hearth.TotpMultiFactorGenerator.generate_secret("session"),  # type: ignore[arg-type]
                     lambda: hearth.MultiFactorUser("user")):  # type: ignore[arg-type]
            with pytest.raises(TypeError):
                call()
        with pytest.raises(ValueError):
            user.multi_factor.enroll(hearth.TotpMultiFactorGenerator.assertion_for_sign_in("e", "123456"), "\x00")

    def test_handles_hearth_lends_cannot_be_made_by_hand(self) -> None:
        for cls in (hearth.MultiFactorSession, hearth.MultiFactorResolver, hearth.MultiFactorAssertion,
                    hearth.TotpSecret, hearth.PhoneMultiFactorGenerator, hearth.TotpMultiFactorGenerator):
            with pytest.raises(TypeError):
                cls()

    def test_a_resolver_outlives_the_failed_future_that_made_it(self, auth: hearth.Auth, emulator: Emulator) -> None:
        email = unique_email()
        enrolled, secret = enroll_totp(verified_password_user(auth, emulator, email))
        auth.sign_out()
        future = auth.sign_in_with_email_and_password(email, PASSWORD)
        resolver = second_factor_required(future)
        hints = resolver.hints
        del future
        gc.collect()

        result = resolver.resolve_sign_in(hearth.TotpMultiFactorGenerator.assertion_for_sign_in(
            hints[0], rfc6238_code(secret.shared_secret_key, now()))).result(TIMEOUT)

        assert result.user.uid == enrolled.uid

    def test_a_session_and_a_secret_outlive_their_futures(self, auth: hearth.Auth, emulator: Emulator) -> None:
        user = verified_password_user(auth, emulator, unique_email())
        session_future = user.multi_factor.get_session()
        session = session_future.result(TIMEOUT)
        del session_future
        gc.collect()
        secret_future = hearth.TotpMultiFactorGenerator.generate_secret(session)
        secret = secret_future.result(TIMEOUT)
        del secret_future
        gc.collect()

        enrolled = user.multi_factor.enroll(hearth.TotpMultiFactorGenerator.assertion_for_enrollment(
            secret, secret.generate_code())).result(TIMEOUT)

        assert [f.factor_id for f in enrolled.multi_factor.enrolled_factors] == ["totp"]

    def test_sessions_and_resolvers_of_a_closed_app_refuse_to_work(
            self, make_app: Callable[..., hearth.App], emulator: Emulator) -> None:
        app = make_app()
        auth = app.auth
        email = unique_email()
        enrolled, secret = enroll_totp(verified_password_user(auth, emulator, email))
        session = enrolled.multi_factor.get_session().result(TIMEOUT)
        auth.sign_out()
        resolver = second_factor_required(auth.sign_in_with_email_and_password(email, PASSWORD))
        assertion = hearth.TotpMultiFactorGenerator.assertion_for_sign_in(resolver.hints[0], secret.generate_code())

        app.close()

        with pytest.raises(hearth.AppDestroyedError):
            resolver.resolve_sign_in(assertion)
        with pytest.raises(hearth.AppDestroyedError):
            hearth.TotpMultiFactorGenerator.generate_secret(session)
        with pytest.raises(hearth.AppDestroyedError):
            auth.verify_phone_number(multi_factor_session=resolver.session, multi_factor_hint=resolver.hints[0])
        assert resolver.hints[0].factor_id == "totp"  # what was read stays readable

    def test_a_hint_needs_the_sign_in_session(self, auth: hearth.Auth, emulator: Emulator) -> None:
        email = unique_email()
        enroll_phone(auth, emulator, verified_password_user(auth, emulator, email), unique_phone_number())
        auth.sign_out()
        resolver = second_factor_required(auth.sign_in_with_email_and_password(email, PASSWORD))

        with pytest.raises(ValueError):
            auth.verify_phone_number(multi_factor_hint=resolver.hints[0])
        with pytest.raises(TypeError):
            auth.verify_phone_number(multi_factor_session=resolver.session,
                                     multi_factor_hint=resolver.hints[0].uid)  # type: ignore[arg-type]

    def test_a_second_factor_error_made_by_hand_has_no_resolver(self) -> None:
        error = hearth.error_from_code(hearth.ErrorCode.SECOND_FACTOR_REQUIRED)
        assert isinstance(error, hearth.SecondFactorRequiredError) and error.resolver is None


# ---------------------------------------------------------------------------------------------------
# The TOTP helper on its own
# ---------------------------------------------------------------------------------------------------

# RFC 6238 Appendix B: the seeds of the reference implementation (ASCII "1234567890" repeated to the
# hash's key length), as base32.
RFC_SEEDS = {
    "SHA1": base64.b32encode(b"12345678901234567890").decode(),
    "SHA256": base64.b32encode(b"12345678901234567890123456789012").decode(),
    "SHA512": base64.b32encode(b"1234567890" * 6 + b"1234").decode(),
}
RFC_TIMES = [59, 1111111109, 1111111111, 1234567890, 2000000000, 20000000000]


class TestTotpCode:
    def test_the_reference_here_reproduces_rfc_6238_appendix_b(self) -> None:
        # The RFC's table (8 digits): proves the hmac/hashlib reference the library is checked against.
        table = {
            "SHA1": ["94287082", "07081804", "14050471", "89005924", "69279037", "65353130"],
            "SHA256": ["46119246", "68084774", "67062674", "91819424", "90698825", "77737706"],
            "SHA512": ["90693936", "25091201", "99943326", "93441116", "38618901", "47863826"],
        }
        for algorithm, codes in table.items():
            computed = [rfc6238_code(RFC_SEEDS[algorithm], t, digits=8, algorithm=algorithm) for t in RFC_TIMES]
            assert computed == codes, algorithm

    def test_the_library_helper_agrees_with_the_reference_for_every_algorithm_and_length(self) -> None:
        for algorithm, seed in RFC_SEEDS.items():
            for digits in (6, 7, 8, 10):
                for period in (30, 60):
                    for moment in RFC_TIMES + [now()]:
                        assert hearth.totp_code(seed, moment, digits=digits, period=period, algorithm=algorithm) == \
                            rfc6238_code(seed, moment, digits=digits, period=period, algorithm=algorithm)

    def test_lowercase_unpadded_secrets_and_algorithm_spellings_are_accepted(self) -> None:
        seed = RFC_SEEDS["SHA256"]
        expected = rfc6238_code(seed, 59, algorithm="SHA256")
        assert hearth.totp_code(seed.lower().rstrip("="), 59, algorithm="sha256") == expected
        assert hearth.totp_code(seed, 59, algorithm="HMAC-SHA256") == expected

    def test_times_may_be_floats_or_aware_datetimes_and_default_to_now(self) -> None:
        seed = RFC_SEEDS["SHA1"]
        assert hearth.totp_code(seed, 59.9) == rfc6238_code(seed, 59)
        moment = datetime.datetime(2033, 5, 18, 3, 33, 20, tzinfo=datetime.timezone.utc)
        assert hearth.totp_code(seed, moment) == rfc6238_code(seed, 2000000000)
        before = now()
        assert hearth.totp_code(seed) in {rfc6238_code(seed, before), rfc6238_code(seed, now())}

    def test_bad_secrets_algorithms_lengths_and_times_are_refused(self) -> None:
        seed = RFC_SEEDS["SHA1"]
        for call in (lambda: hearth.totp_code("not base32!"),
                     lambda: hearth.totp_code(""),
                     lambda: hearth.totp_code(seed, algorithm="MD5"),
                     lambda: hearth.totp_code(seed, digits=5),
                     lambda: hearth.totp_code(seed, digits=11),
                     lambda: hearth.totp_code(seed, period=0)):
            with pytest.raises(hearth.InvalidArgumentError):
                call()
        for call in (lambda: hearth.totp_code(seed, -1),
                     lambda: hearth.totp_code(seed, float("inf")),
                     lambda: hearth.totp_code(seed, datetime.datetime(2030, 1, 1)),
                     lambda: hearth.totp_code(seed + "\x00")):
            with pytest.raises(ValueError):
                call()
        for call in (lambda: hearth.totp_code(None),  # type: ignore[arg-type]
                     lambda: hearth.totp_code(seed, "now"),  # type: ignore[arg-type]
                     lambda: hearth.totp_code(seed, True),  # type: ignore[arg-type]
                     lambda: hearth.totp_code(seed, digits=6.0)):  # type: ignore[arg-type]
            with pytest.raises(TypeError):
                call()
