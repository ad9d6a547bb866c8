"""accounts:signInWithIdp with fake identity provider credentials: request parsing, the fake tokens,
what each provider reports, the nonce and Twitter secret (beyond Firebase's emulator), and which
account a sign-in reaches (emulator-reference §2)."""
import json
import urllib.parse

import pytest

from emulator_client import (ADMIN, assert_bad_request, assert_error, decode_jwt, make_jwt, sha256_hex,
                             wait_for_next_second)

GOOGLE = {"sub": "g-123", "email": "Ann@Example.com", "email_verified": True, "name": "Ann Example",
          "given_name": "Ann", "family_name": "Example", "picture": "https://photos.example/ann.png"}


def ordered(text: str) -> list:
    """A JSON object's keys in the order they were written."""
    return list(json.loads(text, object_pairs_hook=lambda pairs: pairs))


def key_order(text: str) -> list[str]:
    return [key for key, _ in ordered(text)]


# --- what a sign-in returns -------------------------------------------------------------------

def test_google_sign_in_creates_an_account_with_googles_federated_id_and_profile(emu):
    body = emu.ok(emu.sign_in_with_idp("google.com", GOOGLE))
    assert body["kind"] == "identitytoolkit#VerifyAssertionResponse"
    assert body["context"] == ""
    assert body["providerId"] == "google.com"
    assert body["federatedId"] == "https://accounts.google.com/g-123"
    assert body["email"] == "ann@example.com"
    assert body["emailVerified"] is True
    assert body["displayName"] == body["fullName"] == "Ann Example"
    assert body["firstName"] == "Ann" and body["lastName"] == "Example"
    assert body["photoUrl"] == "https://photos.example/ann.png"
    assert body["isNewUser"] is True
    assert body["oauthIdToken"] == json.dumps(GOOGLE)
    assert body["oauthAccessToken"] == "FirebaseAuthEmulatorFakeAccessToken_google.com"
    assert body["expiresIn"] == "3600" and body["refreshToken"]
    _, claims, _ = decode_jwt(body["idToken"])
    assert claims["sub"] == body["localId"]


def test_google_raw_user_info_has_googles_user_info_shape(emu):
    body = emu.ok(emu.sign_in_with_idp("google.com", GOOGLE))
    assert key_order(body["rawUserInfo"]) == ["granted_scopes", "id", "name", "given_name", "family_name",
                                               "verified_email", "locale", "email", "picture"]
    assert json.loads(body["rawUserInfo"]) == {
        "granted_scopes": "openid https://www.googleapis.com/auth/userinfo.profile "
                          "https://www.googleapis.com/auth/userinfo.email",
        "id": "g-123", "name": "Ann Example", "given_name": "Ann", "family_name": "Example",
        "verified_email": True, "locale": "en", "email": "ann@example.com",
        "picture": "https://photos.example/ann.png"}


def test_google_without_an_email_is_not_granted_the_email_scope(emu):
    body = emu.ok(emu.sign_in_with_idp("google.com", {"sub": "g-no-mail"}))
    assert json.loads(body["rawUserInfo"]) == {
        "granted_scopes": "openid https://www.googleapis.com/auth/userinfo.profile",
        "id": "g-no-mail", "verified_email": False, "locale": "en"}
    # Neither the provider nor the account has an email, so there is no verification to report.
    assert "email" not in body and "emailVerified" not in body


@pytest.mark.parametrize("provider_id", ["facebook.com", "github.com", "microsoft.com", "yahoo.com",
                                         "apple.com", "oidc.corporate", "playgames.google.com"])
def test_other_providers_report_their_claims_as_raw_user_info_and_sub_as_federated_id(emu, provider_id):
    claims = {"sub": "u-1", "email": "u@example.com", "name": "U", "iss": "https://idp.example", "amr": ["pwd"],
              "age": 7}
    body = emu.ok(emu.sign_in_with_idp(provider_id, claims))
    assert body["providerId"] == provider_id
    assert body["federatedId"] == "u-1"
    assert json.loads(body["rawUserInfo"]) == claims
    assert key_order(body["rawUserInfo"]) == list(claims)
    assert "firstName" not in body and "lastName" not in body


