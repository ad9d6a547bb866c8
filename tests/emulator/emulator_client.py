"""A small HTTP client for hearth-emulator's REST surface, shared by the tests."""
from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import time
import urllib.parse
from dataclasses import dataclass
from typing import Any

import requests

PROJECT_ID = os.environ.get("HEARTH_PROJECT", "demo-hearth")
API_KEY = "fake-api-key"
IDENTITY = "/identitytoolkit.googleapis.com/v1"
SECURE_TOKEN = "/securetoken.googleapis.com/v1/token"
MFA = "/identitytoolkit.googleapis.com/v2/accounts"
V2_PROJECT = f"/identitytoolkit.googleapis.com/v2/projects/{PROJECT_ID}"
ADMIN = f"{IDENTITY}/projects/{PROJECT_ID}"
EMULATOR = f"/emulator/v1/projects/{PROJECT_ID}"
CUSTOM_TOKEN_AUDIENCE = (
    "https://identitytoolkit.googleapis.com/google.identity.identitytoolkit.v1.IdentityToolkit"
)


def emulator_url() -> str:
    url = os.environ.get("HEARTH_EMULATOR_URL", "")
    if not url:
        raise RuntimeError(
            "HEARTH_EMULATOR_URL is not set: run the suite through scripts/with-emulator "
            "(make test-emulator) so it talks to a running hearth-emulator"
        )
    return url.rstrip("/")


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def decode_jwt(token: str) -> tuple[dict, dict, str]:
    """Header, payload and signature of a JWT, without verification."""
    header, payload, signature = token.split(".")
    return json.loads(b64url_decode(header)), json.loads(b64url_decode(payload)), signature


def make_jwt(payload: dict, header: dict | None = None, signature: str = "") -> str:
    header = header or {"alg": "none", "typ": "JWT"}
    return f"{b64url(json.dumps(header).encode())}.{b64url(json.dumps(payload).encode())}.{signature}"


def sha256_hex(text: str) -> str:
    """What a provider puts in an ID token's `nonce` claim for the raw nonce `text`."""
    return hashlib.sha256(text.encode()).hexdigest()


def query_of(url: str) -> dict[str, str]:
    """The query parameters of a URL (single values)."""
    return dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(url).query, keep_blank_values=True))


