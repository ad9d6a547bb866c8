"""hearth.log: Hearth's native log forwarded to Python's logging, off until asked for."""

from __future__ import annotations

import json
import logging
import re
import time
import uuid
from typing import Any, Iterator, List, Set
from urllib.parse import parse_qsl, urlsplit

import pytest

import hearth
import hearth.log
from hearth_testing import (
    API_KEY,
    TIMEOUT,
    Emulator,
    RecordingProxy,
    claims,
    rfc6238_code,
    unique_email,
    unique_phone_number,
)

PASSWORD = "Secret-Password-123"


@pytest.fixture(autouse=True)
def logging_off_afterwards() -> Iterator[None]:
    yield
    hearth.log.stop_forwarding()


def hearth_records(caplog: pytest.LogCaptureFixture) -> List[logging.LogRecord]:
    return [record for record in caplog.records if record.name == "hearth"]


def messages_at(caplog: pytest.LogCaptureFixture, level: int) -> List[str]:
    return [record.getMessage() for record in hearth_records(caplog) if record.levelno == level]


def test_nothing_is_forwarded_until_asked(auth: hearth.Auth, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="hearth")
    auth.sign_in_anonymously().result(TIMEOUT)
    assert hearth_records(caplog) == []


def test_messages_arrive_on_the_hearth_logger_with_pythons_levels(
        make_app, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="hearth")
    hearth.log.forward_to_logging()
    auth = make_app().auth
    email = unique_email("logged")
    uid = auth.create_user_with_email_and_password(email, PASSWORD).result(TIMEOUT).user.uid
    with pytest.raises(hearth.WrongPasswordError):
        auth.sign_in_with_email_and_password(email, "wrong-" + PASSWORD).result(TIMEOUT)

    assert any("accounts:signUp?key=<redacted>: HTTP 200" in m for m in messages_at(caplog, logging.DEBUG))
    assert any(m.endswith(f"signed in as {uid}") for m in messages_at(caplog, logging.INFO))
    assert any("signInWithEmailAndPassword failed: HEARTH_ERROR_WRONG_PASSWORD" in m
               for m in messages_at(caplog, logging.WARNING))
    assert not any(PASSWORD in record.getMessage() for record in hearth_records(caplog))


def test_the_loggers_level_keeps_quieter_messages_at_home(auth: hearth.Auth, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="hearth")
    hearth.log.forward_to_logging(level=logging.WARNING)
    auth.sign_in_anonymously().result(TIMEOUT)
    assert hearth_records(caplog) == []
    with pytest.raises(hearth.UserNotFoundError):
        auth.sign_in_with_email_and_password(unique_email("nobody"), PASSWORD).result(TIMEOUT)
    assert [r.levelno for r in hearth_records(caplog)] == [logging.WARNING]


def test_any_logger_can_receive_the_messages(auth: hearth.Auth, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="game.auth")
    hearth.log.forward_to_logging(logging.getLogger("game.auth"))
    auth.sign_in_anonymously().result(TIMEOUT)
    assert any("signInAnonymously succeeded" in r.getMessage() for r in caplog.records if r.name == "game.auth")


def test_stop_forwarding_ends_the_records(auth: hearth.Auth, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="hearth")
    hearth.log.forward_to_logging()
    auth.sign_in_anonymously().result(TIMEOUT)
    seen = len(hearth_records(caplog))
    assert seen > 0
    hearth.log.stop_forwarding()
    auth.sign_out()
    auth.sign_in_anonymously().result(TIMEOUT)
    assert len(hearth_records(caplog)) == seen


def test_a_level_that_is_not_a_number_is_a_type_error() -> None:
    with pytest.raises(TypeError):
        hearth.log.forward_to_logging(level="DEBUG")  # type: ignore[arg-type]


# Request fields that carry credentials (Identity Toolkit and Secure Token, v1 and v2).
SECRET_FIELDS = {
    "password", "idToken", "refreshToken", "refresh_token", "token", "code", "sessionInfo", "oobCode",
    "mfaPendingCredential", "temporaryProof", "postBody", "requestUri", "verificationCode", "sessionId",
    "pendingToken", "accessToken", "access_token", "id_token", "oauthTokenSecret",
}


