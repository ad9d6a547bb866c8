"""hearth.log: Hearth's native log forwarded to Python's logging, off until asked for."""

from __future__ import annotations

import logging
from typing import Iterator, List

import pytest

import hearth
import hearth.log
from hearth_testing import TIMEOUT, unique_email

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
