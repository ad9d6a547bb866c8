"""What Firebase's emulator does around its API methods: CORS on every path (any OPTIONS is a preflight),
the legacy Identity Toolkit v3 paths mapped onto the v1 methods, the readiness answer, its API description
at /emulator/openapi.json and the JS SDK's helper frame; and gzip answers when asked (hearth-emulator's:
Google's servers compress, Firebase's emulator does not)."""
import gzip
import json
import socket

import pytest

from emulator_client import ADMIN, IDENTITY, PROJECT_ID, assert_bad_request, assert_error, decode_jwt

V3 = "/www.googleapis.com/identitytoolkit/v3/relyingparty"


# --- CORS ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("path", ["/", f"{IDENTITY}/accounts:signUp", "/nowhere/at/all", "/emulator/action",
                                  f"{V3}/verifyPassword"])
def test_any_options_request_is_a_preflight(emu, path):
    # No Access-Control-Request-Method: the reference's cors middleware answers every OPTIONS.
    response = emu.session.options(emu.base_url + path, headers={
        "Origin": "example.com", "Access-Control-Request-Headers": "Authorization,X-Client-Version,X-Whatever-Header",
        "Access-Control-Request-Private-Network": "true"}, timeout=30)
    assert response.status_code == 204 and response.content == b""
    assert response.headers["Access-Control-Allow-Origin"] == "example.com"
    assert sorted(response.headers["Access-Control-Allow-Headers"].split(",")) == [
        "Authorization", "X-Client-Version", "X-Whatever-Header"]
    assert response.headers["Access-Control-Allow-Methods"] == "GET,HEAD,PUT,PATCH,POST,DELETE"
    assert response.headers["Access-Control-Allow-Private-Network"] == "true"
    assert response.headers["Vary"] == "Origin, Access-Control-Request-Headers"


def test_a_preflight_without_an_origin_allows_no_origin(emu):
    response = emu.session.options(emu.base_url + "/", timeout=30)
    assert response.status_code == 204
    assert "Access-Control-Allow-Origin" not in response.headers
    assert "Access-Control-Allow-Private-Network" not in response.headers


def test_answers_reflect_the_origin_and_always_vary_on_it(emu):
    with_origin = emu.identity("signUp", {}, headers={"Origin": "http://app.test"})
    assert with_origin.headers["Access-Control-Allow-Origin"] == "http://app.test"
    without = emu.identity("signUp", {})
    assert "Access-Control-Allow-Origin" not in without.headers
    # (requests asks for gzip, which adds Accept-Encoding.)
    assert without.headers["Vary"] == "Origin, Accept-Encoding"
    not_found = emu.request("GET", "/nope", headers={"Origin": "http://app.test",
                                                     "Access-Control-Request-Private-Network": "true"})
    assert not_found.status_code == 404
    assert not_found.headers["Access-Control-Allow-Origin"] == "http://app.test"
    assert not_found.headers["Access-Control-Allow-Private-Network"] == "true"


# --- legacy v3 paths -----------------------------------------------------------------------------

def test_v3_paths_are_the_v1_methods(emu):
    created = emu.ok(emu.post(f"{V3}/signupNewUser", {"email": "v3@example.com", "password": "secret-password",
                                                      "returnSecureToken": True}))
    assert created["kind"] == "identitytoolkit#SignupNewUserResponse"
    signed_in = emu.ok(emu.post(f"{V3}/verifyPassword", {"email": "v3@example.com", "password": "secret-password"}))
    assert signed_in["localId"] == created["localId"]
    info = emu.ok(emu.post(f"{V3}/getAccountInfo", {"idToken": signed_in["idToken"]}))
    assert info["users"][0]["email"] == "v3@example.com"
    updated = emu.ok(emu.post(f"{V3}/setAccountInfo", {"idToken": signed_in["idToken"], "displayName": "Three"}))
    assert updated["displayName"] == "Three"
    probe = emu.ok(emu.post(f"{V3}/createAuthUri", {"identifier": "v3@example.com", "continueUri": "http://x/"}))
    assert probe["registered"] is True
    assert emu.ok(emu.request("GET", f"{V3}/getProjectConfig"))["projectId"] == "12345"
    assert "recaptchaSiteKey" in emu.ok(emu.request("GET", f"{V3}/getRecaptchaParam"))
    custom = emu.ok(emu.post(f"{V3}/verifyCustomToken", {"token": json.dumps({"uid": "v3-custom"})}))
    assert decode_jwt(custom["idToken"])[1]["sub"] == "v3-custom"
    idp = emu.ok(emu.post(f"{V3}/verifyAssertion", {
        "requestUri": "http://localhost", "postBody": "providerId=google.com&id_token=" + json.dumps({"sub": "v3-idp"})}))
    assert idp["providerId"] == "google.com"
    session = emu.ok(emu.post(f"{V3}/sendVerificationCode", {"phoneNumber": "+15555550190"}))["sessionInfo"]
    phone = emu.ok(emu.post(f"{V3}/verifyPhoneNumber", {"sessionInfo": session,
                                                        "code": emu.verification_code(session)["code"]}))
    assert phone["phoneNumber"] == "+15555550190"
    assert emu.ok(emu.post(f"{V3}/deleteAccount", {"idToken": signed_in["idToken"]})) == {
        "kind": "identitytoolkit#DeleteAccountResponse"}


