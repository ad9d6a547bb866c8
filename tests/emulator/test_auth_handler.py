"""/emulator/auth/handler: the fake identity provider page Firebase's SDKs open in emulator mode,
usable by a person in a browser, which sends the chosen identity to the app's `redirectUrl` (a
desktop app's loopback receiver or custom scheme) in the query."""
import json
import re
import urllib.parse

import pytest

from emulator_client import API_KEY, decode_jwt, query_of, sha256_hex

HANDLER = "/emulator/auth/handler"
LOOPBACK = "http://127.0.0.1:50123/__/auth/callback"


def handler_url(emu, **params):
    return emu.base_url + HANDLER + "?" + urllib.parse.urlencode(params)


def firebase_query(provider_id="google.com", **extra):
    """The query the JS SDK's _getRedirectUrl builds."""
    return {"apiKey": API_KEY, "appName": "[DEFAULT]", "authType": "signInViaRedirect", "redirectUrl": LOOPBACK,
            "v": "10.0.0", "eventId": "event-123", "providerId": provider_id, **extra}


def get(emu, url, **kwargs):
    return emu.session.get(url, allow_redirects=False, timeout=30, **kwargs)


def sign_in_with_redirect(emu, location, **extra):
    return emu.identity("signInWithIdp", {"requestUri": location, "sessionId": "ValueNotUsedByAuthEmulator",
                                          "returnSecureToken": True, "returnIdpCredential": True, **extra})


@pytest.mark.parametrize("params", [{}, {"providerId": "google.com"}, {"apiKey": API_KEY},
                                    {"apiKey": "", "providerId": "google.com"}])
def test_without_api_key_or_provider_id_the_handler_answers_400(emu, params):
    response = get(emu, handler_url(emu, **params))
    assert response.status_code == 400
    assert response.json() == {"authEmulator": {"error": "missing apiKey or providerId query parameters"}}


def test_the_handler_page_lists_the_providers_accounts(emu):
    emu.ok(emu.sign_in_with_idp("google.com", {"sub": "g-1", "email": "one@example.com", "name": "One",
                                               "screen_name": "uno"}))
    emu.ok(emu.sign_in_with_idp("github.com", {"sub": "gh-1", "name": "Elsewhere"}))
    response = get(emu, handler_url(emu, **firebase_query(scopes="profile,email",
                                                          customParameters=json.dumps({"hd": "example.com"}))))
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "text/html; charset=utf-8"
    html = response.text
    assert "Sign in with Google" in html
    assert "One" in html and "one@example.com" in html and "@uno" in html
    assert 'name="rawId" value="g-1"' in html
    assert "Elsewhere" not in html
    assert "profile, email" in html and "example.com" in html
    assert LOOPBACK in html
    # The flow's parameters travel with every form.
    assert 'name="eventId" value="event-123"' in html and 'name="apiKey" value="fake-api-key"' in html
    assert "Add new account" in html and "Sign in with Google.com" in html
    for field_id in ["email-input", "display-name-input", "screen-name-input", "profile-photo-input"]:
        assert f'<label for="{field_id}">' in html
    assert "<script" not in html and "<link" not in html and "src=" not in html


def test_the_page_escapes_what_accounts_contain(emu):
    emu.ok(emu.sign_in_with_idp("google.com", {"sub": "g-x", "name": "<script>alert(1)</script>"}))
    html = get(emu, handler_url(emu, **firebase_query())).text
    assert "<script>" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html


def test_picking_an_account_redirects_to_the_redirect_url_with_its_id_token(emu):
    known = emu.ok(emu.sign_in_with_idp("google.com", {"sub": "g-pick", "email": "pick@example.com",
                                                       "name": "Pick", "picture": "https://p.example/p.png"}))
    response = emu.session.post(emu.base_url + HANDLER + "/choose", allow_redirects=False, timeout=30,
                                data={**firebase_query(), "rawId": "g-pick"})
    assert response.status_code == 303
    location = response.headers["Location"]
    assert location.startswith(LOOPBACK + "?providerId=google.com&id_token=")
    answer = query_of(location)
    assert answer["eventId"] == "event-123"
    assert json.loads(answer["id_token"]) == {"sub": "g-pick", "iss": "", "aud": "", "exp": 0, "iat": 0,
                                              "name": "Pick", "email": "pick@example.com", "email_verified": True,
                                              "picture": "https://p.example/p.png"}
    body = emu.ok(sign_in_with_redirect(emu, location))
    assert body["localId"] == known["localId"]


def test_a_new_account_can_be_chosen_with_a_get_for_automation(emu):
    location = get(emu, handler_url(emu, **firebase_query("oidc.corp"), state="st-9", email="New@Example.com",
                                    displayName="New Person", screenName="newbie",
                                    photoUrl="https://p.example/n.png")).headers["Location"]
    answer = query_of(location)
    assert answer["providerId"] == "oidc.corp" and answer["state"] == "st-9" and answer["eventId"] == "event-123"
    body = emu.ok(sign_in_with_redirect(emu, location))
    assert body["isNewUser"] is True
    assert (body["email"], body["displayName"], body["screenName"], body["photoUrl"]) == \
        ("new@example.com", "New Person", "newbie", "https://p.example/n.png")
    # The same email picks the same identity next time.
    again = get(emu, handler_url(emu, **firebase_query("oidc.corp"), email="new@example.com")).headers["Location"]
    assert emu.ok(sign_in_with_redirect(emu, again))["localId"] == body["localId"]


