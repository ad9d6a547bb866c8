"""Phone numbers: verification (future and listener forms), Firebase's re-entrancy and resend rules,
phone credentials to sign in, link, update and reauthenticate, the phone conflict recipe, the
language of the SMS, and bad input."""

from __future__ import annotations

import asyncio
import gc
import json
import os
import queue
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable, List, Tuple

import pytest

import hearth
from hearth_testing import (
    TIMEOUT,
    Emulator,
    FakeBrowser,
    RecordingProxy,
    jwt_claims,
    query_of,
    unique_email,
    unique_phone_number,
)

PASSWORD = "correct-horse-1"
# Firebase's documented fictional number and its code (phone-auth guide, "test with fictional numbers").
FICTIONAL = "+16505554567"
FICTIONAL_CODE = "123456"


def verify(auth: hearth.Auth, number: str, **options: Any) -> hearth.PhoneVerification:
    return auth.verify_phone_number(number, **options).result(TIMEOUT)


def code_of(emulator: Emulator, verification: hearth.PhoneVerification) -> str:
    return str(emulator.verification_code(verification.verification_id)["code"])


def phone_credential(emulator: Emulator, verification: hearth.PhoneVerification) -> hearth.Credential:
    return hearth.PhoneAuthProvider.credential(verification.verification_id, code_of(emulator, verification))


def phone_user(auth: hearth.Auth, emulator: Emulator, number: str) -> hearth.User:
    """Signs in (creating it if needed) the account of ``number`` with a code read from the listing."""
    return auth.sign_in_with_credential(phone_credential(emulator, verify(auth, number))).result(TIMEOUT)


def wrong(code: str) -> str:
    return f"{(int(code) + 1) % 10**len(code):0{len(code)}d}"


class TestVerification:
    def test_firebases_fictional_test_number_signs_in_with_its_fixed_code(
            self, auth: hearth.Auth, emulator_config: Emulator) -> None:
        emulator_config.set_config(testPhoneNumbers={FICTIONAL: FICTIONAL_CODE})
        auth.app_verification_disabled_for_testing = True

        verification = verify(auth, FICTIONAL)
        user = auth.sign_in_with_credential(
            hearth.PhoneAuthProvider.credential(verification.verification_id, FICTIONAL_CODE)).result(TIMEOUT)

        assert auth.app_verification_disabled_for_testing is True
        assert user.phone_number == FICTIONAL
        assert [(info.provider_id, info.phone_number) for info in user.provider_data] == [("phone", FICTIONAL)]
        assert emulator_config.lookup(user.uid)["phoneNumber"] == FICTIONAL  # type: ignore[index]

    def test_a_code_read_from_the_emulators_listing_signs_in_a_new_phone_account(
            self, auth: hearth.Auth, emulator: Emulator) -> None:
        number = unique_phone_number()

        verification = verify(auth, number)
        entry = emulator.verification_code(verification.verification_id)
        result = auth.sign_in_and_retrieve_data_with_credential(
            hearth.PhoneAuthProvider.credential(verification.verification_id, entry["code"])).result(TIMEOUT)

        assert entry["phoneNumber"] == number and len(entry["code"]) == 6 and entry["code"].isdigit()
        assert result.user.phone_number == number
        assert result.additional_user_info.provider_id == "phone"
        assert result.additional_user_info.is_new_user is True
        assert jwt_claims(result.user.get_token().result(TIMEOUT))["firebase"]["sign_in_provider"] == "phone"
        assert auth.current_user is not None and auth.current_user.uid == result.user.uid

    def test_signing_in_with_the_number_again_reaches_the_same_account(
            self, make_app: Callable[..., hearth.App], emulator: Emulator) -> None:
        number = unique_phone_number()
        first = phone_user(make_app().auth, emulator, number)

        again = phone_user(make_app().auth, emulator, number)

        assert again.uid == first.uid

    def test_numbers_are_accepted_with_the_separators_people_type(self, auth: hearth.Auth, emulator: Emulator) -> None:
        number = unique_phone_number()
        typed = f"{number[:2]} ({number[2:5]}) {number[5:8]}-{number[8:10]}.{number[10:]}"

        verification = verify(auth, typed)

        assert emulator.verification_code(verification.verification_id)["phoneNumber"] == number

    def test_a_wrong_code_is_an_invalid_verification_code_and_signs_nobody_in(
            self, auth: hearth.Auth, emulator: Emulator) -> None:
        verification = verify(auth, unique_phone_number())
        credential = hearth.PhoneAuthProvider.credential(verification.verification_id,
                                                         wrong(code_of(emulator, verification)))

        with pytest.raises(hearth.InvalidVerificationCodeError):
            auth.sign_in_with_credential(credential).result(TIMEOUT)
        assert auth.current_user is None

    def test_a_code_used_after_its_session_expired_is_a_session_expired_error(
            self, auth: hearth.Auth, emulator_config: Emulator) -> None:
        emulator_config.set_config(smsCodeTtlSeconds=1)
        verification = verify(auth, unique_phone_number())
        credential = phone_credential(emulator_config, verification)
        time.sleep(1.5)

        with pytest.raises(hearth.SessionExpiredError):
            auth.sign_in_with_credential(credential).result(TIMEOUT)
        assert auth.current_user is None

    def test_an_unknown_verification_id_is_invalid(self, auth: hearth.Auth) -> None:
        with pytest.raises(hearth.InvalidVerificationIdError):
            auth.sign_in_with_credential(hearth.PhoneAuthProvider.credential("not-a-session", "123456")).result(TIMEOUT)

    def test_an_empty_verification_id_or_code_is_missing(self, auth: hearth.Auth) -> None:
        with pytest.raises(hearth.MissingVerificationIdError):
            auth.sign_in_with_credential(hearth.PhoneAuthProvider.credential("", "123456")).result(TIMEOUT)
        with pytest.raises(hearth.MissingVerificationCodeError):
            auth.sign_in_with_credential(hearth.PhoneAuthProvider.credential("some-id", "")).result(TIMEOUT)

    def test_the_verification_and_the_credential_never_show_their_secrets(self, auth: hearth.Auth) -> None:
        verification = verify(auth, unique_phone_number())
        credential = hearth.PhoneAuthProvider.credential(verification.verification_id, "135790")

        assert verification.verification_id not in repr(verification)
        assert verification.force_resending_token and verification.force_resending_token not in repr(verification)
        assert "135790" not in repr(credential) and verification.verification_id not in repr(credential)
        assert credential.provider == hearth.PhoneAuthProvider.PROVIDER_ID == "phone"


