"""accounts:signInWithCustomToken: JSON tokens, unsigned and signed JWTs, uid/user_id and claims."""
import json

import pytest

from emulator_client import CUSTOM_TOKEN_AUDIENCE, assert_bad_request, decode_jwt, make_jwt


def sign_in(emu, token):
    return emu.identity("signInWithCustomToken", {"token": token, "returnSecureToken": True})


def test_json_token_with_uid_creates_the_account_then_signs_it_in(emu):
    first = emu.ok(sign_in(emu, json.dumps({"uid": "player-1"})))
    assert first["kind"] == "identitytoolkit#VerifyCustomTokenResponse"
    assert first["isNewUser"] is True
    assert first["expiresIn"] == "3600"
    _, claims, _ = decode_jwt(first["idToken"])
    assert claims["sub"] == claims["user_id"] == "player-1"
    assert claims["firebase"] == {"identities": {}, "sign_in_provider": "custom"}
    second = emu.ok(sign_in(emu, json.dumps({"uid": "player-1"})))
    assert second["isNewUser"] is False
    record = emu.lookup(second["idToken"])
    assert record["localId"] == "player-1"
    assert record["customAuth"] is True


def test_json_token_may_name_the_user_with_user_id(emu):
    body = emu.ok(sign_in(emu, json.dumps({"user_id": "by-user-id"})))
    assert decode_jwt(body["idToken"])[1]["sub"] == "by-user-id"


def test_numeric_uid_is_used_as_text(emu):
    body = emu.ok(sign_in(emu, json.dumps({"uid": 42})))
    assert decode_jwt(body["idToken"])[1]["sub"] == "42"


def test_unsigned_jwt_with_the_identity_toolkit_audience_is_accepted(emu):
    token = make_jwt({"aud": CUSTOM_TOKEN_AUDIENCE, "uid": "jwt-user", "iss": "svc@example.com",
                      "sub": "svc@example.com", "iat": 1, "exp": 2})
    body = emu.ok(sign_in(emu, token))
    assert decode_jwt(body["idToken"])[1]["sub"] == "jwt-user"


def test_signed_jwt_is_accepted_without_checking_the_signature(emu):
    token = make_jwt({"aud": CUSTOM_TOKEN_AUDIENCE, "uid": "signed-user"},
                     header={"alg": "RS256", "typ": "JWT", "kid": "k"}, signature="c2lnbmF0dXJl")
    body = emu.ok(sign_in(emu, token))
    assert decode_jwt(body["idToken"])[1]["sub"] == "signed-user"


def test_jwt_with_another_audience_is_rejected(emu):
    token = make_jwt({"aud": "demo-hearth", "uid": "u"})
    assert_bad_request(sign_in(emu, token),
                       "INVALID_CUSTOM_TOKEN : ((Invalid aud (audience): demo-hearth Note: Firebase ID Tokens / "
                       "third-party tokens cannot be used with signInWithCustomToken.))")


def test_jwt_without_audience_is_rejected(emu):
    response = sign_in(emu, make_jwt({"uid": "u"}))
    assert_bad_request(response, "INVALID_CUSTOM_TOKEN : ((Invalid aud (audience): undefined Note: Firebase ID "
                                 "Tokens / third-party tokens cannot be used with signInWithCustomToken.))")


def test_an_id_token_is_not_a_custom_token(emu):
    user = emu.sign_up_anonymously()
    response = sign_in(emu, user.id_token)
    assert response.json()["error"]["message"].startswith("INVALID_CUSTOM_TOKEN : ((Invalid aud (audience): demo-hearth")


@pytest.mark.parametrize("token", ["garbage", "a.b", "a.b.c.d", "!!!.???.", "e30"])
def test_text_that_is_not_a_jwt_is_an_invalid_assertion(emu, token):
    assert_bad_request(sign_in(emu, token), "INVALID_CUSTOM_TOKEN : Invalid assertion format")


def test_broken_json_token_is_rejected(emu):
    assert_bad_request(sign_in(emu, '{"uid": '),
                       "INVALID_CUSTOM_TOKEN : ((Auth Emulator only accepts strict JSON or JWTs as fake custom tokens.))")


def test_missing_token(emu):
    assert_bad_request(emu.identity("signInWithCustomToken", {}), "MISSING_CUSTOM_TOKEN")
    assert_bad_request(emu.identity("signInWithCustomToken", {"token": ""}), "MISSING_CUSTOM_TOKEN")


def test_token_without_uid_is_missing_identifier(emu):
    assert_bad_request(sign_in(emu, json.dumps({"claims": {}})), "MISSING_IDENTIFIER")
    assert_bad_request(sign_in(emu, json.dumps({"uid": ""})), "MISSING_IDENTIFIER")
    assert_bad_request(sign_in(emu, make_jwt({"aud": CUSTOM_TOKEN_AUDIENCE})), "MISSING_IDENTIFIER")


def test_claims_become_id_token_claims_and_survive_refresh(emu):
    body = emu.ok(sign_in(emu, json.dumps({"uid": "vip", "claims": {"premium": True, "level": 7}})))
    _, claims, _ = decode_jwt(body["idToken"])
    assert claims["premium"] is True and claims["level"] == 7
    refreshed = emu.ok(emu.refresh(body["refreshToken"]))
    _, claims, _ = decode_jwt(refreshed["id_token"])
    assert claims["premium"] is True and claims["level"] == 7


@pytest.mark.parametrize("name", ["iss", "aud", "sub", "iat", "exp", "nbf", "jti", "nonce", "azp", "acr", "amr",
                                  "cnf", "auth_time", "firebase", "at_hash", "c_hash"])
def test_reserved_claim_names_are_forbidden(emu, name):
    assert_bad_request(sign_in(emu, json.dumps({"uid": "u", "claims": {name: "x"}})), f"FORBIDDEN_CLAIM : {name}")


def test_claims_must_be_an_object(emu):
    assert_bad_request(sign_in(emu, json.dumps({"uid": "u", "claims": ["a"]})), "INVALID_CLAIMS")
    assert_bad_request(sign_in(emu, json.dumps({"uid": "u", "claims": None})), "INVALID_CLAIMS")


def test_disabled_account_cannot_sign_in_with_a_custom_token(emu):
    emu.ok(sign_in(emu, json.dumps({"uid": "banned"})))
    emu.ok(emu.admin(":update", {"localId": "banned", "disableUser": True}))
    assert_bad_request(sign_in(emu, json.dumps({"uid": "banned"})), "USER_DISABLED")
