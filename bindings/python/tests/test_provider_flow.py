"""Provider sign-in on a desktop, with no browser: the test's ``open_url`` delegate hands the URL to a
fake browser thread that picks an identity on the emulator's provider page and follows the redirect
to Hearth's loopback receiver (or hands a custom-scheme URL to ``Auth.handle_url``).

Both pages are covered: the emulator's own handler page (the default against the emulator) and the
production path (``use_create_auth_uri=True``: createAuthUri's consent page, then signInWithIdp with
the session id)."""

from __future__ import annotations

import asyncio
import json
import logging
import socket
import threading
import time
import urllib.parse
from typing import Callable, Dict, List, Optional, Tuple

import pytest

import hearth
from hearth_testing import (
    TIMEOUT,
    Emulator,
    FakeBrowser,
    Visit,
    choice_url,
    http_get,
    query_of,
    unique_email,
)

PASSWORD = "correct-horse-1"
PAGES = {"handler-page": False, "create-auth-uri": True}


@pytest.fixture(params=list(PAGES), ids=list(PAGES))
def use_create_auth_uri(request: pytest.FixtureRequest) -> bool:
    return PAGES[request.param]


@pytest.fixture
def browser(auth: hearth.Auth) -> FakeBrowser:
    return FakeBrowser(handle_url=auth.handle_url)


@pytest.fixture
def flow_auth(auth: hearth.Auth, browser: FakeBrowser, use_create_auth_uri: bool) -> hearth.Auth:
    """An Auth whose provider flows open the fake browser, on the page chosen by the parameter."""
    auth.set_provider_flow(open_url=browser.open_url, use_create_auth_uri=use_create_auth_uri)
    return auth


def page_parameters(url: str) -> Tuple[List[str], Dict[str, str]]:
    """The scopes and custom parameters a provider page URL carries."""
    query = query_of(url)
    scopes = query["scopes"].split(",") if query.get("scopes") else []
    return scopes, json.loads(query.get("customParameters") or "{}")


def redirect_target(url: str) -> str:
    """Where the provider page will send the browser: the handler page's redirectUrl or the consent
    page's continueUri."""
    query = query_of(url)
    return query.get("redirectUrl") or query["continueUri"]


def replace_query_value(url: str, name: str, value: str) -> str:
    parts = urllib.parse.urlsplit(url)
    pairs = [(key, value if key == name else old) for key, old in urllib.parse.parse_qsl(parts.query)]
    return urllib.parse.urlunsplit(parts._replace(query=urllib.parse.urlencode(pairs)))


def forge_correlation(url: str) -> str:
    """The redirect with what ties it to its flow changed: `state`, or for OAuth 1.0a (Twitter) the
    request token `oauth_token`."""
    query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(url).query))
    return replace_query_value(url, "oauth_token" if "oauth_token" in query else "state", "forged-state")


def pick(visit: Visit, **identity: str) -> str:
    """Plays the user by hand: picks an identity on the page; returns the redirect's Location."""
    answer = http_get(choice_url(visit.url, **identity))
    assert answer.status == 303, f"{answer.status}: {answer.text}"
    return answer.location


PROVIDERS: Dict[str, Callable[[], hearth.OAuthProvider]] = {
    "twitter": lambda: hearth.OAuthProvider("twitter.com", custom_parameters={"lang": "fr"}),
    "microsoft-with-tenant": lambda: hearth.OAuthProvider(
        "microsoft.com", scopes=["mail.read", "calendars.read"],
        custom_parameters={"tenant": "contoso.onmicrosoft.com", "prompt": "consent",
                           "login_hint": "someone@contoso.com"}),
    "apple-with-nonce": lambda: hearth.OAuthProvider("apple.com", scopes=["email", "name"],
                                                     custom_parameters={"locale": "fr"}),
    "generic-oidc": lambda: hearth.OAuthProvider("oidc.corp", scopes=["openid", "profile"]),
}