def test_provider_id_is_lower_cased(emu):
    body = emu.ok(emu.sign_in_with_idp("GitHub.COM", {"sub": "gh-1"}))
    assert body["providerId"] == "github.com"
    assert body["oauthAccessToken"] == "FirebaseAuthEmulatorFakeAccessToken_github.com"


def test_apples_string_email_verified_counts_as_verified(emu):
    body = emu.ok(emu.sign_in_with_idp("apple.com", {"sub": "a-1", "email": "a@privaterelay.appleid.com",
                                                     "email_verified": "true"}))
    assert body["emailVerified"] is True


def test_id_token_names_the_provider_and_lists_its_identity(emu):
    body = emu.ok(emu.sign_in_with_idp("github.com", {"sub": "gh-42", "email": "octo@example.com",
                                                      "email_verified": True, "name": "Octo"}))
    _, claims, _ = decode_jwt(body["idToken"])
    assert claims["firebase"]["sign_in_provider"] == "github.com"
    assert claims["firebase"]["identities"] == {"email": ["octo@example.com"], "github.com": ["gh-42"]}
    assert claims["email"] == "octo@example.com" and claims["email_verified"] is True
    assert claims["name"] == "Octo"
    # A refreshed token keeps the sign-in provider.
    _, refreshed, _ = decode_jwt(emu.ok(emu.refresh(body["refreshToken"]))["id_token"])
    assert refreshed["firebase"]["sign_in_provider"] == "github.com"


def test_signing_in_again_with_the_same_identity_reaches_the_same_account(emu):
    first = emu.ok(emu.sign_in_with_idp("facebook.com", {"sub": "fb-1"}))
    again = emu.ok(emu.sign_in_with_idp("facebook.com", {"sub": "fb-1", "name": "Renamed"}))
    assert again["localId"] == first["localId"]
    assert "isNewUser" not in again


def test_lookup_lists_the_identity_in_provider_user_info(emu):
    body = emu.ok(emu.sign_in_with_idp("twitter.com", {"sub": "tw-9", "email": "t@example.com", "name": "Tee",
                                                       "picture": "https://p.example/t.png",
                                                       "screen_name": "tee"}))
    assert body["screenName"] == "tee"
    user = emu.lookup(body["idToken"])
    assert user["providerUserInfo"] == [{"providerId": "twitter.com", "rawId": "tw-9", "federatedId": "tw-9",
                                         "displayName": "Tee", "photoUrl": "https://p.example/t.png",
                                         "email": "t@example.com", "screenName": "tee"}]
    assert user["screenName"] == "tee" and user["displayName"] == "Tee"
    assert user["email"] == "t@example.com" and user["emailVerified"] is False
    assert user["createdAt"] and user["lastLoginAt"]
    # The admin API finds the account by its linked identity.
    found = emu.ok(emu.admin(":lookup", {"federatedUserId": [{"providerId": "twitter.com", "rawId": "tw-9"}]}))
    assert [u["localId"] for u in found["users"]] == [body["localId"]]


# --- the fake credentials ---------------------------------------------------------------------

def test_a_jwt_id_token_is_decoded_without_checking_its_signature(emu):
    token = make_jwt({"sub": "jwt-1", "email": "j@example.com", "exp": 1}, header={"alg": "RS256", "kid": "x"},
                     signature="bm90LWEtc2lnbmF0dXJl")
    body = emu.ok(emu.sign_in_with_idp("oidc.provider", token))
    assert body["federatedId"] == "jwt-1" and body["email"] == "j@example.com"
    assert body["oauthIdToken"] == token


