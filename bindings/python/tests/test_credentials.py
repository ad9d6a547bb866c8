"""Identity-provider credentials: what each provider's constructor makes, signing in with every kind
against the emulator's fake identity providers, what the auth result tells, and nonces."""

from __future__ import annotations

import hashlib
import json
import re
from typing import Callable

import pytest

import hearth
from hearth_testing import TIMEOUT, Emulator, RecordingProxy, claims, make_jwt, query_of, unique_email

PASSWORD = "correct-horse-1"


class TestNonces:
    def test_a_generated_nonce_is_32_url_safe_characters_with_its_sha256(self) -> None:
        nonce = hearth.generate_nonce()

        assert re.fullmatch(r"[0-9A-Za-z\-._]{32}", nonce.raw)
        assert nonce.sha256_hex == hashlib.sha256(nonce.raw.encode()).hexdigest()
        raw, digest = nonce  # a named tuple
        assert (raw, digest) == (nonce.raw, nonce.sha256_hex)

    def test_every_nonce_is_new(self) -> None:
        raws = {hearth.generate_nonce().raw for _ in range(200)}

        assert len(raws) == 200

    def test_a_nonces_repr_hides_the_raw_value(self) -> None:
        nonce = hearth.generate_nonce()

        assert nonce.raw not in repr(nonce)
        assert nonce.sha256_hex in repr(nonce)

    def test_sha256_hex_hashes_utf8_text(self) -> None:
        for text in ["", "abc", "ünïcødé ✓", "x" * 1000]:
            assert hearth.sha256_hex(text) == hashlib.sha256(text.encode()).hexdigest()

    def test_sha256_hex_refuses_what_cannot_be_a_c_string(self) -> None:
        with pytest.raises(TypeError):
            hearth.sha256_hex(b"bytes")  # type: ignore[arg-type]
        with pytest.raises(ValueError):
            hearth.sha256_hex("nul\x00inside")


class TestConstructors:
    def test_each_provider_makes_a_credential_of_its_provider_id_with_its_tokens(self) -> None:
        made = {
            "google.com": hearth.GoogleAuthProvider.credential(id_token="G-ID", access_token="G-AT"),
            "facebook.com": hearth.FacebookAuthProvider.credential("FB-AT"),
            "twitter.com": hearth.TwitterAuthProvider.credential("TW-TOKEN", "TW-SECRET"),
            "github.com": hearth.GithubAuthProvider.credential("GH-TOKEN"),
            "playgames.google.com": hearth.PlayGamesAuthProvider.credential("PG-CODE"),
            "microsoft.com": hearth.OAuthProvider.credential("microsoft.com", id_token="MS-ID", access_token="MS-AT"),
            "apple.com": hearth.AppleAuthProvider.credential("APPLE-ID", "raw-nonce", "APPLE-CODE", "Ada", "Lovelace"),
            "password": hearth.EmailAuthProvider.credential("ada@example.com", PASSWORD),
        }

        for provider_id, credential in made.items():
            assert credential.provider == provider_id
            assert credential.is_valid
        assert (made["google.com"].id_token, made["google.com"].access_token) == ("G-ID", "G-AT")
        assert made["facebook.com"].access_token == "FB-AT" and made["facebook.com"].id_token is None
        assert (made["twitter.com"].access_token, made["twitter.com"].secret) == ("TW-TOKEN", "TW-SECRET")
        assert made["github.com"].access_token == "GH-TOKEN"
        assert (made["microsoft.com"].id_token, made["microsoft.com"].access_token) == ("MS-ID", "MS-AT")
        assert made["apple.com"].id_token == "APPLE-ID"
        assert made["password"].id_token is None and made["password"].secret is None

    def test_facebook_limited_login_is_a_facebook_credential_with_an_id_token(self) -> None:
        credential = hearth.FacebookAuthProvider.limited_login_credential("FB-ID", "raw")

        assert credential.provider == "facebook.com"
        assert credential.id_token == "FB-ID"
        assert credential.access_token is None

    def test_a_generic_oauth_credential_with_a_nonce_keeps_its_provider(self) -> None:
        oidc = hearth.OAuthProvider.credential("oidc.corp", id_token="OIDC-ID", raw_nonce="raw")
        apple = hearth.OAuthProvider.credential("apple.com", id_token="APPLE-ID", raw_nonce="raw",
                                                access_token="CODE")

        assert (oidc.provider, oidc.id_token) == ("oidc.corp", "OIDC-ID")
        assert (apple.provider, apple.id_token) == ("apple.com", "APPLE-ID")

    def test_a_credentials_repr_shows_no_token(self) -> None:
        credential = hearth.TwitterAuthProvider.credential("TW-TOKEN-VALUE", "TW-SECRET-VALUE")

        assert repr(credential) == "<hearth.Credential provider='twitter.com'>"

    def test_credentials_are_made_by_providers_only(self) -> None:
        for cls in (hearth.Credential, hearth.GoogleAuthProvider, hearth.AppleAuthProvider,
                    hearth.FacebookAuthProvider, hearth.EmailAuthProvider):
            with pytest.raises(TypeError):
                cls()  # type: ignore[call-arg]

    def test_a_credential_needs_at_least_one_token(self) -> None:
        with pytest.raises(ValueError):
            hearth.GoogleAuthProvider.credential()
        with pytest.raises(ValueError):
            hearth.OAuthProvider.credential("microsoft.com")
        with pytest.raises(ValueError):
            hearth.OAuthProvider.credential("oidc.corp", access_token="AT", raw_nonce="raw")

    def test_wrong_argument_types_are_type_errors_and_unusable_text_value_errors(self) -> None:
        with pytest.raises(TypeError):
            hearth.FacebookAuthProvider.credential(None)  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            hearth.GithubAuthProvider.credential(b"token")  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            hearth.AppleAuthProvider.credential("id", 42)  # type: ignore[arg-type]
        with pytest.raises(ValueError):
            hearth.TwitterAuthProvider.credential("token", "sec\x00ret")
        with pytest.raises(ValueError):
            hearth.OAuthProvider.credential("oidc.corp", id_token="\ud800")

    def test_an_empty_token_is_accepted_here_and_refused_when_used(self, auth: hearth.Auth) -> None:
        credential = hearth.GithubAuthProvider.credential("")

        with pytest.raises(hearth.InvalidCredentialError):
            auth.sign_in_with_credential(credential).result(TIMEOUT)
        assert auth.current_user is None