class TestSignInWithProvider:
    @pytest.mark.parametrize("name", list(PROVIDERS))
    def test_signing_in_through_the_providers_page(
            self, flow_auth: hearth.Auth, browser: FakeBrowser, emulator: Emulator, name: str) -> None:
        provider = PROVIDERS[name]()
        email = unique_email(name)
        browser.choose(email=email, displayName="Flow User", screenName="flow_user")

        result = flow_auth.sign_in_with_provider(provider).result(TIMEOUT)

        # What reached the provider's page: the scopes and custom parameters (and for Apple and OIDC a
        # nonce Hearth made up: the SHA-256 of a raw nonce it kept).
        [visit] = browser.visits
        scopes, parameters = page_parameters(visit.url)
        assert scopes == list(provider.scopes)
        for key, value in provider.custom_parameters.items():
            assert parameters[key] == value
        wants_nonce = provider.provider_id in ("apple.com", "oidc.corp")
        assert ("nonce" in parameters) is wants_nonce
        # The redirect reached Hearth's loopback receiver, which answered the browser with a page.
        browser.finished(visit)
        assert visit.redirect is not None and visit.redirect.status == 200
        assert visit.redirect.headers["content-type"].startswith("text/html")
        assert redirect_target(visit.url).startswith("http://127.0.0.1:")
        # The result.
        user = result.user
        assert user.email == email
        assert user.display_name == "Flow User"
        assert [info.provider_id for info in user.provider_data] == [provider.provider_id]
        info = result.additional_user_info
        assert info.provider_id == provider.provider_id
        assert info.is_new_user is True
        if provider.provider_id == "twitter.com":
            assert info.user_name == "flow_user"
        if wants_nonce:
            assert info.profile["nonce"] == parameters["nonce"]
        assert result.credential is not None and result.credential.provider == provider.provider_id
        assert flow_auth.current_user is not None and flow_auth.current_user.uid == user.uid
        assert emulator.provider_ids(user.uid) == [provider.provider_id]

    def test_the_same_identity_signs_in_to_the_same_account_next_time(
            self, flow_auth: hearth.Auth, browser: FakeBrowser) -> None:
        email = unique_email()
        browser.choose(email=email)
        first = flow_auth.sign_in_with_provider(hearth.OAuthProvider("github.com")).result(TIMEOUT)
        flow_auth.sign_out()

        second = flow_auth.sign_in_with_provider(hearth.OAuthProvider("github.com")).result(TIMEOUT)

        assert second.user.uid == first.user.uid
        assert second.additional_user_info.is_new_user is False

    def test_the_open_url_delegate_runs_on_hearths_loop_thread(self, app: hearth.App) -> None:
        seen: List[Tuple[bool, int]] = []
        browser = FakeBrowser().choose(email=unique_email())

        def open_url(url: str) -> None:
            seen.append((app.is_loop_thread(), threading.get_ident()))
            browser.open_url(url)

        app.auth.set_provider_flow(open_url=open_url)
        app.auth.sign_in_with_provider(hearth.OAuthProvider("yahoo.com")).result(TIMEOUT)

        assert seen == [(True, seen[0][1])]
        assert seen[0][1] != threading.get_ident()

    def test_an_unverified_email_of_an_existing_account_fails_with_an_updated_credential(
            self, flow_auth: hearth.Auth, browser: FakeBrowser) -> None:
        email = unique_email("existing")
        owner = flow_auth.create_user_with_email_and_password(email, PASSWORD).result(TIMEOUT).user
        flow_auth.sign_out()
        browser.choose(email=email, emailVerified="false")

        with pytest.raises(hearth.AccountExistsWithDifferentCredentialsError) as raised:
            flow_auth.sign_in_with_provider(hearth.OAuthProvider("microsoft.com")).result(TIMEOUT)

        assert raised.value.email == email
        assert flow_auth.current_user is None
        updated = raised.value.updated_credential
        assert updated is not None and updated.provider == "microsoft.com"
        user = flow_auth.sign_in_with_email_and_password(email, PASSWORD).result(TIMEOUT).user
        linked = user.link_with_credential(updated).result(TIMEOUT).user
        assert linked.uid == owner.uid
        assert sorted(info.provider_id for info in linked.provider_data) == ["microsoft.com", "password"]

    def test_a_custom_scheme_redirect_is_handed_to_handle_url(
            self, auth: hearth.Auth, browser: FakeBrowser, use_create_auth_uri: bool) -> None:
        auth.set_provider_flow(open_url=browser.open_url, redirect_uri="com.example.game:/oauth",
                               use_create_auth_uri=use_create_auth_uri)
        browser.choose(email=unique_email())

        result = auth.sign_in_with_provider(hearth.OAuthProvider("twitter.com")).result(TIMEOUT)

        [visit] = browser.visits
        browser.finished(visit)
        assert redirect_target(visit.url) == "com.example.game:/oauth"
        assert visit.pick is not None and visit.pick.location.startswith("com.example.game:/oauth?")
        assert visit.handled is True
        assert result.additional_user_info.provider_id == "twitter.com"

    def test_handle_url_refuses_urls_that_are_not_the_pending_redirect(
            self, auth: hearth.Auth, browser: FakeBrowser, use_create_auth_uri: bool) -> None:
        auth.set_provider_flow(open_url=browser.stay().open_url, redirect_uri="com.example.game:/oauth",
                               use_create_auth_uri=use_create_auth_uri)
        assert auth.handle_url("com.example.game:/oauth?state=x") is False  # nothing pending
        future = auth.sign_in_with_provider(hearth.OAuthProvider("github.com"))
        visit = browser.next_visit()
        location = pick(visit, email=unique_email())

        assert auth.handle_url("https://example.com/oauth?" + urllib.parse.urlsplit(location).query) is False
        assert auth.handle_url("com.other.app:/oauth?" + urllib.parse.urlsplit(location).query) is False
        assert auth.handle_url(forge_correlation(location)) is False
        assert auth.handle_url("not a url at all") is False
        assert future.done() is False

        assert auth.handle_url(location) is True
        assert future.result(TIMEOUT).additional_user_info.provider_id == "github.com"
        assert auth.handle_url(location) is False  # the flow is over

    def test_a_fixed_loopback_port_is_where_the_redirect_comes_back(
            self, auth: hearth.Auth, browser: FakeBrowser) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        auth.set_provider_flow(open_url=browser.choose(email=unique_email()).open_url, loopback_port=port)

        auth.sign_in_with_provider(hearth.OAuthProvider("github.com")).result(TIMEOUT)

        assert urllib.parse.urlsplit(redirect_target(browser.visits[0].url)).port == port


