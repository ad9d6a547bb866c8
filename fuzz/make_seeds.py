#!/usr/bin/env python3
"""Writes the seed corpora under fuzz/corpus/<target>/ from the response and request shapes in the
protocol references (../shared/protocol: client-wire-reference.md, emulator-reference.md). Re-run
after changing a target's input format; seeds are committed, crash-regression inputs live beside
them as regression-*."""
import base64, json, os, sys

HERE = os.path.dirname(os.path.abspath(__file__))

def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()

def jwt(claims) -> str:
    return b64url(b'{"alg":"none","typ":"JWT"}') + "." + b64url(json.dumps(claims).encode()) + "."

CLAIMS = {"iss": "https://securetoken.google.com/demo-hearth", "aud": "demo-hearth", "auth_time": 1763000000,
          "user_id": "u1", "sub": "u1", "iat": 1763000000, "exp": 1763003600, "email": "a@example.com",
          "email_verified": False, "firebase": {"identities": {"email": ["a@example.com"]}, "sign_in_provider": "password"}}
ID = jwt(CLAIMS)
TOKENS = {"idToken": ID, "refreshToken": "AMf-refresh", "expiresIn": "3600", "localId": "u1"}
USER = {"localId": "u1", "email": "a@example.com", "emailVerified": True, "displayName": "Ann", "photoUrl": "https://e/p.png",
        "passwordHash": "UkVEQUNURUQ=", "createdAt": "1763000000000", "lastLoginAt": "1763000001000",
        "providerUserInfo": [{"providerId": "password", "rawId": "a@example.com", "federatedId": "a@example.com", "email": "a@example.com"},
                             {"providerId": "google.com", "rawId": "g1", "displayName": "Ann G", "photoUrl": "https://e/g.png"}],
        "mfaInfo": [{"mfaEnrollmentId": "e1", "displayName": "phone", "enrolledAt": "2025-11-13T02:13:20.123Z", "phoneInfo": "+1******0100"},
                    {"mfaEnrollmentId": "e2", "enrolledAt": "2025-11-13T02:13:20Z", "totpInfo": {}}]}
MFA_PENDING = {"mfaPendingCredential": "pending", "mfaInfo": USER["mfaInfo"], "localId": "u1", "email": "a@example.com"}
ERROR = {"error": {"code": 400, "message": "INVALID_LOGIN_CREDENTIALS", "errors": [{"message": "INVALID_LOGIN_CREDENTIALS", "domain": "global", "reason": "invalid"}]}}
ERROR_DETAIL = {"error": {"code": 400, "message": "WEAK_PASSWORD : Password should be at least 6 characters", "status": "INVALID_ARGUMENT",
                "errors": [{"message": "WEAK_PASSWORD", "domain": "global", "reason": "invalid"}]}}

# fuzz-rpc-responses: [RPC index][status index] body. Indices follow the tables in RPCResponses.swift.
RPC = {"createAuthUri": 0, "createAuthUriForProvider": 1, "delete": 2, "mfaEnrollFinalizePhone": 3, "mfaEnrollFinalizeTotp": 4,
       "mfaSignInFinalize": 5, "lookup": 6, "token": 7, "sendOobCode": 8, "sendVerificationCode": 9, "update": 10,
       "customToken": 11, "idp": 12, "idpLink": 13, "password": 14, "phone": 15, "phoneLink": 16, "signUp": 17,
       "mfaEnrollStartPhone": 18, "mfaEnrollStartTotp": 19, "mfaSignInStart": 20, "withdraw": 21,
       "emailLink": 22, "emailLinkLink": 23, "resetPasswordCheck": 24, "resetPassword": 25, "applyActionCode": 26,
       "sendSignInLink": 27}