class TestReentrancyAndResending:
    def test_verifying_a_number_again_while_its_code_is_fresh_sends_no_second_sms(
            self, auth: hearth.Auth, emulator: Emulator) -> None:
        number = unique_phone_number()

        first, second = auth.verify_phone_number(number), auth.verify_phone_number(number)
        first_result, second_result = first.result(TIMEOUT), second.result(TIMEOUT)
        third_result = verify(auth, number)

        assert first_result.verification_id == second_result.verification_id == third_result.verification_id
        assert first_result.force_resending_token == third_result.force_resending_token
        assert len(emulator.codes_sent_to(number)) == 1

    def test_a_code_older_than_the_timeout_is_sent_again(self, auth: hearth.Auth, emulator: Emulator) -> None:
        number = unique_phone_number()
        first = verify(auth, number, timeout=0.2)
        time.sleep(0.4)

        second = verify(auth, number, timeout=0.2)

        assert second.verification_id != first.verification_id
        assert len(emulator.codes_sent_to(number)) == 2

    def test_the_force_resending_token_sends_a_new_code_that_signs_in(
            self, auth: hearth.Auth, emulator: Emulator) -> None:
        number = unique_phone_number()
        first = verify(auth, number)

        resent = verify(auth, number, force_resending_token=first.force_resending_token)
        sent = [entry["sessionInfo"] for entry in emulator.codes_sent_to(number)]
        user = auth.sign_in_with_credential(phone_credential(emulator, resent)).result(TIMEOUT)

        assert resent.verification_id != first.verification_id
        assert sent == [first.verification_id, resent.verification_id]
        assert user.phone_number == number

    def test_the_last_verification_is_kept_as_the_last_result(self, auth: hearth.Auth) -> None:
        assert auth.verify_phone_number_last_result() is None
        verification = verify(auth, unique_phone_number())

        last = auth.verify_phone_number_last_result()

        assert last is not None and last.result(TIMEOUT) == verification