class TestLinkAndReauthenticateWithProvider:
    def test_linking_a_provider_through_its_page(
            self, flow_auth: hearth.Auth, browser: FakeBrowser, emulator: Emulator) -> None:
        email = unique_email()
        user = flow_auth.create_user_with_email_and_password(email, PASSWORD).result(TIMEOUT).user
        browser.choose(email=unique_email("ms"))

        result = user.link_with_provider(hearth.OAuthProvider(
            "microsoft.com", custom_parameters={"tenant": "contoso.onmicrosoft.com"})).result(TIMEOUT)

        assert result.user.uid == user.uid
        assert sorted(info.provider_id for info in result.user.provider_data) == ["microsoft.com", "password"]
        assert result.user.email == email
        assert query_of(browser.visits[0].url).get("authType") in (None, "linkViaRedirect")
        assert emulator.provider_ids(user.uid) == ["microsoft.com", "password"]
        flow_auth.sign_out()
        again = flow_auth.sign_in_with_provider(hearth.OAuthProvider("microsoft.com")).result(TIMEOUT)
        assert again.user.uid == user.uid

    def test_an_anonymous_user_linked_through_a_provider_page_is_upgraded(
            self, flow_auth: hearth.Auth, browser: FakeBrowser) -> None:
        anonymous = flow_auth.sign_in_anonymously().result(TIMEOUT).user
        nonce_provider = hearth.OAuthProvider("apple.com")
        browser.choose(email=unique_email("apple"))

        upgraded = anonymous.link_with_provider(nonce_provider).result(TIMEOUT).user

        assert upgraded.uid == anonymous.uid
        assert upgraded.is_anonymous is False
        assert [info.provider_id for info in upgraded.provider_data] == ["apple.com"]

    def test_linking_an_identity_of_another_account_through_the_page_gives_its_updated_credential(
            self, flow_auth: hearth.Auth, browser: FakeBrowser) -> None:
        identity = unique_email("owned")
        browser.choose(email=identity)
        owner = flow_auth.sign_in_with_provider(hearth.OAuthProvider("twitter.com")).result(TIMEOUT).user
        flow_auth.sign_out()
        other = flow_auth.create_user_with_email_and_password(unique_email(), PASSWORD).result(TIMEOUT).user

        with pytest.raises(hearth.CredentialAlreadyInUseError) as raised:
            other.link_with_provider(hearth.OAuthProvider("twitter.com")).result(TIMEOUT)

        assert flow_auth.current_user is not None and flow_auth.current_user.uid == other.uid
        updated = raised.value.updated_credential
        assert updated is not None
        assert flow_auth.sign_in_with_credential(updated).result(TIMEOUT).uid == owner.uid

    def test_reauthenticating_through_the_page_as_the_same_identity(
            self, flow_auth: hearth.Auth, browser: FakeBrowser) -> None:
        email = unique_email()
        browser.choose(email=email)
        user = flow_auth.sign_in_with_provider(hearth.OAuthProvider("oidc.corp")).result(TIMEOUT).user

        result = user.reauthenticate_with_provider(hearth.OAuthProvider("oidc.corp")).result(TIMEOUT)

        assert result.user.uid == user.uid
        assert result.additional_user_info.is_new_user is False
        assert len(browser.visits) == 2

    def test_reauthenticating_through_the_page_as_another_identity_fails_with_user_mismatch(
            self, flow_auth: hearth.Auth, browser: FakeBrowser) -> None:
        browser.choose(email=unique_email("me"))
        user = flow_auth.sign_in_with_provider(hearth.OAuthProvider("microsoft.com")).result(TIMEOUT).user
        browser.choose(email=unique_email("someone-else"))

        with pytest.raises(hearth.UserMismatchError):
            user.reauthenticate_with_provider(hearth.OAuthProvider("microsoft.com")).result(TIMEOUT)

        assert flow_auth.current_user is not None and flow_auth.current_user.uid == user.uid

    def test_each_provider_operation_remembers_its_latest_future(
            self, flow_auth: hearth.Auth, browser: FakeBrowser) -> None:
        assert flow_auth.sign_in_with_provider_last_result() is None
        browser.choose(email=unique_email())
        user = flow_auth.sign_in_with_provider(hearth.OAuthProvider("github.com")).result(TIMEOUT).user
        assert user.link_with_provider_last_result() is None
        user.link_with_provider(hearth.OAuthProvider("twitter.com")).result(TIMEOUT)
        user.reauthenticate_with_provider(hearth.OAuthProvider("github.com")).result(TIMEOUT)

        signed_in = flow_auth.sign_in_with_provider_last_result()
        linked = user.link_with_provider_last_result()
        reauthenticated = user.reauthenticate_with_provider_last_result()

        assert signed_in is not None and signed_in.result(TIMEOUT).user.uid == user.uid
        assert linked is not None
        assert "twitter.com" in [info.provider_id for info in linked.result(TIMEOUT).user.provider_data]
        assert reauthenticated is not None and reauthenticated.result(TIMEOUT).user.uid == user.uid