STATUS = {200: 0, 400: 6, 401: 7, 429: 10, 500: 11, 503: 12}
rpc_seeds = {
    "signup-anonymous": ("signUp", 200, {**TOKENS, "kind": "identitytoolkit#SignupNewUserResponse"}),
    "signup-email": ("signUp", 200, {**TOKENS, "email": "a@example.com", "displayName": ""}),
    "password": ("password", 200, {**TOKENS, "email": "a@example.com", "registered": True, "displayName": "Ann"}),
    "password-mfa": ("password", 200, MFA_PENDING),
    "password-error": ("password", 400, ERROR),
    "signup-weak-password": ("signUp", 400, ERROR_DETAIL),
    "custom-token": ("customToken", 200, {"idToken": ID, "refreshToken": "r", "expiresIn": "3600", "isNewUser": True, "kind": "x"}),
    "idp": ("idp", 200, {**TOKENS, "federatedId": "https://accounts.google.com/g1", "providerId": "google.com", "email": "a@example.com",
                         "emailVerified": True, "displayName": "Ann", "photoUrl": "https://e/p.png", "oauthIdToken": "oid",
                         "oauthAccessToken": "oat", "oauthExpireIn": 3599, "rawUserInfo": "{\"name\":\"Ann\",\"email\":\"a@example.com\"}",
                         "isNewUser": False, "pendingToken": "pt", "nonce": "n"}),
    "idp-error-message": ("idpLink", 200, {"federatedId": "g1", "providerId": "google.com", "errorMessage": "FEDERATED_USER_ID_ALREADY_LINKED",
                                          "oauthIdToken": "oid", "oauthAccessToken": "oat"}),
    "idp-need-confirmation": ("idp", 200, {"providerId": "facebook.com", "needConfirmation": True, "email": "a@example.com", "verifiedProvider": ["google.com"]}),
    "create-auth-uri": ("createAuthUri", 200, {"kind": "identitytoolkit#CreateAuthUriResponse", "registered": True, "allProviders": ["password"],
                                               "signinMethods": ["password", "emailLink"], "sessionId": "s"}),
    "create-auth-uri-provider": ("createAuthUriForProvider", 200, {"authUri": "http://127.0.0.1:9099/emulator/auth/handler?state=s&providerId=google.com",
                                                                  "sessionId": "s", "providerId": "google.com"}),
    "delete": ("delete", 200, {"kind": "identitytoolkit#DeleteAccountResponse"}),
    "lookup": ("lookup", 200, {"kind": "identitytoolkit#GetAccountInfoResponse", "users": [USER]}),
    "lookup-two-users": ("lookup", 200, {"users": [USER, USER]}),
    "token": ("token", 200, {"access_token": ID, "expires_in": "3600", "token_type": "Bearer", "refresh_token": "r2", "id_token": ID,
                             "user_id": "u1", "project_id": "demo-hearth"}),
    "token-expired": ("token", 400, {"error": {"code": 400, "message": "TOKEN_EXPIRED", "status": "INVALID_ARGUMENT"}}),
    "regression-huge-expires-in": ("token", 200, {"access_token": ID, "expires_in": "9223372036854775807", "refresh_token": "r2"}),
    "send-oob-code": ("sendOobCode", 200, {"kind": "identitytoolkit#GetOobConfirmationCodeResponse", "email": "a@example.com"}),
    "send-verification-code": ("sendVerificationCode", 200, {"sessionInfo": "verification-id"}),
    "update": ("update", 200, {**TOKENS, "email": "b@example.com", "providerUserInfo": USER["providerUserInfo"], "passwordHash": "x", "emailVerified": False}),
    "update-profile": ("update", 200, {"localId": "u1", "displayName": "Bo", "photoUrl": "https://e/b.png", "providerUserInfo": []}),
    "phone": ("phone", 200, {**TOKENS, "isNewUser": True, "phoneNumber": "+15555550100"}),
    "phone-temporary-proof": ("phoneLink", 200, {"temporaryProof": "tp", "phoneNumber": "+15555550100"}),
    "mfa-enroll-start-phone": ("mfaEnrollStartPhone", 200, {"phoneSessionInfo": {"sessionInfo": "si"}}),
    "mfa-enroll-start-totp": ("mfaEnrollStartTotp", 200, {"totpSessionInfo": {"sharedSecretKey": "JBSWY3DPEHPK3PXP", "verificationCodeLength": 6,
                                                          "hashingAlgorithm": "SHA1", "periodSec": 30, "sessionInfo": "si",
                                                          "finalizeEnrollmentTime": "2025-11-13T02:23:20.000Z"}}),
    "mfa-enroll-finalize": ("mfaEnrollFinalizePhone", 200, {"idToken": ID, "refreshToken": "r"}),
    "mfa-enroll-finalize-totp": ("mfaEnrollFinalizeTotp", 200, {"idToken": ID, "refreshToken": "r", "totpAuthInfo": {}}),
    "mfa-signin-start": ("mfaSignInStart", 200, {"phoneResponseInfo": {"sessionInfo": "si"}}),
    "mfa-signin-finalize": ("mfaSignInFinalize", 200, {"idToken": ID, "refreshToken": "r"}),
    "withdraw": ("withdraw", 200, {"idToken": ID, "refreshToken": "r"}),
    "email-link": ("emailLink", 200, {**TOKENS, "kind": "identitytoolkit#EmailLinkSigninResponse", "email": "a@example.com",
                                      "isNewUser": True}),
    "email-link-mfa": ("emailLink", 200, MFA_PENDING),
    "email-link-link": ("emailLinkLink", 200, {**TOKENS, "email": "a@example.com", "isNewUser": False}),
    "email-link-invalid-code": ("emailLink", 400, {"error": {"code": 400, "message": "INVALID_OOB_CODE", "status": "INVALID_ARGUMENT"}}),
    "check-action-code": ("resetPasswordCheck", 200, {"kind": "identitytoolkit#ResetPasswordResponse",
                                                     "requestType": "VERIFY_AND_CHANGE_EMAIL", "email": "a@example.com",
                                                     "newEmail": "b@example.com"}),
    "check-sign-in-code": ("resetPasswordCheck", 200, {"requestType": "EMAIL_SIGNIN"}),
    "reset-password": ("resetPassword", 200, {"requestType": "PASSWORD_RESET", "email": "a@example.com"}),
    "apply-action-code": ("applyActionCode", 200, {"kind": "identitytoolkit#SetAccountInfoResponse", "localId": "u1",
                                                   "email": "a@example.com", "emailVerified": True}),
    "send-sign-in-link": ("sendSignInLink", 200, {"kind": "identitytoolkit#GetOobConfirmationCodeResponse", "email": "a@example.com"}),
    "too-many-requests": ("password", 429, {"error": {"code": 429, "message": "TOO_MANY_ATTEMPTS_TRY_LATER : Access disabled", "status": "RESOURCE_EXHAUSTED"}}),
    "unavailable-html": ("lookup", 503, None),
}