def totp_code(secret: str, at: float | None = None, step_offset: int = 0, digits: int = 6,
              period: int = 30) -> str:
    """RFC 6238 (HMAC-SHA-1) from a base32 shared secret, as an authenticator app computes it."""
    key = base64.b32decode(secret + "=" * (-len(secret) % 8), casefold=True)
    counter = int((time.time() if at is None else at) // period) + step_offset
    mac = hmac.new(key, counter.to_bytes(8, "big"), hashlib.sha1).digest()
    offset = mac[-1] & 0x0F
    binary = int.from_bytes(mac[offset:offset + 4], "big") & 0x7FFFFFFF
    return str(binary % 10 ** digits).zfill(digits)


def read_log(until: str | None = None, timeout: float = 5) -> str:
    """The emulator's output so far (scripts/with-emulator's HEARTH_EMULATOR_LOG); waits up to
    `timeout` seconds for `until` to appear."""
    path = os.environ.get("HEARTH_EMULATOR_LOG")
    if not path:
        raise RuntimeError("HEARTH_EMULATOR_LOG is not set: run through scripts/with-emulator")
    deadline = time.time() + timeout
    while True:
        with open(path, encoding="utf-8", errors="replace") as f:
            log = f.read()
        if until is None or until in log or time.time() > deadline:
            return log
        time.sleep(0.05)


def wait_for_next_second() -> None:
    """validSince, iat and auth_time have one-second resolution."""
    start = int(time.time())
    while int(time.time()) == start:
        time.sleep(0.02)


@dataclass
class User:
    local_id: str
    id_token: str
    refresh_token: str
    email: str | None = None
    password: str | None = None


class Emulator:
    def __init__(self, base_url: str):
        self.base_url = base_url
        self.session = requests.Session()
        self.oob_baseline: set[str] = set()

    # --- raw HTTP -------------------------------------------------------------------------
    def request(self, method: str, path: str, *, key: bool = True, admin: bool = False,
                json_body: Any = None, data: Any = None, headers: dict | None = None,
                params: dict | None = None) -> requests.Response:
        params = dict(params or {})
        if key:
            params["key"] = API_KEY
        headers = dict(headers or {})
        if admin:
            headers["Authorization"] = "Bearer owner"
        return self.session.request(method, self.base_url + path, params=params, json=json_body,
                                    data=data, headers=headers, timeout=30)

    def post(self, path: str, body: Any = None, **kwargs) -> requests.Response:
        if body is None:
            body = {}
        return self.request("POST", path, json_body=body, **kwargs)

    def identity(self, method: str, body: Any = None, **kwargs) -> requests.Response:
        """POST /identitytoolkit.googleapis.com/v1/accounts:<method> with an API key."""
        return self.post(f"{IDENTITY}/accounts:{method}", body, **kwargs)

    def admin(self, method: str, body: Any = None, **kwargs) -> requests.Response:
        """POST /identitytoolkit.googleapis.com/v1/projects/<p>/accounts<method> as the admin."""
        return self.post(f"{ADMIN}/accounts{method}", body, key=False, admin=True, **kwargs)

    # --- flows ----------------------------------------------------------------------------
    def ok(self, response: requests.Response) -> dict:
        assert response.status_code == 200, f"{response.status_code}: {response.text}"
        return response.json()

    def sign_up_anonymously(self) -> User:
        body = self.ok(self.identity("signUp", {"returnSecureToken": True}))
        return User(body["localId"], body["idToken"], body["refreshToken"])

    def sign_up(self, email: str, password: str = "secret-password", **extra) -> User:
        body = self.ok(self.identity("signUp", {"email": email, "password": password,
                                                "returnSecureToken": True, **extra}))
        return User(body["localId"], body["idToken"], body["refreshToken"], body["email"], password)

    def sign_in(self, email: str, password: str) -> User:
        body = self.ok(self.identity("signInWithPassword", {"email": email, "password": password,
                                                            "returnSecureToken": True}))
        return User(body["localId"], body["idToken"], body["refreshToken"], body["email"], password)

    def sign_in_with_idp(self, provider_id: str | None, id_token: Any = None, *, access_token: Any = None,
                         link_to: str | None = None, return_idp_credential: bool = False,
                         request_uri: str = "http://localhost", session_id: str | None = None,
                         **post_fields: str) -> requests.Response:
        """signInWithIdp the way the JS SDK's credentials do it: the fake IdP tokens (dicts become
        JSON claims) and `providerId` in `postBody`; `link_to` is the idToken of the account to link."""
        fields: dict[str, str] = {}
        if provider_id is not None:
            fields["providerId"] = provider_id
        if id_token is not None:
            fields["id_token"] = id_token if isinstance(id_token, str) else json.dumps(id_token)
        if access_token is not None:
            fields["access_token"] = access_token if isinstance(access_token, str) else json.dumps(access_token)
        fields.update(post_fields)
        body: dict[str, Any] = {"requestUri": request_uri, "returnSecureToken": True}
        if fields:
            body["postBody"] = urllib.parse.urlencode(fields)
        if return_idp_credential:
            body["returnIdpCredential"] = True
        if link_to is not None:
            body["idToken"] = link_to
        if session_id is not None:
            body["sessionId"] = session_id
        return self.identity("signInWithIdp", body)

    def lookup(self, id_token: str) -> dict:
        return self.ok(self.identity("lookup", {"idToken": id_token}))["users"][0]

    def refresh(self, refresh_token: str) -> requests.Response:
        return self.post(SECURE_TOKEN, {"grant_type": "refresh_token", "refresh_token": refresh_token})

    def v2_admin(self, method: str, path: str, body: Any = None, *, project: str = PROJECT_ID,
                 **kwargs) -> requests.Response:
        """The v2 admin API (`/identitytoolkit.googleapis.com/v2/projects/<project><path>`) as the admin."""
        return self.request(method, f"/identitytoolkit.googleapis.com/v2/projects/{project}{path}", key=False,
                            admin=True, json_body=body, **kwargs)

    def create_tenant(self, project: str = PROJECT_ID, **settings) -> dict:
        return self.ok(self.v2_admin("POST", "/tenants", settings, project=project))

    def mfa(self, method: str, body: Any = None, **kwargs) -> requests.Response:
        """POST /identitytoolkit.googleapis.com/v2/accounts/<method> (mfaEnrollment:start, ...)."""
        return self.post(f"{MFA}/{method}", body, **kwargs)

    def verification_codes(self) -> list[dict]:
        """Every SMS code the emulator holds, oldest first (wiping accounts keeps codes)."""
        return self.ok(self.request("GET", f"{EMULATOR}/verificationCodes", key=False))["verificationCodes"]

    def verification_code(self, session_info: str) -> dict:
        [entry] = [c for c in self.verification_codes() if c["sessionInfo"] == session_info]
        return entry

    def send_code(self, phone_number: str, headers: dict | None = None, **fields) -> str:
        """sendVerificationCode; the sessionInfo."""
        body = self.ok(self.identity("sendVerificationCode", {"phoneNumber": phone_number, **fields},
                                     headers=headers))
        return body["sessionInfo"]

    def verify_phone(self, session_info: str, **fields) -> requests.Response:
        """signInWithPhoneNumber with the listed code of `session_info`."""
        code = self.verification_code(session_info)["code"]
        return self.identity("signInWithPhoneNumber", {"sessionInfo": session_info, "code": code, **fields})

    def sign_in_with_phone(self, phone_number: str, **fields) -> dict:
        return self.ok(self.verify_phone(self.send_code(phone_number), **fields))

    def verified_user(self, email: str, password: str = "secret-password") -> User:
        """A password account whose email is verified (second factors need one), signed in."""
        self.ok(self.admin("", {"email": email, "password": password, "emailVerified": True}))
        return self.sign_in(email, password)

    def oob_codes(self) -> list[dict]:
        """Every code the emulator holds, oldest first (wiping accounts keeps codes)."""
        return self.ok(self.request("GET", f"{EMULATOR}/oobCodes", key=False))["oobCodes"]

    def new_oob_codes(self) -> list[dict]:
        """Codes issued since the last wipe."""
        return [c for c in self.oob_codes() if c["oobCode"] not in self.oob_baseline]

    def set_config(self, **config) -> dict:
        return self.ok(self.request("PATCH", f"{EMULATOR}/config", key=False, json_body=config))

    def wipe(self) -> None:
        self.ok(self.request("DELETE", f"{EMULATOR}/accounts", key=False))
        self.set_config(signIn={"allowDuplicateEmails": False},
                        emailPrivacyConfig={"enableImprovedEmailPrivacy": False},
                        recentLoginMaxAgeSeconds=0, smsCodeTtlSeconds=300, oobCodeTtlSeconds=0,
                        smsRateLimit={"maxSends": 5, "windowSeconds": 60}, testPhoneNumbers={},
                        appVerificationRequired=False)
        # The v2 project config: a full update resets it (blocking functions off).
        self.ok(self.request("PATCH", f"{V2_PROJECT}/config", key=False, admin=True, json_body={}))
        self.oob_baseline = {c["oobCode"] for c in self.oob_codes()}


def assert_error(response: requests.Response, message: str, status: int = 400) -> dict:
    """Asserts Google's error envelope with exactly this message."""
    assert response.status_code == status, f"{response.status_code}: {response.text}"
    assert response.headers["Content-Type"].startswith("application/json")
    error = response.json()["error"]
    assert error["code"] == status
    assert error["message"] == message, error
    if status != 401:  # 401 items say "Invalid Credentials", as Google's do
        assert error["errors"][0]["message"] == message
    assert error["errors"][0].get("domain") == "global" or status in (404, 500, 501)
    return error


def assert_bad_request(response: requests.Response, message: str) -> None:
    """A plain Firebase 400: `{"error":{"code":400,"message":M,"errors":[{M,"invalid","global"}]}}`."""
    error = assert_error(response, message)
    assert error["errors"] == [{"message": message, "reason": "invalid", "domain": "global"}]
    assert "status" not in error


def assert_invalid_argument(response: requests.Response, message_prefix: str, reason: str = "invalid") -> str:
    assert response.status_code == 400, response.text
    error = response.json()["error"]
    assert error["code"] == 400
    assert error["status"] == "INVALID_ARGUMENT"
    assert error["message"].startswith(message_prefix), error["message"]
    assert error["errors"][0]["reason"] == reason
    return error["message"]
