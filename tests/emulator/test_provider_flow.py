"""The production provider flow, which Firebase's emulator does not offer: createAuthUri with a
`providerId` returns an `authUri` to the emulator's fake consent page, which redirects to
`continueUri` with the chosen identity; signInWithIdp then takes that redirect URL as `requestUri`
with createAuthUri's `sessionId`. Followed over plain HTTP here, as a desktop app's test would."""
import json
import re
import urllib.parse

import pytest
import requests

from emulator_client import EMULATOR, assert_bad_request, decode_jwt, query_of, sha256_hex

CONTINUE = "http://127.0.0.1:53682/callback"


def start(emu, provider_id="apple.com", continue_uri=CONTINUE, **extra):
    return emu.ok(emu.identity("createAuthUri", {"providerId": provider_id, "continueUri": continue_uri, **extra}))


def follow(emu, auth_uri, **choice) -> str:
    """What a test's UI delegate does instead of a browser: open the authUri with a choice appended
    and return where the fake provider sends the browser."""
    url = auth_uri + "&" + urllib.parse.urlencode(choice) if choice else auth_uri
    response = emu.session.get(url, allow_redirects=False, timeout=30)
    assert response.status_code == 303, f"{response.status_code}: {response.text}"
    return response.headers["Location"]


def finish(emu, redirect, session_id, **extra):
    return emu.identity("signInWithIdp", {"requestUri": redirect, "sessionId": session_id, "returnSecureToken": True,
                                          "returnIdpCredential": True, **extra})


def test_create_auth_uri_with_a_provider_returns_an_auth_uri_to_the_consent_page(emu):
    body = start(emu, "microsoft.com", oauthScope="mail.read calendars.read",
                 customParameter={"tenant": "contoso.onmicrosoft.com", "prompt": "consent",
                                  "login_hint": "user@contoso.com"})
    assert body["kind"] == "identitytoolkit#CreateAuthUriResponse"
    assert body["providerId"] == "microsoft.com"
    assert len(body["sessionId"]) == 27 and body["sessionId"].isalnum()
    assert body["authUri"].startswith(emu.base_url + "/emulator/auth/consent?")
    query = query_of(body["authUri"])
    assert query["providerId"] == "microsoft.com"
    assert query["sessionId"] == body["sessionId"]
    assert query["continueUri"] == CONTINUE
    assert query["state"]
    assert query["scopes"] == "mail.read,calendars.read"
    assert json.loads(query["customParameters"]) == {"tenant": "contoso.onmicrosoft.com", "prompt": "consent",
                                                     "login_hint": "user@contoso.com"}
    assert "registered" not in body and "signinMethods" not in body


def test_a_given_session_id_is_kept(emu):
    assert start(emu, sessionId="my-session-1")["sessionId"] == "my-session-1"


@pytest.mark.parametrize("provider_id", ["google.com", "facebook.com", "twitter.com", "github.com", "apple.com",
                                         "microsoft.com", "yahoo.com", "playgames.google.com", "gc.apple.com",
                                         "oidc.my-provider", "saml.my-idp", "Apple.COM"])
def test_every_firebase_provider_can_start_a_flow(emu, provider_id):
    assert start(emu, provider_id)["providerId"] == provider_id.lower()


@pytest.mark.parametrize("provider_id", ["MadeUpProvider", "password", "phone", "oidc.", "example.com"])
def test_an_unknown_provider_id_is_invalid(emu, provider_id):
    assert_bad_request(emu.identity("createAuthUri", {"providerId": provider_id, "continueUri": CONTINUE}),
                       "INVALID_PROVIDER_ID")


@pytest.mark.parametrize("body, message", [
    ({"providerId": "google.com"}, "MISSING_CONTINUE_URI"),
    ({"providerId": "google.com", "continueUri": "callback/path"}, "INVALID_CONTINUE_URI"),
    ({"providerId": "google.com", "continueUri": "http://"}, "INVALID_CONTINUE_URI"),
])
def test_the_continue_uri_is_required_and_absolute(emu, body, message):
    assert_bad_request(emu.identity("createAuthUri", body), message)


def test_custom_parameters_must_be_strings(emu):
    response = emu.identity("createAuthUri", {"providerId": "google.com", "continueUri": CONTINUE,
                                              "customParameter": {"prompt": ["a"]}})
    assert response.status_code == 400
    assert response.json()["error"]["status"] == "INVALID_ARGUMENT"