def test_v3_out_of_band_codes(emu):
    emu.sign_up("v3-reset@example.com")
    # Integer enum values, as the Android SDK sends them (1 is PASSWORD_RESET).
    emu.ok(emu.post(f"{V3}/getOobConfirmationCode", {"requestType": 1, "email": "v3-reset@example.com"}))
    [oob] = emu.new_oob_codes()
    assert oob["requestType"] == "PASSWORD_RESET"
    reset = emu.ok(emu.post(f"{V3}/resetPassword", {"oobCode": oob["oobCode"], "newPassword": "new-password"}))
    assert reset["email"] == "v3-reset@example.com"
    link = emu.ok(emu.post(f"{V3}/getOobConfirmationCode", {"email": "bob@example.com", "requestType": 6,
                                                            "returnOobLink": True}, key=False, admin=True))
    assert "mode=signIn" in link["oobLink"]


def test_v3_names_without_a_v1_method_are_not_found(emu):
    for name in ["publicKeys", "setProjectConfig", "noSuchMethod"]:
        assert_error(emu.post(f"{V3}/{name}", {}), "Not Found", 404)
    # The method stays: a GET of a POST method is no route.
    assert_error(emu.request("GET", f"{V3}/verifyPassword"), "Not Found", 404)


def test_v3_sign_out_user_is_not_implemented_by_the_reference(emu):
    assert_error(emu.post(f"{V3}/signOutUser", {}), "signOutUser is not implemented in the Auth Emulator.", 501)


def test_v3_upload_and_download_account(emu):
    assert_bad_request(emu.post(f"{V3}/uploadAccount", {"users": [{"localId": "up-1"}]}, key=False, admin=True),
                       "INSUFFICIENT_PERMISSION")
    uploaded = emu.ok(emu.post(f"{V3}/uploadAccount", {"target_project_id": PROJECT_ID, "users": [
        {"localId": "up-1", "email": "up1@example.com"}, {"localId": "up-2"}]}, key=False, admin=True))
    assert uploaded == {"kind": "identitytoolkit#UploadAccountResponse", "error": []}
    page = emu.ok(emu.post(f"{V3}/downloadAccount", {"targetProjectId": PROJECT_ID, "maxResults": 1},
                           key=False, admin=True))
    assert [u["localId"] for u in page["users"]] == ["up-1"] and page["nextPageToken"] == "up-1"
    rest = emu.ok(emu.post(f"{V3}/downloadAccount", {"targetProjectId": PROJECT_ID,
                                                     "nextPageToken": page["nextPageToken"]}, key=False, admin=True))
    assert [u["localId"] for u in rest["users"]] == ["up-2"]
    # Naming the project needs the admin, as on the v1 path.
    assert_bad_request(emu.post(f"{V3}/downloadAccount", {"targetProjectId": PROJECT_ID}),
                       "INSUFFICIENT_PERMISSION : Only authenticated requests can specify target_project_id.")


# --- readiness, the API description, the helper frame ---------------------------------------------

def test_readiness_points_to_the_api_description(emu):
    assert emu.ok(emu.request("GET", "/", key=False)) == {"authEmulator": {
        "ready": True, "docs": "https://firebase.google.com/docs/emulator-suite", "apiSpec": "/emulator/openapi.json"}}