class TestStoredVerificationId:
    def test_a_stored_verification_id_signs_in_after_the_app_is_destroyed_and_created_again(
            self, make_app: Callable[..., hearth.App], emulator: Emulator, tmp_path: Path) -> None:
        number = unique_phone_number()
        first = make_app(app_name="restarting-game")
        stored = tmp_path / "pending-verification.json"
        stored.write_text(json.dumps({"verification_id": verify(first.auth, number).verification_id}))
        first.close()

        again = make_app(app_name="restarting-game")
        verification_id = json.loads(stored.read_text())["verification_id"]
        code = emulator.verification_code(verification_id)["code"]
        user = again.auth.sign_in_with_credential(
            hearth.PhoneAuthProvider.credential(verification_id, code)).result(TIMEOUT)

        assert user.phone_number == number

    def test_a_verification_id_from_a_killed_process_signs_in_in_the_next_one(
            self, auth: hearth.Auth, emulator: Emulator, tmp_path: Path) -> None:
        number = unique_phone_number()
        stored = tmp_path / "pending-verification.json"
        script = (
            "import json, os, sys, hearth\n"
            "app = hearth.App(api_key='fake-api-key', project_id='demo-hearth', persistence='none')\n"
            f"verification = app.auth.verify_phone_number({number!r}).result(15)\n"
            f"open({str(stored)!r}, 'w').write(json.dumps({{'verification_id': verification.verification_id}}))\n"
            "os._exit(0)  # killed while the user reads the SMS: nothing is closed\n"
        )

        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join([str(Path(hearth.__file__).resolve().parents[1]),
                                             env.get("PYTHONPATH", "")])
        completed = subprocess.run([sys.executable, "-c", script], env=env,
                                   capture_output=True, text=True, timeout=60)
        verification_id = json.loads(stored.read_text())["verification_id"]
        code = emulator.verification_code(verification_id)["code"]
        user = auth.sign_in_with_credential(hearth.PhoneAuthProvider.credential(verification_id, code)).result(TIMEOUT)

        assert completed.returncode == 0, completed.stderr
        assert user.phone_number == number


class TestAppVerification:
    """Projects that require app verification: the reCAPTCHA page runs through the provider-flow
    delegate, or (disabled for testing) only fictional numbers get a code."""

    @pytest.fixture
    def verification_required(self, emulator_config: Emulator) -> Emulator:
        emulator_config.set_config(appVerificationRequired=True, testPhoneNumbers={FICTIONAL: FICTIONAL_CODE})
        return emulator_config

    def test_the_recaptcha_page_is_shown_through_the_delegate_and_its_token_lets_the_sms_go(
            self, auth: hearth.Auth, verification_required: Emulator) -> None:
        number = unique_phone_number()
        browser = FakeBrowser().choose(notARobot="true")
        auth.set_provider_flow(open_url=browser.open_url)
        auth.app_verification_disabled_for_testing = False

        verification = verify(auth, number)

        visit = browser.finished(browser.next_visit())
        assert query_of(visit.url)["authType"] == "verifyApp"
        assert visit.redirect is not None and visit.redirect.status == 200
        assert verification_required.verification_code(verification.verification_id)["phoneNumber"] == number

    def test_a_cancelled_recaptcha_page_fails_the_verification(
            self, auth: hearth.Auth, verification_required: Emulator) -> None:
        number = unique_phone_number()
        browser = FakeBrowser().choose(cancel="true")  # the page's Cancel button
        auth.set_provider_flow(open_url=browser.open_url)
        auth.app_verification_disabled_for_testing = False

        with pytest.raises(hearth.WebContextCancelledError):
            verify(auth, number)
        visit = browser.finished(browser.next_visit())
        assert visit.pick is not None and visit.pick.status == 303
        assert verification_required.codes_sent_to(number) == []

    def test_without_a_delegate_to_show_the_page_app_verification_is_a_missing_app_credential(
            self, auth: hearth.Auth, verification_required: Emulator) -> None:
        auth.app_verification_disabled_for_testing = False

        with pytest.raises(hearth.MissingAppCredentialError):
            verify(auth, unique_phone_number())

    def test_with_app_verification_disabled_for_testing_only_fictional_numbers_get_a_code(
            self, auth: hearth.Auth, verification_required: Emulator) -> None:
        auth.app_verification_disabled_for_testing = True

        fictional = verify(auth, FICTIONAL)
        with pytest.raises(hearth.MissingAppCredentialError):
            verify(auth, unique_phone_number())
        user = auth.sign_in_with_credential(
            hearth.PhoneAuthProvider.credential(fictional.verification_id, FICTIONAL_CODE)).result(TIMEOUT)

        assert user.phone_number == FICTIONAL