def test_the_consent_page_is_a_small_self_contained_html_form(emu):
    flow = start(emu, "twitter.com", customParameter={"lang": "fr"})
    page = emu.session.get(flow["authUri"], timeout=30)
    assert page.status_code == 200
    assert page.headers["Content-Type"].startswith("text/html")
    html = page.text
    assert '<html lang="en">' in html and "<title>" in html
    assert "Sign in with Twitter" in html
    assert CONTINUE in html and "lang" in html and "fr" in html
    for field_id in ["email-input", "display-name-input", "screen-name-input", "profile-photo-input"]:
        assert f'<label for="{field_id}">' in html and f'id="{field_id}"' in html
    assert 'action="/emulator/auth/consent/choose"' in html
    assert f'name="sessionId" value="{flow["sessionId"]}"' in html
    assert "Cancel" in html and "Auto-generate" in html
    # Nothing is fetched from elsewhere.
    assert "<script" not in html and "<link" not in html and "src=" not in html


def test_the_flow_end_to_end_signs_in_with_the_chosen_identity(emu):
    flow = start(emu, "github.com")
    redirect = follow(emu, flow["authUri"], email="Octo@Example.com", displayName="Octo Cat", screenName="octocat")
    assert redirect.startswith(CONTINUE + "?")
    answer = query_of(redirect)
    assert answer["providerId"] == "github.com"
    assert answer["state"] == query_of(flow["authUri"])["state"]
    claims = json.loads(answer["id_token"])
    assert claims["email"] == "octo@example.com" and claims["email_verified"] is True
    assert claims["name"] == "Octo Cat" and claims["screen_name"] == "octocat"
    assert re.fullmatch(r"[0-9]{40}", claims["sub"])

    body = emu.ok(finish(emu, redirect, flow["sessionId"]))
    assert body["isNewUser"] is True
    assert body["providerId"] == "github.com" and body["federatedId"] == claims["sub"]
    assert body["email"] == "octo@example.com" and body["screenName"] == "octocat"
    _, token, _ = decode_jwt(body["idToken"])
    assert token["firebase"]["sign_in_provider"] == "github.com"

    # The same email at the provider is the same identity, so the next flow reaches the same account.
    second = start(emu, "github.com")
    again = emu.ok(finish(emu, follow(emu, second["authUri"], email="octo@example.com"), second["sessionId"]))
    assert again["localId"] == body["localId"] and "isNewUser" not in again


def test_the_page_form_posts_a_choice_like_a_browser(emu):
    flow = start(emu, "google.com")
    response = emu.session.post(emu.base_url + "/emulator/auth/consent/choose", allow_redirects=False, timeout=30,
                                data=[("sessionId", flow["sessionId"]), ("email", "form@example.com"),
                                      ("displayName", "Form User"), ("screenName", ""), ("photoUrl", ""),
                                      ("emailVerified", "false"), ("emailVerified", "true")])
    assert response.status_code == 303
    body = emu.ok(finish(emu, response.headers["Location"], flow["sessionId"]))
    assert body["email"] == "form@example.com" and body["emailVerified"] is True
    assert body["displayName"] == "Form User"


def test_an_unchecked_email_verified_box_leads_to_need_confirmation_for_a_taken_email(emu):
    owner = emu.sign_up("taken@example.com")
    flow = start(emu, "facebook.com")
    response = emu.session.post(emu.base_url + "/emulator/auth/consent/choose", allow_redirects=False, timeout=30,
                                data=[("sessionId", flow["sessionId"]), ("email", "taken@example.com"),
                                      ("emailVerified", "false")])
    body = emu.ok(finish(emu, response.headers["Location"], flow["sessionId"]))
    assert body["needConfirmation"] is True and body["localId"] == owner.local_id


def test_existing_identities_are_offered_and_can_be_picked_by_raw_id(emu):
    known = emu.ok(emu.sign_in_with_idp("yahoo.com", {"sub": "y-1", "email": "y@example.com", "name": "Yan"}))
    emu.ok(emu.sign_in_with_idp("google.com", {"sub": "g-elsewhere", "name": "Not Yahoo"}))
    flow = start(emu, "yahoo.com")
    html = emu.session.get(flow["authUri"], timeout=30).text
    assert "Yan" in html and 'name="rawId" value="y-1"' in html
    assert "Not Yahoo" not in html
    body = emu.ok(finish(emu, follow(emu, flow["authUri"], rawId="y-1"), flow["sessionId"]))
    assert body["localId"] == known["localId"]