def test_json_claims_in_the_access_token_are_used_when_there_is_no_id_token(emu):
    access = {"sub": "fb-access", "name": "From Access"}
    body = emu.ok(emu.sign_in_with_idp("facebook.com", access_token=access))
    assert body["displayName"] == "From Access"
    assert body["oauthAccessToken"] == json.dumps(access)
    assert "oauthIdToken" not in body


def test_an_opaque_id_token_falls_back_to_the_access_tokens_claims(emu):
    body = emu.ok(emu.sign_in_with_idp("facebook.com", "opaque-token", access_token={"sub": "fb-2"}))
    assert body["federatedId"] == "fb-2"
    assert body["oauthIdToken"] == "opaque-token"


def test_parameters_come_from_the_query_then_post_body_then_fragment(emu):
    def claims(sub):
        return urllib.parse.quote(json.dumps({"sub": sub}))

    query_only = emu.ok(emu.identity("signInWithIdp", {
        "requestUri": f"http://localhost/cb?providerId=facebook.com&id_token={claims('from-query')}"}))
    assert query_only["federatedId"] == "from-query"
    post_wins = emu.ok(emu.identity("signInWithIdp", {
        "requestUri": f"http://localhost/cb?providerId=facebook.com&id_token={claims('from-query')}",
        "postBody": f"id_token={claims('from-body')}"}))
    assert post_wins["federatedId"] == "from-body"
    fragment_wins = emu.ok(emu.identity("signInWithIdp", {
        "requestUri": f"http://localhost/cb?providerId=facebook.com&id_token={claims('from-query')}"
                      f"#id_token={claims('from-fragment')}",
        "postBody": f"id_token={claims('from-body')}"}))
    assert fragment_wins["federatedId"] == "from-fragment"
    # Only the first value of a repeated name counts.
    repeated = emu.ok(emu.identity("signInWithIdp", {
        "requestUri": "http://localhost/cb",
        "postBody": f"providerId=facebook.com&id_token={claims('first')}&id_token={claims('second')}"}))
    assert repeated["federatedId"] == "first"


def test_request_uri_is_required_and_absolute(emu):
    assert_bad_request(emu.identity("signInWithIdp", {"postBody": "providerId=google.com"}), "MISSING_REQUEST_URI")
    assert_bad_request(emu.identity("signInWithIdp", {"requestUri": "callback?x=1", "postBody": "providerId=g"}),
                       "INVALID_REQUEST_URI")


def test_a_response_without_provider_id_is_an_invalid_credential(emu):
    assert_bad_request(emu.identity("signInWithIdp", {"requestUri": "http://localhost", "postBody": "id_token=abc"}),
                       "INVALID_CREDENTIAL_OR_PROVIDER_ID : Invalid IdP response/credential: "
                       "http://localhost/?id_token=abc")
    assert_bad_request(emu.identity("signInWithIdp", {"requestUri": "http://localhost/cb?x=1"}),
                       "INVALID_CREDENTIAL_OR_PROVIDER_ID : Invalid IdP response/credential: http://localhost/cb?x=1")
    assert_bad_request(emu.sign_in_with_idp("", {"sub": "x"}),
                       "INVALID_CREDENTIAL_OR_PROVIDER_ID : Invalid IdP response/credential: "
                       "http://localhost/?providerId=&id_token=%7B%22sub%22%3A+%22x%22%7D")


def test_malformed_json_claims_are_rejected(emu):
    assert_bad_request(emu.sign_in_with_idp("google.com", '{"sub":'),
                       'INVALID_IDP_RESPONSE : Unable to parse id_token: {"sub": '
                       "((Auth Emulator failed to parse fake id_token as strict JSON.))")


@pytest.mark.parametrize("claims", [{"email": "x@example.com"}, {"sub": ""}, {"sub": None}, {"sub": 0}])
def test_claims_need_a_sub(emu, claims):
    assert_bad_request(emu.sign_in_with_idp("google.com", claims),
                       'INVALID_IDP_RESPONSE : Invalid Idp Response: id_token missing required fields. '
                       '((Missing "sub" field. This field is required and must be a unique identifier.))')