class TestLanguage:
    def test_the_sms_is_written_in_the_apps_language(self, auth: hearth.Auth, emulator: Emulator) -> None:
        auth.language_code = "fr"

        verification = verify(auth, unique_phone_number())

        assert emulator.verification_code(verification.verification_id)["locale"] == "fr"

    def test_without_a_language_the_sms_is_in_english(self, auth: hearth.Auth, emulator: Emulator) -> None:
        verification = verify(auth, unique_phone_number())

        assert emulator.verification_code(verification.verification_id)["locale"] == "en"


class TestLinkingUpdatingReauthenticating:
    def test_linking_a_verified_number_adds_the_phone_provider_to_an_email_account(
            self, auth: hearth.Auth, emulator: Emulator) -> None:
        email, number = unique_email(), unique_phone_number()
        user = auth.create_user_with_email_and_password(email, PASSWORD).result(TIMEOUT).user

        result = user.link_with_credential(phone_credential(emulator, verify(auth, number))).result(TIMEOUT)

        assert result.user.uid == user.uid
        assert result.user.phone_number == number
        assert sorted(info.provider_id for info in result.user.provider_data) == ["password", "phone"]
        assert emulator.provider_ids(user.uid) == ["password", "phone"]

    def test_linking_a_number_another_account_owns_fails_with_a_credential_that_signs_in_there(
            self, make_app: Callable[..., hearth.App], emulator: Emulator) -> None:
        number = unique_phone_number()
        owner = phone_user(make_app().auth, emulator, number)
        auth = make_app().auth
        user = auth.create_user_with_email_and_password(unique_email(), PASSWORD).result(TIMEOUT).user

        with pytest.raises(hearth.CredentialAlreadyInUseError) as conflict:
            user.link_with_credential(phone_credential(emulator, verify(auth, number))).result(TIMEOUT)
        updated = conflict.value.updated_credential
        assert updated is not None and updated.provider == "phone"
        assert emulator.provider_ids(user.uid) == ["password"]
        signed_in = auth.sign_in_with_credential(updated).result(TIMEOUT)

        assert signed_in.uid == owner.uid
        assert signed_in.phone_number == number

    def test_updating_the_phone_number_replaces_it(self, auth: hearth.Auth, emulator: Emulator) -> None:
        old, new = unique_phone_number(), unique_phone_number()
        user = phone_user(auth, emulator, old)

        updated = user.update_phone_number(phone_credential(emulator, verify(auth, new))).result(TIMEOUT)

        assert updated.uid == user.uid and updated.phone_number == new
        assert [(info.provider_id, info.phone_number) for info in updated.provider_data] == [("phone", new)]
        assert emulator.lookup(user.uid)["phoneNumber"] == new  # type: ignore[index]
        assert auth.current_user is not None and auth.current_user.phone_number == new
        last = user.update_phone_number_last_result()
        assert last is not None and last.result(TIMEOUT).phone_number == new

    def test_updating_to_a_number_another_account_owns_fails_with_its_updated_credential(
            self, make_app: Callable[..., hearth.App], emulator: Emulator) -> None:
        taken = unique_phone_number()
        owner = phone_user(make_app().auth, emulator, taken)
        auth = make_app().auth
        user = auth.create_user_with_email_and_password(unique_email(), PASSWORD).result(TIMEOUT).user

        with pytest.raises(hearth.CredentialAlreadyInUseError) as conflict:
            user.update_phone_number(phone_credential(emulator, verify(auth, taken))).result(TIMEOUT)

        assert conflict.value.updated_credential is not None
        assert auth.sign_in_with_credential(conflict.value.updated_credential).result(TIMEOUT).uid == owner.uid

    def test_reauthenticating_with_a_new_code_of_the_same_number_succeeds(
            self, auth: hearth.Auth, emulator: Emulator) -> None:
        number = unique_phone_number()
        first = verify(auth, number)
        user = auth.sign_in_with_credential(phone_credential(emulator, first)).result(TIMEOUT)
        # The first code is used up and still fresh: only the resending token texts a new one.
        again = verify(auth, number, force_resending_token=first.force_resending_token)

        result = user.reauthenticate_and_retrieve_data(phone_credential(emulator, again)).result(TIMEOUT)

        assert result.user.uid == user.uid
        assert result.additional_user_info.provider_id == "phone"

    def test_reauthenticating_with_another_accounts_number_is_a_user_mismatch(
            self, make_app: Callable[..., hearth.App], emulator: Emulator) -> None:
        other_number = unique_phone_number()
        phone_user(make_app().auth, emulator, other_number)
        auth = make_app().auth
        user = phone_user(auth, emulator, unique_phone_number())

        with pytest.raises(hearth.UserMismatchError):
            user.reauthenticate(phone_credential(emulator, verify(auth, other_number))).result(TIMEOUT)
        assert auth.current_user is not None and auth.current_user.uid == user.uid