def sign_in(auth: hearth.Auth, credential: hearth.Credential) -> hearth.AuthResult:
    return auth.sign_in_and_retrieve_data_with_credential(credential).result(TIMEOUT)


class TestSigningInWithEachProvider:
    def test_google_with_an_id_token_creates_a_user_with_the_google_identity(
            self, auth: hearth.Auth, emulator: Emulator) -> None:
        token = claims(sub="g-123", email="ann@example.com", email_verified=True, name="Ann Example",
                       picture="https://photos.example/ann.png")

        result = sign_in(auth, hearth.GoogleAuthProvider.credential(id_token=token))

        user = result.user
        assert user.email == "ann@example.com"
        assert user.is_email_verified is True
        assert user.display_name == "Ann Example"
        assert user.photo_url == "https://photos.example/ann.png"
        assert user.is_anonymous is False
        assert [(info.provider_id, info.uid) for info in user.provider_data] == [("google.com", "g-123")]
        info = result.additional_user_info
        assert info.provider_id == "google.com"
        assert info.is_new_user is True
        assert info.profile["email"] == "ann@example.com"
        assert result.credential is not None
        assert result.credential.provider == "google.com"
        assert result.credential.id_token == token
        assert emulator.provider_ids(user.uid) == ["google.com"]

    def test_signing_in_again_with_the_same_identity_reaches_the_same_user(self, auth: hearth.Auth) -> None:
        token = claims(sub="g-again", email="again@example.com", email_verified=True)
        first = sign_in(auth, hearth.GoogleAuthProvider.credential(id_token=token))
        auth.sign_out()

        second = sign_in(auth, hearth.GoogleAuthProvider.credential(id_token=token))

        assert second.user.uid == first.user.uid
        assert second.additional_user_info.is_new_user is False

    def test_google_with_an_unsigned_jwt_id_token(self, auth: hearth.Auth) -> None:
        token = make_jwt({"sub": "g-jwt", "email": "jwt@example.com", "email_verified": True})

        user = auth.sign_in_with_credential(hearth.GoogleAuthProvider.credential(id_token=token)).result(TIMEOUT)

        assert user.email == "jwt@example.com"
        assert [info.uid for info in user.provider_data] == ["g-jwt"]

    def test_google_with_only_an_access_token_is_refused_by_the_emulator(self, auth: hearth.Auth) -> None:
        # Firebase's emulator signs in with Google ID tokens only (501 for an access token alone).
        future = auth.sign_in_with_credential(hearth.GoogleAuthProvider.credential(access_token="ya29.opaque"))

        error = future.exception(TIMEOUT)

        assert isinstance(error, hearth.AuthError)
        assert error.code == hearth.ErrorCode.FAILURE
        assert "only support sign-in with google.com using id_token" in error.message
        assert auth.current_user is None

    def test_facebook_with_an_access_token(self, auth: hearth.Auth) -> None:
        token = claims(sub="fb-1", email="fb@example.com", name="Face Book")

        result = sign_in(auth, hearth.FacebookAuthProvider.credential(token))

        assert result.additional_user_info.provider_id == "facebook.com"
        assert [(info.provider_id, info.uid) for info in result.user.provider_data] == [("facebook.com", "fb-1")]
        assert result.user.display_name == "Face Book"
        assert result.credential is not None and result.credential.access_token == token

    def test_facebook_limited_login_with_the_raw_nonce_its_token_was_made_for(self, auth: hearth.Auth) -> None:
        nonce = hearth.generate_nonce()
        token = claims(sub="fb-limited", email="limited@example.com", nonce=nonce.sha256_hex)

        result = sign_in(auth, hearth.FacebookAuthProvider.limited_login_credential(token, nonce.raw))

        assert [info.uid for info in result.user.provider_data] == ["fb-limited"]

    def test_facebook_limited_login_with_another_raw_nonce_is_an_invalid_credential(self, auth: hearth.Auth) -> None:
        nonce = hearth.generate_nonce()
        token = claims(sub="fb-limited-2", nonce=nonce.sha256_hex)

        with pytest.raises(hearth.InvalidCredentialError):
            sign_in(auth, hearth.FacebookAuthProvider.limited_login_credential(token, "not-the-raw-nonce"))

    def test_twitter_with_token_and_secret_returns_both_and_the_screen_name(self, auth: hearth.Auth) -> None:
        token = claims(sub="tw-1", screen_name="jack", name="Jack")

        result = sign_in(auth, hearth.TwitterAuthProvider.credential(token, "s3cret/+="))

        assert result.additional_user_info.provider_id == "twitter.com"
        assert result.additional_user_info.user_name == "jack"
        assert result.credential is not None
        assert result.credential.provider == "twitter.com"
        assert result.credential.access_token == token
        assert result.credential.secret == "s3cret/+="

    def test_github_with_a_token(self, auth: hearth.Auth) -> None:
        token = claims(sub="gh-1", email="octo@example.com", screen_name="octocat")

        result = sign_in(auth, hearth.GithubAuthProvider.credential(token))

        assert result.additional_user_info.provider_id == "github.com"
        assert result.additional_user_info.user_name == "octocat"
        assert [(info.provider_id, info.uid) for info in result.user.provider_data] == [("github.com", "gh-1")]
        assert result.credential is not None and result.credential.access_token == token

    def test_play_games_sends_the_server_auth_code_as_code(
            self, app: hearth.App, recording_proxy: RecordingProxy) -> None:
        app.auth.use_emulator("127.0.0.1", recording_proxy.port)

        # The emulator has no Play Games server to exchange the code with, so it refuses the sign-in;
        # what matters here is that the code reached signInWithIdp as Firebase expects it.
        error = app.auth.sign_in_with_credential(hearth.PlayGamesAuthProvider.credential("4/server-code")).exception(
            TIMEOUT)

        assert isinstance(error, hearth.AuthError)
        assert error.code == hearth.ErrorCode.FAILURE
        assert "id_token required" in error.message
        [request] = recording_proxy.matching("accounts:signInWithIdp")
        body = json.loads(request.body)
        post_body = query_of("http://x/?" + body["postBody"])
        assert post_body == {"code": "4/server-code", "providerId": "playgames.google.com"}
        assert body["returnIdpCredential"] is True and body["returnSecureToken"] is True

    @pytest.mark.parametrize("provider_id", ["microsoft.com", "yahoo.com", "oidc.corp"])
    def test_a_generic_oauth_provider_with_an_id_token(self, auth: hearth.Auth, provider_id: str) -> None:
        token = claims(sub=f"{provider_id}-1", email=f"{provider_id}@example.com", name="Generic")

        result = sign_in(auth, hearth.OAuthProvider.credential(provider_id, id_token=token))

        assert result.additional_user_info.provider_id == provider_id
        linked = [(info.provider_id, info.uid) for info in result.user.provider_data]
        assert linked == [(provider_id, f"{provider_id}-1")]
        assert result.user.email == f"{provider_id}@example.com"
        assert result.credential is not None and result.credential.provider == provider_id

    def test_a_generic_oauth_provider_with_an_access_token_of_json_claims(self, auth: hearth.Auth) -> None:
        token = claims(sub="yahoo-at", email="yahoo-at@example.com")

        result = sign_in(auth, hearth.OAuthProvider.credential("yahoo.com", access_token=token))

        assert [info.uid for info in result.user.provider_data] == ["yahoo-at"]

    def test_an_oidc_provider_checks_the_raw_nonce(self, auth: hearth.Auth) -> None:
        nonce = hearth.generate_nonce()
        token = make_jwt({"sub": "oidc-n", "nonce": nonce.sha256_hex})

        with pytest.raises(hearth.InvalidCredentialError):
            sign_in(auth, hearth.OAuthProvider.credential("oidc.corp", id_token=token, raw_nonce="wrong"))
        result = sign_in(auth, hearth.OAuthProvider.credential("oidc.corp", id_token=token, raw_nonce=nonce.raw))

        assert [info.uid for info in result.user.provider_data] == ["oidc-n"]

    def test_apple_with_the_raw_nonce_and_the_users_name(self, auth: hearth.Auth) -> None:
        nonce = hearth.generate_nonce()
        token = claims(sub="apple-1", email="apple@example.com", email_verified="true", nonce=nonce.sha256_hex)

        result = sign_in(auth, hearth.AppleAuthProvider.credential(token, nonce.raw, given_name="Ada",
                                                                   family_name="Lovelace"))

        assert result.additional_user_info.provider_id == "apple.com"
        assert [(info.provider_id, info.uid) for info in result.user.provider_data] == [("apple.com", "apple-1")]
        assert result.user.email == "apple@example.com"
        assert result.credential is not None and result.credential.provider == "apple.com"

    def test_apple_sends_the_authorization_code_and_the_name_it_was_given(
            self, app: hearth.App, recording_proxy: RecordingProxy) -> None:
        app.auth.use_emulator("127.0.0.1", recording_proxy.port)
        nonce = hearth.generate_nonce()
        token = claims(sub="apple-2", nonce=nonce.sha256_hex)

        sign_in(app.auth, hearth.AppleAuthProvider.credential(token, nonce.raw, "APPLE-CODE", "Ada", "Lovelace"))

        [request] = recording_proxy.matching("accounts:signInWithIdp")
        post_body = query_of("http://x/?" + json.loads(request.body)["postBody"])
        assert post_body["id_token"] == token
        assert post_body["nonce"] == nonce.raw
        assert post_body["access_token"] == "APPLE-CODE"
        assert post_body["providerId"] == "apple.com"
        assert json.loads(post_body["user"]) == {"name": {"firstName": "Ada", "lastName": "Lovelace"}}

    def test_apple_through_the_generic_oauth_credential(self, auth: hearth.Auth) -> None:
        nonce = hearth.generate_nonce()
        token = claims(sub="apple-3", nonce=nonce.sha256_hex)

        result = sign_in(auth, hearth.OAuthProvider.credential("apple.com", id_token=token, raw_nonce=nonce.raw))

        assert [(info.provider_id, info.uid) for info in result.user.provider_data] == [("apple.com", "apple-3")]

    @pytest.mark.parametrize("make", [
        lambda nonce, token: hearth.AppleAuthProvider.credential(token, "not-the-raw-nonce"),
        lambda nonce, token: hearth.AppleAuthProvider.credential(token, nonce.sha256_hex),
    ], ids=["another-raw-nonce", "the-hash-instead-of-the-raw-nonce"])
    def test_apple_with_a_wrong_raw_nonce_is_an_invalid_credential(
            self, auth: hearth.Auth, make: Callable[[hearth.Nonce, str], hearth.Credential]) -> None:
        nonce = hearth.generate_nonce()
        token = claims(sub="apple-wrong", nonce=nonce.sha256_hex)

        with pytest.raises(hearth.InvalidCredentialError) as raised:
            sign_in(auth, make(nonce, token))

        assert raised.value.code == hearth.ErrorCode.INVALID_CREDENTIAL
        assert auth.current_user is None

    def test_a_token_without_a_subject_is_an_invalid_credential(self, auth: hearth.Auth) -> None:
        with pytest.raises(hearth.InvalidCredentialError):
            sign_in(auth, hearth.GoogleAuthProvider.credential(id_token=claims(email="nosub@example.com")))

    def test_an_email_credential_still_signs_in(self, auth: hearth.Auth) -> None:
        email = unique_email()
        uid = auth.create_user_with_email_and_password(email, PASSWORD).result(TIMEOUT).user.uid
        auth.sign_out()

        result = sign_in(auth, hearth.EmailAuthProvider.credential(email, PASSWORD))

        assert result.user.uid == uid
        assert result.credential is None