def secrets_in(value: Any, field: str = "") -> Set[str]:
    """Every credential in a request body: the values of SECRET_FIELDS, and the parts of those that
    are URLs or forms (a provider's redirect carries its id_token inside requestUri)."""
    found: Set[str] = set()
    if isinstance(value, dict):
        for key, item in value.items():
            found |= secrets_in(item, key)
    elif isinstance(value, list):
        for item in value:
            found |= secrets_in(item, field)
    elif isinstance(value, str) and field in SECRET_FIELDS and value:
        found.add(value)
        query = urlsplit(value).query if "://" in value else value
        found |= {part for _, part in parse_qsl(query) if len(part) >= 16}
    return found


def wire_secrets(proxy: RecordingProxy) -> Set[str]:
    found: Set[str] = set()
    for request in proxy.requests:
        text = request.body.decode("utf-8", "replace")
        try:
            body = json.loads(text) if text else {}
        except ValueError:
            body = dict(parse_qsl(text))  # the token refresh is a form
        found |= secrets_in(body)
    return found


def test_nothing_secret_that_went_over_the_wire_reaches_the_log_at_debug(
        make_app, emulator: Emulator, recording_proxy: RecordingProxy, caplog: pytest.LogCaptureFixture) -> None:
    """Sign-up, password sign-ins, a forced refresh, a new password, an authenticator app enrolled and
    used, a phone code, a custom token, a linked Google account: every credential Hearth sent (read
    back from the wire by a recording proxy) and every secret it was handed is looked for in the log."""
    caplog.set_level(logging.DEBUG, logger="hearth")
    hearth.log.forward_to_logging(level=logging.DEBUG)
    auth = make_app().auth
    auth.use_emulator("127.0.0.1", recording_proxy.port)
    handed: Set[str] = {API_KEY, PASSWORD, "wrong-" + PASSWORD}
    codes: List[str] = []

    email = unique_email("secrets")
    user = auth.create_user_with_email_and_password(email, PASSWORD).result(TIMEOUT).user
    with pytest.raises(hearth.WrongPasswordError):
        auth.sign_in_with_email_and_password(email, "wrong-" + PASSWORD).result(TIMEOUT)
    user = auth.sign_in_with_email_and_password(email, PASSWORD).result(TIMEOUT).user
    handed.add(user.get_token(force_refresh=True).result(TIMEOUT))
    new_password = "Updated-" + PASSWORD
    handed.add(new_password)
    user.update_password(new_password).result(TIMEOUT)

    emulator.admin_update(user.uid, emailVerified=True)
    user = user.reload().result(TIMEOUT)
    session = user.multi_factor.get_session().result(TIMEOUT)
    secret = hearth.TotpMultiFactorGenerator.generate_secret(session).result(TIMEOUT)
    handed.add(secret.shared_secret_key)
    codes.append(rfc6238_code(secret.shared_secret_key, int(time.time())))
    user.multi_factor.enroll(hearth.TotpMultiFactorGenerator.assertion_for_enrollment(secret, codes[-1]),
                             "Authenticator").result(TIMEOUT)
    auth.sign_out()
    with pytest.raises(hearth.SecondFactorRequiredError) as stopped:
        auth.sign_in_with_email_and_password(email, new_password).result(TIMEOUT)
    resolver = stopped.value.resolver
    codes.append(rfc6238_code(secret.shared_secret_key, int(time.time())))
    resolved = resolver.resolve_sign_in(
        hearth.TotpMultiFactorGenerator.assertion_for_sign_in(resolver.hints[0], codes[-1])).result(TIMEOUT)
    handed.add(resolved.user.get_token().result(TIMEOUT))
    auth.sign_out()

    verification = auth.verify_phone_number(unique_phone_number()).result(TIMEOUT)
    codes.append(str(emulator.verification_code(verification.verification_id)["code"]))
    auth.sign_in_with_credential(
        hearth.PhoneAuthProvider.credential(verification.verification_id, codes[-1])).result(TIMEOUT)
    auth.sign_out()

    custom_token = json.dumps({"uid": f"custom-{uuid.uuid4().hex}"})
    handed.add(custom_token)
    anonymous = auth.sign_in_with_custom_token(custom_token).result(TIMEOUT).user
    google_token = claims(sub=f"google-{uuid.uuid4().hex}", email=unique_email("google"), email_verified=True)
    handed.add(google_token)
    linked = anonymous.link_with_credential(hearth.GoogleAuthProvider.credential(id_token=google_token)).result(TIMEOUT)
    handed.add(linked.user.get_token(force_refresh=True).result(TIMEOUT))
    auth.sign_out()

    messages = [record.getMessage() for record in hearth_records(caplog)]
    on_the_wire = wire_secrets(recording_proxy)
    assert len(messages) > 30 and len(on_the_wire) > 15
    assert {"refresh_token", "mfaPendingCredential", "verificationCode"} <= {
        field for request in recording_proxy.requests for field in SECRET_FIELDS
        if f'"{field}"'.encode() in request.body or f"{field}=".encode() in request.body}
    leaked = [(secret_value[:24], message) for secret_value in sorted(on_the_wire | handed)
              for message in messages if secret_value in message and len(secret_value) >= 8]
    assert leaked == []
    # Six-digit codes also occur as numbers (durations): look for them where a value would stand.
    for code in codes:
        assert not [m for m in messages if re.search(rf'(["= ]){code}(\b|")', m)], code


