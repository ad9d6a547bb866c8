"""The canned Identity Toolkit answers the bench's nginx returns, and the requests every client sends.

The bodies have the shapes Firebase (and hearth-emulator) send; the ID tokens are real unsigned JWTs
(alg "none", as the Auth emulator issues) whose `exp` lies in 2100, so every client accepts them and
no client ever refreshes on its own. The API key selects the account kind: `bench-anon` makes
accounts:lookup answer with an anonymous account, anything else with an email/password account.
"""
from __future__ import annotations

import base64
import json

PROJECT = "demo-hearth"
ANON_KEY = "bench-anon"
PASSWORD_KEY = "bench-password"
EMAIL = "bench@example.com"
PASSWORD = "bench-password-1"
ANON_UID = "BenchAnonUid0000000000000001"
PASSWORD_UID = "BenchPasswordUid000000000001"
EXP = 4102444800  # 2100-01-01T00:00:00Z
IAT = 1795312159


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def jwt(uid: str, provider: str, email: str | None = None) -> str:
    claims: dict = {}
    if email:
        claims.update(email=email, email_verified=False)
    claims.update(
        auth_time=IAT, user_id=uid,
        firebase={"identities": {"email": [email]} if email else {}, "sign_in_provider": provider},
        iat=IAT, exp=EXP, aud=PROJECT, iss=f"https://securetoken.google.com/{PROJECT}", sub=uid)
    header = {"alg": "none", "typ": "JWT"}
    return f"{_b64(json.dumps(header, separators=(',', ':')).encode())}." \
           f"{_b64(json.dumps(claims, separators=(',', ':')).encode())}."


def refresh_token(uid: str, provider: str) -> str:
    body = {"_AuthEmulatorRefreshToken": "DO NOT MODIFY", "localId": uid, "provider": provider,
            "extraClaims": {}, "projectId": PROJECT}
    return base64.b64encode(json.dumps(body, separators=(",", ":")).encode()).decode()


ANON_ID_TOKEN = jwt(ANON_UID, "anonymous")
PASSWORD_ID_TOKEN = jwt(PASSWORD_UID, "password", EMAIL)
ANON_REFRESH = refresh_token(ANON_UID, "anonymous")
PASSWORD_REFRESH = refresh_token(PASSWORD_UID, "password")


def _j(value: dict) -> str:
    return json.dumps(value, separators=(",", ":"))


SIGN_UP = _j({"expiresIn": "3600", "idToken": ANON_ID_TOKEN, "kind": "identitytoolkit#SignupNewUserResponse",
              "localId": ANON_UID, "refreshToken": ANON_REFRESH})
SIGN_IN_WITH_PASSWORD = _j({"displayName": "", "email": EMAIL, "expiresIn": "3600", "idToken": PASSWORD_ID_TOKEN,
                            "kind": "identitytoolkit#VerifyPasswordResponse", "localId": PASSWORD_UID,
                            "refreshToken": PASSWORD_REFRESH, "registered": True})
LOOKUP_ANON = _j({"kind": "identitytoolkit#GetAccountInfoResponse", "users": [{
    "createdAt": "1795312159262", "lastLoginAt": "1795312159262", "lastRefreshAt": "2026-11-22T01:49:19.262Z",
    "localId": ANON_UID, "validSince": "1795312159"}]})
LOOKUP_PASSWORD = _j({"kind": "identitytoolkit#GetAccountInfoResponse", "users": [{
    "createdAt": "1795312159262", "email": EMAIL, "emailVerified": False, "lastLoginAt": "1795312159267",
    "lastRefreshAt": "2026-11-22T01:49:19.268Z", "localId": PASSWORD_UID,
    "passwordHash": "UkVEQUNURUQ=", "passwordUpdatedAt": 1795312159262,
    "providerUserInfo": [{"email": EMAIL, "federatedId": EMAIL, "providerId": "password", "rawId": EMAIL}],
    "salt": "c2FsdA==", "validSince": "1795312159"}]})
SECURE_TOKEN = _j({"access_token": PASSWORD_ID_TOKEN, "expires_in": "3600", "id_token": PASSWORD_ID_TOKEN,
                   "project_id": "12345", "refresh_token": PASSWORD_REFRESH, "token_type": "Bearer",
                   "user_id": PASSWORD_UID})