def test_sub_must_be_a_string(emu):
    assert_bad_request(emu.sign_in_with_idp("google.com", {"sub": 12345}),
                       'INVALID_IDP_RESPONSE : ((The "sub" field must be a string.))')


def test_an_opaque_id_token_alone_is_unparseable(emu):
    assert_bad_request(emu.sign_in_with_idp("google.com", "not-a-jwt"),
                       "INVALID_IDP_RESPONSE : Unable to parse id_token: not-a-jwt "
                       "((Auth Emulator only accepts strict JSON or JWTs as fake id_tokens.))")


@pytest.mark.parametrize("provider_id, message", [
    ("google.com", "The Auth Emulator only support sign-in with google.com using id_token, not access_token. "
                   "Please update your code to use id_token."),
    ("apple.com", "The Auth Emulator only support sign-in with apple.com using id_token, not access_token. "
                  "Please update your code to use id_token."),
    ("facebook.com", "The Auth Emulator does not support facebook.com sign-in with credentials."),
])
def test_an_opaque_access_token_alone_is_not_implemented(emu, provider_id, message):
    error = assert_error(emu.sign_in_with_idp(provider_id, access_token="EAAB-opaque"), message, 501)
    assert error["status"] == "NOT_IMPLEMENTED"


def test_no_credential_at_all_is_not_implemented(emu):
    assert_error(emu.sign_in_with_idp("github.com"),
                 "The Auth Emulator only supports sign-in with credentials (id_token required).", 501)


@pytest.mark.parametrize("field, message", [
    ({"pendingIdToken": "x"}, "pendingIdToken is not implemented yet."),
    ({"returnRefreshToken": True}, "returnRefreshToken is not implemented yet."),
])
def test_pending_id_token_and_return_refresh_token_are_not_implemented(emu, field, message):
    body = {"requestUri": "http://localhost", "postBody": "providerId=google.com&id_token=%7B%22sub%22%3A%221%22%7D",
            **field}
    assert_error(emu.identity("signInWithIdp", body), message, 501)


# --- beyond Firebase's emulator: Twitter's secret and the nonce -----------------------------------

def test_twitters_token_secret_is_echoed_as_oauth_token_secret(emu):
    access = {"sub": "tw-1", "screen_name": "jack"}
    body = emu.ok(emu.sign_in_with_idp("twitter.com", access_token=access, oauth_token_secret="s3cret/+="))
    assert body["oauthTokenSecret"] == "s3cret/+="
    assert body["oauthAccessToken"] == json.dumps(access)
    assert body["screenName"] == "jack"


def test_no_token_secret_is_returned_when_none_was_sent(emu):
    assert "oauthTokenSecret" not in emu.ok(emu.sign_in_with_idp("twitter.com", access_token={"sub": "tw-2"}))


RAW_NONCE = "4c1d-raw_nonce.value"


def test_an_apple_id_token_signs_in_with_the_raw_nonce_it_was_issued_for(emu):
    claims = {"sub": "apple-1", "email": "a@example.com", "email_verified": "true", "nonce": sha256_hex(RAW_NONCE)}
    body = emu.ok(emu.sign_in_with_idp("apple.com", claims, nonce=RAW_NONCE))
    assert body["federatedId"] == "apple-1"


def test_a_nonce_claim_in_a_jwt_id_token_is_checked_too(emu):
    token = make_jwt({"sub": "oidc-jwt", "nonce": sha256_hex(RAW_NONCE)})
    emu.ok(emu.sign_in_with_idp("oidc.corp", token, nonce=RAW_NONCE))
    assert_bad_request(emu.sign_in_with_idp("oidc.corp", token, nonce="another"),
                       "MISSING_OR_INVALID_NONCE : The nonce in ID Token does not match the SHA256 hash of the "
                       "raw nonce in the request.")


