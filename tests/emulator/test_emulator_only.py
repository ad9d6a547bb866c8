"""Emulator-only routes, GET / and GET v1/projects."""
from emulator_client import EMULATOR, IDENTITY


def test_readiness(emu):
    body = emu.ok(emu.request("GET", "/", key=False))
    assert body["authEmulator"]["ready"] is True


def test_wiping_deletes_every_account(emu):
    a = emu.sign_up("a@example.com")
    emu.sign_up_anonymously()
    assert emu.ok(emu.request("DELETE", f"{EMULATOR}/accounts", key=False)) == {}
    assert emu.ok(emu.admin(":query", {"returnUserInfo": False})) == {"recordsCount": "0"}
    response = emu.identity("lookup", {"idToken": a.id_token})
    assert response.json()["error"]["message"] == "USER_NOT_FOUND"
    emu.sign_up("a@example.com")


DEFAULT_CONFIG = {"signIn": {"allowDuplicateEmails": False},
                  "emailPrivacyConfig": {"enableImprovedEmailPrivacy": False},
                  "recentLoginMaxAgeSeconds": 0, "smsCodeTtlSeconds": 300, "oobCodeTtlSeconds": 0,
                  "smsRateLimit": {"maxSends": 5, "windowSeconds": 60}, "testPhoneNumbers": {},
                  "appVerificationRequired": False}


def test_config_defaults_and_partial_patch(emu):
    defaults = emu.ok(emu.request("GET", f"{EMULATOR}/config", key=False))
    assert defaults == DEFAULT_CONFIG
    patched = emu.set_config(emailPrivacyConfig={"enableImprovedEmailPrivacy": True})
    assert patched == {**DEFAULT_CONFIG, "emailPrivacyConfig": {"enableImprovedEmailPrivacy": True}}
    patched = emu.set_config(signIn={"allowDuplicateEmails": True})
    assert patched == {**DEFAULT_CONFIG, "signIn": {"allowDuplicateEmails": True},
                       "emailPrivacyConfig": {"enableImprovedEmailPrivacy": True}}
    patched = emu.set_config(smsRateLimit={"windowSeconds": 120}, appVerificationRequired=True)
    assert patched["smsRateLimit"] == {"maxSends": 5, "windowSeconds": 120}
    assert patched["appVerificationRequired"] is True
    assert emu.ok(emu.request("GET", f"{EMULATOR}/config", key=False)) == patched


def test_config_patch_rejects_unknown_settings(emu):
    response = emu.request("PATCH", f"{EMULATOR}/config", key=False, json_body={"signIn": {"bogus": True}})
    assert response.status_code == 400
    assert response.json()["error"]["message"] == \
        'Invalid JSON payload received. Unknown name "bogus" at \'signIn\': Cannot find field.'


def test_projects_config_for_clients(emu):
    body = emu.ok(emu.request("GET", f"{IDENTITY}/projects"))
    assert body == {"projectId": "12345", "authorizedDomains": ["localhost"]}


def test_recaptcha_params_are_obviously_fake(emu):
    body = emu.ok(emu.request("GET", f"{IDENTITY}/recaptchaParams"))
    assert body == {"kind": "identitytoolkit#GetRecaptchaParamResponse",
                    "recaptchaStoken": "This-is-a-fake-token__Dont-send-this-to-the-Recaptcha-service__The-Auth-"
                                       "Emulator-does-not-support-Recaptcha",
                    "recaptchaSiteKey": "Fake-key__Do-not-send-this-to-Recaptcha_"}
