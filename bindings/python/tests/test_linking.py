"""One account, several ways in: linking and unlinking providers, reauthenticating, the conflicts with
other accounts (and their updated credentials), recent-login rules, and Firebase's account-linking
guide end to end."""

from __future__ import annotations

import time
from typing import Iterator

import pytest

import hearth
from hearth_testing import TIMEOUT, Emulator, claims, jwt_claims, unique_email

PASSWORD = "correct-horse-1"


def google(sub: str, email: str = "", verified: bool = True) -> hearth.Credential:
    fields = {"sub": sub}
    if email:
        fields.update(email=email, email_verified=verified)
    return hearth.GoogleAuthProvider.credential(id_token=claims(**fields))


def facebook(sub: str, email: str = "") -> hearth.Credential:
    return hearth.FacebookAuthProvider.credential(claims(sub=sub, **({"email": email} if email else {})))


def github(sub: str, email: str = "") -> hearth.Credential:
    return hearth.GithubAuthProvider.credential(claims(sub=sub, **({"email": email} if email else {})))


def twitter(sub: str) -> hearth.Credential:
    return hearth.TwitterAuthProvider.credential(claims(sub=sub, screen_name=f"user_{sub}"), "twitter-secret")


def email_user(auth: hearth.Auth, email: str = "") -> hearth.User:
    return auth.create_user_with_email_and_password(email or unique_email(), PASSWORD).result(TIMEOUT).user


def current_uid(auth: hearth.Auth) -> str:
    user = auth.current_user
    assert user is not None, "nobody is signed in"
    return user.uid


def providers(user: hearth.User) -> list:
    return sorted((info.provider_id, info.uid) for info in user.provider_data)


@pytest.fixture
def recent_login(emulator: Emulator) -> Iterator[int]:
    """The emulator asks for a sign-in younger than 1 s before sensitive changes (reset afterwards)."""
    emulator.set_config(recentLoginMaxAgeSeconds=1)
    yield 1
    emulator.set_config(recentLoginMaxAgeSeconds=0)


def wait_until_sign_in_is_older_than(user: hearth.User, seconds: int) -> None:
    auth_time = jwt_claims(user.get_token().result(TIMEOUT))["auth_time"]
    while int(time.time()) - auth_time <= seconds:
        time.sleep(0.05)