Event = Tuple[str, Any, bool]  # (callback, argument, ran on the loop thread)


class ListenerRecorder:
    """The three callbacks of the listener form, recording what they got and on which thread."""

    def __init__(self, app: hearth.App) -> None:
        self.app = app
        self.events: "queue.Queue[Event]" = queue.Queue()
        self.times: List[float] = []

    def _record(self, name: str, argument: Any) -> None:
        self.times.append(time.monotonic())
        self.events.put((name, argument, self.app.is_loop_thread()))

    def on_code_sent(self, verification: hearth.PhoneVerification) -> None:
        self._record("code_sent", verification)

    def on_verification_failed(self, error: hearth.AuthError) -> None:
        self._record("failed", error)

    def on_code_auto_retrieval_timeout(self, verification_id: str) -> None:
        self._record("timeout", verification_id)

    def callbacks(self) -> dict:
        return {"on_code_sent": self.on_code_sent, "on_verification_failed": self.on_verification_failed,
                "on_code_auto_retrieval_timeout": self.on_code_auto_retrieval_timeout}

    def next(self) -> Event:
        try:
            return self.events.get(timeout=TIMEOUT)
        except queue.Empty:
            raise AssertionError("no listener callback came") from None

    def nothing_more_within(self, seconds: float) -> bool:
        try:
            self.events.get(timeout=seconds)
        except queue.Empty:
            return True
        return False


