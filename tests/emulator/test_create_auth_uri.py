"""accounts:createAuthUri email probing."""
import pytest

from emulator_client import assert_bad_request


def probe(emu, email, **extra):
    return emu.identity("createAuthUri", {"identifier": email, "continueUri": "http://localhost", **extra})


def test_unregistered_email(emu):
    body = emu.ok(probe(emu, "new@example.com"))
    assert body["kind"] == "identitytoolkit#CreateAuthUriResponse"
    assert body["registered"] is False
    assert body["allProviders"] == [] and body["signinMethods"] == []
    assert len(body["sessionId"]) == 27 and body["sessionId"].isalnum()


def test_password_account_reports_the_password_method(emu):
    emu.sign_up("known@example.com")
    body = emu.ok(probe(emu, "KNOWN@example.com", sessionId="my-session"))
    assert body["registered"] is True
    assert body["allProviders"] == ["password"]
    assert body["signinMethods"] == ["password"]
    assert body["sessionId"] == "my-session"


def test_linked_identities_are_reported(emu):
    user = emu.sign_up("fed@example.com")
    emu.ok(emu.admin(":update", {"localId": user.local_id,
                                 "linkProviderUserInfo": {"providerId": "google.com", "rawId": "g",
                                                          "email": "fed@example.com"}}))
    body = emu.ok(probe(emu, "fed@example.com"))
    assert body["allProviders"] == ["password", "google.com"]
    assert body["signinMethods"] == ["password", "google.com"]


def test_improved_privacy_returns_only_kind_and_session(emu):
    emu.sign_up("known@example.com")
    emu.set_config(emailPrivacyConfig={"enableImprovedEmailPrivacy": True})
    body = emu.ok(probe(emu, "known@example.com", sessionId="s"))
    assert body == {"kind": "identitytoolkit#CreateAuthUriResponse", "sessionId": "s"}


def test_duplicate_emails_mode_reports_only_password_methods(emu):
    emu.set_config(signIn={"allowDuplicateEmails": True})
    emu.sign_up("dup@example.com")
    body = emu.ok(probe(emu, "dup@example.com"))
    assert body["registered"] is True and body["signinMethods"] == ["password"]


@pytest.mark.parametrize("body, message", [
    ({"continueUri": "http://localhost"}, "MISSING_IDENTIFIER"),
    ({"identifier": "a@b.c"}, "MISSING_CONTINUE_URI"),
    ({"identifier": "not-an-email", "continueUri": "http://localhost"}, "INVALID_IDENTIFIER"),
    ({"identifier": "a@b.c", "continueUri": "relative/path"}, "INVALID_CONTINUE_URI"),
    ({"identifier": "a@b.c", "continueUri": "http://"}, "INVALID_CONTINUE_URI"),
])
def test_errors(emu, body, message):
    assert_bad_request(emu.identity("createAuthUri", body), message)


def test_a_provider_id_starts_a_provider_flow_instead_of_probing(emu):
    # Firebase's emulator answers 501 here; the provider flow is in test_provider_flow.py.
    body = emu.ok(emu.identity("createAuthUri", {"providerId": "google.com", "continueUri": "http://localhost"}))
    assert body["authUri"] and body["providerId"] == "google.com"
    assert "registered" not in body
