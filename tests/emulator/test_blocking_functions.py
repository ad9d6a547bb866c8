"""Blocking functions (`blockingFunctions.triggers` of the v2 project config), called as Firebase's emulator
calls them: a POST of {"data": {"jwt"}} describing the event and the account, before an account is created
(beforeCreate) and before a sign-in completes (beforeSignIn); the function's `userRecord` changes the account
and `sessionClaims` go into this sign-in's tokens."""
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from emulator_client import PROJECT_ID, assert_bad_request, assert_error, decode_jwt


class FunctionServer:
    """Two fake functions (/beforeCreate, /beforeSignIn): each records the JWTs it gets and answers
    what the test set (a dict: JSON; a (status, text) tuple: that answer)."""

    def __init__(self):
        self.calls = {"/beforeCreate": [], "/beforeSignIn": []}
        self.answers = {"/beforeCreate": {}, "/beforeSignIn": {}}
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                server.calls.setdefault(self.path, []).append(decode_jwt(body["data"]["jwt"]))
                answer = server.answers.get(self.path, {})
                status, text = answer if isinstance(answer, tuple) else (200, json.dumps(answer))
                data = text.encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()

    def payloads(self, path):
        return [payload for _, payload, _ in self.calls[path]]

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture()
def functions(emu):
    server = FunctionServer()
    emu.ok(emu.v2_admin("PATCH", "/config", {"blockingFunctions": {"triggers": {
        "beforeCreate": {"functionUri": server.url + "/beforeCreate"},
        "beforeSignIn": {"functionUri": server.url + "/beforeSignIn"}}}}, params={"updateMask": "blockingFunctions"}))
    yield server
    emu.ok(emu.v2_admin("PATCH", "/config", {}))
    server.close()


def user_record(**fields):
    return {"userRecord": {"updateMask": ",".join(fields), **fields}}


def test_a_password_sign_up_passes_both_functions(emu, functions):
    functions.answers["/beforeCreate"] = user_record(displayName="From create", photoUrl="http://photo.test",
                                                     customClaims={"customAttribute": "custom"})
    functions.answers["/beforeSignIn"] = user_record(emailVerified=True, sessionClaims={"sessionAttribute": "session"})
    body = emu.ok(emu.identity("signUp", {"email": "blocked-up@example.com", "password": "notasecret"}))
    [created] = functions.payloads("/beforeCreate")
    assert created["event_type"] == "beforeCreate" and created["sign_in_method"] == "password"
    assert created["aud"] == functions.url + "/beforeCreate"
    assert created["iss"] == f"https://securetoken.google.com/{PROJECT_ID}"
    assert created["user_record"]["email"] == "blocked-up@example.com"
    assert created["user_record"]["uid"] == body["localId"] == created["sub"]
    assert "creation_time" in created["user_record"]["metadata"]
    [signed_in] = functions.payloads("/beforeSignIn")
    assert signed_in["event_type"] == "beforeSignIn"
    # The second function sees what the first changed.
    assert signed_in["user_record"]["display_name"] == "From create"
    assert signed_in["user_record"]["custom_claims"] == {"customAttribute": "custom"}
    claims = decode_jwt(body["idToken"])[1]
    assert claims["name"] == "From create" and claims["picture"] == "http://photo.test"
    assert claims["email_verified"] is True
    assert claims["customAttribute"] == "custom" and claims["sessionAttribute"] == "session"
    # Session claims live in this sign-in's tokens (and their refreshes), not on the account.
    refreshed = decode_jwt(emu.ok(emu.refresh(body["refreshToken"]))["id_token"])[1]
    assert refreshed["sessionAttribute"] == "session"
    record = emu.lookup(body["idToken"])
    assert record["customAttributes"] == '{"customAttribute":"custom"}' and "sessionAttribute" not in json.dumps(record)


def test_sign_in_functions_override_create_functions(emu, functions):
    functions.answers["/beforeCreate"] = user_record(displayName="Create", emailVerified=False)
    functions.answers["/beforeSignIn"] = user_record(displayName="Sign-in", emailVerified=True)
    body = emu.ok(emu.identity("signUp", {"email": "override@example.com", "password": "notasecret"}))
    record = emu.lookup(body["idToken"])
    assert record["displayName"] == "Sign-in" and record["emailVerified"] is True


def test_a_function_can_disable_the_new_account(emu, functions):
    functions.answers["/beforeCreate"] = user_record(disabled=True)
    assert_bad_request(emu.identity("signUp", {"email": "disabled-by-fn@example.com", "password": "notasecret"}),
                       "USER_DISABLED")
    # The account was written (disabled), and beforeSignIn was not called.
    [record] = emu.ok(emu.admin(":lookup", {"email": ["disabled-by-fn@example.com"]}))["users"]
    assert record["disabled"] is True
    assert functions.payloads("/beforeSignIn") == []