@pytest.mark.parametrize("provider_id", ["apple.com", "oidc.corp", "facebook.com"])
def test_a_wrong_raw_nonce_is_refused(emu, provider_id):
    claims = {"sub": "n-1", "nonce": sha256_hex(RAW_NONCE)}
    assert_bad_request(emu.sign_in_with_idp(provider_id, claims, nonce="not-the-raw-nonce"),
                       "MISSING_OR_INVALID_NONCE : The nonce in ID Token does not match the SHA256 hash of the "
                       "raw nonce in the request.")
    # The hash itself is not the raw nonce.
    assert_bad_request(emu.sign_in_with_idp(provider_id, claims, nonce=sha256_hex(RAW_NONCE)),
                       "MISSING_OR_INVALID_NONCE : The nonce in ID Token does not match the SHA256 hash of the "
                       "raw nonce in the request.")


@pytest.mark.parametrize("provider_id", ["apple.com", "oidc.corp"])
def test_a_token_with_a_nonce_claim_needs_the_raw_nonce(emu, provider_id):
    claims = {"sub": "n-2", "nonce": sha256_hex(RAW_NONCE)}
    assert_bad_request(emu.sign_in_with_idp(provider_id, claims),
                       "MISSING_OR_INVALID_NONCE : Nonce is missing in the request.")
    assert_bad_request(emu.sign_in_with_idp(provider_id, claims, nonce=""),
                       "MISSING_OR_INVALID_NONCE : Nonce is missing in the request.")


def test_an_apple_raw_nonce_against_a_token_without_a_nonce_claim_is_refused(emu):
    assert_bad_request(emu.sign_in_with_idp("apple.com", {"sub": "a-2"}, nonce=RAW_NONCE),
                       "MISSING_OR_INVALID_NONCE : ((The id_token has no nonce claim to check the raw nonce against.))")


def test_other_providers_ignore_a_raw_nonce_when_the_token_has_no_nonce_claim(emu):
    emu.ok(emu.sign_in_with_idp("oidc.corp", {"sub": "o-3"}, nonce=RAW_NONCE))


def test_the_nonce_is_hashed_as_utf8_across_several_sha256_blocks(emu):
    for raw in ["ünïcødé-nonce-✓", "x" * 55, "y" * 56, "z" * 64, "long-" * 60, ""]:
        if not raw:
            continue
        claims = {"sub": f"n-{len(raw)}", "nonce": sha256_hex(raw)}
        emu.ok(emu.sign_in_with_idp("apple.com", claims, nonce=raw))


def test_a_nonce_failure_is_a_400_even_when_the_credential_is_asked_back(emu):
    claims = {"sub": "n-4", "nonce": sha256_hex(RAW_NONCE)}
    assert_bad_request(emu.sign_in_with_idp("apple.com", claims, nonce="wrong", return_idp_credential=True),
                       "MISSING_OR_INVALID_NONCE : The nonce in ID Token does not match the SHA256 hash of the "
                       "raw nonce in the request.")


# --- which account a sign-in reaches (one account per email) ------------------------------------

def verified_password_account(emu, email):
    user = emu.sign_up(email)
    emu.ok(emu.admin(":update", {"localId": user.local_id, "emailVerified": True}))
    return user


def test_a_verified_provider_email_signs_in_to_the_account_with_that_email_and_links_the_provider(emu):
    user = verified_password_account(emu, "owner@example.com")
    body = emu.ok(emu.sign_in_with_idp("google.com", {"sub": "g-owner", "email": "owner@example.com",
                                                      "email_verified": True, "name": "Owner"}))
    assert body["localId"] == user.local_id
    assert "isNewUser" not in body and "emailRecycled" not in body
    record = emu.lookup(body["idToken"])
    assert sorted(p["providerId"] for p in record["providerUserInfo"]) == ["google.com", "password"]
    assert record["displayName"] == "Owner"
    # The password still works, and the old session too (the email was already verified).
    assert emu.sign_in("owner@example.com", "secret-password").local_id == user.local_id
    assert emu.lookup(user.id_token)["localId"] == user.local_id


