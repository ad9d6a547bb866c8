"""The hearth-emulator process: command line, readiness line, free ports and clean shutdown.
These tests start their own emulator processes (HEARTH_EMULATOR_BIN, else .build/release)."""
import os
import pathlib
import signal
import socket
import subprocess
import time

import pytest
import requests

REPO = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def binary() -> str:
    path = os.environ.get("HEARTH_EMULATOR_BIN") or str(REPO / ".build/release/hearth-emulator")
    if not os.access(path, os.X_OK):
        pytest.fail(f"hearth-emulator binary not found at {path}: build it (make build) or set HEARTH_EMULATOR_BIN")
    return path


class Running:
    def __init__(self, binary, *args):
        self.process = subprocess.Popen([binary, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.line = self.process.stdout.readline()
        # The console's address follows the readiness line once the emulator is listening.
        self.console_line = self.process.stdout.readline() if self.line.startswith("hearth-emulator listening") else ""

    @property
    def url(self) -> str:
        prefix = "hearth-emulator listening on "
        assert self.line.startswith(prefix), self.line
        return self.line[len(prefix):].strip()

    def stop(self, sig) -> tuple[int, str, str]:
        self.process.send_signal(sig)
        # Through the same buffered stream readline used: communicate() reads the pipe underneath it and
        # would miss what readline had already buffered.
        out = self.process.stdout.read()
        out_rest, err = self.process.communicate(timeout=15)
        return self.process.returncode, out + (out_rest or ""), err


@pytest.fixture()
def launch(binary):
    started = []

    def start(*args):
        running = Running(binary, *args)
        started.append(running)
        return running

    yield start
    for running in started:
        if running.process.poll() is None:
            running.process.kill()
            running.process.wait(timeout=10)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_port_zero_prints_one_line_with_the_bound_port_and_stops_cleanly(launch, sig):
    running = launch("--host", "127.0.0.1", "--port", "0", "--project", "proc-test")
    url = running.url
    assert url.startswith("http://127.0.0.1:")
    port = int(url.rsplit(":", 1)[1])
    assert port > 0
    assert requests.get(url + "/", timeout=5).json()["authEmulator"]["ready"] is True
    # API-key requests act on the --project given.
    signed = requests.post(url + "/identitytoolkit.googleapis.com/v1/accounts:signUp", params={"key": "k"},
                           json={}, timeout=5).json()
    assert signed["idToken"]
    code, out, err = running.stop(sig)
    assert code == 0, err
    assert running.console_line == f"hearth-emulator console at {url}/emulator/ui/\n"
    assert out == "", "the readiness and console lines must be the only output on stdout"
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=1).close()


def test_project_flag_sets_the_token_audience(launch):
    import json, base64
    running = launch("--port", "0", "--project", "my-proj")
    body = requests.post(running.url + "/identitytoolkit.googleapis.com/v1/accounts:signUp", params={"key": "k"},
                         json={}, timeout=5).json()
    payload = body["idToken"].split(".")[1]
    claims = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    assert claims["aud"] == "my-proj"
    assert claims["iss"] == "https://securetoken.google.com/my-proj"
    running.stop(signal.SIGTERM)


def test_flags_accept_equals_form(launch):
    running = launch("--port=0", "--host=127.0.0.1")
    assert running.url.startswith("http://127.0.0.1:")
    assert running.stop(signal.SIGINT)[0] == 0


def test_help_prints_usage_and_exits_zero(binary):
    result = subprocess.run([binary, "--help"], capture_output=True, text=True, timeout=10)
    assert result.returncode == 0
    assert "--port" in result.stdout and "--project" in result.stdout and "--host" in result.stdout
    assert "--recent-login-seconds" in result.stdout
    for flag in ["--sms-code-ttl-seconds", "--sms-rate-limit", "--test-phone-number", "--require-app-verification",
                 "--oob-code-ttl-seconds", "--no-gzip"]:
        assert flag in result.stdout
    # The config shape of the phone settings is documented there too.
    assert '"testPhoneNumbers": {"+16505553434": "654321"}' in result.stdout


def test_recent_login_flag_sets_the_projects_maximum_sign_in_age(launch):
    running = launch("--port", "0", "--project", "recent-proj", "--recent-login-seconds", "1")
    config = requests.get(running.url + "/emulator/v1/projects/recent-proj/config", timeout=5).json()
    assert config["recentLoginMaxAgeSeconds"] == 1
    signed = requests.post(running.url + "/identitytoolkit.googleapis.com/v1/accounts:signUp", params={"key": "k"},
                           json={"email": "r@example.com", "password": "secret-password"}, timeout=5).json()
    time.sleep(2.2)
    refused = requests.post(running.url + "/identitytoolkit.googleapis.com/v1/accounts:delete", params={"key": "k"},
                            json={"idToken": signed["idToken"]}, timeout=5)
    assert refused.status_code == 400
    assert refused.json()["error"]["message"] == "CREDENTIAL_TOO_OLD_LOGIN_AGAIN"
    running.stop(signal.SIGTERM)


def test_recent_login_is_off_without_the_flag(launch):
    running = launch("--port", "0", "--project", "plain-proj")
    config = requests.get(running.url + "/emulator/v1/projects/plain-proj/config", timeout=5).json()
    assert config["recentLoginMaxAgeSeconds"] == 0
    running.stop(signal.SIGTERM)


IDENTITY = "/identitytoolkit.googleapis.com/v1"


def send_code(url, number):
    response = requests.post(url + f"{IDENTITY}/accounts:sendVerificationCode", params={"key": "k"},
                             json={"phoneNumber": number}, timeout=5)
    return response


def listed(url, session_info, project="phone-proj"):
    codes = requests.get(url + f"/emulator/v1/projects/{project}/verificationCodes", timeout=5).json()
    [entry] = [c for c in codes["verificationCodes"] if c["sessionInfo"] == session_info]
    return entry


def test_test_phone_number_flags_give_fixed_codes_and_send_no_sms(launch):
    running = launch("--port", "0", "--project", "phone-proj", "--test-phone-number", "+1 650-555-3434=654321",
                     "--test-phone-number=+44 20 7946 0018=000111")
    config = requests.get(running.url + "/emulator/v1/projects/phone-proj/config", timeout=5).json()
    assert config["testPhoneNumbers"] == {"+16505553434": "654321", "+442079460018": "000111"}
    session_info = send_code(running.url, "+16505553434").json()["sessionInfo"]
    assert listed(running.url, session_info)["code"] == "654321"
    signed = requests.post(running.url + f"{IDENTITY}/accounts:signInWithPhoneNumber", params={"key": "k"},
                           json={"sessionInfo": session_info, "code": "654321"}, timeout=5).json()
    assert signed["phoneNumber"] == "+16505553434" and signed["idToken"]
    real = send_code(running.url, "+15555550100").json()["sessionInfo"]
    real_code = listed(running.url, real)["code"]
    code, out, err = running.stop(signal.SIGTERM)
    assert code == 0
    assert out == "", "log lines go to stderr"
    assert f"To verify the phone number +15555550100, use the code {real_code}." in err
    assert "+16505553434" not in err


def test_sms_flags_set_the_session_lifetime_rate_limit_and_app_verification(launch):
    running = launch("--port", "0", "--project", "phone-proj", "--sms-code-ttl-seconds", "1",
                     "--sms-rate-limit", "1/60", "--require-app-verification",
                     "--test-phone-number", "+16505554567=123456")
    config = requests.get(running.url + "/emulator/v1/projects/phone-proj/config", timeout=5).json()
    assert config["smsCodeTtlSeconds"] == 1
    assert config["smsRateLimit"] == {"maxSends": 1, "windowSeconds": 60}
    assert config["appVerificationRequired"] is True
    refused = send_code(running.url, "+15555550100")
    assert refused.json()["error"]["message"] == "MISSING_APP_CREDENTIAL"
    # Only the fictional number works without app verification, as Firebase documents.
    session_info = send_code(running.url, "+16505554567").json()["sessionInfo"]
    time.sleep(1.3)
    expired = requests.post(running.url + f"{IDENTITY}/accounts:signInWithPhoneNumber", params={"key": "k"},
                            json={"sessionInfo": session_info, "code": "123456"}, timeout=5)
    assert expired.json()["error"]["message"] == "SESSION_EXPIRED"
    running.stop(signal.SIGTERM)


def test_the_oob_code_ttl_flag_sets_when_email_codes_expire(launch):
    running = launch("--port", "0", "--project", "oob-proj", "--oob-code-ttl-seconds", "1")
    assert requests.get(running.url + "/emulator/v1/projects/oob-proj/config", timeout=5).json()[
        "oobCodeTtlSeconds"] == 1
    running.stop(signal.SIGTERM)


def test_answers_are_gzipped_when_asked_unless_no_gzip(launch):
    def sign_up(url):
        return requests.post(url + f"{IDENTITY}/accounts:signUp", params={"key": "k"}, json={},
                             headers={"Accept-Encoding": "gzip"}, timeout=5)
    default = launch("--port", "0")
    assert sign_up(default.url).headers["Content-Encoding"] == "gzip"
    default.stop(signal.SIGTERM)
    plain = launch("--port", "0", "--no-gzip")
    response = sign_up(plain.url)
    assert "Content-Encoding" not in response.headers and response.json()["idToken"]
    plain.stop(signal.SIGTERM)


def test_the_sms_rate_limit_flag_limits_sends_per_number(launch):
    running = launch("--port", "0", "--project", "phone-proj", "--sms-rate-limit=1/60")
    assert send_code(running.url, "+15555550100").status_code == 200
    assert send_code(running.url, "+15555550100").json()["error"]["message"] == "TOO_MANY_ATTEMPTS_TRY_LATER"
    running.stop(signal.SIGTERM)


@pytest.mark.parametrize("args", [["--port", "70000"], ["--port", "abc"], ["--port"], ["--bogus"], ["--host", ""],
                                  ["--recent-login-seconds", "-1"], ["--recent-login-seconds", "soon"],
                                  ["--recent-login-seconds"], ["--sms-code-ttl-seconds", "0"],
                                  ["--sms-code-ttl-seconds", "x"], ["--sms-rate-limit", "5"],
                                  ["--sms-rate-limit", "5/0"], ["--sms-rate-limit", "-1/60"],
                                  ["--sms-rate-limit", "a/b"], ["--test-phone-number", "+16505553434"],
                                  ["--test-phone-number", "+1650abc=123456"],
                                  ["--test-phone-number", "+16505553434=12345"], ["--test-phone-number"],
                                  ["--require-app-verification=yes"], ["--oob-code-ttl-seconds", "-1"],
                                  ["--oob-code-ttl-seconds", "later"], ["--no-gzip=yes"]])
def test_bad_arguments_exit_2_with_usage(binary, args):
    result = subprocess.run([binary, *args], capture_output=True, text=True, timeout=10)
    assert result.returncode == 2
    assert "usage: hearth-emulator" in result.stderr
    assert result.stdout == ""


def test_port_in_use_fails_with_a_message(binary):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = subprocess.run([binary, "--port", str(port)], capture_output=True, text=True, timeout=20)
    assert result.returncode == 1
    assert "hearth-emulator:" in result.stderr
    assert "listening" not in result.stdout


def test_shutdown_while_a_client_is_connected(launch):
    running = launch("--port", "0")
    session = requests.Session()
    session.post(running.url + "/identitytoolkit.googleapis.com/v1/accounts:signUp", params={"key": "k"}, json={},
                 timeout=5).raise_for_status()
    started = time.time()
    code, _, err = running.stop(signal.SIGTERM)
    assert code == 0, err
    assert time.time() - started < 15


def test_shutdown_finishes_the_request_under_way_and_closes_idle_connections(launch):
    running = launch("--port", "0")
    host, port = running.url.removeprefix("http://").rsplit(":", 1)
    idle = socket.create_connection((host, int(port)), timeout=10)
    busy = socket.create_connection((host, int(port)), timeout=10)
    body = b'{"email":"late@example.com","password":"123456"}'
    head = (f"POST /identitytoolkit.googleapis.com/v1/accounts:signUp?key=k HTTP/1.1\r\nHost: {host}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n").encode()
    busy.sendall(head + body[:10])
    time.sleep(0.2)
    running.process.send_signal(signal.SIGTERM)
    # The idle connection closes; the one in the middle of a request is kept for its answer.
    assert idle.recv(1) == b""
    time.sleep(0.3)
    assert running.process.poll() is None
    busy.sendall(body[10:])
    answer = b""
    while chunk := busy.recv(65536):
        answer += chunk
    assert answer.startswith(b"HTTP/1.1 200 ")
    assert b"\r\nconnection: close\r\n" in answer.lower()
    assert b"late@example.com" in answer
    assert running.process.wait(timeout=15) == 0
    idle.close()
    busy.close()
