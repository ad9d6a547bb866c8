"""E-mail actions from Python: sign-in links (sent with :class:`hearth.ActionCodeSettings`, recognised,
used to sign in, link and reauthenticate), the other out-of-band codes (verify an address, reset a
password, verify before changing an address, take a changed address back), the errors Firebase maps,
the desktop hand-off through ``handle_url``, and bad input. Links are read from the emulator's oobCodes
route and followed through its action page as a browser would."""

from __future__ import annotations

import time
import urllib.parse
from typing import Any, Dict, Iterator

import pytest

import hearth
from hearth_testing import TIMEOUT, Emulator, http_get, query_of, unique_email

APP_URL = "com.example.hearth-links:/finishSignIn"
PASSWORD = "correct-horse-1"


def in_app(url: str = APP_URL, **more: Any) -> hearth.ActionCodeSettings:
    return hearth.ActionCodeSettings(url=url, handle_code_in_app=True, **more)


def mailed(emulator: Emulator, email: str, request_type: str) -> Dict[str, Any]:
    codes = [code for code in emulator.oob_codes() if code.get("email") == email and code["requestType"] == request_type]
    assert codes, f"no {request_type} code was mailed to {email}"
    return codes[-1]


def send_sign_in_link(auth: hearth.Auth, emulator: Emulator, email: str, url: str = APP_URL) -> str:
    assert auth.send_sign_in_link_to_email(email, in_app(url)).result(TIMEOUT) is None
    return str(mailed(emulator, email, "EMAIL_SIGNIN")["oobLink"])


def handed_to_app(link: str) -> str:
    """What the app receives when the user follows the link: the action page's redirect."""
    page = http_get(link)
    assert page.status == 303, page.text
    return page.location


def create_user(auth: hearth.Auth, email: str, password: str = PASSWORD) -> hearth.User:
    result = auth.create_user_with_email_and_password(email, password).result(TIMEOUT)
    assert result.user is not None
    return result.user


@pytest.fixture
def short_code_lifetime(emulator: Emulator) -> Iterator[None]:
    emulator.set_config(oobCodeTtlSeconds=1)
    try:
        yield
    finally:
        emulator.set_config(oobCodeTtlSeconds=0)


class TestSendingSignInLinks:
    def test_a_sign_in_link_is_mailed_with_its_continue_url(self, auth: hearth.Auth, emulator: Emulator) -> None:
        email = unique_email("link-sent")
        settings = in_app("https://app.example.com/finish?from=mail", ios_bundle_id="com.example.ios",
                          android_package_name="com.example.android", android_install_app=True,
                          android_minimum_version="12", link_domain="example.page.link")
        assert auth.send_sign_in_link_to_email(email, settings).result(TIMEOUT) is None
        assert auth.current_user is None
        mail = mailed(emulator, email, "EMAIL_SIGNIN")
        link = query_of(mail["oobLink"])
        assert link["mode"] == "signIn"
        assert link["continueUrl"] == "https://app.example.com/finish?from=mail"
        assert link["oobCode"] == mail["oobCode"]
        last = auth.send_sign_in_link_to_email_last_result()
        assert last is not None and last.result(TIMEOUT) is None

    def test_sign_in_links_are_refused_before_sending_as_firebase_refuses_them(
            self, auth: hearth.Auth, emulator: Emulator) -> None:
        email = unique_email("refused")
        refusals = [
            (hearth.ActionCodeSettings(url=APP_URL), hearth.InvalidArgumentError),  # not handled in the app
            (in_app(""), hearth.InvalidContinueUriError),
            (in_app(link_domain=""), hearth.InvalidLinkDomainError),
            (in_app(dynamic_link_domain=""), hearth.InvalidLinkDomainError),
            (in_app(ios_bundle_id=""), hearth.MissingIosBundleIdError),
            (in_app(android_install_app=True), hearth.InvalidArgumentError),
            (in_app("not a url"), hearth.InvalidContinueUriError),  # the server's check
        ]
        for settings, error in refusals:
            with pytest.raises(error):
                auth.send_sign_in_link_to_email(email, settings).result(TIMEOUT)
        with pytest.raises(hearth.MissingEmailError):
            auth.send_sign_in_link_to_email("", in_app()).result(TIMEOUT)
        assert not [code for code in emulator.oob_codes() if code.get("email") == email]

    def test_settings_of_the_wrong_type_are_refused_at_once(self, auth: hearth.Auth) -> None:
        with pytest.raises(TypeError):
            auth.send_sign_in_link_to_email(unique_email(), None)  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            auth.send_sign_in_link_to_email(unique_email(), {"url": APP_URL})  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            auth.send_sign_in_link_to_email(unique_email(), hearth.ActionCodeSettings(url=1))  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            auth.send_sign_in_link_to_email(unique_email(), hearth.ActionCodeSettings(url=APP_URL, handle_code_in_app=1))  # type: ignore[arg-type]
        with pytest.raises(ValueError):
            auth.send_sign_in_link_to_email(unique_email(), in_app("bad\x00url"))
        with pytest.raises(ValueError):
            auth.send_sign_in_link_to_email(unique_email(), in_app(link_domain="\ud800"))