def write(target, name, data: bytes):
    d = os.path.join(HERE, "corpus", target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)

for name, (rpc, status, body) in rpc_seeds.items():
    payload = b"<html><body>503 Service Unavailable</body></html>" if body is None else json.dumps(body).encode()
    write("fuzz-rpc-responses", name, bytes([RPC[rpc], STATUS[status]]) + payload)

# fuzz-jwt: [0] token text, or [1] payload bytes (wrapped by the target).
write("fuzz-jwt", "emulator-id-token", b"\x00" + ID.encode())
write("fuzz-jwt", "password-claims", b"\x01" + json.dumps(CLAIMS).encode())
write("fuzz-jwt", "anonymous-claims", b"\x01" + json.dumps({**CLAIMS, "firebase": {"identities": {}, "sign_in_provider": "anonymous"}}).encode())
write("fuzz-jwt", "mfa-claims", b"\x01" + json.dumps({**CLAIMS, "firebase": {"sign_in_provider": "password", "sign_in_second_factor": "phone",
                                                                               "second_factor_identifier": "e1"}}).encode())
write("fuzz-jwt", "string-times", b"\x01" + json.dumps({"sub": "u", "iat": "1763000000", "exp": "1763003600"}).encode())
write("fuzz-jwt", "regression-huge-exp", b"\x01" + json.dumps({"sub": "u", "iat": -9223372036854775807, "exp": 9223372036854775807}).encode())
write("fuzz-jwt", "two-segments", b"\x00" + b"eyJhbGciOiJub25lIn0.eyJzdWIiOiJ1In0")