class TestGetCredentialWithProvider:
    """The credential only (the Apple SDK's ``getCredentialWith``): the provider's page, then a
    credential the app signs in, links or reauthenticates with itself. Nobody is signed in by getting
    it."""

    @staticmethod
    def credential_from_page(auth: hearth.Auth, browser: FakeBrowser, provider: hearth.OAuthProvider,
                             email: str) -> Tuple[hearth.Credential, Visit]:
        browser.choose(email=email, displayName="Credential User", screenName="credential_user")
        future = auth.get_credential_with_provider(provider)
        credential = future.result(TIMEOUT)
        visit = browser.finished(browser.visits[-1])
        assert visit.redirect is not None and visit.redirect.status == 200
        assert redirect_target(visit.url).startswith("http://127.0.0.1:")
        assert isinstance(credential, hearth.Credential)
        assert credential.provider == provider.provider_id
        # What the page answered, not tokens: signInWithIdp turns it into an identity later.
        assert credential.id_token is None and credential.access_token is None
        return credential, visit

    @pytest.mark.parametrize("name", list(PROVIDERS))
    def test_a_credential_from_the_page_signs_in_reauthenticates_and_links(
            self, flow_auth: hearth.Auth, browser: FakeBrowser, emulator: Emulator,
            use_create_auth_uri: bool, name: str) -> None:
        states: List[Optional[str]] = []
        listener = flow_auth.add_auth_state_listener(lambda user: states.append(user.uid if user else None))
        deadline = time.monotonic() + TIMEOUT
        while not states and time.monotonic() < deadline:
            time.sleep(0.01)
        assert states == [None]
        provider = PROVIDERS[name]()
        email = unique_email("credential")

        # Getting the credential signs nobody in and tells no listener.
        credential, visit = self.credential_from_page(flow_auth, browser, provider, email)
        if not use_create_auth_uri:
            # The Apple SDK's page for getCredentialWith is a redirect sign-in page.
            assert query_of(visit.url)["authType"] == "signInWithRedirect"
        scopes, parameters = page_parameters(visit.url)
        assert scopes == list(provider.scopes)
        for key, value in provider.custom_parameters.items():
            assert parameters[key] == value
        wants_nonce = provider.provider_id in ("apple.com", "oidc.corp")
        assert ("nonce" in parameters) is wants_nonce
        assert flow_auth.current_user is None
        time.sleep(0.05)
        assert states == [None]

        # The app signs in with it.
        result = flow_auth.sign_in_and_retrieve_data_with_credential(credential).result(TIMEOUT)
        user = result.user
        assert flow_auth.current_user is not None and flow_auth.current_user.uid == user.uid
        assert user.email == email
        assert [info.provider_id for info in user.provider_data] == [provider.provider_id]
        assert result.additional_user_info.provider_id == provider.provider_id
        assert result.additional_user_info.is_new_user is True
        if wants_nonce:
            assert result.additional_user_info.profile["nonce"] == parameters["nonce"]
        assert emulator.provider_ids(user.uid) == [provider.provider_id]

        # Reauthenticates with a fresh one of the same person; one of someone else is refused.
        again, _ = self.credential_from_page(flow_auth, browser, provider, email)
        assert user.reauthenticate_and_retrieve_data(again).result(TIMEOUT).user.uid == user.uid
        stranger, _ = self.credential_from_page(flow_auth, browser, provider, unique_email("credential-other"))
        with pytest.raises(hearth.UserMismatchError):
            user.reauthenticate(stranger).result(TIMEOUT)
        assert flow_auth.current_user is not None and flow_auth.current_user.uid == user.uid

        # Links one to an email account.
        flow_auth.sign_out()
        email_user = flow_auth.create_user_with_email_and_password(
            unique_email("credential-link"), PASSWORD).result(TIMEOUT).user
        linked_email = unique_email("credential-linked")
        to_link, _ = self.credential_from_page(flow_auth, browser, provider, linked_email)
        assert flow_auth.current_user is not None and flow_auth.current_user.uid == email_user.uid
        linked = email_user.link_with_credential(to_link).result(TIMEOUT).user
        assert linked.uid == email_user.uid
        [info] = [info for info in linked.provider_data if info.provider_id == provider.provider_id]
        assert info.email == linked_email
        assert emulator.provider_ids(email_user.uid) == sorted([provider.provider_id, "password"])
        assert len(browser.visits) == 4
        listener.remove()

    def test_awaiting_a_credential_from_asyncio(self, app: hearth.App) -> None:
        browser = FakeBrowser().choose(email=unique_email("async-credential"))
        app.auth.set_provider_flow(open_url=browser.open_url)

        async def main() -> hearth.Credential:
            return await app.auth.get_credential_with_provider(hearth.OAuthProvider("github.com"))

        credential = asyncio.run(main())

        assert credential.provider == "github.com"
        assert app.auth.sign_in_with_credential(credential).result(TIMEOUT).uid == app.auth.current_user.uid

    def test_getting_a_credential_is_cancelled_by_cancel_timeout_a_refusing_delegate_and_the_page(
            self, auth: hearth.Auth, browser: FakeBrowser) -> None:
        auth.set_provider_flow(open_url=browser.open_url)
        # Auth.cancel_provider_flow
        browser.stay()
        pending = auth.get_credential_with_provider(hearth.OAuthProvider("microsoft.com"))
        visit = browser.next_visit()
        assert pending.done() is False
        auth.cancel_provider_flow()
        with pytest.raises(hearth.WebContextCancelledError):
            pending.result(TIMEOUT)
        with pytest.raises(ConnectionRefusedError):
            http_get(redirect_target(visit.url))
        # Cancel on the provider's page
        browser.cancel()
        with pytest.raises(hearth.WebContextCancelledError) as raised:
            auth.get_credential_with_provider(hearth.OAuthProvider("apple.com")).result(TIMEOUT)
        assert "access_denied" in raised.value.message
        # The delegate cannot show the page
        auth.set_provider_flow(open_url=lambda url: False)
        with pytest.raises(hearth.WebContextCancelledError):
            auth.get_credential_with_provider(hearth.OAuthProvider("twitter.com")).result(TIMEOUT)
        # The timeout
        auth.set_provider_flow(open_url=browser.stay().open_url, timeout=0.3)
        started = time.monotonic()
        with pytest.raises(hearth.WebContextCancelledError) as raised:
            auth.get_credential_with_provider(hearth.OAuthProvider("twitter.com")).result(TIMEOUT)
        assert 0.25 <= time.monotonic() - started < TIMEOUT
        assert "timed out" in raised.value.message
        assert auth.current_user is None

    def test_getting_a_credential_refuses_bad_input(self, auth: hearth.Auth, browser: FakeBrowser) -> None:
        # No UI delegate yet.
        with pytest.raises(hearth.InvalidArgumentError):
            auth.get_credential_with_provider(hearth.OAuthProvider("twitter.com")).result(TIMEOUT)
        auth.set_provider_flow(open_url=browser.stay().open_url)
        with pytest.raises(TypeError):
            auth.get_credential_with_provider("twitter.com")  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            auth.get_credential_with_provider(None)  # type: ignore[arg-type]
        for unknown in ("made-up.example", "password"):
            with pytest.raises(hearth.InvalidProviderIdError):
                auth.get_credential_with_provider(hearth.OAuthProvider(unknown)).result(TIMEOUT)
        assert browser.visits == []
        # One provider flow at a time, whatever it is for.
        first = auth.get_credential_with_provider(hearth.OAuthProvider("twitter.com"))
        browser.next_visit()
        with pytest.raises(hearth.WebContextAlreadyPresentedError):
            auth.get_credential_with_provider(hearth.OAuthProvider("twitter.com")).result(TIMEOUT)
        with pytest.raises(hearth.WebContextAlreadyPresentedError):
            auth.sign_in_with_provider(hearth.OAuthProvider("twitter.com")).result(TIMEOUT)
        assert first.done() is False
        auth.cancel_provider_flow()
        assert isinstance(first.exception(TIMEOUT), hearth.WebContextCancelledError)

    def test_the_latest_credential_future_is_remembered_and_closing_the_app_cancels_a_pending_one(
            self, make_app: Callable[..., hearth.App]) -> None:
        app = make_app()
        browser = FakeBrowser(handle_url=app.auth.handle_url)
        app.auth.set_provider_flow(open_url=browser.open_url)
        assert app.auth.get_credential_with_provider_last_result() is None
        credential, _ = self.credential_from_page(app.auth, browser, hearth.OAuthProvider("microsoft.com"),
                                                  unique_email("credential-last"))
        last = app.auth.get_credential_with_provider_last_result()
        assert last is not None and last.result(TIMEOUT).provider == "microsoft.com"

        browser.stay()
        pending = app.auth.get_credential_with_provider(hearth.OAuthProvider("microsoft.com"))
        browser.next_visit()
        settled: List[Optional[BaseException]] = []
        pending.add_done_callback(lambda done: settled.append(done.exception()))
        app.close()

        error = pending.exception(TIMEOUT)
        assert isinstance(error, hearth.CancelledError) and error.code == hearth.ErrorCode.CANCELLED
        assert len(settled) == 1 and isinstance(settled[0], hearth.CancelledError)
        # The credential of the earlier flow outlives the app.
        assert credential.provider == "microsoft.com"
        assert last.result(TIMEOUT).provider == "microsoft.com"