class TestRecognisingSignInLinks:
    def test_links_are_recognised_as_mailed_handed_over_wrapped_or_pasted(
            self, auth: hearth.Auth, emulator: Emulator) -> None:
        link = send_sign_in_link(auth, emulator, unique_email("recognised"))
        handed = handed_to_app(link)
        assert handed.startswith(APP_URL + "?")
        encoded = urllib.parse.quote(link, safe="")
        for candidate in (link, handed, f"https://example.page.link/?link={encoded}",
                          f"com.example.ios://google/link/?deep_link_id={encoded}", f"  {handed}\r\n"):
            assert auth.is_sign_in_with_email_link(candidate), candidate

    def test_other_text_is_not_a_sign_in_link(self, auth: hearth.Auth, emulator: Emulator) -> None:
        email = unique_email("not-sign-in")
        create_user(auth, email)
        auth.send_password_reset_email(email).result(TIMEOUT)
        code = mailed(emulator, email, "PASSWORD_RESET")["oobCode"]
        for text in ("", "https://example.com/", mailed(emulator, email, "PASSWORD_RESET")["oobLink"],
                     f"https://example.com/?mode=signIn&oobCode={code}",  # no apiKey
                     f"https://example.com/#mode=signIn&oobCode={code}&apiKey=k"):
            assert not auth.is_sign_in_with_email_link(text), text
        with pytest.raises(TypeError):
            auth.is_sign_in_with_email_link(None)  # type: ignore[arg-type]