class TestListenerForm:
    def test_the_listener_hears_the_code_sent_then_the_auto_retrieval_timeout(
            self, app: hearth.App, emulator: Emulator) -> None:
        recorder = ListenerRecorder(app)
        number = unique_phone_number()

        app.auth.verify_phone_number_with_listener(number, timeout=0.3, **recorder.callbacks())
        sent_name, verification, sent_on_loop = recorder.next()
        timeout_name, timed_out_id, timeout_on_loop = recorder.next()

        assert sent_name == "code_sent" and timeout_name == "timeout"
        assert sent_on_loop and timeout_on_loop
        assert isinstance(verification, hearth.PhoneVerification) and verification.force_resending_token
        assert timed_out_id == verification.verification_id
        assert recorder.times[1] - recorder.times[0] >= 0.25
        assert emulator.verification_code(verification.verification_id)["phoneNumber"] == number
        user = app.auth.sign_in_with_credential(phone_credential(emulator, verification)).result(TIMEOUT)
        assert user.phone_number == number
        assert recorder.nothing_more_within(0.3)

    def test_the_listener_hears_a_malformed_number_as_a_failed_verification(self, app: hearth.App) -> None:
        recorder = ListenerRecorder(app)

        app.auth.verify_phone_number_with_listener("+1 555 CALL NOW", timeout=0.1, **recorder.callbacks())
        name, error, on_loop = recorder.next()

        assert name == "failed" and on_loop
        assert isinstance(error, hearth.InvalidPhoneNumberError)
        assert error.code == hearth.ErrorCode.INVALID_PHONE_NUMBER and error.message
        assert recorder.nothing_more_within(0.4)

    def test_the_listener_form_follows_the_same_reentrancy_rule(self, app: hearth.App, emulator: Emulator) -> None:
        number = unique_phone_number()
        first = verify(app.auth, number)
        recorder = ListenerRecorder(app)

        app.auth.verify_phone_number_with_listener(number, on_code_sent=recorder.on_code_sent)
        name, verification, _ = recorder.next()

        assert name == "code_sent" and verification.verification_id == first.verification_id
        assert len(emulator.codes_sent_to(number)) == 1

    def test_a_failure_without_a_failure_callback_is_logged(
            self, app: hearth.App, caplog: pytest.LogCaptureFixture) -> None:
        with caplog.at_level("WARNING", logger="hearth"):
            app.auth.verify_phone_number_with_listener("12345", on_code_sent=lambda _: None)
            deadline = time.monotonic() + TIMEOUT
            while "INVALID_PHONE_NUMBER" not in caplog.text and time.monotonic() < deadline:
                time.sleep(0.01)

        assert "phone verification failed" in caplog.text and "INVALID_PHONE_NUMBER" in caplog.text

    def test_closing_the_app_drops_the_callbacks_still_to_come(self, make_app: Callable[..., hearth.App]) -> None:
        from hearth._core import PHONE_LISTENERS

        app = make_app()
        recorder = ListenerRecorder(app)
        before = len(PHONE_LISTENERS)
        app.auth.verify_phone_number_with_listener(unique_phone_number(), timeout=0.5, **recorder.callbacks())
        assert recorder.next()[0] == "code_sent"

        app.close()

        assert len(PHONE_LISTENERS) == before
        assert recorder.nothing_more_within(1.0)

    def test_callbacks_must_be_callable(self, auth: hearth.Auth) -> None:
        with pytest.raises(TypeError):
            auth.verify_phone_number_with_listener(unique_phone_number(), on_code_sent="print")  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            auth.verify_phone_number_with_listener(unique_phone_number(), on_code_sent=print,
                                                   on_verification_failed=42)  # type: ignore[arg-type]

    def test_an_exception_in_a_callback_is_logged_and_the_next_callback_still_comes(
            self, app: hearth.App, caplog: pytest.LogCaptureFixture) -> None:
        timed_out: "queue.Queue[str]" = queue.Queue()

        def explode(_: hearth.PhoneVerification) -> None:
            raise RuntimeError("listener bug")

        with caplog.at_level("ERROR", logger="hearth"):
            app.auth.verify_phone_number_with_listener(unique_phone_number(), timeout=0.2, on_code_sent=explode,
                                                       on_code_auto_retrieval_timeout=timed_out.put)
            assert timed_out.get(timeout=TIMEOUT)

        assert "listener bug" in caplog.text


class TestAsyncio:
    def test_verification_and_sign_in_can_be_awaited(self, auth: hearth.Auth, emulator: Emulator) -> None:
        numbers = [unique_phone_number(), unique_phone_number()]

        async def sign_in_both() -> List[hearth.User]:
            verifications = await asyncio.gather(*(auth.verify_phone_number(number) for number in numbers))
            loop = asyncio.get_running_loop()
            users = []
            for verification in verifications:
                code = await loop.run_in_executor(None, code_of, emulator, verification)
                credential = hearth.PhoneAuthProvider.credential(verification.verification_id, code)
                users.append(await auth.sign_in_with_credential(credential))
            return users

        users = asyncio.run(sign_in_both())

        assert [user.phone_number for user in users] == numbers

    def test_an_awaited_verification_raises_its_error(self, auth: hearth.Auth) -> None:
        async def verify_malformed() -> hearth.PhoneVerification:
            return await auth.verify_phone_number("+1-800-FLOWERS")

        with pytest.raises(hearth.InvalidPhoneNumberError):
            asyncio.run(verify_malformed())


