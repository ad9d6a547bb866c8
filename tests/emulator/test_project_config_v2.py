"""The v2 project config (`GET/PATCH v2/projects/{p}/config`) as Firebase's emulator keeps it, and what
its settings change: one account per email, and email privacy (what createAuthUri, sendOobCode and password
sign-in reveal)."""
import json

import pytest

from emulator_client import EMULATOR, assert_bad_request

DEFAULT = {"signIn": {"allowDuplicateEmails": False}, "blockingFunctions": {},
           "emailPrivacyConfig": {"enableImprovedEmailPrivacy": False}}


def get_config(emu):
    return emu.ok(emu.v2_admin("GET", "/config"))


def patch_config(emu, body, mask=None):
    return emu.v2_admin("PATCH", "/config", body, params={"updateMask": mask} if mask else None)


def test_the_default_config(emu):
    assert get_config(emu) == DEFAULT


def test_a_masked_update(emu):
    body = emu.ok(patch_config(emu, {"signIn": {"allowDuplicateEmails": True},
                                     "blockingFunctions": {"forwardInboundCredentials": {"idToken": True}}},
                               mask="signIn.allowDuplicateEmails,blockingFunctions.forwardInboundCredentials.idToken"))
    assert body["signIn"] == {"allowDuplicateEmails": True}
    assert body["blockingFunctions"] == {"forwardInboundCredentials": {"idToken": True}}
    assert get_config(emu) == body


def test_a_mask_naming_a_field_the_update_lacks_changes_nothing(emu):
    assert "displayName" not in emu.ok(patch_config(emu, {}, mask="displayName"))
    assert get_config(emu) == DEFAULT


def test_an_update_without_a_mask_sets_the_known_fields_with_defaults(emu):
    body = emu.ok(patch_config(emu, {"signIn": {"allowDuplicateEmails": True},
                                     "blockingFunctions": {"forwardInboundCredentials": {"idToken": True}}}))
    assert body["signIn"]["allowDuplicateEmails"] is True
    assert body["blockingFunctions"] == {"forwardInboundCredentials": {"idToken": True}}
    assert emu.ok(patch_config(emu, {})) == DEFAULT


@pytest.mark.parametrize("triggers", [
    {"invalidEventTrigger": {"functionUri": "http://localhost"}},
    {"beforeCreate": {"functionUri": "invalidUri"}},
    {"beforeSignIn": {}},
])
def test_invalid_blocking_functions_are_refused(emu, triggers):
    response = patch_config(emu, {"blockingFunctions": {"triggers": triggers}})
    assert response.status_code == 400
    assert response.json()["error"]["message"].startswith("INVALID_BLOCKING_FUNCTION : ((")
    assert get_config(emu) == DEFAULT


def test_the_emulator_config_and_the_v2_config_are_the_same_settings(emu):
    emu.set_config(signIn={"allowDuplicateEmails": True})
    assert get_config(emu)["signIn"] == {"allowDuplicateEmails": True}
    emu.ok(patch_config(emu, {"emailPrivacyConfig": {"enableImprovedEmailPrivacy": True}},
                        mask="emailPrivacyConfig"))
    emulator_view = emu.ok(emu.request("GET", f"{EMULATOR}/config", key=False))
    assert emulator_view["signIn"] == {"allowDuplicateEmails": True}
    assert emulator_view["emailPrivacyConfig"] == {"enableImprovedEmailPrivacy": True}


def test_the_config_needs_the_admin(emu):
    response = emu.request("GET", "/identitytoolkit.googleapis.com/v2/projects/demo-hearth/config")
    assert_bad_request(response, "INSUFFICIENT_PERMISSION : Only authenticated requests can specify "
                                 "target_project_id.")


# --- what email privacy changes ---------------------------------------------------------------

def enable_privacy(emu):
    emu.ok(patch_config(emu, {"emailPrivacyConfig": {"enableImprovedEmailPrivacy": True}},
                        mask="emailPrivacyConfig.enableImprovedEmailPrivacy"))


def test_privacy_hides_registration_from_create_auth_uri(emu):
    emu.sign_up("private@example.com")
    probe = {"identifier": "private@example.com", "continueUri": "http://localhost/", "sessionId": "s"}
    assert emu.ok(emu.identity("createAuthUri", probe))["registered"] is True
    enable_privacy(emu)
    assert emu.ok(emu.identity("createAuthUri", probe)) == {"kind": "identitytoolkit#CreateAuthUriResponse",
                                                            "sessionId": "s"}


def test_privacy_hides_unknown_emails_from_password_reset(emu):
    assert_bad_request(emu.identity("sendOobCode", {"requestType": "PASSWORD_RESET", "email": "nobody@example.com"}),
                       "EMAIL_NOT_FOUND")
    enable_privacy(emu)
    assert emu.ok(emu.identity("sendOobCode", {"requestType": "PASSWORD_RESET", "email": "nobody@example.com"})) == {
        "kind": "identitytoolkit#GetOobConfirmationCodeResponse", "email": "nobody@example.com"}
    assert emu.new_oob_codes() == []


def test_privacy_merges_password_errors(emu):
    emu.sign_up("known@example.com")
    enable_privacy(emu)
    for email, password in [("unknown@example.com", "whatever"), ("known@example.com", "wrong-password")]:
        assert_bad_request(emu.identity("signInWithPassword", {"email": email, "password": password}),
                           "INVALID_LOGIN_CREDENTIALS")


def test_duplicate_emails_through_the_v2_config(emu):
    emu.ok(emu.sign_in_with_idp("google.com", {"sub": "dup-1", "email": "dup@example.com", "email_verified": True}))
    emu.ok(patch_config(emu, {"signIn": {"allowDuplicateEmails": True}}, mask="signIn.allowDuplicateEmails"))
    body = emu.ok(emu.sign_in_with_idp("facebook.com", {"sub": "dup-2", "email": "dup@example.com",
                                                         "email_verified": True}))
    assert body["isNewUser"] is True