def test_failed_identity_provider_phone_and_second_factor_operations_log_none_of_their_secrets(
        make_app, emulator: Emulator, recording_proxy: RecordingProxy, caplog: pytest.LogCaptureFixture) -> None:
    """Credentials a server refused, at the most verbose level: identity providers' tokens that come
    back in the server's error text (short ones, which the length rule alone would let through),
    mistyped phone and second-factor codes, and the sessions they belong to. Every credential read
    back from the wire and every value handed to Hearth is looked for in the log."""
    caplog.set_level(logging.DEBUG, logger="hearth")
    hearth.log.forward_to_logging(level=logging.DEBUG)
    auth = make_app().auth
    auth.use_emulator("127.0.0.1", recording_proxy.port)
    handed: Set[str] = set()
    codes: List[str] = []

    def refused_echoing(future: "hearth.Future[Any]", error: type, echoed: str) -> None:
        with pytest.raises(error) as refused:
            future.result(TIMEOUT)
        assert echoed in str(refused.value), "the server's message does not repeat what it was sent"

    bad_google = f"not-a-jwt-{uuid.uuid4().hex[:8]}"
    handed |= {bad_google, "ya29.short-access-7"}
    refused_echoing(auth.sign_in_with_credential(
        hearth.GoogleAuthProvider.credential(id_token=bad_google, access_token="ya29.short-access-7")),
        hearth.InvalidCredentialError, bad_google)
    bad_json = '{"sub":"%s",' % uuid.uuid4().hex[:8]
    handed.add(bad_json)
    refused_echoing(auth.sign_in_with_credential(hearth.OAuthProvider.credential("oidc.example", id_token=bad_json)),
                    hearth.InvalidCredentialError, bad_json)
    anonymous = auth.sign_in_anonymously().result(TIMEOUT).user
    bad_link = f"link-{uuid.uuid4().hex[:8]}"
    handed.add(bad_link)
    refused_echoing(anonymous.link_with_credential(hearth.GoogleAuthProvider.credential(id_token=bad_link)),
                    hearth.InvalidCredentialError, bad_link)
    bad_reauth = f"re-{uuid.uuid4().hex[:8]}"
    handed.add(bad_reauth)
    refused_echoing(anonymous.reauthenticate(hearth.GoogleAuthProvider.credential(id_token=bad_reauth)),
                    hearth.InvalidCredentialError, bad_reauth)
    bad_custom = '{"uid":"%s"' % uuid.uuid4().hex[:8]
    handed.add(bad_custom)
    with pytest.raises(hearth.InvalidCustomTokenError):
        auth.sign_in_with_custom_token(bad_custom).result(TIMEOUT)
    auth.sign_out()

    def mistyped(code: str) -> str:
        return f"{(int(code) + 1) % 10 ** len(code):0{len(code)}d}"

    # Phone: a mistyped code, then the right one.
    verification = auth.verify_phone_number(unique_phone_number()).result(TIMEOUT)
    codes.append(str(emulator.verification_code(verification.verification_id)["code"]))
    codes.append(mistyped(codes[-1]))
    with pytest.raises(hearth.InvalidVerificationCodeError):
        auth.sign_in_with_credential(
            hearth.PhoneAuthProvider.credential(verification.verification_id, codes[-1])).result(TIMEOUT)
    auth.sign_in_with_credential(
        hearth.PhoneAuthProvider.credential(verification.verification_id, codes[-2])).result(TIMEOUT)
    auth.sign_out()

    # An SMS second factor: enrolled after a mistyped code, then a sign-in resolved after another.
    google = hearth.GoogleAuthProvider.credential(
        id_token=claims(sub=f"mfa-{uuid.uuid4().hex}", email=unique_email("mfa-log"), email_verified=True))
    user = auth.sign_in_with_credential(google).result(TIMEOUT)
    session = user.multi_factor.get_session().result(TIMEOUT)
    enrollment = auth.verify_phone_number(unique_phone_number(), multi_factor_session=session).result(TIMEOUT)
    codes.append(str(emulator.verification_code(enrollment.verification_id)["code"]))
    codes.append(mistyped(codes[-1]))
    with pytest.raises(hearth.InvalidVerificationCodeError):
        user.multi_factor.enroll(hearth.PhoneMultiFactorGenerator.assertion(
            hearth.PhoneAuthProvider.credential(enrollment.verification_id, codes[-1])), "Phone").result(TIMEOUT)
    user.multi_factor.enroll(hearth.PhoneMultiFactorGenerator.assertion(
        hearth.PhoneAuthProvider.credential(enrollment.verification_id, codes[-2])), "Phone").result(TIMEOUT)
    auth.sign_out()
    with pytest.raises(hearth.SecondFactorRequiredError) as stopped:
        auth.sign_in_with_credential(google).result(TIMEOUT)
    resolver = stopped.value.resolver
    second = auth.verify_phone_number(multi_factor_session=resolver.session,
                                      multi_factor_hint=resolver.hints[0]).result(TIMEOUT)
    codes.append(str(emulator.verification_code(second.verification_id)["code"]))
    codes.append(mistyped(codes[-1]))
    with pytest.raises(hearth.InvalidVerificationCodeError):
        resolver.resolve_sign_in(hearth.PhoneMultiFactorGenerator.assertion(
            hearth.PhoneAuthProvider.credential(second.verification_id, codes[-1]))).result(TIMEOUT)
    resolver.resolve_sign_in(hearth.PhoneMultiFactorGenerator.assertion(
        hearth.PhoneAuthProvider.credential(second.verification_id, codes[-2]))).result(TIMEOUT)
    auth.sign_out()

    messages = [record.getMessage() for record in hearth_records(caplog)]
    on_the_wire = wire_secrets(recording_proxy)
    assert len(messages) > 20
    assert {"sessionInfo", "mfaPendingCredential", "code", "postBody"} <= {
        field for request in recording_proxy.requests for field in SECRET_FIELDS
        if f'"{field}"'.encode() in request.body}
    leaked = [(secret_value[:24], message) for secret_value in sorted(on_the_wire | handed)
              for message in messages if secret_value in message and len(secret_value) >= 8]
    assert leaked == []
    for code in codes:
        assert not [m for m in messages if re.search(rf'(["= ]){code}(\b|")', m)], code
    warnings = messages_at(caplog, logging.WARNING)
    assert any("signInWithCredential failed: HEARTH_ERROR_INVALID_CREDENTIAL (INVALID_IDP_RESPONSE)" in m
               for m in warnings)
    assert any("resolveSignIn failed: HEARTH_ERROR_INVALID_VERIFICATION_CODE (INVALID_CODE)" in m for m in warnings)
