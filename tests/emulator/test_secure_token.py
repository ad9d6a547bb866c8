"""POST /securetoken.googleapis.com/v1/token: refresh tokens, JSON and form bodies."""
import base64
import json

import pytest

from emulator_client import API_KEY, SECURE_TOKEN, assert_bad_request, decode_jwt


def test_refresh_token_is_base64_json_with_the_emulator_marker(emu):
    user = emu.sign_up("rt@example.com")
    record = json.loads(base64.b64decode(user.refresh_token, validate=True))
    assert record == {"_AuthEmulatorRefreshToken": "DO NOT MODIFY", "localId": user.local_id,
                      "provider": "password", "extraClaims": {}, "projectId": "demo-hearth"}


@pytest.mark.parametrize("style", ["json-snake", "json-camel", "form"])
def test_refresh_answers_in_snake_case(emu, style):
    user = emu.sign_up("rt@example.com")
    if style == "json-snake":
        response = emu.post(SECURE_TOKEN, {"grant_type": "refresh_token", "refresh_token": user.refresh_token})
    elif style == "json-camel":
        response = emu.post(SECURE_TOKEN, {"grantType": "refresh_token", "refreshToken": user.refresh_token})
    else:
        response = emu.request("POST", SECURE_TOKEN, data={"grant_type": "refresh_token",
                                                           "refresh_token": user.refresh_token})
    body = emu.ok(response)
    assert body["token_type"] == "Bearer"
    assert body["expires_in"] == "3600"
    assert body["user_id"] == user.local_id
    assert body["project_id"] == "12345"
    assert body["access_token"] == body["id_token"]
    assert body["refresh_token"]
    _, claims, _ = decode_jwt(body["id_token"])
    assert claims["sub"] == user.local_id
    assert claims["firebase"]["sign_in_provider"] == "password"
    assert emu.lookup(body["id_token"])["localId"] == user.local_id


def test_anonymous_refresh_keeps_the_anonymous_provider(emu):
    user = emu.sign_up_anonymously()
    _, claims, _ = decode_jwt(emu.ok(emu.refresh(user.refresh_token))["id_token"])
    assert claims["provider_id"] == "anonymous"
    assert claims["firebase"]["sign_in_provider"] == "anonymous"


def test_api_key_may_come_in_the_header(emu):
    user = emu.sign_up_anonymously()
    response = emu.request("POST", SECURE_TOKEN, key=False, headers={"x-goog-api-key": API_KEY},
                           json_body={"grant_type": "refresh_token", "refresh_token": user.refresh_token})
    emu.ok(response)


def test_refresh_without_api_key_is_denied_even_for_admins(emu):
    user = emu.sign_up_anonymously()
    response = emu.request("POST", SECURE_TOKEN, key=False, admin=True,
                           json_body={"grant_type": "refresh_token", "refresh_token": user.refresh_token})
    error = response.json()["error"]
    assert response.status_code == 403
    assert error["status"] == "PERMISSION_DENIED"
    assert error["message"] == "The request is missing a valid API key."


@pytest.mark.parametrize("grant_type, message", [(None, "MISSING_GRANT_TYPE"),
                                                  ("authorization_code", "INVALID_GRANT_TYPE")])
def test_grant_type_errors(emu, grant_type, message):
    body = {"refresh_token": emu.sign_up_anonymously().refresh_token}
    if grant_type:
        body["grant_type"] = grant_type
    assert_bad_request(emu.post(SECURE_TOKEN, body), message)


def test_an_unreadable_refresh_token_is_refused_before_the_grant_type(emu):
    # Firebase's emulator reads the refresh token (for its tenant) before the handler runs.
    assert_bad_request(emu.post(SECURE_TOKEN, {"refresh_token": "x"}), "INVALID_REFRESH_TOKEN")


@pytest.mark.parametrize("body, message", [
    ({"grant_type": "refresh_token"}, "MISSING_REFRESH_TOKEN"),
    ({"grant_type": "refresh_token", "refresh_token": "%%%not base64"}, "INVALID_REFRESH_TOKEN"),
    ({"grant_type": "refresh_token", "refresh_token": base64.b64encode(b'{"localId":"x"}').decode()},
     "INVALID_REFRESH_TOKEN"),
    ({"grant_type": "refresh_token", "refresh_token": base64.b64encode(b"[1,2]").decode()}, "INVALID_REFRESH_TOKEN"),
])
def test_refresh_errors(emu, body, message):
    assert_bad_request(emu.post(SECURE_TOKEN, body), message)


def test_refresh_token_of_another_project_is_invalid(emu):
    user = emu.sign_up_anonymously()
    record = json.loads(base64.b64decode(user.refresh_token))
    record["projectId"] = "someone-else"
    forged = base64.b64encode(json.dumps(record).encode()).decode()
    assert_bad_request(emu.refresh(forged), "INVALID_REFRESH_TOKEN")


def test_refresh_token_of_a_deleted_account_is_invalid(emu):
    user = emu.sign_up_anonymously()
    emu.ok(emu.admin(":delete", {"localId": user.local_id}))
    assert_bad_request(emu.refresh(user.refresh_token), "INVALID_REFRESH_TOKEN")


def test_refresh_of_a_disabled_account_is_user_disabled(emu):
    user = emu.sign_up_anonymously()
    emu.ok(emu.admin(":update", {"localId": user.local_id, "disableUser": True}))
    assert_bad_request(emu.refresh(user.refresh_token), "USER_DISABLED")


def test_form_body_with_unknown_field_is_rejected(emu):
    response = emu.request("POST", SECURE_TOKEN, data={"grant_type": "refresh_token", "bogus": "1"})
    assert response.status_code == 400
    assert response.json()["error"]["message"] == 'Invalid JSON payload received. Unknown name "bogus": Cannot find field.'
