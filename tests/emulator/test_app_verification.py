"""App verification (hearth-emulator only): with `appVerificationRequired`, SMS to real numbers needs a
single-use reCAPTCHA token from the fake reCAPTCHA page /emulator/auth/handler?authType=verifyApp."""
import json

import pytest

from emulator_client import ADMIN, EMULATOR, assert_bad_request, query_of

HANDLER = "/emulator/auth/handler"
VERIFY = "/emulator/auth/handler/verify-app"
RETURN = "http://127.0.0.1:50124/__/auth/callback?app=desktop"


def page_query(**extra) -> dict:
    return {"apiKey": "fake-api-key", "authType": "verifyApp", "redirectUrl": RETURN, "eventId": "ev-1", **extra}


def get_page(emu, **extra):
    return emu.session.get(emu.base_url + HANDLER, params=page_query(**extra), timeout=30)


def solve(emu, **extra) -> str:
    """Ticks the box the way the page's form posts it; the token from the redirect."""
    response = emu.session.post(emu.base_url + VERIFY, data={**page_query(**extra), "notARobot": "true"},
                                allow_redirects=False, timeout=30)
    assert response.status_code == 303, response.text
    return query_of(response.headers["Location"])["recaptchaToken"]


@pytest.fixture()
def required(emu):
    emu.set_config(appVerificationRequired=True)
    return emu


def test_app_verification_is_off_by_default(emu):
    config = emu.ok(emu.request("GET", f"{EMULATOR}/config", key=False))
    assert config["appVerificationRequired"] is False
    emu.send_code("+15555550180")


def test_without_a_token_the_send_is_missing_an_app_credential(required):
    assert_bad_request(required.identity("sendVerificationCode", {"phoneNumber": "+15555550181"}),
                       "MISSING_APP_CREDENTIAL")


def test_an_unknown_token_is_an_invalid_app_credential(required):
    assert_bad_request(required.identity("sendVerificationCode", {"phoneNumber": "+15555550182",
                                                                  "recaptchaToken": "made-up"}),
                       "INVALID_APP_CREDENTIAL")


def test_credentials_the_emulator_cannot_check_are_invalid(required):
    response = required.identity("sendVerificationCode", {"phoneNumber": "+15555550183", "iosReceipt": "receipt",
                                                          "iosSecret": "secret"})
    assert response.status_code == 400
    assert response.json()["error"]["message"].startswith("INVALID_APP_CREDENTIAL : ")


def test_the_page_shows_an_im_not_a_robot_box_that_posts_the_flow_back(emu):
    response = get_page(emu)
    assert response.status_code == 200
    assert response.headers["Content-Type"].startswith("text/html")
    html = response.text
    assert "I'm not a robot" in html
    assert f'action="{VERIFY}"' in html
    assert '<input id="not-a-robot" name="notARobot" type="checkbox" value="true" required' in html
    assert '<input type="hidden" name="eventId" value="ev-1">' in html
    assert 'name="redirectUrl" value="http://127.0.0.1:50124/__/auth/callback?app=desktop"' in html


def test_ticking_the_box_redirects_with_a_token_and_the_event_id(emu):
    response = emu.session.post(emu.base_url + VERIFY, data={**page_query(state="st"), "notARobot": "true"},
                                allow_redirects=False, timeout=30)
    assert response.status_code == 303
    location = response.headers["Location"]
    assert location.startswith("http://127.0.0.1:50124/__/auth/callback?")
    query = query_of(location)
    assert query["app"] == "desktop" and query["eventId"] == "ev-1" and query["state"] == "st"
    assert len(query["recaptchaToken"]) >= 32


def test_a_token_from_the_page_lets_one_code_be_sent(required):
    token = solve(required)
    session_info = required.send_code("+15555550184", recaptchaToken=token)
    required.ok(required.verify_phone(session_info))
    assert_bad_request(required.identity("sendVerificationCode", {"phoneNumber": "+15555550184",
                                                                  "recaptchaToken": token}),
                       "INVALID_APP_CREDENTIAL")


def test_a_token_can_also_come_as_a_recaptcha_enterprise_response(required):
    token = solve(required)
    required.send_code("+15555550185", captchaResponse=token, clientType="CLIENT_TYPE_WEB",
                       recaptchaVersion="RECAPTCHA_ENTERPRISE")


def test_a_get_with_the_box_ticked_skips_the_html(required):
    response = required.session.get(required.base_url + VERIFY, params={**page_query(), "notARobot": "true"},
                                    allow_redirects=False, timeout=30)
    assert response.status_code == 303
    token = query_of(response.headers["Location"])["recaptchaToken"]
    required.send_code("+15555550186", recaptchaToken=token)


def test_without_a_redirect_url_the_page_shows_the_token(required):
    query = page_query()
    del query["redirectUrl"]
    response = required.session.post(required.base_url + VERIFY, data={**query, "notARobot": "true"}, timeout=30)
    assert response.status_code == 200 and response.headers["Content-Type"].startswith("text/html")
    marker = 'id="recaptcha-token" type="text" readonly value="'
    token = response.text.split(marker, 1)[1].split('"', 1)[0]
    required.send_code("+15555550187", recaptchaToken=token)