def test_a_raw_id_the_provider_does_not_know_is_refused(emu):
    flow = start(emu, "yahoo.com")
    response = emu.session.get(flow["authUri"] + "&rawId=nobody", allow_redirects=False, timeout=30)
    assert response.status_code == 400
    assert response.json() == {"authEmulator": {"error": "no yahoo.com account has the id nobody"}}


def test_login_hint_preselects_the_matching_account(emu):
    emu.ok(emu.sign_in_with_idp("microsoft.com", {"sub": "ms-a", "email": "a@contoso.com", "name": "Alpha"}))
    emu.ok(emu.sign_in_with_idp("microsoft.com", {"sub": "ms-b", "email": "b@contoso.com", "name": "Bravo"}))
    html = emu.session.get(start(emu, "microsoft.com", customParameter={"login_hint": "B@contoso.com"})["authUri"],
                           timeout=30).text
    accounts = re.findall(r'name="rawId" value="([^"]+)"><button[^>]*?( autofocus)?>', html)
    assert accounts[0] == ("ms-b", " autofocus")
    assert ("ms-a", "") in accounts
    assert "suggested by the app" in html


def test_login_hint_prefills_the_new_account_form(emu):
    html = emu.session.get(start(emu, "google.com", customParameter={"login_hint": "new@example.com"})["authUri"],
                           timeout=30).text
    assert re.search(r'id="email-input"[^>]*value="new@example\.com"', html)


def test_an_identifier_counts_as_the_login_hint(emu):
    flow = start(emu, "google.com", identifier="who@example.com")
    assert json.loads(query_of(flow["authUri"])["customParameters"]) == {"login_hint": "who@example.com"}


def test_auto_generate_makes_up_an_identity(emu):
    flow = start(emu, "twitter.com")
    body = emu.ok(finish(emu, follow(emu, flow["authUri"], generate="true"), flow["sessionId"]))
    assert body["email"].endswith("@example.com") and body["displayName"] and body["screenName"]


def test_the_continue_uris_own_query_is_kept(emu):
    flow = start(emu, continue_uri="http://127.0.0.1:53682/callback?flow=x&n=1")
    redirect = follow(emu, flow["authUri"], email="s@example.com")
    assert redirect.startswith("http://127.0.0.1:53682/callback?flow=x&n=1&providerId=apple.com&id_token=")
    emu.ok(finish(emu, redirect, flow["sessionId"]))


@pytest.mark.parametrize("continue_uri", ["http://127.0.0.1:1/cb?state=mine", "http://127.0.0.1:1/cb#frag"])
def test_the_continue_uri_may_not_carry_a_state_or_a_fragment(emu, continue_uri):
    # As in production: the provider's answer and the flow's state go there.
    assert_bad_request(emu.identity("createAuthUri", {"providerId": "google.com", "continueUri": continue_uri}),
                       "INVALID_CONTINUE_URI : ((The continue URI cannot contain a fragment or the reserved state "
                       "parameter.))")


def test_a_custom_scheme_continue_uri_receives_the_redirect(emu):
    flow = start(emu, "google.com", continue_uri="com.example.game:/oauth2redirect")
    redirect = follow(emu, flow["authUri"], email="c@example.com")
    assert redirect.startswith("com.example.game:/oauth2redirect?providerId=google.com&id_token=")
    emu.ok(finish(emu, redirect, flow["sessionId"]))


def test_the_apple_nonce_reaches_the_id_token_and_is_checked(emu):
    raw = "raw-nonce-for-apple"
    flow = start(emu, "apple.com", oauthScope="email name",
                 customParameter={"nonce": sha256_hex(raw), "locale": "fr"})
    redirect = follow(emu, flow["authUri"], email="apple@example.com")
    assert json.loads(query_of(redirect)["id_token"])["nonce"] == sha256_hex(raw)
    wrong = finish(emu, redirect, flow["sessionId"], postBody="nonce=wrong")
    assert_bad_request(wrong, "MISSING_OR_INVALID_NONCE : The nonce in ID Token does not match the SHA256 hash of "
                              "the raw nonce in the request.")
    retry = start(emu, "apple.com", customParameter={"nonce": sha256_hex(raw)})
    body = emu.ok(finish(emu, follow(emu, retry["authUri"], email="apple@example.com"), retry["sessionId"],
                         postBody=f"nonce={raw}"))
    assert body["providerId"] == "apple.com"