class TestSigningInWithALink:
    def test_a_link_creates_the_account_of_a_new_address(self, auth: hearth.Auth, emulator: Emulator) -> None:
        email = unique_email("new-by-link")
        url = handed_to_app(send_sign_in_link(auth, emulator, email))
        result = auth.sign_in_with_email_link(email, url).result(TIMEOUT)
        assert result.user is not None
        assert result.user.email == email
        assert result.user.is_email_verified
        assert not result.user.is_anonymous
        assert result.additional_user_info.is_new_user
        assert result.additional_user_info.provider_id == "password"
        assert auth.current_user is not None and auth.current_user.uid == result.user.uid
        assert emulator.lookup(result.user.uid)["emailLinkSignin"] is True
        last = auth.sign_in_with_email_link_last_result()
        assert last is not None and last.result(TIMEOUT).user.uid == result.user.uid

    def test_a_pasted_link_signs_in_to_an_existing_password_account(
            self, auth: hearth.Auth, emulator: Emulator) -> None:
        email = unique_email("existing")
        uid = create_user(auth, email).uid
        auth.sign_out()
        link = send_sign_in_link(auth, emulator, email, "https://app.example.com/finish")
        result = auth.sign_in_with_email_link(email, f" {link}\n").result(TIMEOUT)
        assert result.user is not None and result.user.uid == uid
        assert not result.additional_user_info.is_new_user
        auth.sign_out()
        assert auth.sign_in_with_email_and_password(email, PASSWORD).result(TIMEOUT).user.uid == uid

    def test_a_link_credential_signs_in_links_an_anonymous_user_and_reauthenticates(
            self, auth: hearth.Auth, emulator: Emulator) -> None:
        first = unique_email("credential")
        credential = hearth.EmailAuthProvider.credential_with_link(
            first, handed_to_app(send_sign_in_link(auth, emulator, first)))
        assert credential.provider == "password"
        assert credential.id_token is None and credential.access_token is None
        assert auth.sign_in_with_credential(credential).result(TIMEOUT).email == first
        auth.sign_out()
        with pytest.raises(hearth.InvalidActionCodeError):  # the code is used up
            auth.sign_in_with_credential(credential).result(TIMEOUT)

        anonymous = auth.sign_in_anonymously().result(TIMEOUT).user
        assert anonymous is not None
        email = unique_email("linked")
        linked = anonymous.link_with_credential(hearth.EmailAuthProvider.credential_with_link(
            email, handed_to_app(send_sign_in_link(auth, emulator, email)))).result(TIMEOUT)
        assert linked.user is not None
        assert linked.user.uid == anonymous.uid
        assert linked.user.email == email and linked.user.is_email_verified and not linked.user.is_anonymous

        user = auth.current_user
        assert user is not None
        again = hearth.EmailAuthProvider.credential_with_link(email, handed_to_app(send_sign_in_link(auth, emulator, email)))
        assert user.reauthenticate(again).result(TIMEOUT) is None
        other = unique_email("other")
        foreign = hearth.EmailAuthProvider.credential_with_link(other, handed_to_app(send_sign_in_link(auth, emulator, other)))
        with pytest.raises(hearth.UserMismatchError):
            user.reauthenticate(foreign).result(TIMEOUT)
        assert auth.current_user is not None and auth.current_user.uid == anonymous.uid

    def test_an_address_of_another_account_cannot_be_linked(self, auth: hearth.Auth, emulator: Emulator) -> None:
        taken = unique_email("taken")
        create_user(auth, taken)
        auth.sign_out()
        anonymous = auth.sign_in_anonymously().result(TIMEOUT).user
        assert anonymous is not None
        credential = hearth.EmailAuthProvider.credential_with_link(
            taken, handed_to_app(send_sign_in_link(auth, emulator, taken)))
        with pytest.raises(hearth.EmailAlreadyInUseError):
            anonymous.link_with_credential(credential).result(TIMEOUT)
        assert auth.current_user is not None and auth.current_user.is_anonymous

    def test_wrong_address_used_and_made_up_codes_are_refused(self, auth: hearth.Auth, emulator: Emulator) -> None:
        email = unique_email("errors")
        url = handed_to_app(send_sign_in_link(auth, emulator, email))
        with pytest.raises(hearth.InvalidEmailError):
            auth.sign_in_with_email_link(unique_email("someone-else"), url).result(TIMEOUT)
        auth.sign_in_with_email_link(email, url).result(TIMEOUT)  # a refused address leaves the code usable
        auth.sign_out()
        with pytest.raises(hearth.InvalidActionCodeError):
            auth.sign_in_with_email_link(email, url).result(TIMEOUT)
        made_up = f"{APP_URL}?mode=signIn&oobCode=made-up&apiKey=key"
        with pytest.raises(hearth.InvalidActionCodeError):
            auth.sign_in_with_email_link(email, made_up).result(TIMEOUT)
        with pytest.raises(hearth.InvalidArgumentError):
            auth.sign_in_with_email_link(email, "https://example.com/").result(TIMEOUT)
        with pytest.raises(hearth.MissingEmailError):
            auth.sign_in_with_email_link("", url).result(TIMEOUT)
        with pytest.raises(hearth.InvalidArgumentError, match="not an email action link"):
            hearth.EmailAuthProvider.credential_with_link(email, "https://example.com/?oobCode=abc")

    def test_an_expired_link_fails_with_expired_action_code(
            self, auth: hearth.Auth, emulator: Emulator, short_code_lifetime: None) -> None:
        email = unique_email("expiring")
        url = handed_to_app(send_sign_in_link(auth, emulator, email))
        time.sleep(2.1)
        with pytest.raises(hearth.ExpiredActionCodeError):
            auth.sign_in_with_email_link(email, url).result(TIMEOUT)

    def test_a_disabled_account_cannot_sign_in_with_a_link(self, auth: hearth.Auth, emulator: Emulator) -> None:
        email = unique_email("disabled")
        uid = create_user(auth, email).uid
        auth.sign_out()
        emulator.admin_update(uid, disableUser=True)
        with pytest.raises(hearth.UserDisabledError):
            auth.sign_in_with_email_link(email, handed_to_app(send_sign_in_link(auth, emulator, email))).result(TIMEOUT)

    def test_handle_url_leaves_an_email_link_to_the_app(self, auth: hearth.Auth, emulator: Emulator) -> None:
        email = unique_email("handed-over")
        url = handed_to_app(send_sign_in_link(auth, emulator, email))
        assert auth.handle_url(url) is False
        assert auth.is_sign_in_with_email_link(url)
        assert auth.sign_in_with_email_link(email, url).result(TIMEOUT).user is not None