class TestBadInput:
    @pytest.mark.parametrize("number", ["5555550100", "+1555abc0100", "+0555550100", "+", "+123456",
                                        "+1234567890123456", "++15555550100", "+1 555 555 0100 ext 2"])
    def test_malformed_numbers_fail_before_any_request(
            self, auth: hearth.Auth, recording_proxy: RecordingProxy, number: str) -> None:
        auth.use_emulator("127.0.0.1", recording_proxy.port)

        with pytest.raises(hearth.InvalidPhoneNumberError) as failure:
            auth.verify_phone_number(number).result(TIMEOUT)

        assert isinstance(failure.value, ValueError)
        assert recording_proxy.paths() == []

    @pytest.mark.parametrize("number", [None, "", "   "])
    def test_no_number_is_a_missing_phone_number(
            self, auth: hearth.Auth, recording_proxy: RecordingProxy, number: Any) -> None:
        auth.use_emulator("127.0.0.1", recording_proxy.port)

        with pytest.raises(hearth.MissingPhoneNumberError):
            auth.verify_phone_number(number).result(TIMEOUT)
        assert recording_proxy.paths() == []

    def test_arguments_of_the_wrong_type_are_type_errors(self, auth: hearth.Auth) -> None:
        for call in (lambda: auth.verify_phone_number(16505554567),  # type: ignore[arg-type]
                     lambda: auth.verify_phone_number(b"+16505554567"),  # type: ignore[arg-type]
                     lambda: auth.verify_phone_number(FICTIONAL, timeout="soon"),  # type: ignore[arg-type]
                     lambda: auth.verify_phone_number(FICTIONAL, force_resending_token=1),  # type: ignore[arg-type]
                     lambda: auth.verify_phone_number(FICTIONAL, multi_factor_session="s"),  # type: ignore[arg-type]
                     lambda: hearth.PhoneAuthProvider.credential(None, "123456"),  # type: ignore[arg-type]
                     lambda: hearth.PhoneAuthProvider.credential("id", 123456)):  # type: ignore[arg-type]
            with pytest.raises(TypeError):
                call()

    def test_unusable_values_are_value_errors(self, auth: hearth.Auth) -> None:
        hand_made_hint = hearth.MultiFactorInfo("phone", "enrollment", None, "+*******4567", None)
        for call in (lambda: auth.verify_phone_number("+1650555\x004567"),
                     lambda: auth.verify_phone_number("+1650555\ud8004567"),
                     lambda: auth.verify_phone_number(FICTIONAL, timeout=0),
                     lambda: auth.verify_phone_number(FICTIONAL, timeout=-1.0),
                     lambda: auth.verify_phone_number(FICTIONAL, timeout=float("nan")),
                     lambda: auth.verify_phone_number(multi_factor_hint=hand_made_hint),
                     lambda: hearth.PhoneAuthProvider.credential("id\x00", "123456"),
                     lambda: hearth.PhoneAuthProvider.credential("id", "\udc80")):
            with pytest.raises(ValueError):
                call()

    def test_app_verification_disabled_for_testing_takes_a_bool(self, auth: hearth.Auth) -> None:
        assert auth.app_verification_disabled_for_testing is None  # Hearth's default until set
        with pytest.raises(TypeError):
            auth.app_verification_disabled_for_testing = 1  # type: ignore[assignment]
        auth.app_verification_disabled_for_testing = False
        assert auth.app_verification_disabled_for_testing is False
        assert auth.app.auth.app_verification_disabled_for_testing is False  # the setting is the app's

    def test_a_closed_apps_auth_refuses_to_verify(self, make_app: Callable[..., hearth.App]) -> None:
        app = make_app()
        auth = app.auth
        app.close()

        with pytest.raises(hearth.AppDestroyedError):
            auth.verify_phone_number(FICTIONAL)
        with pytest.raises(hearth.AppDestroyedError):
            auth.verify_phone_number_with_listener(FICTIONAL, on_code_sent=print)
        with pytest.raises(hearth.AppDestroyedError):
            auth.app_verification_disabled_for_testing = True

    def test_closing_the_app_cancels_a_verification_in_flight(
            self, make_app: Callable[..., hearth.App], silent_port: int) -> None:
        app = make_app()
        app.auth.use_emulator("127.0.0.1", silent_port)
        pending = app.auth.verify_phone_number(unique_phone_number())

        app.close()

        with pytest.raises(hearth.CancelledError):
            pending.result(TIMEOUT)

    def test_a_verification_keeps_its_result_after_the_future_is_collected(
            self, auth: hearth.Auth) -> None:
        future = auth.verify_phone_number(unique_phone_number())
        verification = future.result(TIMEOUT)
        del future
        gc.collect()

        assert verification.verification_id and verification.force_resending_token