def test_admin_created_accounts_pass_no_function(emu, functions):
    emu.ok(emu.admin("", {"email": "admin-made@example.com", "password": "notasecret"}))
    emu.ok(emu.identity("signUp", {"returnSecureToken": True}))
    assert functions.payloads("/beforeCreate") == [] and functions.payloads("/beforeSignIn") == []


def test_password_sign_in(emu, functions):
    emu.ok(emu.admin("", {"email": "sign-in-fn@example.com", "password": "notasecret", "displayName": "Before"}))
    functions.answers["/beforeSignIn"] = user_record(displayName="After", sessionClaims={"role": "admin"})
    body = emu.ok(emu.identity("signInWithPassword", {"email": "sign-in-fn@example.com", "password": "notasecret"}))
    [payload] = functions.payloads("/beforeSignIn")
    assert payload["sign_in_method"] == "password" and payload["user_record"]["display_name"] == "Before"
    claims = decode_jwt(body["idToken"])[1]
    assert claims["name"] == "After" and claims["role"] == "admin"


def test_a_sign_in_awaiting_a_second_factor_calls_the_function_at_the_second(emu, functions):
    emu.ok(emu.admin("", {"email": "mfa-fn@example.com", "password": "notasecret", "emailVerified": True,
                          "mfaInfo": [{"phoneInfo": "+15555550300"}]}))
    pending = emu.ok(emu.identity("signInWithPassword", {"email": "mfa-fn@example.com", "password": "notasecret"}))
    assert functions.payloads("/beforeSignIn") == []
    start = emu.ok(emu.mfa("mfaSignIn:start", {"mfaPendingCredential": pending["mfaPendingCredential"],
                                                "mfaEnrollmentId": pending["mfaInfo"][0]["mfaEnrollmentId"]}))
    session = start["phoneResponseInfo"]["sessionInfo"]
    functions.answers["/beforeSignIn"] = user_record(sessionClaims={"second": True})
    done = emu.ok(emu.mfa("mfaSignIn:finalize", {"mfaPendingCredential": pending["mfaPendingCredential"],
                                                  "phoneVerificationInfo": {
                                                      "sessionInfo": session,
                                                      "code": emu.verification_code(session)["code"]}}))
    [payload] = functions.payloads("/beforeSignIn")
    assert payload["sign_in_method"] == "password" and payload["sign_in_second_factor"] == "phone"
    assert payload["user_record"]["multi_factor"]["enrolled_factors"][0]["phone_number"] == "+15555550300"
    claims = decode_jwt(done["idToken"])[1]
    assert claims["second"] is True and claims["firebase"]["sign_in_second_factor"] == "phone"


def test_email_link_sign_in(emu, functions):
    code = emu.ok(emu.post("/identitytoolkit.googleapis.com/v1/accounts:sendOobCode", {
        "email": "link-fn@example.com", "requestType": "EMAIL_SIGNIN", "returnOobLink": True},
        key=False, admin=True))["oobCode"]
    functions.answers["/beforeCreate"] = user_record(displayName="Linked")
    body = emu.ok(emu.identity("signInWithEmailLink", {"email": "link-fn@example.com", "oobCode": code}))
    [created] = functions.payloads("/beforeCreate")
    assert created["sign_in_method"] == "emailLink" and created["user_record"]["email_verified"] is True
    assert [p["sign_in_method"] for p in functions.payloads("/beforeSignIn")] == ["emailLink"]
    assert decode_jwt(body["idToken"])[1]["name"] == "Linked"


def test_identity_provider_sign_in_with_forwarded_credentials(emu, functions):
    emu.ok(emu.v2_admin("PATCH", "/config", {"blockingFunctions": {"forwardInboundCredentials": {"idToken": True}}},
                        params={"updateMask": "blockingFunctions.forwardInboundCredentials"}))
    body = emu.ok(emu.sign_in_with_idp("google.com", {"sub": "fn-idp", "email": "fn-idp@example.com"}))
    [created] = functions.payloads("/beforeCreate")
    assert created["sign_in_method"] == "google.com"
    assert json.loads(created["raw_user_info"])["id"] == "fn-idp"
    assert json.loads(created["oauth_id_token"])["sub"] == "fn-idp"
    assert "oauth_access_token" not in created
    assert created["user_record"]["provider_data"][0]["provider_id"] == "google.com"
    assert len(functions.payloads("/beforeSignIn")) == 1
    # An existing identity signs in through beforeSignIn only.
    emu.ok(emu.sign_in_with_idp("google.com", {"sub": "fn-idp", "email": "fn-idp@example.com"}))
    assert len(functions.payloads("/beforeCreate")) == 1 and len(functions.payloads("/beforeSignIn")) == 2
    assert body["isNewUser"] is True


