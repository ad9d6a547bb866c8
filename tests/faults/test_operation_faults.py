"""Every fault the proxy can inject, against sign-in, a forced token refresh and reload.

For each (fault, operation): the operation's future completes exactly once (native completion
callback and Python done-callback each run once, and the outcome never changes afterwards), with the
expected error code and message, within the request timeout (plus scheduling slack), without
crashing or hanging; the signed-in session survives (same user, still persisted, no sign-out seen by
an auth-state listener); and once the fault is gone the same app succeeds again.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, List, Optional

import pytest

import hearth
from hearth import ErrorCode

from conftest import PASSWORD, REQUEST_TIMEOUT, SLACK, CompletionWatch, Emulator, unique_email
from fault_proxy import Fault, FaultProxy

TEN_MIB = 10 * 1024 * 1024
#: One byte more than the transport keeps (CurlTransport.Options.maxResponseBytes: 64 MiB).
OVER_TRANSPORT_LIMIT = 64 * 1024 * 1024 + 1


@dataclass(frozen=True)
class Expected:
    code: ErrorCode
    #: The failure's message must contain this text.
    message: str
    #: The operation can only fail by running out its request timeout.
    times_out: bool = False


NETWORK = Expected(ErrorCode.NETWORK_REQUEST_FAILED, "A network error occurred")
# A reset says so (curl meets it in recv; before, Hearth reported it as "select/poll returned error").
RESET = Expected(ErrorCode.NETWORK_REQUEST_FAILED, "A network error occurred: Recv failure: Connection reset by peer")
TIMED_OUT = Expected(ErrorCode.NETWORK_REQUEST_FAILED, "timed out", times_out=True)
MALFORMED = Expected(ErrorCode.FAILURE, "malformed response")


#: Big answers are about what the client does with their size, not about time: under load, 64 MiB through
#: the Python proxy took more than the 1 s the other cases give (seen once in 20 runs at a load of 6.5).
BIG_ANSWER_TIMEOUT = 15.0
#: The cases about what an answer (or its absence) makes of an operation, not about time, give the request
#: 10 s: at a load of 8.5 on 2 cores the Python proxy once took over 1.5 s to send a 500. The cases that are
#: about the timeout (a stall, a trickle) keep the short REQUEST_TIMEOUT and check it to the tenth.
ANSWER_TIMEOUT = 10.0


@dataclass(frozen=True)
class Case:
    id: str
    fault: Optional[Fault]  # None: refuse connections (the listener is closed)
    expected: Expected
    request_timeout: float = ANSWER_TIMEOUT


QUOTA_TEXT = ("Quota exceeded for quota metric 'Queries' and limit 'Queries per minute' of service "
              "'identitytoolkit.googleapis.com' for consumer 'project_number:123456'.")
PADDED_OBJECT = b'{"kind":"padding","padding":"' + b"x" * (TEN_MIB - 31) + b'"}'
assert len(PADDED_OBJECT) == TEN_MIB

CASES: List[Case] = [
    # The transport fails: no answer, or an answer that never ends properly.
    Case("refuse", None, NETWORK),
    Case("reset-after-request", Fault.reset(), RESET),
    Case("reset-mid-response", Fault.reset_mid_response(), RESET),
    Case("truncated-body", Fault.truncate(missing=1000), NETWORK),
    Case("stall", Fault.stall(), TIMED_OUT, REQUEST_TIMEOUT),
    Case("trickle-beyond-timeout", Fault.trickle(interval_ms=50), TIMED_OUT, REQUEST_TIMEOUT),
    Case("body-over-64MiB", Fault.respond(200, body_size=OVER_TRANSPORT_LIMIT),
         Expected(ErrorCode.NETWORK_REQUEST_FAILED, "larger than 67108864 bytes"), BIG_ANSWER_TIMEOUT),
    # Rate limiting.
    Case("429-firebase-json",
         Fault.google_error(429, "TOO_MANY_ATTEMPTS_TRY_LATER : Access has been temporarily disabled.",
                            "RESOURCE_EXHAUSTED"),
         Expected(ErrorCode.TOO_MANY_REQUESTS, "Access has been temporarily disabled.")),
    Case("429-quota-json", Fault.google_error(429, QUOTA_TEXT, "RESOURCE_EXHAUSTED", reason="rateLimitExceeded"),
         Expected(ErrorCode.TOO_MANY_REQUESTS, QUOTA_TEXT)),
    Case("429-no-body", Fault.respond(429, content_type=None), Expected(ErrorCode.TOO_MANY_REQUESTS, "HTTP 429")),
    # Server errors: the server's own text when it sends one, else the status.
    Case("500-json", Fault.google_error(500, "Internal error encountered.", "INTERNAL"),
         Expected(ErrorCode.FAILURE, "Internal error encountered.")),
    Case("503-json", Fault.google_error(503, "The service is currently unavailable.", "UNAVAILABLE"),
         Expected(ErrorCode.FAILURE, "The service is currently unavailable.")),
    Case("500-no-body", Fault.respond(500, content_type=None), Expected(ErrorCode.FAILURE, "HTTP 500")),
    Case("503-no-body", Fault.respond(503, content_type=None), Expected(ErrorCode.FAILURE, "HTTP 503")),
    Case("502-html", Fault.respond(502, b"<html><body>Bad Gateway</body></html>", "text/html"),
         Expected(ErrorCode.FAILURE, "HTTP 502")),
    Case("503-10MiB-junk", Fault.respond(503, body_size=TEN_MIB, content_type="text/plain"),
         Expected(ErrorCode.FAILURE, "HTTP 503"), BIG_ANSWER_TIMEOUT),
    # Successful status, unusable body.
    Case("200-malformed-json", Fault.respond(200, b'{"idToken": "abc", "refreshToken": '), MALFORMED),
    Case("200-json-array", Fault.respond(200, b'[{"idToken": "abc"}]'), MALFORMED),
    Case("200-text-html", Fault.respond(200, b"<!doctype html><title>Sign in to the Wi-Fi</title>", "text/html"),
         MALFORMED),
    Case("200-10MiB-junk", Fault.respond(200, body_size=TEN_MIB), MALFORMED, BIG_ANSWER_TIMEOUT),
    # A JSON object without what the operation needs (a middlebox's `{}`, a wrong API's answer).
    Case("200-json-object-without-fields", Fault.respond(200, b'{"kind":"something#Else"}'), MALFORMED),
    Case("200-10MiB-json-object", Fault.respond(200, PADDED_OBJECT), MALFORMED, BIG_ANSWER_TIMEOUT),
]


# ---------------------------------------------------------------------------------------------------
# Operations
# ---------------------------------------------------------------------------------------------------


class Scenario:
    """One app with a signed-in user (its session persisted to a file), and the operation under test.

    `run()` starts the operation; `path` is the request it sends (where the fault is injected)."""

    path = ""

    def __init__(self, make_app: Callable[..., hearth.App], emulator: Emulator, directory: Path,
                 request_timeout: float = REQUEST_TIMEOUT) -> None:
        self.directory = directory
        self.app_name = f"faults-{id(self)}"
        self.app = make_app(persistence="file", persistence_dir=str(directory), app_name=self.app_name,
                            request_timeout=request_timeout)
        self.auth = self.app.auth
        self.email = unique_email()
        result = self.auth.create_user_with_email_and_password(self.email, PASSWORD).result(timeout=10)
        self.uid = result.user.uid
        self.token = result.user.get_token().result(timeout=10)
        self.signed_out_seen: List[bool] = []
        self.auth.add_auth_state_listener(lambda user: self.signed_out_seen.append(user is None))
        self.prepare(emulator)

    def prepare(self, emulator: Emulator) -> None:
        pass

    def run(self) -> "hearth.Future[Any]":
        raise NotImplementedError

    def assert_success(self, value: Any) -> None:
        raise NotImplementedError

    def assert_session_kept(self) -> None:
        user = self.auth.current_user
        assert user is not None, "the fault signed the user out"
        assert user.uid == self.uid, "the fault changed the signed-in user"
        assert True not in self.signed_out_seen, "an auth-state listener saw a sign-out"
        # The persisted session still holds the user: a second app reading the same file sees them.
        with hearth.App(api_key="fake-api-key", project_id="demo-hearth", persistence="file",
                        persistence_dir=str(self.directory), app_name=self.app_name) as reader:
            stored = reader.auth.current_user
            assert stored is not None and stored.uid == self.uid, "the persisted session was lost"


class SignIn(Scenario):
    """Signing in another account while one is signed in: the failure leaves the first one in place."""

    path = "accounts:signInWithPassword"

    def prepare(self, emulator: Emulator) -> None:
        self.other_email = unique_email()
        self.other_uid = emulator.create_account(self.other_email)

    def run(self) -> "hearth.Future[Any]":
        return self.auth.sign_in_with_email_and_password(self.other_email, PASSWORD)

    def assert_success(self, value: Any) -> None:
        assert value.user.uid == self.other_uid


class ForcedTokenRefresh(Scenario):
    path = "securetoken.googleapis.com"

    def run(self) -> "hearth.Future[Any]":
        user = self.auth.current_user
        assert user is not None
        return user.get_token(force_refresh=True)

    def assert_success(self, value: Any) -> None:
        assert isinstance(value, str) and value.count(".") == 2
        assert self.auth.current_user.uid == self.uid


class Reload(Scenario):
    path = "accounts:lookup"

    def run(self) -> "hearth.Future[Any]":
        user = self.auth.current_user
        assert user is not None
        return user.reload()

    def assert_success(self, value: Any) -> None:
        assert value.uid == self.uid and value.email == self.email


OPERATIONS = {"sign-in": SignIn, "get-token-force": ForcedTokenRefresh, "reload": Reload}


def inject(proxy: FaultProxy, case: Case, path: str) -> None:
    if case.fault is None:
        proxy.refuse()
    else:
        proxy.add_rule(case.fault, path=path)


def lift(proxy: FaultProxy, case: Case) -> None:
    if case.fault is None:
        proxy.accept()
    proxy.clear()


def check_fault(case: Case, scenario: Scenario, proxy: FaultProxy,
                watch: Callable[["hearth.Future[Any]"], CompletionWatch]) -> None:
    inject(proxy, case, scenario.path)
    started = time.monotonic()
    watching = watch(scenario.run())
    timeout = case.request_timeout
    _, error, _ = watching.settle(deadline=timeout + SLACK + 5)
    seconds = time.monotonic() - started

    assert error is not None, f"the operation succeeded through the fault {case.id}"
    assert error.code == case.expected.code, f"{error.code.name}: {error.message}"
    assert case.expected.message in error.message, error.message
    assert seconds <= timeout + SLACK, f"took {seconds:.2f} s with a {timeout} s request timeout"
    if case.expected.times_out:
        assert seconds >= timeout * 0.9, f"gave up after {seconds:.2f} s, before the request timeout"
    watching.assert_completed_once()
    if case.fault is not None:
        assert proxy.requests_to(scenario.path), "the fault was never reached"
    scenario.assert_session_kept()

    # The fault gone, the same app recovers (no connection or state left poisoned).
    lift(proxy, case)
    scenario.assert_success(scenario.run().result(timeout=10))


@pytest.mark.parametrize("operation", list(OPERATIONS))
@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_fault_fails_the_operation_once_with_its_code_and_keeps_the_session(
        case: Case, operation: str, proxy: FaultProxy, make_app: Callable[..., hearth.App],
        emulator: Emulator, watch: Callable[..., CompletionWatch], tmp_path: Path) -> None:
    scenario = OPERATIONS[operation](make_app, emulator, tmp_path, request_timeout=case.request_timeout)
    check_fault(case, scenario, proxy, watch)


def test_a_refused_first_connection_fails_at_once(
        proxy: FaultProxy, make_app: Callable[..., hearth.App], watch: Callable[..., CompletionWatch]) -> None:
    """No connection to reuse: the connect itself is refused, and that is reported at once."""
    app = make_app()
    proxy.refuse()
    started = time.monotonic()
    watching = watch(app.auth.sign_in_anonymously())
    _, error, _ = watching.settle(deadline=REQUEST_TIMEOUT + SLACK)
    assert error is not None and error.code == ErrorCode.NETWORK_REQUEST_FAILED, error
    assert "connect" in error.message.lower(), error.message
    assert time.monotonic() - started < 0.5
    watching.assert_completed_once()
    assert app.auth.current_user is None
    proxy.accept()
    assert app.auth.sign_in_anonymously().result(timeout=10).user.is_anonymous


@pytest.mark.parametrize("operation", list(OPERATIONS))
def test_a_slow_answer_that_ends_within_the_timeout_succeeds(
        operation: str, proxy: FaultProxy, make_app: Callable[..., hearth.App], emulator: Emulator,
        watch: Callable[..., CompletionWatch], tmp_path: Path) -> None:
    scenario = OPERATIONS[operation](make_app, emulator, tmp_path, request_timeout=30.0)
    # Every byte of the answer 1 ms apart: ~1.5-2.5 s for these answers, far inside 30 s.
    proxy.add_rule(Fault.trickle(interval_ms=1), path=scenario.path)
    watching = watch(scenario.run())
    seconds, error, value = watching.settle(deadline=30 + SLACK)
    assert error is None, f"{error.code.name}: {error.message}"
    scenario.assert_success(value)
    assert seconds > 0.5, "the answer was not slowed down"
    watching.assert_completed_once()


def test_many_operations_failing_at_once_each_complete_once(
        proxy: FaultProxy, make_app: Callable[..., hearth.App], watch: Callable[..., CompletionWatch]) -> None:
    """Twenty concurrent sign-ins into a stall: all time out together, each future exactly once."""
    app = make_app()
    proxy.add_rule(Fault.stall(), path="accounts:signUp")
    started = time.monotonic()
    watches = [watch(app.auth.sign_in_anonymously()) for _ in range(20)]
    for watching in watches:
        _, error, _ = watching.settle(deadline=REQUEST_TIMEOUT + SLACK + 5)
        assert error is not None and error.code == ErrorCode.NETWORK_REQUEST_FAILED
    assert time.monotonic() - started <= REQUEST_TIMEOUT + SLACK
    # result() returns once a future is complete; its callbacks run on a later loop turn (the
    # contract), and Python ones need the GIL (under load all twenty were still pending when the last
    # result() returned, and all had run 0.5 s later): wait for them, then one linger for extra calls.
    settled_by = time.monotonic() + 2
    while time.monotonic() < settled_by and any(w.native_calls == 0 or w.python_calls == 0 for w in watches):
        time.sleep(0.01)
    time.sleep(0.25)
    for watching in watches:
        watching.assert_completed_once(linger=0)
    # Hearth coalesces concurrent anonymous sign-ins or sends one each; either way, no retries.
    assert 1 <= len(proxy.requests_to("accounts:signUp")) <= 20
    assert app.auth.current_user is None
