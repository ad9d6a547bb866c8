"""Passkeys as Firebase's emulator mocks them: fixed-shape WebAuthn options, no cryptography checked, the
authenticator response's `id` enrolls and signs in; accounts:update `deletePasskey` removes them."""
import base64
import re

import pytest

from emulator_client import assert_bad_request, assert_error, decode_jwt


def enroll(emu, id_token, credential_id, **extra):
    return emu.mfa("passkeyEnrollment:finalize", {"idToken": id_token,
                                                   "authenticatorRegistrationResponse": {"id": credential_id}, **extra})


def test_enrollment_options_describe_the_account(emu):
    user = emu.sign_up("passkey-user@example.com", displayName="Pass Key")
    options = emu.ok(emu.mfa("passkeyEnrollment:start", {"idToken": user.id_token}))["credentialCreationOptions"]
    assert options["rp"] == {"name": "localhost", "id": "localhost"}
    assert options["user"] == {"id": base64.b64encode(user.local_id.encode()).decode(),
                               "name": "passkey-user@example.com", "displayName": "Pass Key"}
    assert re.fullmatch(r"[A-Za-z0-9]{32}", base64.b64decode(options["challenge"]).decode())
    assert options["pubKeyCredParams"] == [{"type": "public-key", "alg": -7}, {"type": "public-key", "alg": -257}]
    assert options["timeout"] == 60000 and options["attestation"] == "none"
    # Each start has a new challenge.
    again = emu.ok(emu.mfa("passkeyEnrollment:start", {"idToken": user.id_token}))["credentialCreationOptions"]
    assert again["challenge"] != options["challenge"]


def test_an_anonymous_account_gets_placeholder_names(emu):
    user = emu.sign_up_anonymously()
    options = emu.ok(emu.mfa("passkeyEnrollment:start", {"idToken": user.id_token}))["credentialCreationOptions"]
    assert options["user"]["name"] == "user@example.com" and options["user"]["displayName"] == "User"


def test_enrolling_adds_the_passkey_and_signs_in_with_it(emu):
    user = emu.sign_up("passkey-2@example.com")
    body = emu.ok(enroll(emu, user.id_token, "test_credential_id_1", name="My Security Key"))
    assert set(body) == {"localId", "idToken", "refreshToken"} and body["localId"] == user.local_id
    assert decode_jwt(body["idToken"])[1]["firebase"]["sign_in_provider"] == "passkey"
    assert emu.lookup(user.id_token)["passkeyInfo"] == [{"credentialId": "test_credential_id_1",
                                                          "name": "My Security Key"}]


def test_the_passkey_name_falls_back_to_display_name_then_a_default(emu):
    a = emu.sign_up("fallback-1@example.com")
    emu.ok(enroll(emu, a.id_token, "fallback_cred_1", displayName="My Display Name"))
    b = emu.sign_up("fallback-2@example.com")
    emu.ok(enroll(emu, b.id_token, "fallback_cred_2"))
    assert emu.lookup(a.id_token)["passkeyInfo"][0]["name"] == "My Display Name"
    assert emu.lookup(b.id_token)["passkeyInfo"][0]["name"] == "Unnamed Passkey"


def test_a_credential_id_is_one_account_s(emu):
    a = emu.sign_up("owner-a@example.com")
    b = emu.sign_up("owner-b@example.com")
    emu.ok(enroll(emu, a.id_token, "shared-id"))
    assert_bad_request(enroll(emu, b.id_token, "shared-id"), "CREDENTIAL_ALREADY_IN_USE")
    assert_bad_request(enroll(emu, a.id_token, "shared-id"), "CREDENTIAL_ALREADY_IN_USE")


def test_sign_in_options_and_sign_in(emu):
    options = emu.ok(emu.mfa("passkeySignIn:start", {}))["credentialRequestOptions"]
    assert set(options) == {"challenge", "rpId", "userVerification"}
    assert options["rpId"] == "localhost" and options["userVerification"] == "required"
    user = emu.sign_up("passkey-3@example.com")
    emu.ok(enroll(emu, user.id_token, "test_credential_id_3", name="My Key"))
    body = emu.ok(emu.mfa("passkeySignIn:finalize", {"authenticatorAuthenticationResponse": {"id": "test_credential_id_3"}}))
    assert set(body) == {"idToken", "refreshToken"}
    claims = decode_jwt(body["idToken"])[1]
    assert claims["sub"] == user.local_id and claims["firebase"]["sign_in_provider"] == "passkey"
    # The refresh token keeps the provider.
    refreshed = emu.ok(emu.refresh(body["refreshToken"]))
    assert decode_jwt(refreshed["id_token"])[1]["firebase"]["sign_in_provider"] == "passkey"


