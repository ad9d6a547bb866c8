"""The HTTP surface: API keys, routing (404 and 501), CORS, and bad input of every kind answered
with Google's error envelope."""
import base64
import concurrent.futures

import pytest
import requests

from emulator_client import IDENTITY, assert_error, assert_invalid_argument


def test_api_key_is_required_for_client_methods(emu):
    response = emu.identity("signUp", {}, key=False)
    error = assert_error(response, "The request is missing a valid API key.", 403)
    assert error["status"] == "PERMISSION_DENIED"
    assert error["errors"][0]["reason"] == "forbidden"


def test_empty_api_key_is_missing(emu):
    response = emu.request("POST", f"{IDENTITY}/accounts:signUp", key=False, params={"key": ""}, json_body={})
    assert response.status_code == 403


def test_api_key_in_header_is_accepted(emu):
    response = emu.identity("signUp", {}, key=False, headers={"x-goog-api-key": "anything"})
    assert "idToken" in emu.ok(response)


def test_unknown_path_is_404_in_the_envelope(emu):
    for method, path in [("GET", "/nope"), ("POST", f"{IDENTITY}/accounts:fly"), ("GET", f"{IDENTITY}/accounts:signUp")]:
        response = emu.request(method, path)
        error = assert_error(response, "Not Found", 404)
        assert error["status"] == "NOT_FOUND"
        assert error["errors"][0]["reason"] == "notFound"


def test_spec_methods_without_a_handler_answer_501(emu):
    response = emu.post(f"{IDENTITY}/accounts:signInWithGameCenter", {})
    error = assert_error(response, "identitytoolkit.accounts.signInWithGameCenter is not implemented in the Auth "
                                   "Emulator.", 501)
    assert error["status"] == "NOT_IMPLEMENTED"
    assert error["errors"][0]["reason"] == "unimplemented"


def test_spec_methods_without_a_handler_still_need_credentials(emu):
    response = emu.post(f"{IDENTITY}/accounts:signInWithGameCenter", {}, key=False)
    assert response.status_code == 403


def test_cors_preflight_reflects_origin_and_headers(emu):
    response = emu.session.options(emu.base_url + f"{IDENTITY}/accounts:signUp", headers={
        "Origin": "http://localhost:5173", "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type,x-client-version",
        "Access-Control-Request-Private-Network": "true"})
    assert response.status_code == 204
    assert response.headers["Access-Control-Allow-Origin"] == "http://localhost:5173"
    assert response.headers["Access-Control-Allow-Headers"] == "content-type,x-client-version"
    assert "POST" in response.headers["Access-Control-Allow-Methods"]
    assert response.headers["Access-Control-Allow-Private-Network"] == "true"


def test_cors_headers_on_answers_and_errors(emu):
    ok = emu.identity("signUp", {}, headers={"Origin": "http://app.test"})
    assert ok.headers["Access-Control-Allow-Origin"] == "http://app.test"
    failed = emu.identity("signUp", {}, key=False, headers={"Origin": "http://app.test"})
    assert failed.status_code == 403
    assert failed.headers["Access-Control-Allow-Origin"] == "http://app.test"


def post_raw(emu, body: bytes, content_type="application/json"):
    return emu.request("POST", f"{IDENTITY}/accounts:signUp", data=body, headers={"Content-Type": content_type})


@pytest.mark.parametrize("body", [b"{", b'{"email": }', b"nonsense", b'{"a":1,}', b"{'single':'quotes'}"])
def test_malformed_json_is_a_parse_error(emu, body):
    assert_invalid_argument(post_raw(emu, body), "Invalid JSON payload received.", reason="parseError")


@pytest.mark.parametrize("body", [b"[]", b'"text"', b"42", b"null", b"true"])
def test_json_that_is_not_an_object_is_rejected(emu, body):
    message = assert_invalid_argument(post_raw(emu, body), "Invalid JSON payload received.", reason="parseError")
    assert message == "Invalid JSON payload received. Root element must be a message."


# One JSON reader for the client and the emulator (HearthWire), with Google's parser's rules where
# RFC 8259 leaves room: protobuf's JsonLexer, whose legacy mode stands for Google's front end.
def test_a_byte_order_mark_is_a_parse_error(emu):
    message = assert_invalid_argument(post_raw(emu, b"\xef\xbb\xbf{}"), "Invalid JSON payload received.",
                                      reason="parseError")
    assert "byte order mark" in message


def test_a_hundred_nested_values_parse_and_a_hundred_and_one_do_not(emu):
    # The body object is one level: 99 arrays inside it make 100, which reach the schema (a type error).
    fits = b'{"email":' + b"[" * 99 + b"]" * 99 + b"}"
    message = assert_invalid_argument(post_raw(emu, fits), "Invalid JSON payload received.")
    assert "Invalid value at 'email'" in message
    too_deep = b'{"email":' + b"[" * 100 + b"]" * 100 + b"}"
    message = assert_invalid_argument(post_raw(emu, too_deep), "Invalid JSON payload received.", reason="parseError")
    assert "nested" in message


def test_a_repeated_field_keeps_its_last_value(emu):
    body = b'{"email":"first@example.com","password":"123456","email":"last@example.com","returnSecureToken":true}'
    created = emu.ok(post_raw(emu, body))
    assert created["email"] == "last@example.com"
    assert emu.sign_in("last@example.com", "123456").local_id == created["localId"]