class TestAsyncio:
    def test_awaiting_a_provider_sign_in_while_an_asyncio_task_plays_the_browser(self, app: hearth.App) -> None:
        email = unique_email("async")

        async def main() -> Tuple[hearth.AuthResult, int]:
            loop = asyncio.get_running_loop()
            urls: "asyncio.Queue[str]" = asyncio.Queue()
            # The delegate runs on Hearth's loop thread: it only hands the URL to the event loop.
            app.auth.set_provider_flow(open_url=lambda url: loop.call_soon_threadsafe(urls.put_nowait, url))

            async def user() -> int:
                url = await urls.get()
                location = (await asyncio.to_thread(http_get, choice_url(url, email=email))).location
                return (await asyncio.to_thread(http_get, location)).status

            ticks = 0

            async def heartbeat() -> None:
                nonlocal ticks
                while True:
                    ticks += 1
                    await asyncio.sleep(0.001)

            beating = asyncio.ensure_future(heartbeat())
            result, status = await asyncio.gather(
                app.auth.sign_in_with_provider(hearth.OAuthProvider("microsoft.com")), user())
            beating.cancel()
            assert ticks > 0  # the event loop kept running while the flow was pending
            return result, status

        result, status = asyncio.run(main())

        assert status == 200
        assert result.user.email == email
        assert result.additional_user_info.provider_id == "microsoft.com"

    def test_awaiting_a_cancelled_flow_raises_web_context_cancelled(self, app: hearth.App) -> None:
        async def main() -> None:
            loop = asyncio.get_running_loop()
            opened = asyncio.Event()
            app.auth.set_provider_flow(open_url=lambda url: loop.call_soon_threadsafe(opened.set))
            pending = asyncio.ensure_future(app.auth.sign_in_with_provider(hearth.OAuthProvider("twitter.com")))
            await opened.wait()
            app.auth.cancel_provider_flow()
            with pytest.raises(hearth.WebContextCancelledError):
                await pending

        asyncio.run(main())