def test_submitting_without_ticking_the_box_is_refused(emu):
    response = emu.session.post(emu.base_url + VERIFY, data=page_query(), allow_redirects=False, timeout=30)
    assert response.status_code == 400
    assert "not a robot" in response.json()["authEmulator"]["error"]


def test_cancel_redirects_with_a_firebase_error(emu):
    response = emu.session.post(emu.base_url + VERIFY, data={**page_query(), "cancel": "true"},
                                allow_redirects=False, timeout=30)
    assert response.status_code == 303
    query = query_of(response.headers["Location"])
    assert "recaptchaToken" not in query and query["eventId"] == "ev-1"
    assert json.loads(query["firebaseError"])["code"] == "auth/user-cancelled"


@pytest.mark.parametrize("change", [{"apiKey": ""}, {"redirectUrl": "not/absolute"}])
def test_the_page_refuses_a_missing_api_key_or_a_relative_redirect(emu, change):
    for response in [get_page(emu, **change),
                     emu.session.post(emu.base_url + VERIFY, data={**page_query(**change), "notARobot": "true"},
                                      allow_redirects=False, timeout=30)]:
        assert response.status_code == 400
        assert response.json()["authEmulator"]["error"]


def test_the_page_escapes_what_it_carries(emu):
    html = get_page(emu, eventId='"><script>alert(1)</script>').text
    assert "<script>" not in html
    assert "&quot;&gt;&lt;script&gt;" in html


def test_tokens_are_ignored_when_verification_is_not_required(emu):
    token = solve(emu)
    emu.send_code("+15555550188", recaptchaToken=token)
    # Not used up: the token still works once verification is required.
    emu.set_config(appVerificationRequired=True)
    emu.send_code("+15555550188", recaptchaToken=token)


def test_second_factor_codes_need_a_token_too(required):
    user = required.verified_user("app-verify-mfa@example.com")
    start = {"idToken": user.id_token, "phoneEnrollmentInfo": {"phoneNumber": "+15555550189"}}
    assert_bad_request(required.mfa("mfaEnrollment:start", start), "MISSING_APP_CREDENTIAL")
    start["phoneEnrollmentInfo"]["recaptchaToken"] = solve(required)
    required.ok(required.mfa("mfaEnrollment:start", start))


def test_the_handler_still_serves_the_provider_page_for_other_auth_types(emu):
    response = emu.session.get(emu.base_url + HANDLER, params={
        "apiKey": "k", "providerId": "google.com", "authType": "signInViaRedirect",
        "redirectUrl": RETURN}, timeout=30)
    assert response.status_code == 200
    assert "Sign in with Google" in response.text
    assert "I'm not a robot" not in response.text


def test_a_tenant_s_second_factor_takes_a_token_verified_for_that_tenant(emu):
    emu.set_config(appVerificationRequired=True)
    tenant_id = emu.create_tenant(allowPasswordSignup=True, mfaConfig={"state": "ENABLED",
                                                                       "enabledProviders": ["PHONE_SMS"]})["tenantId"]
    emu.ok(emu.post(f"{ADMIN}/tenants/{tenant_id}/accounts", {"email": "tenant-robot@example.com",
                                                             "password": "secret-password", "emailVerified": True,
                                                             "mfaInfo": [{"phoneInfo": "+15555550310"}]},
                    key=False, admin=True))
    pending = emu.ok(emu.identity("signInWithPassword", {"email": "tenant-robot@example.com",
                                                         "password": "secret-password", "tenantId": tenant_id}))
    start = {"mfaPendingCredential": pending["mfaPendingCredential"], "tenantId": tenant_id,
             "mfaEnrollmentId": pending["mfaInfo"][0]["mfaEnrollmentId"]}
    # A token the project's page gave is not the tenant's.
    project_token = query_of(emu.session.get(
        emu.base_url + "/emulator/auth/handler/verify-app",
        params={"apiKey": "k", "redirectUrl": "http://127.0.0.1/done", "notARobot": "true"},
        allow_redirects=False, timeout=30).headers["Location"])["recaptchaToken"]
    refused = emu.mfa("mfaSignIn:start", {**start, "phoneSignInInfo": {"recaptchaToken": project_token}})
    assert refused.json()["error"]["message"] == "INVALID_APP_CREDENTIAL"
    page = emu.session.get(emu.base_url + "/emulator/auth/handler",
                           params={"apiKey": "k", "authType": "verifyApp", "tid": tenant_id}, timeout=30).text
    assert f'action="/emulator/auth/handler/verify-app?tenantId={tenant_id}"' in page
    tenant_token = query_of(emu.session.post(
        emu.base_url + f"/emulator/auth/handler/verify-app?tenantId={tenant_id}",
        data={"apiKey": "k", "redirectUrl": "http://127.0.0.1/done", "tid": tenant_id, "notARobot": "true"},
        allow_redirects=False, timeout=30).headers["Location"])["recaptchaToken"]
    emu.ok(emu.mfa("mfaSignIn:start", {**start, "phoneSignInInfo": {"recaptchaToken": tenant_token}}))