class TestOtherCodes:
    def test_a_verification_code_is_checked_then_applied(self, auth: hearth.Auth, emulator: Emulator) -> None:
        email = unique_email("verify")
        user = create_user(auth, email)
        user.send_email_verification(hearth.ActionCodeSettings(url="https://app.example.com/verified")).result(TIMEOUT)
        mail = mailed(emulator, email, "VERIFY_EMAIL")
        assert query_of(mail["oobLink"])["continueUrl"] == "https://app.example.com/verified"
        auth.sign_out()  # no user needs to be signed in
        info = auth.check_action_code(mail["oobCode"]).result(TIMEOUT)
        assert info == hearth.ActionCodeInfo(hearth.ActionCodeOperation.VERIFY_EMAIL, email, "")
        assert emulator.lookup(user.uid)["emailVerified"] is False  # checking used nothing
        assert auth.apply_action_code(mail["oobCode"]).result(TIMEOUT) is None
        assert emulator.lookup(user.uid)["emailVerified"] is True
        with pytest.raises(hearth.InvalidActionCodeError):
            auth.apply_action_code(mail["oobCode"]).result(TIMEOUT)
        last_apply = auth.apply_action_code_last_result()
        assert last_apply is not None
        with pytest.raises(hearth.InvalidActionCodeError):
            last_apply.result(TIMEOUT)
        last_check = auth.check_action_code_last_result()
        assert last_check is not None and last_check.result(TIMEOUT).email == email

    def test_a_password_is_reset_by_verifying_then_confirming_the_code(
            self, auth: hearth.Auth, emulator: Emulator) -> None:
        email = unique_email("reset")
        uid = create_user(auth, email).uid
        auth.sign_out()
        auth.send_password_reset_email(email, in_app()).result(TIMEOUT)
        mail = mailed(emulator, email, "PASSWORD_RESET")
        assert query_of(mail["oobLink"])["continueUrl"] == APP_URL
        code = mail["oobCode"]
        assert auth.verify_password_reset_code(code).result(TIMEOUT) == email
        assert auth.check_action_code(code).result(TIMEOUT).operation == hearth.ActionCodeOperation.PASSWORD_RESET
        with pytest.raises(hearth.MissingPasswordError):
            auth.confirm_password_reset(code, "").result(TIMEOUT)
        with pytest.raises(hearth.WeakPasswordError):
            auth.confirm_password_reset(code, "12").result(TIMEOUT)
        assert auth.confirm_password_reset(code, "chosen-after-reset").result(TIMEOUT) is None
        with pytest.raises(hearth.WrongPasswordError):
            auth.sign_in_with_email_and_password(email, PASSWORD).result(TIMEOUT)
        assert auth.sign_in_with_email_and_password(email, "chosen-after-reset").result(TIMEOUT).user.uid == uid
        with pytest.raises(hearth.InvalidActionCodeError):
            auth.confirm_password_reset(code, "again-password").result(TIMEOUT)
        last = auth.verify_password_reset_code_last_result()
        assert last is not None and last.result(TIMEOUT) == email
        last_confirm = auth.confirm_password_reset_last_result()
        assert last_confirm is not None
        with pytest.raises(hearth.InvalidActionCodeError):
            last_confirm.result(TIMEOUT)

    def test_verify_before_update_names_both_addresses_and_applying_it_changes_the_address(
            self, auth: hearth.Auth, emulator: Emulator) -> None:
        old, new = unique_email("before"), unique_email("after")
        user = create_user(auth, old)
        user.send_email_verification_before_updating_email(
            new, hearth.ActionCodeSettings(url="https://app.example.com/changed")).result(TIMEOUT)
        mail = mailed(emulator, old, "VERIFY_AND_CHANGE_EMAIL")
        assert query_of(mail["oobLink"])["continueUrl"] == "https://app.example.com/changed"
        info = auth.check_action_code(mail["oobCode"]).result(TIMEOUT)
        assert info == hearth.ActionCodeInfo(hearth.ActionCodeOperation.VERIFY_AND_CHANGE_EMAIL, new, old)
        auth.apply_action_code(mail["oobCode"]).result(TIMEOUT)
        auth.sign_out()
        with pytest.raises(hearth.UserNotFoundError):
            auth.sign_in_with_email_and_password(old, PASSWORD).result(TIMEOUT)
        assert auth.sign_in_with_email_and_password(new, PASSWORD).result(TIMEOUT).user.uid == user.uid

    def test_a_changed_address_is_taken_back_with_the_recover_code(
            self, auth: hearth.Auth, emulator: Emulator) -> None:
        old, new = unique_email("recover-old"), unique_email("recover-new")
        user = create_user(auth, old)
        user.update_email(new).result(TIMEOUT)
        code = mailed(emulator, old, "RECOVER_EMAIL")["oobCode"]
        auth.sign_out()
        info = auth.check_action_code(code).result(TIMEOUT)
        assert info.operation == hearth.ActionCodeOperation.RECOVER_EMAIL and info.email == old
        auth.apply_action_code(code).result(TIMEOUT)
        assert auth.sign_in_with_email_and_password(old, PASSWORD).result(TIMEOUT).user.uid == user.uid

    def test_a_sign_in_code_checks_as_email_sign_in_without_its_address(
            self, auth: hearth.Auth, emulator: Emulator) -> None:
        email = unique_email("check-sign-in")
        send_sign_in_link(auth, emulator, email)
        info = auth.check_action_code(mailed(emulator, email, "EMAIL_SIGNIN")["oobCode"]).result(TIMEOUT)
        assert info == hearth.ActionCodeInfo(hearth.ActionCodeOperation.EMAIL_SIGN_IN, "", "")

    def test_expired_codes_fail_with_expired_action_code(
            self, auth: hearth.Auth, emulator: Emulator, short_code_lifetime: None) -> None:
        email = unique_email("expiring-codes")
        user = create_user(auth, email)
        user.send_email_verification().result(TIMEOUT)
        auth.send_password_reset_email(email).result(TIMEOUT)
        verify = mailed(emulator, email, "VERIFY_EMAIL")["oobCode"]
        reset = mailed(emulator, email, "PASSWORD_RESET")["oobCode"]
        time.sleep(2.1)
        with pytest.raises(hearth.ExpiredActionCodeError):
            auth.apply_action_code(verify).result(TIMEOUT)
        with pytest.raises(hearth.ExpiredActionCodeError):
            auth.check_action_code(reset).result(TIMEOUT)
        with pytest.raises(hearth.ExpiredActionCodeError):
            auth.verify_password_reset_code(reset).result(TIMEOUT)
        with pytest.raises(hearth.ExpiredActionCodeError):
            auth.confirm_password_reset(reset, "fresh-password-1").result(TIMEOUT)

    def test_made_up_and_empty_codes_are_invalid_action_codes(self, auth: hearth.Auth) -> None:
        for code in ("made-up-code", ""):
            for future in (auth.apply_action_code(code), auth.check_action_code(code),
                           auth.verify_password_reset_code(code), auth.confirm_password_reset(code, "made-up-pw")):
                with pytest.raises(hearth.InvalidActionCodeError):
                    future.result(TIMEOUT)