IDT = "/identitytoolkit.googleapis.com/v1/"
PATHS = {
    "signUp": IDT + "accounts:signUp",
    "signInWithPassword": IDT + "accounts:signInWithPassword",
    "lookup": IDT + "accounts:lookup",
    "token": "/securetoken.googleapis.com/v1/token",
}

# What the clients send (Hearth's exact bodies, captured from the library; see bench/README.md).
REQUEST_BODIES = {
    "signUp": _j({"returnSecureToken": True}),
    "signInWithPassword": _j({"email": EMAIL, "password": PASSWORD, "returnSecureToken": True}),
    "lookup_anon": _j({"idToken": ANON_ID_TOKEN}),
    "lookup_password": _j({"idToken": PASSWORD_ID_TOKEN}),
    "token": f"grant_type=refresh_token&refresh_token={PASSWORD_REFRESH.replace('=', '%3D').replace('+', '%2B').replace('/', '%2F')}",
}


# Connections one nginx worker accepts (the bench keeps up to 1,024 in flight, one connection each,
# plus the status queries); worker_rlimit_nofile leaves room for its other descriptors.
WORKER_CONNECTIONS = 19000


def nginx_conf(prefix: str, port: int, workers: int = 1) -> str:
    """An nginx configuration that answers only the four Identity Toolkit paths, plus stub_status
    (request counts, so the bench can check how many requests each client really sent)."""
    def ret(body: str) -> str:
        assert "'" not in body and "\\" not in body
        return f"return 200 '{body}';"
    return f"""
daemon off;
master_process on;
worker_processes {workers};
worker_rlimit_nofile {WORKER_CONNECTIONS + 1000};
pid {prefix}/nginx.pid;
error_log {prefix}/error.log warn;
events {{
    worker_connections {WORKER_CONNECTIONS};
    multi_accept on;
}}
http {{
    access_log off;
    server_tokens off;
    keepalive_requests 100000000;
    keepalive_timeout 300s;
    tcp_nodelay on;
    client_body_temp_path {prefix}/body;
    proxy_temp_path {prefix}/proxy;
    fastcgi_temp_path {prefix}/fastcgi;
    uwsgi_temp_path {prefix}/uwsgi;
    scgi_temp_path {prefix}/scgi;
    client_body_buffer_size 16k;
    map $arg_key $lookup_body {{
        default '{LOOKUP_PASSWORD}';
        {ANON_KEY} '{LOOKUP_ANON}';
    }}
    server {{
        listen 127.0.0.1:{port} backlog=4096;
        default_type "application/json; charset=UTF-8";
        location = {PATHS['signUp']} {{ {ret(SIGN_UP)} }}
        location = {PATHS['signInWithPassword']} {{ {ret(SIGN_IN_WITH_PASSWORD)} }}
        location = {PATHS['lookup']} {{ return 200 $lookup_body; }}
        location = {PATHS['token']} {{ {ret(SECURE_TOKEN)} }}
        location = /bench-status {{ stub_status; }}
        location / {{ return 404 '{{"error":{{"code":404,"message":"NOT_FOUND"}}}}'; }}
    }}
}}
"""


def c_header() -> str:
    """The request bodies as C string constants, for the raw libcurl client."""
    def lit(text: str) -> str:
        return json.dumps(text)  # a JSON string literal is a valid C literal for this ASCII text
    names = {"BODY_SIGN_UP": "signUp", "BODY_SIGN_IN_WITH_PASSWORD": "signInWithPassword",
             "BODY_LOOKUP_ANON": "lookup_anon", "BODY_LOOKUP_PASSWORD": "lookup_password", "BODY_TOKEN": "token"}
    lines = ["/* Generated by bench/canned.py: the request bodies Hearth sends to the canned server. */",
             "#ifndef CANNED_BODIES_H", "#define CANNED_BODIES_H"]
    lines += [f"#define {name} {lit(REQUEST_BODIES[key])}" for name, key in names.items()]
    lines.append("#endif")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    import sys
    if sys.argv[1:2] == ["--c-header"]:
        sys.stdout.write(c_header())
    else:
        print(nginx_conf(sys.argv[1] if len(sys.argv) > 1 else "/tmp/x", 8080))