# fuzz-json-parser: documents with the features RFC 8259 readers get wrong.
for name, text in {
    "token-response": json.dumps(TOKENS), "lookup": json.dumps({"users": [USER]}), "error": json.dumps(ERROR_DETAIL),
    "escapes": r'{"a":"\u00e9\ud83d\ude00\n\t\"\\\/","b":"plain"}', "numbers": "[0,-0,1.5e300,-2.5E-300,123456789012345678901234567890,1e-400,0.1]",
    "nesting": "[" * 40 + "{}" + "]" * 40, "literals": '{"t":true,"f":false,"n":null,"e":"","a":[],"o":{}}',
    "bom": "\ufeff{\"x\":1}", "duplicate-keys": '{"k":1,"k":2}', "utf8": '{"name":"Ann \u00e4\u4e2d\U0001F600"}',
}.items():
    write("fuzz-json-parser", name, text.encode())

# fuzz-redirect: [0] URL NUL body vs http loopback target; [1] vs custom scheme; [2..] HTTP request bytes.
base = "http://127.0.0.1:4000/__/auth/callback"
st = "3q2-7wE_state"
write("fuzz-redirect", "url-consumed", b"\x00" + f"{base}?state={st}&code=abc&scope=email".encode())
write("fuzz-redirect", "url-fragment", b"\x00" + f"{base}#state={st}&id_token={ID}".encode())
write("fuzz-redirect", "url-idp-error", b"\x00" + f"{base}?state={st}&error=access_denied&error_description=User%20denied".encode())
write("fuzz-redirect", "url-firebase-error", b"\x00" + f"{base}?state={st}&firebaseError=%7B%22code%22%3A%22auth%2Finternal-error%22%7D".encode())
write("fuzz-redirect", "url-wrong-state", b"\x00" + f"{base}?state=other&state={st}&code=abc".encode())
write("fuzz-redirect", "email-sign-in-link", b"\x01" + b"  com.example.app:/oauth2redirect?mode=signIn&lang=en&oobCode=C0de-1_x"
      b"&apiKey=fake-api-key&continueUrl=com.example.app%3A%2Ffinish\n")
write("fuzz-redirect", "email-link-wrapped", b"\x00" + b"https://example.page.link/?link=https%3A%2F%2Fa.example%2F%3Fmode%3DsignIn"
      b"%26oobCode%3DC%26apiKey%3DK&deep_link_id=x%3Flink%3Dhttps%253A%252F%252Fb%253Fmode%253DresetPassword")
write("fuzz-redirect", "url-form-post", b"\x00" + f"{base}".encode() + b"\x00" + f"state={st}&id_token=x+y&code=%41".encode())
write("fuzz-redirect", "custom-scheme", b"\x01" + f"com.example.app:/oauth2redirect/sub?state={st}&code=c".encode())
write("fuzz-redirect", "http-get", b"\x02" + f"GET /__/auth/callback?state={st}&code=abc HTTP/1.1\r\nHost: 127.0.0.1:4000\r\nUser-Agent: x\r\n\r\n".encode())
write("fuzz-redirect", "http-post-chunked-7", b"\x06" + (f"POST /__/auth/callback HTTP/1.1\r\nHost: 127.0.0.1:4000\r\n"
      f"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {len('state=' + st + '&code=a')}\r\n\r\nstate={st}&code=a").encode())
write("fuzz-redirect", "http-bare-lf", b"\x0f" + f"\nGET /__/auth/callback?state={st} HTTP/1.0\nHost: localhost:4000\n\n".encode())
write("fuzz-redirect", "http-smuggling", b"\x03" + b"POST / HTTP/1.1\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n")

