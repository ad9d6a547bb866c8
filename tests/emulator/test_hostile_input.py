"""Bounded, seeded random input against every implemented route: every answer is a well-formed
JSON reply (never a 5xx, never a dropped connection) and the emulator keeps serving. The fake
provider pages answer HTML, a redirect, or a JSON refusal."""
import json
import random

import pytest

from emulator_client import ADMIN, EMULATOR, IDENTITY, MFA, SECURE_TOKEN

ROUTES = [
    ("POST", f"{IDENTITY}/accounts:{m}") for m in
    ["signUp", "signInWithPassword", "signInWithCustomToken", "lookup", "update", "delete", "sendOobCode",
     "resetPassword", "createAuthUri", "signInWithIdp"]
] + [
    ("POST", f"{ADMIN}/accounts"), ("POST", f"{ADMIN}/accounts:lookup"), ("POST", f"{ADMIN}/accounts:update"),
    ("POST", f"{ADMIN}/accounts:delete"), ("POST", f"{ADMIN}/accounts:batchDelete"),
    ("POST", f"{ADMIN}/accounts:query"), ("POST", f"{ADMIN}/accounts:sendOobCode"),
    ("POST", SECURE_TOKEN), ("PATCH", f"{EMULATOR}/config"),
    ("POST", f"{IDENTITY}/accounts:sendVerificationCode"), ("POST", f"{IDENTITY}/accounts:signInWithPhoneNumber"),
] + [
    ("POST", f"{MFA}/{m}") for m in
    ["mfaEnrollment:start", "mfaEnrollment:finalize", "mfaEnrollment:withdraw", "mfaSignIn:start", "mfaSignIn:finalize"]
]

FIELDS = ["email", "password", "idToken", "token", "localId", "displayName", "requestType", "oobCode",
          "newPassword", "identifier", "continueUri", "grant_type", "refresh_token", "deleteAttribute",
          "deleteProvider", "customAttributes", "localIds", "returnSecureToken", "signIn", "phoneNumber",
          "linkProviderUserInfo", "validSince", "disableUser", "claims", "requestUri", "postBody", "sessionId",
          "providerId", "oauthScope", "customParameter", "returnIdpCredential", "recentLoginMaxAgeSeconds",
          "sessionInfo", "code", "temporaryProof", "operation", "recaptchaToken", "mfaPendingCredential",
          "mfaEnrollmentId", "phoneEnrollmentInfo", "totpEnrollmentInfo", "phoneVerificationInfo",
          "totpVerificationInfo", "phoneSignInInfo", "verificationCode", "smsCodeTtlSeconds", "smsRateLimit",
          "maxSends", "testPhoneNumbers", "appVerificationRequired", "mfa", "enrollments", "phoneInfo", "x"]


def random_value(rng, depth=0):
    choices = [
        lambda: rng.choice(["", "a@b.c", "PASSWORD_RESET", "VERIFY_EMAIL", "{", '{"uid":"u"}', "+1555",
                            "+1 650-555-3434", "REAUTH", "LINK", "123456", "e30=", "eyJsb2NhbElkIjoieCJ9",
                            "e30.e30.", "password", "DISPLAY_NAME", "\u0000", "é" * 3, "x" * 2000,
                            "http://localhost", "http://localhost/cb?state=s#id_token=%7B", "apple.com",
                            "providerId=google.com&id_token=%7B%22sub%22%3A%221%22%7D&nonce=%FF%FE",
                            "providerId=saml.x&id_token=%7B%22sub%22%3A%221%22%7D&SAMLResponse=%5B%5D",
                            "providerId=twitter.com&access_token=opaque&oauth_token_secret=%ZZ"]),
        lambda: rng.choice([0, -1, 1.5, 10**20, True, False, None]),
    ]
    if depth < 3:
        choices.append(lambda: [random_value(rng, depth + 1) for _ in range(rng.randint(0, 3))])
        choices.append(lambda: {rng.choice(FIELDS): random_value(rng, depth + 1) for _ in range(rng.randint(0, 3))})
    return rng.choice(choices)()


def random_body(rng) -> bytes:
    kind = rng.random()
    if kind < 0.6:
        return json.dumps({rng.choice(FIELDS): random_value(rng) for _ in range(rng.randint(0, 4))}).encode()
    if kind < 0.8:
        return json.dumps(random_value(rng)).encode()
    return bytes(rng.randrange(256) for _ in range(rng.randint(0, 64)))


@pytest.mark.parametrize("seed", range(4))
def test_random_requests_get_well_formed_answers(emu, seed):
    rng = random.Random(seed)
    for _ in range(150):
        method, path = rng.choice(ROUTES)
        headers = {"Content-Type": rng.choice(["application/json", "application/x-www-form-urlencoded", "text/plain"])}
        response = emu.request(method, path, admin=rng.random() < 0.5, key=rng.random() < 0.9,
                               data=random_body(rng), headers=headers)
        assert response.status_code in (200, 303, 400, 401, 403, 404, 413, 501), response.text
        body = response.json()
        if response.status_code >= 400:
            assert body["error"]["code"] == response.status_code
            assert isinstance(body["error"]["message"], str) and body["error"]["message"]
    emu.ok(emu.identity("signUp", {}))


PAGES = ["/emulator/auth/handler", "/emulator/auth/handler/choose", "/emulator/auth/consent",
         "/emulator/auth/consent/choose", "/emulator/auth/handler/verify-app"]
PAGE_FIELDS = ["apiKey", "providerId", "redirectUrl", "eventId", "state", "customParameters", "scopes", "tid",
               "sessionId", "email", "rawId", "sub", "displayName", "emailVerified", "generate", "cancel",
               "authType", "notARobot", "x"]
PAGE_VALUES = ["", "k", "google.com", "saml.x", "http://127.0.0.1:1/cb", "relative", "com.app:/cb", "a@b.c",
               "not-an-email", "{", '{"nonce":5,"login_hint":"a@b.c"}', "%FF%FE", "%ZZ", "<b>\"'&", "é" * 3,
               "x" * 3000, "true", "false", "verifyApp", "on"]


@pytest.mark.parametrize("seed", range(3))
def test_random_requests_to_the_fake_provider_pages_get_well_formed_answers(emu, seed):
    rng = random.Random(seed)
    flow = emu.ok(emu.identity("createAuthUri", {"providerId": "google.com", "continueUri": "http://127.0.0.1:1/cb"}))
    for _ in range(120):
        path = rng.choice(PAGES)
        fields = [(rng.choice(PAGE_FIELDS), rng.choice(PAGE_VALUES + [flow["sessionId"]]))
                  for _ in range(rng.randint(0, 6))]
        query = "&".join(f"{name}={value}" for name, value in fields)
        if path.endswith(("/choose", "/verify-app")) and rng.random() < 0.5:
            body = query.encode() if rng.random() < 0.7 else bytes(rng.randrange(256) for _ in range(40))
            response = emu.session.post(emu.base_url + path, data=body, allow_redirects=False, timeout=30,
                                        headers={"Content-Type": "application/x-www-form-urlencoded"})
        else:
            response = emu.session.get(f"{emu.base_url}{path}?{query}", allow_redirects=False, timeout=30)
        assert response.status_code in (200, 303, 400), response.text
        if response.status_code == 200:
            assert response.headers["Content-Type"].startswith("text/html")
        elif response.status_code == 303:
            assert response.headers["Location"]
        else:
            assert "error" in response.json().get("authEmulator", response.json())
    emu.ok(emu.identity("signUp", {}))
