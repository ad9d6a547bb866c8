"""Linking identity providers with signInWithIdp `idToken`, the conflicts (400, or 200 with
`errorMessage` and the IdP credential when `returnIdpCredential` is set), and unlinking with
accounts:update `deleteProvider` (emulator-reference §5)."""
import json

from emulator_client import assert_bad_request, decode_jwt

IDP_CREDENTIAL_FIELDS = {"kind", "context", "providerId", "federatedId", "oauthIdToken", "oauthAccessToken",
                         "rawUserInfo", "emailVerified"}


def unlink(emu, id_token, *providers):
    return emu.ok(emu.identity("update", {"idToken": id_token, "deleteProvider": list(providers)}))


def test_linking_a_provider_to_an_anonymous_account_upgrades_it(emu):
    anonymous = emu.sign_up_anonymously()
    body = emu.ok(emu.sign_in_with_idp("google.com", {"sub": "g-up", "email": "up@example.com",
                                                      "email_verified": True, "name": "Upgraded"},
                                       link_to=anonymous.id_token))
    assert body["localId"] == anonymous.local_id
    assert "isNewUser" not in body
    assert body["email"] == "up@example.com" and body["emailVerified"] is True
    record = emu.lookup(body["idToken"])
    assert record["email"] == "up@example.com" and record["emailVerified"] is True
    assert [p["providerId"] for p in record["providerUserInfo"]] == ["google.com"]
    _, claims, _ = decode_jwt(body["idToken"])
    assert claims["firebase"]["sign_in_provider"] == "google.com"
    assert claims["firebase"]["identities"] == {"email": ["up@example.com"], "google.com": ["g-up"]}
    # Signing in with the identity later reaches the upgraded account.
    again = emu.ok(emu.sign_in_with_idp("google.com", {"sub": "g-up"}))
    assert again["localId"] == anonymous.local_id


def test_linking_copies_an_unverified_email_with_its_verification_state(emu):
    anonymous = emu.sign_up_anonymously()
    body = emu.ok(emu.sign_in_with_idp("github.com", {"sub": "gh-u", "email": "gh@example.com"},
                                       link_to=anonymous.id_token))
    record = emu.lookup(body["idToken"])
    assert record["email"] == "gh@example.com" and record["emailVerified"] is False


def test_linking_keeps_the_accounts_own_email(emu):
    user = emu.sign_up("own@example.com")
    body = emu.ok(emu.sign_in_with_idp("facebook.com", {"sub": "fb-own", "email": "other@example.com"},
                                       link_to=user.id_token))
    record = emu.lookup(body["idToken"])
    assert record["email"] == "own@example.com"
    assert {p["providerId"]: p.get("email") for p in record["providerUserInfo"]} == \
        {"password": "own@example.com", "facebook.com": "other@example.com"}


def test_linking_an_identity_with_the_accounts_own_verified_email_verifies_it(emu):
    user = emu.sign_up("mine@example.com")
    emu.ok(emu.sign_in_with_idp("google.com", {"sub": "g-mine", "email": "mine@example.com", "email_verified": True},
                                link_to=user.id_token))
    assert emu.lookup(user.id_token)["emailVerified"] is True


def test_linking_an_identity_already_linked_to_another_account_is_a_400_by_default(emu):
    emu.ok(emu.sign_in_with_idp("twitter.com", access_token={"sub": "tw-taken"}, oauth_token_secret="s"))
    user = emu.sign_up("linker@example.com")
    assert_bad_request(emu.sign_in_with_idp("twitter.com", access_token={"sub": "tw-taken"}, oauth_token_secret="s",
                                            link_to=user.id_token), "FEDERATED_USER_ID_ALREADY_LINKED")
    assert [p["providerId"] for p in emu.lookup(user.id_token)["providerUserInfo"]] == ["password"]


def test_linking_an_identity_already_linked_answers_200_with_the_credential_when_asked(emu):
    other = emu.ok(emu.sign_in_with_idp("twitter.com", access_token={"sub": "tw-other", "screen_name": "other"},
                                        oauth_token_secret="other-secret"))
    user = emu.sign_up("linker@example.com")
    access = {"sub": "tw-other", "screen_name": "other"}
    response = emu.sign_in_with_idp("twitter.com", access_token=access, oauth_token_secret="other-secret",
                                    link_to=user.id_token, return_idp_credential=True)
    body = emu.ok(response)
    assert body["errorMessage"] == "FEDERATED_USER_ID_ALREADY_LINKED"
    assert IDP_CREDENTIAL_FIELDS - {"oauthIdToken"} <= set(body)
    assert body["providerId"] == "twitter.com" and body["federatedId"] == "tw-other"
    assert body["oauthAccessToken"] == json.dumps(access)
    assert body["oauthTokenSecret"] == "other-secret"
    assert json.loads(body["rawUserInfo"]) == access
    for absent in ["localId", "idToken", "refreshToken", "isNewUser"]:
        assert absent not in body
    assert [p["providerId"] for p in emu.lookup(user.id_token)["providerUserInfo"]] == ["password"]
    # Firebase's recipe: sign in with the returned credential to reach the account that has it.
    switched = emu.ok(emu.sign_in_with_idp(body["providerId"], access_token=body["oauthAccessToken"],
                                           oauth_token_secret=body["oauthTokenSecret"]))
    assert switched["localId"] == other["localId"]