def test_phone_sign_in(emu, functions):
    body = emu.sign_in_with_phone("+15555550301")
    [created] = functions.payloads("/beforeCreate")
    assert created["sign_in_method"] == "phone" and created["user_record"]["phone_number"] == "+15555550301"
    assert [p["sign_in_method"] for p in functions.payloads("/beforeSignIn")] == ["phone"]
    assert body["isNewUser"] is True


def test_a_tenant_uses_its_project_s_functions(emu, functions):
    tenant_id = emu.create_tenant(allowPasswordSignup=True)["tenantId"]
    emu.ok(emu.identity("signUp", {"email": "tenant-fn@example.com", "password": "notasecret", "tenantId": tenant_id}))
    [created] = functions.payloads("/beforeCreate")
    assert created["tenant_id"] == tenant_id and created["user_record"]["tenant_id"] == tenant_id


# --- functions that fail --------------------------------------------------------------------------

def test_an_http_error_of_the_function_refuses_the_request(emu, functions):
    functions.answers["/beforeCreate"] = (403, "not allowed here")
    response = emu.identity("signUp", {"email": "refused@example.com", "password": "notasecret"})
    assert_bad_request(response, "BLOCKING_FUNCTION_ERROR_RESPONSE : ((HTTP request to "
                                 f"{functions.url}/beforeCreate returned HTTP error 403: not allowed here))")
    assert emu.ok(emu.admin(":lookup", {"email": ["refused@example.com"]})) == {
        "kind": "identitytoolkit#GetAccountInfoResponse"}


def test_a_user_record_without_a_mask_is_refused(emu, functions):
    functions.answers["/beforeSignIn"] = {"userRecord": {"displayName": "no mask"}}
    emu.ok(emu.admin("", {"email": "no-mask@example.com", "password": "notasecret"}))
    assert_bad_request(emu.identity("signInWithPassword", {"email": "no-mask@example.com", "password": "notasecret"}),
                       "BLOCKING_FUNCTION_ERROR_RESPONSE : ((Response UserRecord is missing updateMask.))")


def test_invalid_custom_claims_from_a_function_are_refused(emu, functions):
    functions.answers["/beforeSignIn"] = user_record(customClaims={"aud": "reserved"})
    emu.ok(emu.admin("", {"email": "bad-claims@example.com", "password": "notasecret"}))
    assert_bad_request(emu.identity("signInWithPassword", {"email": "bad-claims@example.com",
                                                           "password": "notasecret"}), "FORBIDDEN_CLAIM : aud")


def test_an_answer_that_is_not_json_is_an_internal_error(emu, functions):
    functions.answers["/beforeSignIn"] = (200, "<html>oops</html>")
    emu.ok(emu.admin("", {"email": "not-json@example.com", "password": "notasecret"}))
    error = assert_error(emu.identity("signInWithPassword", {"email": "not-json@example.com",
                                                             "password": "notasecret"}),
                         "BLOCKING_FUNCTION_ERROR_RESPONSE : ((Response body is not valid JSON.))", status=500)
    assert error["status"] == "INTERNAL"


def test_an_unreachable_function_is_an_internal_error(emu, functions):
    url = functions.url + "/beforeSignIn"
    functions.close()
    emu.ok(emu.admin("", {"email": "unreachable@example.com", "password": "notasecret"}))
    error = assert_error(emu.identity("signInWithPassword", {"email": "unreachable@example.com",
                                                             "password": "notasecret"}),
                         f"BLOCKING_FUNCTION_ERROR_RESPONSE : ((Failed to make request to {url}.))", status=500)
    assert error["status"] == "INTERNAL"
    functions.close = lambda: None


def test_only_changes_named_in_the_mask_are_made(emu, functions):
    functions.answers["/beforeSignIn"] = {"userRecord": {"updateMask": "displayName", "displayName": "Masked",
                                                         "photoUrl": "http://ignored.test", "disabled": True}}
    emu.ok(emu.admin("", {"email": "masked@example.com", "password": "notasecret"}))
    body = emu.ok(emu.identity("signInWithPassword", {"email": "masked@example.com", "password": "notasecret"}))
    record = emu.lookup(body["idToken"])
    assert record["displayName"] == "Masked" and "photoUrl" not in record and record.get("disabled") is not True


def test_session_claims_from_before_create_are_ignored(emu, functions):
    functions.answers["/beforeCreate"] = user_record(sessionClaims={"fromCreate": True})
    body = emu.ok(emu.identity("signUp", {"email": "no-create-session@example.com", "password": "notasecret"}))
    assert "fromCreate" not in decode_jwt(body["idToken"])[1]