class TestLinking:
    def test_linking_a_credential_adds_its_provider_to_the_same_account(
            self, auth: hearth.Auth, emulator: Emulator) -> None:
        email = unique_email()
        user = email_user(auth, email)

        result = user.link_with_credential(google("g-link", email)).result(TIMEOUT)

        assert result.user.uid == user.uid
        assert providers(result.user) == [("google.com", "g-link"), ("password", email)]
        assert result.additional_user_info.provider_id == "google.com"
        assert result.credential is not None and result.credential.provider == "google.com"
        assert emulator.provider_ids(user.uid) == ["google.com", "password"]
        assert providers(auth.current_user) == providers(result.user)  # type: ignore[arg-type]

    def test_provider_data_lists_every_linked_provider_with_its_raw_id(self, auth: hearth.Auth) -> None:
        email = unique_email()
        user = email_user(auth, email)
        for credential in (google("g-all"), facebook("fb-all"), twitter("tw-all"), github("gh-all"),
                           hearth.OAuthProvider.credential("oidc.corp", id_token=claims(sub="oidc-all"))):
            user.link_with_credential(credential).result(TIMEOUT)

        fresh = user.reload().result(TIMEOUT)

        assert providers(fresh) == [("facebook.com", "fb-all"), ("github.com", "gh-all"), ("google.com", "g-all"),
                                    ("oidc.corp", "oidc-all"), ("password", email), ("twitter.com", "tw-all")]
        assert fresh.uid == user.uid

    def test_an_anonymous_user_linked_to_a_provider_is_upgraded_and_keeps_its_uid(self, auth: hearth.Auth) -> None:
        anonymous = auth.sign_in_anonymously().result(TIMEOUT).user
        assert anonymous.is_anonymous

        upgraded = anonymous.link_with_credential(facebook("fb-upgrade", "up@example.com")).result(TIMEOUT).user

        assert upgraded.uid == anonymous.uid
        assert upgraded.is_anonymous is False
        assert providers(upgraded) == [("facebook.com", "fb-upgrade")]
        auth.sign_out()
        again = auth.sign_in_with_credential(facebook("fb-upgrade")).result(TIMEOUT)
        assert again.uid == anonymous.uid
        assert again.is_anonymous is False

    def test_an_anonymous_user_linked_to_an_email_credential_is_upgraded(self, auth: hearth.Auth) -> None:
        anonymous = auth.sign_in_anonymously().result(TIMEOUT).user
        email = unique_email()

        upgraded = anonymous.link_with_credential(hearth.EmailAuthProvider.credential(email, PASSWORD)).result(
            TIMEOUT).user

        assert (upgraded.uid, upgraded.email, upgraded.is_anonymous) == (anonymous.uid, email, False)
        auth.sign_out()
        assert auth.sign_in_with_email_and_password(email, PASSWORD).result(TIMEOUT).user.uid == anonymous.uid

    def test_linking_a_provider_the_account_already_has_fails_with_provider_already_linked(
            self, auth: hearth.Auth, emulator: Emulator) -> None:
        user = email_user(auth)
        user.link_with_credential(google("g-first")).result(TIMEOUT)

        with pytest.raises(hearth.ProviderAlreadyLinkedError) as raised:
            user.link_with_credential(google("g-second")).result(TIMEOUT)

        assert raised.value.code == hearth.ErrorCode.PROVIDER_ALREADY_LINKED == 15
        assert emulator.provider_ids(user.uid) == ["google.com", "password"]
        with pytest.raises(hearth.ProviderAlreadyLinkedError):
            user.link_with_credential(hearth.EmailAuthProvider.credential(unique_email(), PASSWORD)).result(TIMEOUT)

    def test_linking_after_signing_out_fails_with_no_signed_in_user(self, auth: hearth.Auth) -> None:
        user = email_user(auth)
        auth.sign_out()

        with pytest.raises(hearth.NoSignedInUserError):
            user.link_with_credential(google("g-late")).result(TIMEOUT)

    def test_link_arguments_of_the_wrong_type_are_type_errors(self, auth: hearth.Auth) -> None:
        user = email_user(auth)

        with pytest.raises(TypeError):
            user.link_with_credential("google.com")  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            user.reauthenticate(None)  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            user.unlink(hearth.GoogleAuthProvider)  # type: ignore[arg-type]