def test_a_verified_provider_email_takes_over_an_account_whose_email_was_never_verified(emu):
    squatter = emu.sign_up("victim@example.com", displayName="Squatter")
    emu.ok(emu.admin(":update", {"localId": squatter.local_id, "phoneNumber": "+15555550100"}))
    wait_for_next_second()
    body = emu.ok(emu.sign_in_with_idp("google.com", {"sub": "g-victim", "email": "victim@example.com",
                                                      "email_verified": True, "name": "Real Owner"}))
    assert body["localId"] == squatter.local_id
    assert body["emailVerified"] is True
    record = emu.lookup(body["idToken"])
    assert [p["providerId"] for p in record["providerUserInfo"]] == ["google.com"]
    assert "passwordHash" not in record and "phoneNumber" not in record
    assert record["displayName"] == "Real Owner" and record["emailVerified"] is True
    # The squatter's password and session are gone.
    assert_bad_request(emu.identity("signInWithPassword", {"email": "victim@example.com",
                                                           "password": "secret-password"}), "INVALID_PASSWORD")
    assert_bad_request(emu.identity("lookup", {"idToken": squatter.id_token}), "TOKEN_EXPIRED")


def test_an_unverified_provider_email_of_an_existing_account_needs_confirmation(emu):
    user = emu.sign_up("taken@example.com")
    emu.ok(emu.admin(":update", {"localId": user.local_id,
                                 "linkProviderUserInfo": {"providerId": "facebook.com", "rawId": "fb-t"}}))
    body = emu.ok(emu.sign_in_with_idp("github.com", {"sub": "gh-t", "email": "TAKEN@example.com"}))
    assert body["needConfirmation"] is True
    assert body["localId"] == user.local_id
    assert body["verifiedProvider"] == ["facebook.com"]
    assert body["email"] == "taken@example.com" and body["providerId"] == "github.com"
    assert "idToken" not in body and "refreshToken" not in body
    # Nothing changed.
    assert sorted(p["providerId"] for p in emu.lookup(user.id_token)["providerUserInfo"]) == \
        ["facebook.com", "password"]
    found = emu.ok(emu.admin(":lookup", {"federatedUserId": [{"providerId": "github.com", "rawId": "gh-t"}]}))
    assert "users" not in found


def test_need_confirmation_lists_no_verified_provider_for_a_password_only_account(emu):
    emu.sign_up("pw-only@example.com")
    body = emu.ok(emu.sign_in_with_idp("github.com", {"sub": "gh-p", "email": "pw-only@example.com"},
                                       return_idp_credential=True))
    assert body["needConfirmation"] is True and body["verifiedProvider"] == []


def test_a_recycled_provider_email_is_reported(emu):
    first = emu.ok(emu.sign_in_with_idp("google.com", {"sub": "g-old", "email": "r@example.com",
                                                       "email_verified": True}))
    body = emu.ok(emu.sign_in_with_idp("google.com", {"sub": "g-new", "email": "r@example.com",
                                                      "email_verified": True}))
    assert body["localId"] == first["localId"]
    assert body["emailRecycled"] is True
    record = emu.lookup(body["idToken"])
    assert [(p["providerId"], p["rawId"]) for p in record["providerUserInfo"]] == [("google.com", "g-new")]
    found = emu.ok(emu.admin(":lookup", {"federatedUserId": [{"providerId": "google.com", "rawId": "g-old"}]}))
    assert "users" not in found