class TestBadInput:
    def test_arguments_that_are_not_text_are_refused_at_once(self, auth: hearth.Auth) -> None:
        for call in (lambda: auth.apply_action_code(None), lambda: auth.check_action_code(1),
                     lambda: auth.verify_password_reset_code(b"code"),
                     lambda: auth.confirm_password_reset("code", None),
                     lambda: auth.sign_in_with_email_link(None, "link"),
                     lambda: auth.sign_in_with_email_link("a@example.com", None),
                     lambda: hearth.EmailAuthProvider.credential_with_link(None, "link")):
            with pytest.raises(TypeError):
                call()  # type: ignore[no-untyped-call]
        with pytest.raises(ValueError):
            auth.apply_action_code("co\x00de")
        with pytest.raises(ValueError):
            auth.sign_in_with_email_link("a@example.com", "\udcff")

    def test_a_signed_out_users_mailing_calls_fail_with_no_signed_in_user(
            self, auth: hearth.Auth, emulator: Emulator) -> None:
        email = unique_email("signed-out")
        user = create_user(auth, email)
        auth.sign_out()
        with pytest.raises(hearth.NoSignedInUserError):
            user.send_email_verification(in_app()).result(TIMEOUT)
        with pytest.raises(hearth.NoSignedInUserError):
            user.send_email_verification_before_updating_email(unique_email("n"), in_app()).result(TIMEOUT)
        with pytest.raises(TypeError):
            user.send_email_verification("https://example.com")  # type: ignore[arg-type]
        assert not [code for code in emulator.oob_codes() if code.get("email") == email]

    def test_action_code_settings_are_immutable_values(self) -> None:
        settings = in_app()
        with pytest.raises(AttributeError):
            settings.url = "https://elsewhere.example.com"  # type: ignore[misc]
        assert settings == in_app()
        assert hearth.ActionCodeOperation(4) is hearth.ActionCodeOperation.EMAIL_SIGN_IN