class TestConflicts:
    def test_a_credential_already_linked_elsewhere_fails_with_an_updated_credential_for_that_account(
            self, auth: hearth.Auth) -> None:
        # Firebase's C++ recipe: on kAuthErrorCredentialAlreadyInUse, sign in with updated_credential.
        owner = auth.sign_in_with_credential(google("g-owned")).result(TIMEOUT)
        auth.sign_out()
        other = email_user(auth)

        with pytest.raises(hearth.CredentialAlreadyInUseError) as raised:
            other.link_with_credential(google("g-owned")).result(TIMEOUT)

        error = raised.value
        assert error.code == hearth.ErrorCode.CREDENTIAL_ALREADY_IN_USE == 10
        assert isinstance(error, hearth.AccountConflictError)
        assert current_uid(auth) == other.uid  # still signed in as the other account
        assert providers(auth.current_user) == providers(other)  # type: ignore[arg-type]
        updated = error.updated_credential
        assert isinstance(updated, hearth.Credential)
        assert updated.provider == "google.com"
        assert "g-owned" not in repr(updated)

        signed_in = auth.sign_in_with_credential(updated).result(TIMEOUT)

        assert signed_in.uid == owner.uid
        assert current_uid(auth) == owner.uid

    def test_the_updated_credential_survives_the_error_and_the_future(self, auth: hearth.Auth) -> None:
        owner = auth.sign_in_with_credential(twitter("tw-owned")).result(TIMEOUT)
        auth.sign_out()
        other = email_user(auth)
        future = other.link_with_credential(twitter("tw-owned"))
        error = future.exception(TIMEOUT)
        assert isinstance(error, hearth.CredentialAlreadyInUseError)
        updated = error.updated_credential
        del error, future

        assert updated is not None
        assert updated.provider == "twitter.com"
        assert updated.secret == "twitter-secret"
        assert auth.sign_in_and_retrieve_data_with_credential(updated).result(TIMEOUT).user.uid == owner.uid

    def test_linking_an_identity_whose_email_is_another_accounts_fails_with_email_already_in_use(
            self, auth: hearth.Auth, emulator: Emulator) -> None:
        taken = unique_email("taken")
        email_user(auth, taken)
        auth.sign_out()
        other = email_user(auth)

        with pytest.raises(hearth.EmailAlreadyInUseError) as raised:
            other.link_with_credential(google("g-taken-email", taken)).result(TIMEOUT)

        error = raised.value
        assert error.code == hearth.ErrorCode.EMAIL_ALREADY_IN_USE == 8
        assert isinstance(error, hearth.AccountConflictError)
        assert error.email == taken
        assert current_uid(auth) == other.uid
        assert emulator.provider_ids(other.uid) == ["password"]

    def test_an_unverified_provider_email_of_an_existing_account_is_account_exists_with_different_credentials(
            self, auth: hearth.Auth, emulator: Emulator) -> None:
        email = unique_email("exists")
        owner = email_user(auth, email)
        auth.sign_out()

        with pytest.raises(hearth.AccountExistsWithDifferentCredentialsError) as raised:
            auth.sign_in_with_credential(github("gh-unverified", email)).result(TIMEOUT)

        error = raised.value
        assert error.code == hearth.ErrorCode.ACCOUNT_EXISTS_WITH_DIFFERENT_CREDENTIALS == 6
        assert error.email == email
        assert auth.current_user is None
        assert emulator.provider_ids(owner.uid) == ["password"]
        # The documented way out: sign in the way the account knows, then link the new identity.
        assert error.updated_credential is not None and error.updated_credential.provider == "github.com"
        user = auth.sign_in_with_email_and_password(email, PASSWORD).result(TIMEOUT).user
        linked = user.link_with_credential(error.updated_credential).result(TIMEOUT).user
        assert providers(linked) == [("github.com", "gh-unverified"), ("password", email)]
        auth.sign_out()
        assert auth.sign_in_with_credential(github("gh-unverified", email)).result(TIMEOUT).uid == owner.uid

    def test_a_verified_provider_email_signs_in_to_the_existing_account_and_links_it(
            self, auth: hearth.Auth, emulator: Emulator) -> None:
        email = unique_email("verified")
        owner = email_user(auth, email)
        auth.sign_out()

        result = auth.sign_in_and_retrieve_data_with_credential(google("g-verified", email, verified=True)).result(
            TIMEOUT)

        assert result.user.uid == owner.uid
        assert result.additional_user_info.is_new_user is False
        assert ("google.com", "g-verified") in providers(result.user)
        assert "google.com" in emulator.provider_ids(owner.uid)

    def test_creating_a_user_with_a_taken_email_has_no_updated_credential(self, auth: hearth.Auth) -> None:
        email = unique_email()
        email_user(auth, email)
        auth.sign_out()

        error = auth.create_user_with_email_and_password(email, PASSWORD).exception(TIMEOUT)

        assert isinstance(error, hearth.EmailAlreadyInUseError)
        assert error.updated_credential is None