class TestFlowFailures:
    def test_an_unknown_provider_id_fails_with_invalid_provider_id(
            self, flow_auth: hearth.Auth, browser: FakeBrowser) -> None:
        browser.choose(email=unique_email())

        with pytest.raises(hearth.InvalidProviderIdError) as raised:
            flow_auth.sign_in_with_provider(hearth.OAuthProvider("MadeUpProvider")).result(TIMEOUT)

        assert raised.value.code == hearth.ErrorCode.INVALID_PROVIDER_ID == 59
        assert browser.visits == []
        assert flow_auth.current_user is None

    @pytest.mark.parametrize("reserved", ["client_id", "redirect_uri", "response_type", "scope", "state",
                                          "response_mode"])
    def test_a_custom_parameter_firebase_sets_itself_is_refused_at_once(self, reserved: str) -> None:
        with pytest.raises(hearth.InvalidArgumentError) as raised:
            hearth.OAuthProvider("microsoft.com", custom_parameters={reserved: "x"})
        provider = hearth.OAuthProvider("microsoft.com", custom_parameters={"prompt": "consent"})
        with pytest.raises(ValueError):
            provider.set_custom_parameters({"prompt": "login", reserved: "x"})

        assert raised.value.code == hearth.ErrorCode.INVALID_ARGUMENT
        assert reserved in raised.value.message
        assert provider.custom_parameters == {"prompt": "consent"}  # unchanged by the refused update

    def test_provider_arguments_are_checked(self, auth: hearth.Auth) -> None:
        with pytest.raises(TypeError):
            hearth.OAuthProvider("microsoft.com", scopes="mail.read")
        with pytest.raises(ValueError):
            hearth.OAuthProvider("microsoft.com", scopes=[""])
        with pytest.raises(TypeError):
            hearth.OAuthProvider("microsoft.com", custom_parameters={"tenant": 42})  # type: ignore[dict-item]
        with pytest.raises(TypeError):
            hearth.OAuthProvider(None)  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            auth.sign_in_with_provider("microsoft.com")  # type: ignore[arg-type]
        provider = hearth.OAuthProvider("microsoft.com").add_scope("mail.read").add_scope("calendars.read")
        assert provider.scopes == ("mail.read", "calendars.read")

    def test_flow_settings_are_checked(self, auth: hearth.Auth) -> None:
        with pytest.raises(TypeError):
            auth.set_provider_flow(open_url="https://example.com")  # type: ignore[arg-type]
        with pytest.raises(ValueError):
            auth.set_provider_flow(open_url=print, redirect_uri="")
        with pytest.raises(ValueError):
            auth.set_provider_flow(open_url=print, loopback_port=70000)
        with pytest.raises(ValueError):
            auth.set_provider_flow(open_url=print, timeout=0)
        with pytest.raises(TypeError):
            auth.set_provider_flow(open_url=print, use_create_auth_uri=1)  # type: ignore[arg-type]

    def test_without_flow_settings_a_flow_fails_with_invalid_argument(self, auth: hearth.Auth) -> None:
        with pytest.raises(hearth.InvalidArgumentError):
            auth.sign_in_with_provider(hearth.OAuthProvider("github.com")).result(TIMEOUT)

    def test_a_second_flow_while_one_is_pending_fails_with_web_context_already_presented(
            self, flow_auth: hearth.Auth, browser: FakeBrowser) -> None:
        browser.stay()
        first = flow_auth.sign_in_with_provider(hearth.OAuthProvider("github.com"))
        browser.next_visit()

        with pytest.raises(hearth.WebContextAlreadyPresentedError) as raised:
            flow_auth.sign_in_with_provider(hearth.OAuthProvider("twitter.com")).result(TIMEOUT)

        assert raised.value.code == hearth.ErrorCode.WEB_CONTEXT_ALREADY_PRESENTED == 55
        assert first.done() is False
        flow_auth.cancel_provider_flow()
        assert isinstance(first.exception(TIMEOUT), hearth.WebContextCancelledError)

    def test_cancelling_the_flow_fails_it_with_web_context_cancelled_and_closes_the_receiver(
            self, flow_auth: hearth.Auth, browser: FakeBrowser) -> None:
        browser.stay()
        future = flow_auth.sign_in_with_provider(hearth.OAuthProvider("microsoft.com"))
        visit = browser.next_visit()

        flow_auth.cancel_provider_flow()

        with pytest.raises(hearth.WebContextCancelledError) as raised:
            future.result(TIMEOUT)
        assert raised.value.code == hearth.ErrorCode.WEB_CONTEXT_CANCELLED == 56
        assert flow_auth.current_user is None
        with pytest.raises(ConnectionRefusedError):
            http_get(redirect_target(visit.url))
        flow_auth.cancel_provider_flow()  # nothing pending: a no-op

    def test_a_flow_that_takes_longer_than_its_timeout_fails_with_web_context_cancelled(
            self, auth: hearth.Auth, browser: FakeBrowser) -> None:
        auth.set_provider_flow(open_url=browser.stay().open_url, timeout=0.5)
        started = time.monotonic()

        with pytest.raises(hearth.WebContextCancelledError):
            auth.sign_in_with_provider(hearth.OAuthProvider("github.com")).result(TIMEOUT)

        assert 0.4 <= time.monotonic() - started < TIMEOUT
        assert len(browser.visits) == 1

    def test_an_open_url_that_returns_false_cancels_the_flow(self, auth: hearth.Auth) -> None:
        auth.set_provider_flow(open_url=lambda url: False)

        with pytest.raises(hearth.WebContextCancelledError):
            auth.sign_in_with_provider(hearth.OAuthProvider("github.com")).result(TIMEOUT)

    def test_an_open_url_that_raises_cancels_the_flow_and_is_logged(
            self, auth: hearth.Auth, caplog: pytest.LogCaptureFixture) -> None:
        def broken(url: str) -> None:
            raise RuntimeError("no browser here")

        auth.set_provider_flow(open_url=broken)
        with caplog.at_level(logging.ERROR, logger="hearth"):
            with pytest.raises(hearth.WebContextCancelledError):
                auth.sign_in_with_provider(hearth.OAuthProvider("github.com")).result(TIMEOUT)

        assert any("no browser here" in (record.exc_text or "") or
                   (record.exc_info and "no browser here" in str(record.exc_info[1]))
                   for record in caplog.records)

    def test_a_loopback_port_already_in_use_fails_with_invalid_argument(
            self, auth: hearth.Auth, browser: FakeBrowser) -> None:
        with socket.socket() as taken:
            taken.bind(("127.0.0.1", 0))
            taken.listen(1)
            auth.set_provider_flow(open_url=browser.stay().open_url, loopback_port=taken.getsockname()[1])

            with pytest.raises(hearth.InvalidArgumentError):
                auth.sign_in_with_provider(hearth.OAuthProvider("github.com")).result(TIMEOUT)

        assert browser.visits == []

    def test_a_redirect_with_a_wrong_state_is_refused_and_the_flow_keeps_waiting(
            self, flow_auth: hearth.Auth, browser: FakeBrowser) -> None:
        browser.stay()
        future = flow_auth.sign_in_with_provider(hearth.OAuthProvider("twitter.com"))
        location = pick(browser.next_visit(), email=unique_email())

        forged = http_get(forge_correlation(location))

        assert forged.status == 400
        time.sleep(0.2)
        assert future.done() is False
        assert http_get(location).status == 200
        assert future.result(TIMEOUT).additional_user_info.provider_id == "twitter.com"

    def test_a_replayed_redirect_after_completion_finds_nothing_listening(
            self, flow_auth: hearth.Auth, browser: FakeBrowser) -> None:
        browser.choose(email=unique_email())
        flow_auth.sign_in_with_provider(hearth.OAuthProvider("github.com")).result(TIMEOUT)
        [visit] = browser.visits
        browser.finished(visit)
        assert visit.pick is not None

        with pytest.raises(ConnectionRefusedError):
            http_get(visit.pick.location)

    def test_cancelling_on_the_providers_page_fails_the_flow(
            self, flow_auth: hearth.Auth, browser: FakeBrowser) -> None:
        browser.cancel()

        with pytest.raises(hearth.WebContextCancelledError) as raised:
            flow_auth.sign_in_with_provider(hearth.OAuthProvider("apple.com")).result(TIMEOUT)

        visit = browser.finished(browser.visits[0])
        assert visit.redirect is not None and visit.redirect.status == 200  # the browser gets a page
        assert "access_denied" in raised.value.message
        assert flow_auth.current_user is None

    def test_closing_the_app_during_a_flow_cancels_it_without_a_crash(
            self, make_app: Callable[..., hearth.App]) -> None:
        app = make_app()
        browser = FakeBrowser().stay()
        app.auth.set_provider_flow(open_url=browser.open_url)
        future = app.auth.sign_in_with_provider(hearth.OAuthProvider("microsoft.com"))
        visit = browser.next_visit()
        settled: List[Optional[BaseException]] = []
        future.add_done_callback(lambda done: settled.append(done.exception()))

        app.close()

        error = future.exception(TIMEOUT)
        assert isinstance(error, hearth.CancelledError)
        assert error.code == hearth.ErrorCode.CANCELLED
        assert len(settled) == 1 and isinstance(settled[0], hearth.CancelledError)
        with pytest.raises(ConnectionRefusedError):
            http_get(redirect_target(visit.url))
        with pytest.raises(hearth.AppDestroyedError):
            app.auth