def test_the_api_description_is_served_with_the_emulator_as_a_server(emu):
    document = emu.ok(emu.request("GET", "/emulator/openapi.json", key=False))
    assert document["openapi"].startswith("3.")
    host = emu.base_url.split("://", 1)[1]
    emulator_server = {"url": "{EMULATOR}/identitytoolkit.googleapis.com",
                       "variables": {"EMULATOR": {"default": f"http://{host}", "description":
                                                  "The protocol, hostname, and port of Firebase Auth Emulator."}}}
    assert document["servers"] == [emulator_server, {"url": "https://identitytoolkit.googleapis.com"}]
    token = document["paths"]["/v1/token"]["servers"]
    assert token[0]["url"] == "{EMULATOR}/securetoken.googleapis.com"
    assert token[1] == {"url": "https://securetoken.googleapis.com"}
    assert [s["url"] for s in document["paths"]["/emulator/v1/projects/{targetProjectId}/accounts"]["servers"]] == [
        "{EMULATOR}"]
    assert "/v1/accounts:signInWithEmailLink" in document["paths"]


def test_the_helper_frame_is_a_page(emu):
    response = emu.request("GET", "/emulator/auth/iframe", key=False, params={"apiKey": "k", "appName": "[DEFAULT]"})
    assert response.status_code == 200 and response.headers["Content-Type"].startswith("text/html")
    assert "gapi.iframes" in response.text and "firebase:redirectEvent:" in response.text


# --- gzip ---------------------------------------------------------------------------------------

def raw_request(emu, request: bytes) -> bytes:
    host, port = emu.base_url.split("://", 1)[1].rsplit(":", 1)
    with socket.create_connection((host, int(port)), timeout=10) as connection:
        connection.sendall(request)
        data = b""
        while chunk := connection.recv(65536):
            data += chunk
    return data


def post_raw(emu, path, body: dict, accept_encoding=None):
    payload = json.dumps(body).encode()
    fields = [f"POST {path}?key=fake-api-key HTTP/1.1", "Host: 127.0.0.1", "Content-Type: application/json",
              f"Content-Length: {len(payload)}", "Connection: close"]
    if accept_encoding is not None:
        fields.append(f"Accept-Encoding: {accept_encoding}")
    head, _, content = raw_request(emu, ("\r\n".join(fields) + "\r\n\r\n").encode() + payload).partition(b"\r\n\r\n")
    headers = {}
    for line in head.decode().split("\r\n")[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    assert int(headers["content-length"]) == len(content)
    return headers, content


def test_answers_are_gzipped_when_the_client_asks(emu):
    headers, content = post_raw(emu, f"{IDENTITY}/accounts:signUp", {"returnSecureToken": True},
                                accept_encoding="gzip, deflate")
    assert headers["content-encoding"] == "gzip" and "Accept-Encoding" in headers["vary"]
    body = json.loads(gzip.decompress(content))
    assert body["kind"] == "identitytoolkit#SignupNewUserResponse" and body["idToken"]


def test_errors_are_gzipped_too(emu):
    headers, content = post_raw(emu, f"{IDENTITY}/accounts:signInWithPassword", {"email": "x@example.com",
                                                                                "password": "whatever"},
                                accept_encoding="gzip")
    assert headers["content-encoding"] == "gzip"
    assert json.loads(gzip.decompress(content))["error"]["message"] == "EMAIL_NOT_FOUND"


@pytest.mark.parametrize("accept_encoding", [None, "identity", "br", "gzip;q=0", "*;q=0", "deflate"])
def test_answers_are_plain_unless_gzip_is_accepted(emu, accept_encoding):
    headers, content = post_raw(emu, f"{IDENTITY}/accounts:signUp", {}, accept_encoding=accept_encoding)
    assert "content-encoding" not in headers
    assert json.loads(content)["kind"] == "identitytoolkit#SignupNewUserResponse"


@pytest.mark.parametrize("accept_encoding", ["*", "x-gzip", "GZIP;q=0.5", "br;q=1, gzip;q=0.1"])
def test_any_acceptance_of_gzip_counts(emu, accept_encoding):
    headers, content = post_raw(emu, f"{IDENTITY}/accounts:signUp", {}, accept_encoding=accept_encoding)
    assert headers["content-encoding"] == "gzip"
    assert json.loads(gzip.decompress(content))["kind"] == "identitytoolkit#SignupNewUserResponse"


def test_clients_that_decode_gzip_see_the_same_answers(emu):
    # requests asks for gzip and decodes it, as most HTTP clients do.
    response = emu.identity("signUp", {"returnSecureToken": True})
    assert response.headers["Content-Encoding"] == "gzip"
    assert response.json()["kind"] == "identitytoolkit#SignupNewUserResponse"