class TestReauthentication:
    def test_reauthenticating_with_the_users_own_credential_succeeds(self, auth: hearth.Auth) -> None:
        email = unique_email()
        user = email_user(auth, email)

        assert user.reauthenticate(hearth.EmailAuthProvider.credential(email, PASSWORD)).result(TIMEOUT) is None
        result = user.reauthenticate_and_retrieve_data(hearth.EmailAuthProvider.credential(email, PASSWORD)).result(
            TIMEOUT)

        assert result.user.uid == user.uid
        assert result.additional_user_info.is_new_user is False
        assert current_uid(auth) == user.uid

    def test_reauthenticating_with_a_provider_credential_returns_its_credential(self, auth: hearth.Auth) -> None:
        user = auth.sign_in_with_credential(twitter("tw-reauth")).result(TIMEOUT)

        result = user.reauthenticate_and_retrieve_data(twitter("tw-reauth")).result(TIMEOUT)

        assert result.user.uid == user.uid
        assert result.additional_user_info.provider_id == "twitter.com"
        assert result.credential is not None and result.credential.secret == "twitter-secret"

    def test_reauthenticating_as_a_different_user_fails_with_user_mismatch_and_keeps_the_user(
            self, auth: hearth.Auth) -> None:
        other_email = unique_email("other")
        email_user(auth, other_email)
        auth.sign_out()
        user = auth.sign_in_with_credential(google("g-mismatch")).result(TIMEOUT)

        with pytest.raises(hearth.UserMismatchError) as raised:
            user.reauthenticate(hearth.EmailAuthProvider.credential(other_email, PASSWORD)).result(TIMEOUT)
        with pytest.raises(hearth.UserMismatchError):
            user.reauthenticate_and_retrieve_data(google("g-someone-else")).result(TIMEOUT)

        assert raised.value.code == hearth.ErrorCode.USER_MISMATCH == 22
        assert current_uid(auth) == user.uid
        assert user.get_token().result(TIMEOUT)

    def test_reauthenticating_with_a_wrong_password_fails_and_keeps_the_user(self, auth: hearth.Auth) -> None:
        email = unique_email()
        user = email_user(auth, email)

        with pytest.raises(hearth.WrongPasswordError):
            user.reauthenticate(hearth.EmailAuthProvider.credential(email, "not-the-password")).result(TIMEOUT)

        assert current_uid(auth) == user.uid


class TestUnlinking:
    def test_unlinking_a_provider_that_is_not_linked_fails_with_no_such_provider(self, auth: hearth.Auth) -> None:
        user = email_user(auth)

        with pytest.raises(hearth.NoSuchProviderError) as raised:
            user.unlink("google.com").result(TIMEOUT)

        assert raised.value.code == hearth.ErrorCode.NO_SUCH_PROVIDER == 16

    def test_unlinking_a_provider_removes_it_and_its_identity_then_signs_in_elsewhere(
            self, auth: hearth.Auth, emulator: Emulator) -> None:
        email = unique_email()
        user = email_user(auth, email)
        user.link_with_credential(facebook("fb-unlink")).result(TIMEOUT)

        result = user.unlink("facebook.com").result(TIMEOUT)

        assert result.user.uid == user.uid
        assert providers(result.user) == [("password", email)]
        assert emulator.provider_ids(user.uid) == ["password"]
        assert providers(auth.current_user) == [("password", email)]  # type: ignore[arg-type]
        auth.sign_out()
        elsewhere = auth.sign_in_and_retrieve_data_with_credential(facebook("fb-unlink")).result(TIMEOUT)
        assert elsewhere.user.uid != user.uid
        assert elsewhere.additional_user_info.is_new_user is True

    def test_unlinking_the_password_provider_removes_the_email(self, auth: hearth.Auth, emulator: Emulator) -> None:
        email = unique_email()
        user = email_user(auth, email)
        user.link_with_credential(github("gh-keep")).result(TIMEOUT)

        result = user.unlink("password").result(TIMEOUT)

        assert result.user.email is None
        assert providers(result.user) == [("github.com", "gh-keep")]
        record = emulator.lookup(user.uid)
        assert record is not None and "email" not in record
        auth.sign_out()
        with pytest.raises(hearth.UserNotFoundError):
            auth.sign_in_with_email_and_password(email, PASSWORD).result(TIMEOUT)
        assert auth.sign_in_with_credential(github("gh-keep")).result(TIMEOUT).uid == user.uid


class TestRecentLogin:
    def test_an_old_sign_in_must_reauthenticate_before_changing_the_password(
            self, auth: hearth.Auth, recent_login: int) -> None:
        email = unique_email()
        user = email_user(auth, email)
        wait_until_sign_in_is_older_than(user, recent_login)

        with pytest.raises(hearth.RequiresRecentLoginError) as raised:
            user.update_password("a-new-password-1").result(TIMEOUT)
        assert raised.value.code == hearth.ErrorCode.REQUIRES_RECENT_LOGIN == 9
        assert current_uid(auth) == user.uid

        user.reauthenticate(hearth.EmailAuthProvider.credential(email, PASSWORD)).result(TIMEOUT)
        user.update_password("a-new-password-1").result(TIMEOUT)

        auth.sign_out()
        assert auth.sign_in_with_email_and_password(email, "a-new-password-1").result(TIMEOUT).user.uid == user.uid

    def test_an_old_provider_sign_in_must_reauthenticate_with_the_provider_before_deleting(
            self, auth: hearth.Auth, emulator: Emulator, recent_login: int) -> None:
        user = auth.sign_in_with_credential(google("g-old", "old@example.com")).result(TIMEOUT)
        wait_until_sign_in_is_older_than(user, recent_login)

        with pytest.raises(hearth.RequiresRecentLoginError):
            user.delete().result(TIMEOUT)
        assert emulator.lookup(user.uid) is not None

        user.reauthenticate(google("g-old", "old@example.com")).result(TIMEOUT)
        user.delete().result(TIMEOUT)

        assert emulator.lookup(user.uid) is None
        assert auth.current_user is None