def test_linking_an_identity_already_linked_to_the_same_account_fails_too(emu):
    body = emu.ok(emu.sign_in_with_idp("google.com", {"sub": "g-same"}))
    assert_bad_request(emu.sign_in_with_idp("google.com", {"sub": "g-same"}, link_to=body["idToken"]),
                       "FEDERATED_USER_ID_ALREADY_LINKED")
    again = emu.ok(emu.sign_in_with_idp("google.com", {"sub": "g-same"}, link_to=body["idToken"],
                                        return_idp_credential=True))
    assert again["errorMessage"] == "FEDERATED_USER_ID_ALREADY_LINKED"
    assert again["oauthIdToken"] == json.dumps({"sub": "g-same"})


def test_linking_an_identity_whose_email_is_another_accounts_is_email_exists(emu):
    emu.sign_up("someone@example.com")
    user = emu.sign_up_anonymously()
    claims = {"sub": "g-someone", "email": "someone@example.com", "email_verified": True}
    assert_bad_request(emu.sign_in_with_idp("google.com", claims, link_to=user.id_token), "EMAIL_EXISTS")
    body = emu.ok(emu.sign_in_with_idp("google.com", claims, link_to=user.id_token, return_idp_credential=True))
    assert body["errorMessage"] == "EMAIL_EXISTS"
    assert body["email"] == "someone@example.com"
    assert body["federatedId"] == "https://accounts.google.com/g-someone"
    assert body["oauthIdToken"] == json.dumps(claims)
    assert "localId" not in body and "idToken" not in body
    record = emu.lookup(user.id_token)
    assert "email" not in record and "providerUserInfo" not in record


def test_email_exists_is_not_checked_when_duplicate_emails_are_allowed(emu):
    emu.set_config(signIn={"allowDuplicateEmails": True})
    emu.sign_up("shared@example.com")
    user = emu.sign_up_anonymously()
    body = emu.ok(emu.sign_in_with_idp("google.com", {"sub": "g-shared", "email": "shared@example.com",
                                                      "email_verified": True}, link_to=user.id_token))
    assert body["localId"] == user.local_id
    assert "email" not in emu.lookup(body["idToken"])


def test_a_bad_id_token_to_link_to_fails_even_when_the_credential_is_asked_back(emu):
    assert_bad_request(emu.sign_in_with_idp("google.com", {"sub": "g-x"}, link_to="not.a.token",
                                            return_idp_credential=True), "INVALID_ID_TOKEN")


def test_unlinking_an_identity_frees_it_for_a_new_account(emu):
    user = emu.sign_up("u@example.com")
    emu.ok(emu.sign_in_with_idp("github.com", {"sub": "gh-free"}, link_to=user.id_token))
    body = unlink(emu, user.id_token, "github.com")
    assert [p["providerId"] for p in body["providerUserInfo"]] == ["password"]
    _, claims, _ = decode_jwt(emu.ok(emu.refresh(user.refresh_token))["id_token"])
    assert claims["firebase"]["identities"] == {"email": ["u@example.com"]}
    fresh = emu.ok(emu.sign_in_with_idp("github.com", {"sub": "gh-free"}))
    assert fresh["isNewUser"] is True and fresh["localId"] != user.local_id


def test_unlinking_phone_clears_the_phone_number(emu):
    user = emu.sign_up("phone@example.com")
    emu.ok(emu.admin(":update", {"localId": user.local_id, "phoneNumber": "+15555550102"}))
    body = unlink(emu, user.id_token, "phone")
    assert [p["providerId"] for p in body["providerUserInfo"]] == ["password"]
    record = emu.lookup(user.id_token)
    assert "phoneNumber" not in record
    assert record["email"] == "phone@example.com"


def test_unlinking_password_keeps_the_linked_identities(emu):
    user = emu.sign_up("both@example.com")
    emu.ok(emu.sign_in_with_idp("facebook.com", {"sub": "fb-both"}, link_to=user.id_token))
    body = unlink(emu, user.id_token, "password")
    assert "email" not in body
    assert [p["providerId"] for p in body["providerUserInfo"]] == ["facebook.com"]
    assert emu.ok(emu.sign_in_with_idp("facebook.com", {"sub": "fb-both"}))["localId"] == user.local_id


def test_unlinking_a_provider_that_is_not_linked_changes_nothing(emu):
    user = emu.sign_up("n@example.com")
    body = unlink(emu, user.id_token, "twitter.com")
    assert [p["providerId"] for p in body["providerUserInfo"]] == ["password"]


def test_firebases_account_linking_guide_end_to_end(emu):
    # Sign in with email, link Google and Facebook.
    user = emu.sign_up("guide@example.com")
    google = {"sub": "g-guide", "email": "guide@example.com", "email_verified": True}
    facebook = {"sub": "fb-guide"}
    emu.ok(emu.sign_in_with_idp("google.com", google, link_to=user.id_token))
    linked = emu.ok(emu.sign_in_with_idp("facebook.com", facebook, link_to=user.id_token))
    _, claims, _ = decode_jwt(linked["idToken"])
    assert claims["firebase"]["identities"] == {"email": ["guide@example.com"], "google.com": ["g-guide"],
                                                "facebook.com": ["fb-guide"]}
    # Each way in reaches the same account.
    assert emu.sign_in("guide@example.com", "secret-password").local_id == user.local_id
    assert emu.ok(emu.sign_in_with_idp("google.com", google))["localId"] == user.local_id
    assert emu.ok(emu.sign_in_with_idp("facebook.com", facebook))["localId"] == user.local_id
    # After unlinking Facebook, that identity no longer leads there.
    unlink(emu, linked["idToken"], "facebook.com")
    assert emu.ok(emu.sign_in_with_idp("facebook.com", facebook))["localId"] != user.local_id
    assert emu.ok(emu.sign_in_with_idp("google.com", google))["localId"] == user.local_id