def test_an_unknown_passkey_and_a_disabled_account_cannot_sign_in(emu):
    assert_bad_request(emu.mfa("passkeySignIn:finalize", {"authenticatorAuthenticationResponse": {"id": "nope"}}),
                       "PASSKEY_CREDENTIAL_NOT_FOUND")
    user = emu.sign_up("disabled-passkey@example.com")
    emu.ok(enroll(emu, user.id_token, "disabled-cred"))
    emu.ok(emu.admin(":update", {"localId": user.local_id, "disableUser": True}))
    assert_bad_request(emu.mfa("passkeySignIn:finalize", {"authenticatorAuthenticationResponse": {"id": "disabled-cred"}}),
                       "USER_DISABLED")


def test_deleting_a_passkey_through_update(emu):
    user = emu.sign_up("passkey-4@example.com")
    emu.ok(enroll(emu, user.id_token, "cred_4_A", name="Key A"))
    emu.ok(enroll(emu, user.id_token, "cred_4_B", name="Key B"))
    emu.ok(emu.identity("update", {"idToken": user.id_token, "deletePasskey": ["cred_4_A"]}))
    assert emu.lookup(user.id_token)["passkeyInfo"] == [{"credentialId": "cred_4_B", "name": "Key B"}]
    assert_bad_request(emu.mfa("passkeySignIn:finalize", {"authenticatorAuthenticationResponse": {"id": "cred_4_A"}}),
                       "PASSKEY_CREDENTIAL_NOT_FOUND")
    # Its id can be enrolled again, by anyone.
    other = emu.sign_up("passkey-5@example.com")
    emu.ok(enroll(emu, other.id_token, "cred_4_A"))


def test_deleting_passkeys_of_an_account_without_any_leaves_an_empty_list(emu):
    user = emu.sign_up("no-passkeys@example.com")
    emu.ok(emu.identity("update", {"idToken": user.id_token, "deletePasskey": ["missing"]}))
    assert emu.lookup(user.id_token)["passkeyInfo"] == []


def test_deleting_an_account_frees_its_passkeys(emu):
    user = emu.sign_up("deleted-passkey@example.com")
    emu.ok(enroll(emu, user.id_token, "freed"))
    emu.ok(emu.identity("delete", {"idToken": user.id_token}))
    assert_bad_request(emu.mfa("passkeySignIn:finalize", {"authenticatorAuthenticationResponse": {"id": "freed"}}),
                       "PASSKEY_CREDENTIAL_NOT_FOUND")


@pytest.mark.parametrize("method, body, message", [
    ("passkeyEnrollment:start", {}, "MISSING_ID_TOKEN"),
    ("passkeyEnrollment:finalize", {"authenticatorRegistrationResponse": {"id": "some_cred"}}, "MISSING_ID_TOKEN"),
    ("passkeyEnrollment:finalize", {"idToken": "some_token"}, "MISSING_AUTHENTICATOR_RESPONSE"),
    ("passkeyEnrollment:finalize", {"idToken": "some_token", "authenticatorRegistrationResponse": {}},
     "INVALID_ID_TOKEN"),
    ("passkeySignIn:finalize", {}, "MISSING_AUTHENTICATOR_RESPONSE"),
    ("passkeySignIn:finalize", {"authenticatorAuthenticationResponse": {}}, "INVALID_CREDENTIAL_ID"),
])
def test_missing_fields(emu, method, body, message):
    assert_bad_request(emu.mfa(method, body), message)


def test_a_registration_response_without_an_id_is_an_invalid_credential(emu):
    user = emu.sign_up("no-id@example.com")
    assert_bad_request(emu.mfa("passkeyEnrollment:finalize", {"idToken": user.id_token,
                                                               "authenticatorRegistrationResponse": {"rawId": "x"}}),
                       "INVALID_CREDENTIAL_ID")


def test_passkeys_need_an_api_key(emu):
    response = emu.post("/identitytoolkit.googleapis.com/v2/accounts/passkeySignIn:start", {}, key=False, admin=True)
    assert_error(response, "The request is missing a valid API key.", status=403)