class TestAccountLinkingGuide:
    def test_firebases_account_linking_guide_end_to_end(self, auth: hearth.Auth) -> None:
        # Sign in with email, link Google and Facebook.
        email = unique_email("guide")
        user = email_user(auth, email)
        user.link_with_credential(google("g-guide", email)).result(TIMEOUT)
        linked = user.link_with_credential(facebook("fb-guide")).result(TIMEOUT).user
        assert providers(linked) == [("facebook.com", "fb-guide"), ("google.com", "g-guide"), ("password", email)]
        auth.sign_out()

        # Each way in reaches the same account.
        assert auth.sign_in_with_email_and_password(email, PASSWORD).result(TIMEOUT).user.uid == user.uid
        auth.sign_out()
        assert auth.sign_in_with_credential(google("g-guide", email)).result(TIMEOUT).uid == user.uid
        auth.sign_out()
        by_facebook = auth.sign_in_with_credential(facebook("fb-guide")).result(TIMEOUT)
        assert by_facebook.uid == user.uid

        # Unlink Facebook: that identity no longer leads there (it makes a new user); Google still does.
        by_facebook.unlink("facebook.com").result(TIMEOUT)
        auth.sign_out()
        stranger = auth.sign_in_and_retrieve_data_with_credential(facebook("fb-guide")).result(TIMEOUT)
        assert stranger.user.uid != user.uid and stranger.additional_user_info.is_new_user is True
        auth.sign_out()
        assert auth.sign_in_with_credential(google("g-guide", email)).result(TIMEOUT).uid == user.uid

    def test_an_unlinked_identity_with_the_accounts_unverified_email_is_refused(self, auth: hearth.Auth) -> None:
        email = unique_email("refused")
        user = email_user(auth, email)
        user.link_with_credential(github("gh-refused", email)).result(TIMEOUT)
        user.unlink("github.com").result(TIMEOUT)
        auth.sign_out()

        with pytest.raises(hearth.AccountExistsWithDifferentCredentialsError) as raised:
            auth.sign_in_with_credential(github("gh-refused", email)).result(TIMEOUT)

        assert raised.value.email == email
        assert auth.current_user is None


class TestLastResults:
    def test_each_linking_operation_remembers_its_latest_future(self, auth: hearth.Auth) -> None:
        email = unique_email()
        user = email_user(auth, email)
        assert user.link_with_credential_last_result() is None
        assert user.unlink_last_result() is None
        assert user.reauthenticate_last_result() is None
        assert user.reauthenticate_and_retrieve_data_last_result() is None

        user.link_with_credential(github("gh-last")).result(TIMEOUT)
        user.unlink("github.com").result(TIMEOUT)
        user.reauthenticate(hearth.EmailAuthProvider.credential(email, PASSWORD)).result(TIMEOUT)
        user.reauthenticate_and_retrieve_data(hearth.EmailAuthProvider.credential(email, PASSWORD)).result(TIMEOUT)

        link = user.link_with_credential_last_result()
        assert link is not None and ("github.com", "gh-last") in providers(link.result(TIMEOUT).user)
        unlink = user.unlink_last_result()
        assert unlink is not None and providers(unlink.result(TIMEOUT).user) == [("password", email)]
        reauth = user.reauthenticate_last_result()
        assert reauth is not None and reauth.result(TIMEOUT) is None
        retrieved = user.reauthenticate_and_retrieve_data_last_result()
        assert retrieved is not None and retrieved.result(TIMEOUT).user.uid == user.uid