def test_a_custom_scheme_redirect_url_receives_the_answer(emu):
    location = get(emu, handler_url(emu, **firebase_query(redirectUrl="com.example.game://auth"),
                                    email="c@example.com")).headers["Location"]
    assert location.startswith("com.example.game://auth?providerId=google.com&id_token=")
    emu.ok(sign_in_with_redirect(emu, location))


def test_a_relative_redirect_url_is_refused(emu):
    response = get(emu, handler_url(emu, **firebase_query(redirectUrl="/callback")))
    assert response.status_code == 400
    assert response.json() == {"authEmulator": {"error": "redirectUrl must be an absolute URL"}}


def test_without_a_redirect_url_the_page_shows_the_request_uri_to_use(emu):
    query = firebase_query()
    del query["redirectUrl"]
    response = get(emu, handler_url(emu, **query, email="shown@example.com"))
    assert response.status_code == 200
    request_uri = re.search(r'id="request-uri" type="text" readonly value="([^"]+)"', response.text).group(1)
    request_uri = request_uri.replace("&amp;", "&")
    assert request_uri.startswith(emu.base_url + HANDLER + "?providerId=google.com&id_token=")
    assert emu.ok(sign_in_with_redirect(emu, request_uri))["email"] == "shown@example.com"


def test_cancel_redirects_with_an_oauth_error(emu):
    response = emu.session.post(emu.base_url + HANDLER + "/choose", allow_redirects=False, timeout=30,
                                data={**firebase_query(), "cancel": "true"})
    assert response.status_code == 303
    answer = query_of(response.headers["Location"])
    assert answer["error"] == "access_denied" and answer["eventId"] == "event-123"
    assert "id_token" not in answer


def test_custom_parameters_carry_the_nonce_and_the_login_hint(emu):
    raw = "handler-raw-nonce"
    params = firebase_query("apple.com", customParameters=json.dumps({"nonce": sha256_hex(raw),
                                                                     "login_hint": "hint@example.com"}))
    html = get(emu, handler_url(emu, **params)).text
    assert re.search(r'id="email-input"[^>]*value="hint@example\.com"', html)
    location = get(emu, handler_url(emu, **params, email="hint@example.com")).headers["Location"]
    assert json.loads(query_of(location)["id_token"])["nonce"] == sha256_hex(raw)
    emu.ok(sign_in_with_redirect(emu, location, postBody=f"nonce={raw}"))


def test_generate_makes_up_an_account(emu):
    response = emu.session.post(emu.base_url + HANDLER + "/choose", allow_redirects=False, timeout=30,
                                data={**firebase_query("facebook.com"), "generate": "true", "email": ""})
    claims = json.loads(query_of(response.headers["Location"])["id_token"])
    assert claims["email"].endswith("@example.com") and claims["name"] and re.fullmatch(r"[0-9]{40}", claims["sub"])


def test_saml_providers_get_a_saml_response_too(emu):
    location = get(emu, handler_url(emu, **firebase_query("saml.idp"), email="s@example.com")).headers["Location"]
    assert json.loads(query_of(location)["SAMLResponse"]) == {"assertion": {"subject": {"nameId": "s@example.com"}}}
    body = emu.ok(sign_in_with_redirect(emu, location))
    assert body["email"] == "s@example.com" and body["emailVerified"] is True


def test_a_tenant_page_lists_that_tenant_s_identities(emu):
    claims = json.dumps({"sub": "tenant-sub", "email": "tenant-idp@example.com", "email_verified": True})
    emu.ok(emu.identity("signInWithIdp", {
        "requestUri": "http://localhost", "tenantId": "tenant-1",
        "postBody": urllib.parse.urlencode({"providerId": "google.com", "id_token": claims})}))
    emu.ok(emu.sign_in_with_idp("google.com", {"sub": "project-sub", "email": "project-only@example.com"}))
    page = get(emu, handler_url(emu, **firebase_query(tid="tenant-1"))).text
    assert "tenant-idp@example.com" in page and "project-only@example.com" not in page
    # The choice posts back to the tenant, and the answer signs in there.
    assert "/emulator/auth/handler/choose?tenantId=tenant-1" in page
    location = get(emu, handler_url(emu, **firebase_query(tid="tenant-1"), rawId="tenant-sub")).headers["Location"]
    body = emu.ok(emu.identity("signInWithIdp", {"requestUri": location, "returnSecureToken": True,
                                                 "tenantId": "tenant-1"}))
    assert body["tenantId"] == "tenant-1" and body["email"] == "tenant-idp@example.com"
    assert decode_jwt(body["idToken"])[1]["firebase"]["tenant"] == "tenant-1"