def test_a_new_account_takes_the_providers_email_and_its_verification(emu):
    body = emu.ok(emu.sign_in_with_idp("microsoft.com", {"sub": "ms-1", "email": "m@example.com"}))
    record = emu.lookup(body["idToken"])
    assert record["email"] == "m@example.com" and record["emailVerified"] is False
    _, claims, _ = decode_jwt(body["idToken"])
    assert claims["firebase"]["identities"] == {"email": ["m@example.com"], "microsoft.com": ["ms-1"]}


def test_with_duplicate_emails_allowed_the_email_stays_on_the_identity(emu):
    emu.set_config(signIn={"allowDuplicateEmails": True})
    user = emu.sign_up("dup@example.com")
    body = emu.ok(emu.sign_in_with_idp("google.com", {"sub": "g-dup", "email": "dup@example.com",
                                                      "email_verified": True}))
    assert body["localId"] != user.local_id
    assert body["isNewUser"] is True
    record = emu.lookup(body["idToken"])
    assert "email" not in record
    assert record["providerUserInfo"][0]["email"] == "dup@example.com"
    # And the identity, not the email, finds the account again.
    again = emu.ok(emu.sign_in_with_idp("google.com", {"sub": "g-dup", "email": "dup@example.com",
                                                       "email_verified": True}))
    assert again["localId"] == body["localId"]


def test_reauthentication_with_an_identity_no_account_has_is_an_unknown_user(emu):
    # Reauthentication sends autoCreate:false (beyond Firebase's emulator, which creates an account).
    response = emu.identity("signInWithIdp", {"requestUri": "http://localhost", "autoCreate": False,
                                              "postBody": "providerId=github.com&id_token=%7B%22sub%22%3A%22gh-new%22%7D",
                                              "returnIdpCredential": True, "returnSecureToken": True})
    assert_bad_request(response, "USER_NOT_FOUND")
    assert emu.ok(emu.admin(":query", {"returnUserInfo": False})) == {"recordsCount": "0"}
    known = emu.ok(emu.sign_in_with_idp("github.com", {"sub": "gh-known"}))
    again = emu.ok(emu.identity("signInWithIdp", {
        "requestUri": "http://localhost", "autoCreate": False, "returnSecureToken": True,
        "postBody": "providerId=github.com&id_token=%7B%22sub%22%3A%22gh-known%22%7D"}))
    assert again["localId"] == known["localId"]


def test_a_disabled_account_cannot_sign_in_with_its_identity(emu):
    body = emu.ok(emu.sign_in_with_idp("facebook.com", {"sub": "fb-off"}))
    emu.ok(emu.post(f"{ADMIN}/accounts:update", {"localId": body["localId"], "disableUser": True}, key=False,
                    admin=True))
    assert_bad_request(emu.sign_in_with_idp("facebook.com", {"sub": "fb-off"}), "USER_DISABLED")


def test_saml_providers_take_the_email_from_the_assertion_and_put_attributes_in_the_token(emu):
    saml = {"assertion": {"subject": {"nameId": "saml.user@example.com"},
                          "attributeStatements": {"department": "R&D"}}}
    body = emu.ok(emu.sign_in_with_idp("saml.okta", {"sub": "saml-1"}, SAMLResponse=json.dumps(saml)))
    assert body["email"] == "saml.user@example.com" and body["emailVerified"] is True
    assert json.loads(body["rawUserInfo"]) == {"department": "R&D"}
    _, claims, _ = decode_jwt(body["idToken"])
    assert claims["firebase"]["sign_in_attributes"] == {"department": "R&D"}
    assert_bad_request(emu.sign_in_with_idp("saml.okta", {"sub": "saml-2"}, SAMLResponse=json.dumps({"x": 1})),
                       "INVALID_IDP_RESPONSE ((Missing assertion in SAMLResponse.))")
    assert_bad_request(emu.sign_in_with_idp("saml.okta", {"sub": "saml-2"},
                                            SAMLResponse=json.dumps({"assertion": {"subject": {}}})),
                       "INVALID_IDP_RESPONSE ((Missing assertion.subject.nameId in SAMLResponse.))")