# fuzz-persisted-session: session files as FileSessionStore writes them.
def session(**over):
    s = {"format": 1, "appName": "[DEFAULT]", "apiKey": "fuzz-api-key",
         "user": {"uid": "u1", "email": "a@example.com", "displayName": "Ann", "photoURL": "", "phoneNumber": "+15555550100",
                  "isAnonymous": False, "isEmailVerified": True, "creationTimestamp": 1763000000000, "lastSignInTimestamp": 1763000001000,
                  "providerData": [], "multiFactor": []},
         "tokens": {"idToken": ID, "refreshToken": "AMf-refresh", "expiresAtMs": 1763003600000}}
    s.update(over)
    return json.dumps(s).encode()
write("fuzz-persisted-session", "session", session())
write("fuzz-persisted-session", "old-format-fields", json.dumps({"format": 1, "appName": "[DEFAULT]", "apiKey": "fuzz-api-key",
      "user": {"uid": "u1"}, "tokens": {"idToken": "", "refreshToken": "r", "expiresAtMs": 0}}).encode())
write("fuzz-persisted-session", "other-app", session(appName="other"))
write("fuzz-persisted-session", "future-format", session(format=2))
write("fuzz-persisted-session", "regression-min-expiry", session(tokens={"idToken": "", "refreshToken": "r", "expiresAtMs": -9223372036854775808}))
write("fuzz-persisted-session", "max-expiry", session(tokens={"idToken": "", "refreshToken": "r", "expiresAtMs": 9223372036854775807}))
write("fuzz-persisted-session", "truncated", session()[:97])

# fuzz-emulator-requests: up to 8 × [route index][caller flags][body NUL]. Route indices follow the
# order of the route tables the target concatenates (read from the sources, so they stay in step).
import re
ROUTE_FILES = ["EmulatorOnly/EmulatorOnlyRoutes.swift", "Accounts/AccountsRoutes.swift", "Mfa/MfaRoutes.swift",
               "Admin/AdminRoutes.swift", "Tokens/TokenRoutes.swift"]
operations = []
for name in ROUTE_FILES:
    text = open(os.path.join(HERE, "..", "Sources", "HearthEmulator", name)).read()
    operations += re.findall(r"Route\(\.\w+,\s*[^,]+,\s*([\w.]+)\)", text)
def route(op):
    return operations.index(op)
ADMIN, KEY, FORM = 1, 2, 4
def request(op, flags, body):
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    return bytes([route(op), flags]) + data + b"\x00"
UNSIGNED_GOOGLE = jwt({"iss": "https://accounts.google.com", "sub": "g-123", "email": "g@example.com", "email_verified": True,
                       "name": "Gee", "aud": "x", "iat": 1763000000, "exp": 1763003600})
CUSTOM = jwt({"uid": "custom-1", "iat": 1763000000, "exp": 1763003600, "aud": "https://identitytoolkit.googleapis.com/google.identity.identitytoolkit.v1.IdentityToolkit",
              "claims": {"role": "admin"}})