def test_the_flow_links_a_provider_to_a_signed_in_account(emu):
    user = emu.sign_up("link@example.com")
    flow = start(emu, "oidc.corp")
    body = emu.ok(finish(emu, follow(emu, flow["authUri"], email="corp@example.com"), flow["sessionId"],
                         idToken=user.id_token))
    assert body["localId"] == user.local_id
    assert sorted(p["providerId"] for p in emu.lookup(body["idToken"])["providerUserInfo"]) == \
        ["oidc.corp", "password"]


def test_cancel_returns_an_oauth_error_that_sign_in_refuses(emu):
    flow = start(emu, "google.com")
    redirect = follow(emu, flow["authUri"], cancel="true")
    answer = query_of(redirect)
    assert answer["error"] == "access_denied"
    assert answer["state"] == query_of(flow["authUri"])["state"]
    assert "id_token" not in answer
    assert_bad_request(finish(emu, redirect, flow["sessionId"]),
                       "USER_CANCELLED : ((The identity provider answered access_denied: The user cancelled the "
                       "sign-in.))")


def test_a_session_id_that_create_auth_uri_never_issued_is_refused(emu):
    flow = start(emu, "github.com")
    redirect = follow(emu, flow["authUri"], email="fix@example.com")
    assert_bad_request(finish(emu, redirect, "made-up-session"),
                       "INVALID_IDP_RESPONSE : ((sessionId made-up-session was not issued by createAuthUri for this "
                       "redirect.))")
    # The real session still completes.
    emu.ok(finish(emu, redirect, flow["sessionId"]))


def test_the_redirect_of_a_flow_needs_its_session_id(emu):
    flow = start(emu, "github.com")
    redirect = follow(emu, flow["authUri"], email="nosession@example.com")
    response = emu.identity("signInWithIdp", {"requestUri": redirect, "returnSecureToken": True})
    assert_bad_request(response, "INVALID_IDP_RESPONSE : ((This redirect belongs to a createAuthUri session; "
                                 "send its sessionId.))")


def test_a_redirect_is_good_for_one_sign_in(emu):
    flow = start(emu, "github.com")
    redirect = follow(emu, flow["authUri"], email="once@example.com")
    emu.ok(finish(emu, redirect, flow["sessionId"]))
    assert_bad_request(finish(emu, redirect, flow["sessionId"]),
                       f"INVALID_IDP_RESPONSE : ((The sign-in session {flow['sessionId']} was already completed; "
                       "start a new one with createAuthUri.))")
    page = emu.session.get(flow["authUri"], timeout=30)
    assert page.status_code == 400
    assert "already completed" in page.json()["authEmulator"]["error"]


def test_a_failed_sign_in_still_uses_up_the_redirect(emu):
    raw = "raw-once"
    flow = start(emu, "apple.com", customParameter={"nonce": sha256_hex(raw)})
    redirect = follow(emu, flow["authUri"], email="failed@example.com")
    assert finish(emu, redirect, flow["sessionId"], postBody="nonce=wrong").status_code == 400
    assert_bad_request(finish(emu, redirect, flow["sessionId"], postBody=f"nonce={raw}"),
                       f"INVALID_IDP_RESPONSE : ((The sign-in session {flow['sessionId']} was already completed; "
                       "start a new one with createAuthUri.))")


def test_a_tampered_state_is_refused(emu):
    flow = start(emu, "github.com")
    redirect = follow(emu, flow["authUri"], email="tamper@example.com")
    state = query_of(redirect)["state"]
    assert_bad_request(finish(emu, redirect.replace(f"state={state}", "state=forged"), flow["sessionId"]),
                       f"INVALID_IDP_RESPONSE : ((The state in requestUri does not match session {flow['sessionId']}.))")
    assert_bad_request(finish(emu, redirect.replace(f"&state={state}", ""), flow["sessionId"]),
                       f"INVALID_IDP_RESPONSE : ((requestUri carries no state, so it is not the redirect of session "
                       f"{flow['sessionId']}.))")