def test_tokens_escape_control_characters_as_json_stringify_does(emu):
    created = emu.ok(emu.identity("signUp", {"email": "esc@example.com", "password": "123456",
                                            "displayName": "a\bb\fc\u0001d\"e\\f\n", "returnSecureToken": True}))
    payload = created["idToken"].split(".")[1]
    raw = base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4))
    assert b'"name":"a\\bb\\fc\\u0001d\\"e\\\\f\\n"' in raw


def test_invalid_utf8_is_rejected(emu):
    message = assert_invalid_argument(post_raw(emu, b'{"email":"\xff\xfe@example.com","password":"123456"}'),
                                      "Invalid JSON payload received.", reason="parseError")
    assert "UTF-8" in message


def test_invalid_utf8_in_a_form_is_rejected(emu):
    response = emu.request("POST", "/securetoken.googleapis.com/v1/token", data=b"grant_type=\xff",
                           headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert_invalid_argument(response, "Invalid JSON payload received.", reason="parseError")


def test_unknown_field_is_rejected_like_google(emu):
    response = emu.identity("signUp", {"emial": "typo@example.com"})
    message = assert_invalid_argument(response, "Invalid JSON payload received.")
    assert message == 'Invalid JSON payload received. Unknown name "emial": Cannot find field.'


def test_unknown_nested_field_is_rejected(emu):
    response = emu.admin(":lookup", {"federatedUserId": [{"providerId": "x", "raw": "y"}]})
    message = assert_invalid_argument(response, "Invalid JSON payload received.")
    assert message == 'Invalid JSON payload received. Unknown name "raw" at \'federatedUserId[0]\': Cannot find field.'


@pytest.mark.parametrize("body, field", [
    ({"email": {"a": 1}}, "email"),
    ({"email": ["a@b.c"]}, "email"),
    ({"email": True}, "email"),
    ({"returnSecureToken": "yes"}, "returnSecureToken"),
    ({"returnSecureToken": 1}, "returnSecureToken"),
    ({"clientType": "CLIENT_TYPE_TOASTER"}, "clientType"),
])
def test_wrong_types_are_rejected(emu, body, field):
    message = assert_invalid_argument(emu.identity("signUp", body), "Invalid JSON payload received.")
    assert f"Invalid value at '{field}'" in message


def test_wrong_type_inside_an_array(emu):
    message = assert_invalid_argument(emu.admin(":lookup", {"localId": ["ok", 7.5, {"x": 1}]}),
                                      "Invalid JSON payload received.")
    assert "Invalid value at 'localId[2]'" in message


def test_numbers_are_accepted_where_strings_are_expected(emu):
    # Google's JSON mapping turns numbers into strings for string fields.
    body = emu.ok(emu.identity("signUp", {"email": "n@example.com", "password": 123456789}))
    assert emu.sign_in("n@example.com", "123456789").local_id == body["localId"]


def test_snake_case_names_are_accepted(emu):
    body = emu.ok(emu.identity("signUp", {"email": "s@example.com", "password": "123456",
                                          "return_secure_token": True, "display_name": "Snake"}))
    assert body["displayName"] == "Snake"


def test_null_means_unset(emu):
    body = emu.ok(emu.identity("signUp", {"email": None, "password": None, "displayName": None}))
    assert "idToken" in body and "email" not in body


def test_huge_body_is_rejected_without_reading_it_all(emu):
    huge = b'{"displayName":"' + b"x" * (2 * 1024 * 1024) + b'"}'
    response = post_raw(emu, huge)
    assert response.status_code == 413
    error = response.json()["error"]
    assert error["code"] == 413
    assert "1048576" in error["message"]
    # The server is still healthy.
    emu.ok(emu.identity("signUp", {}))


def test_body_just_under_the_limit_is_accepted(emu):
    name = "y" * (1024 * 1024 - 100)
    body = emu.ok(emu.identity("signUp", {"email": "big@example.com", "password": "123456", "displayName": name}))
    assert body["displayName"] == name


def test_deeply_nested_json_is_rejected_not_fatal(emu):
    deep = b"[" * 100000 + b"]" * 100000
    response = post_raw(emu, deep)
    assert response.status_code == 400
    emu.ok(emu.identity("signUp", {}))


def test_control_characters_and_unicode_round_trip(emu):
    name = 'Zoë "quoted" \\ tab\t newline\n 漢字 🎮'
    body = emu.ok(emu.identity("signUp", {"email": "u@example.com", "password": "123456", "displayName": name}))
    assert body["displayName"] == name


def test_concurrent_sign_ups_are_all_distinct(emu, base_url):
    def sign_up(i):
        r = requests.post(f"{base_url}{IDENTITY}/accounts:signUp", params={"key": "k"},
                          json={"email": f"c{i}@example.com", "password": "123456"}, timeout=30)
        assert r.status_code == 200, r.text
        return r.json()["localId"]

    with concurrent.futures.ThreadPoolExecutor(max_workers=16) as pool:
        ids = list(pool.map(sign_up, range(200)))
    assert len(set(ids)) == 200
    assert emu.ok(emu.admin(":query", {"returnUserInfo": False})) == {"recordsCount": "200"}


def test_concurrent_sign_ups_of_one_email_create_exactly_one_account(emu, base_url):
    def sign_up(_):
        return requests.post(f"{base_url}{IDENTITY}/accounts:signUp", params={"key": "k"},
                             json={"email": "race@example.com", "password": "123456"}, timeout=30).status_code

    with concurrent.futures.ThreadPoolExecutor(max_workers=16) as pool:
        statuses = list(pool.map(sign_up, range(50)))
    assert statuses.count(200) == 1 and statuses.count(400) == 49