emulator_seeds = {
    "signup-then-password": [("SignUp.operation", KEY, {"email": "a@example.com", "password": "secret1", "returnSecureToken": True}),
                             ("SignInWithPassword.operation", KEY, {"email": "a@example.com", "password": "secret1", "returnSecureToken": True}),
                             ("SignInWithPassword.operation", KEY, {"email": "a@example.com", "password": "wrong", "returnSecureToken": True})],
    "anonymous": [("SignUp.operation", KEY, b"")],
    "admin-user-lifecycle": [("SignUp.adminOperation", ADMIN, {"localId": "u1", "email": "u1@example.com", "password": "secret1", "displayName": "U"}),
                             ("UpdateAccount.adminOperation", ADMIN, {"localId": "u1", "emailVerified": True, "customAttributes": "{\"role\":\"x\"}",
                                                                     "deleteAttribute": ["DISPLAY_NAME"], "phoneNumber": "+15555550100", "validSince": "1763000000"}),
                             ("Lookup.adminOperation", ADMIN, {"localId": ["u1"], "email": ["u1@example.com"], "phoneNumber": ["+15555550100"]}),
                             ("SendOobCode.adminOperation", ADMIN, {"requestType": "PASSWORD_RESET", "email": "u1@example.com", "returnOobLink": True}),
                             ("DeleteAccount.adminOperation", ADMIN, {"localId": "u1"})],
    "batch": [("BatchCreate.operation", ADMIN, {"users": [{"localId": "b1", "email": "b1@example.com", "rawPassword": "pw1234"},
                                                          {"localId": "b2", "phoneNumber": "+15555550101", "providerUserInfo": [{"providerId": "google.com", "rawId": "g2"}]}]}),
              ("BatchGet.operation", ADMIN, b""),
              ("QueryAccounts.operation", ADMIN, {"returnUserInfo": True, "limit": "10", "sortBy": "USER_EMAIL", "order": "ASC"}),
              ("BatchDelete.operation", ADMIN, {"localIds": ["b1", "b2"], "force": True})],
    "securetoken-form": [("SignUp.operation", KEY, b"{}"), ("GrantToken.operation", KEY | FORM, b"grant_type=refresh_token&refresh_token=AMf-x")],
    "securetoken-json": [("GrantToken.operation", KEY, {"grantType": "refresh_token", "refreshToken": "x"})],
    "idp": [("SignInWithIdp.operation", KEY, {"requestUri": "http://localhost", "postBody": f"id_token={UNSIGNED_GOOGLE}&providerId=google.com",
                                             "returnSecureToken": True, "returnIdpCredential": True}),
            ("CreateAuthUri.operation", KEY, {"identifier": "g@example.com", "continueUri": "http://localhost"}),
            ("CreateAuthUri.operation", KEY, {"providerId": "google.com", "continueUri": "http://127.0.0.1:4000/cb", "oauthScope": "email"})],
    "phone": [("SendVerificationCode.operation", KEY, {"phoneNumber": "+15555550100", "recaptchaToken": "x"}),
              ("SignInWithPhoneNumber.operation", KEY, {"sessionInfo": "garbage", "code": "123456"}),
              ("ListVerificationCodes.operation", 0, b"")],
    "custom-token": [("SignInWithCustomToken.operation", KEY, {"token": CUSTOM, "returnSecureToken": True})],
    "oob": [("SignUp.operation", KEY, {"email": "o@example.com", "password": "secret1"}),
            ("SendOobCode.operation", KEY, {"requestType": "PASSWORD_RESET", "email": "o@example.com"}),
            ("ListOobCodes.operation", 0, b""),
            ("ResetPassword.operation", KEY, {"oobCode": "x", "newPassword": "secret2"})],
    "mfa": [("StartMfaEnrollment.operation", KEY, {"idToken": ID, "phoneEnrollmentInfo": {"phoneNumber": "+15555550100"}}),
            ("StartMfaEnrollment.operation", KEY, {"idToken": ID, "totpEnrollmentInfo": {}}),
            ("FinalizeMfaSignIn.operation", KEY, {"mfaPendingCredential": "p", "phoneVerificationInfo": {"sessionInfo": "s", "code": "1"}})],
    "config": [("EmulatorConfig.updateOperation", 0, {"signIn": {"allowDuplicateEmails": True}, "usageMode": "DEFAULT"}),
               ("EmulatorConfig.getOperation", 0, b""), ("DeleteAllAccounts.operation", 0, b"")],
    "bad-json": [("SignUp.operation", KEY, b"{\"email\": [1, {\"x\": \xff}]"), ("Lookup.operation", KEY, b"[]")],
}
for name, requests in emulator_seeds.items():
    write("fuzz-emulator-requests", name, b"".join(request(*r) for r in requests))