def test_a_session_signs_in_only_with_its_own_provider(emu):
    flow = start(emu, "github.com")
    redirect = follow(emu, flow["authUri"], email="p@example.com").replace("providerId=github.com",
                                                                           "providerId=google.com")
    assert_bad_request(finish(emu, redirect, flow["sessionId"]),
                       f"INVALID_IDP_RESPONSE : ((Session {flow['sessionId']} signs in with github.com, not "
                       "google.com.))")


def test_credentials_outside_a_flow_keep_ignoring_the_session_id(emu):
    # Firebase's SDKs send session ids the emulator never issued with their widget redirects.
    body = emu.ok(emu.sign_in_with_idp("google.com", {"sub": "g-widget"}, session_id="ValueNotUsedByAuthEmulator",
                                       return_idp_credential=True))
    assert body["isNewUser"] is True


def test_the_consent_page_needs_a_live_session(emu):
    missing = emu.session.get(emu.base_url + "/emulator/auth/consent", timeout=30)
    assert missing.status_code == 400 and "sessionId" in missing.json()["authEmulator"]["error"]
    unknown = emu.session.get(emu.base_url + "/emulator/auth/consent?sessionId=nope", timeout=30)
    assert unknown.status_code == 400
    assert unknown.json() == {"authEmulator": {"error": "unknown or expired sessionId nope: start again with "
                                                        "createAuthUri"}}


def test_choosing_needs_a_choice(emu):
    flow = start(emu, "google.com")
    response = emu.session.post(emu.base_url + "/emulator/auth/consent/choose", data={"sessionId": flow["sessionId"]},
                                allow_redirects=False, timeout=30)
    assert response.status_code == 400
    assert response.json() == {"authEmulator": {"error": "choose an account: give rawId, email, sub, generate or "
                                                         "cancel"}}
    bad_email = emu.session.get(flow["authUri"] + "&email=not-an-email", allow_redirects=False, timeout=30)
    assert bad_email.status_code == 400


def test_a_browser_following_the_redirect_reaches_the_continue_uri(emu, base_url):
    # With redirects followed, the client ends at its continue URI (here an emulator URL that answers).
    continue_uri = base_url + f"{EMULATOR}/config"
    flow = start(emu, "github.com", continue_uri=continue_uri)
    response = requests.get(flow["authUri"] + "&email=b@example.com", timeout=30)
    assert response.status_code == 200
    assert response.url.startswith(continue_uri + "?providerId=github.com&id_token=")
    emu.ok(finish(emu, response.url, flow["sessionId"]))


# Twitter signs in with OAuth 1.0a through Firebase: no `state`; the request token `oauth_token` goes
# out in the authorization URL and comes back with an `oauth_verifier`, or as `denied` on Cancel.
def test_twitter_flows_carry_a_request_token_instead_of_a_state(emu):
    flow = start(emu, "twitter.com")
    query = query_of(flow["authUri"])
    assert "state" not in query and query["oauth_token"]
    redirect = follow(emu, flow["authUri"], email="t@example.com", screenName="tweety")
    answer = query_of(redirect)
    assert "state" not in answer
    assert answer["oauth_token"] == query["oauth_token"] and answer["oauth_verifier"]
    body = emu.ok(finish(emu, redirect, flow["sessionId"]))
    assert body["providerId"] == "twitter.com" and body["screenName"] == "tweety"


def test_a_twitter_refusal_returns_only_the_refused_request_token(emu):
    flow = start(emu, "twitter.com")
    redirect = follow(emu, flow["authUri"], cancel="true")
    assert query_of(redirect) == {"denied": query_of(flow["authUri"])["oauth_token"]}


def test_a_twitter_redirect_with_another_request_token_is_refused(emu):
    flow = start(emu, "twitter.com")
    redirect = follow(emu, flow["authUri"], email="t2@example.com")
    forged = redirect.replace("oauth_token=" + query_of(redirect)["oauth_token"], "oauth_token=forged")
    response = finish(emu, forged, flow["sessionId"])
    assert_bad_request(response, "INVALID_IDP_RESPONSE : ((The oauth_token in requestUri does not match session "
                                 f"{flow['sessionId']}.))")
