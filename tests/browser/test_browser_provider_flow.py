"""A person completes, in a real browser, the provider sign-in a C app started (or the credential-only
flow, whose credential the app then signs in with).

provider_client (the app) starts hearth_auth_sign_in_with_provider and prints the URL its UI delegate
was given; headless Chromium opens it, a person fills in the fake provider's page and submits, the
browser follows the redirect to Hearth's loopback receiver and shows its page; the app prints what
the sign-in gave it."""

import json
import re
import uuid
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

WEB_CONTEXT_CANCELLED = 56
PAGE_TIMEOUT = 20
SCREENSHOTS = Path(__file__).resolve().parents[2] / "out" / "browser"


def unique(prefix):
    return f"{prefix}{uuid.uuid4().hex[:10]}"


def host_of(url):
    return urlsplit(url).netloc


def query_of(url):
    return {name: values[-1] for name, values in parse_qs(urlsplit(url).query).items()}


def open_provider_page(browser, url, provider_name):
    browser.get(url)
    headings = browser.find_elements(By.TAG_NAME, "h1")
    shown = browser.find_element(By.TAG_NAME, "body").text[:300]
    assert headings, f"no provider page at {url}; the browser shows: {shown!r}"
    heading = headings[0].text
    assert heading == f"Sign in with {provider_name}", f"the provider page's heading is {heading!r}"


def requested_parameters(browser):
    """The page's "what the app asked for" list: {name: value}."""
    names = [element.text for element in browser.find_elements(By.CSS_SELECTOR, "dl.request dt")]
    values = [element.text for element in browser.find_elements(By.CSS_SELECTOR, "dl.request dd")]
    return dict(zip(names, values))


def type_into(browser, field_id, text):
    field = browser.find_element(By.ID, field_id)
    field.click()
    field.clear()
    field.send_keys(text)


def add_new_account(browser, email=None, display_name=None, screen_name=None, screenshot=None):
    """Fills "Add new account" as a person would and presses the sign-in button."""
    if email is not None:
        type_into(browser, "email-input", email)
    if display_name is not None:
        type_into(browser, "display-name-input", display_name)
    if screen_name is not None:
        type_into(browser, "screen-name-input", screen_name)
    if screenshot:
        save_full_page_screenshot(browser, screenshot)
    browser.find_element(By.ID, "sign-in").click()


def pick_existing_account(browser, email):
    accounts = browser.find_elements(By.CSS_SELECTOR, "ul.accounts button.account")
    matching = [button for button in accounts if email in button.text]
    assert len(matching) == 1, f"expected one existing account showing {email}, saw {[a.text for a in accounts]}"
    matching[0].click()


def press_cancel(browser):
    buttons = [button for button in browser.find_elements(By.CSS_SELECTOR, "form.cancel button")
               if button.text == "Cancel"]
    assert len(buttons) == 1, "the provider page has no Cancel button"
    buttons[0].click()


def save_full_page_screenshot(browser, name):
    """The whole page at a desktop width (the viewport grows to the page's height for the shot)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    height = browser.execute_script("return document.documentElement.scrollHeight")
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": 1024, "height": height, "deviceScaleFactor": 1, "mobile": False})
    try:
        path = SCREENSHOTS / f"{name}.png"
        assert browser.save_screenshot(str(path)), f"could not save {path}"
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def app_page_after_redirect(browser, emulator_url):
    """Waits until the browser shows the app's loopback page; returns (url, heading, text)."""
    def on_app_page(driver):
        try:
            url = driver.current_url
            if host_of(url) == host_of(emulator_url) or not url.startswith("http://127.0.0.1:"):
                return None
            return url, driver.find_element(By.TAG_NAME, "h1").text, driver.find_element(By.TAG_NAME, "body").text
        except WebDriverException:
            return None

    return WebDriverWait(browser, PAGE_TIMEOUT).until(
        on_app_page, message="the browser never reached the app's loopback receiver")


def assert_sign_in_completed_page(browser, emulator_url):
    url, heading, text = app_page_after_redirect(browser, emulator_url)
    assert heading == "Sign-in complete"
    assert "You can close this window and return to the app." in text
    return url


def assert_signed_in(result, provider_id):
    assert result.code == 0, f"the sign-in failed: {result.code} {result.message}"
    assert re.fullmatch(r"[A-Za-z0-9]{10,}", result.uid), f"not a uid: {result.uid!r}"
    assert result.provider_id == provider_id


def test_a_person_signs_in_with_twitter_on_the_emulator_page_and_the_app_gets_the_account(
        browser, start_client, emulator_url):
    client = start_client("twitter.com")
    url = client.open_url()
    assert url.startswith(f"{emulator_url}/emulator/auth/handler?")
    redirect_target = query_of(url)["redirectUrl"]
    assert redirect_target.startswith("http://127.0.0.1:")

    open_provider_page(browser, url, "Twitter")
    assert redirect_target in browser.find_element(By.TAG_NAME, "main").text, \
        "the page tells the person where the browser goes next"
    screen_name = unique("ada_")
    add_new_account(browser, email=f"{screen_name}@example.com", display_name="Ada Lovelace",
                    screen_name=screen_name, screenshot="twitter-handler-page")

    landed = assert_sign_in_completed_page(browser, emulator_url)
    assert host_of(landed) == host_of(redirect_target)
    result = client.result()
    assert_signed_in(result, "twitter.com")
    assert result.user_name == screen_name
    assert client.expect("NEWUSER") == "1"
    assert client.user() == {"anonymous": False, "providers": ["twitter.com"]}
    client.finish()


def test_picking_the_existing_account_on_a_second_run_signs_in_to_the_same_user(
        browser, start_client, emulator_url):
    screen_name = unique("grace_")
    email = f"{screen_name}@example.com"
    first = start_client("twitter.com")
    open_provider_page(browser, first.open_url(), "Twitter")
    add_new_account(browser, email=email, display_name="Grace Hopper", screen_name=screen_name)
    assert_sign_in_completed_page(browser, emulator_url)
    created = first.result()
    assert_signed_in(created, "twitter.com")
    first.finish()

    second = start_client("twitter.com")
    open_provider_page(browser, second.open_url(), "Twitter")
    pick_existing_account(browser, email)
    assert_sign_in_completed_page(browser, emulator_url)
    again = second.result()
    assert_signed_in(again, "twitter.com")
    assert again.uid == created.uid
    assert again.user_name == screen_name
    assert second.expect("NEWUSER") == "0"
    second.finish()


def test_apple_sign_in_carries_the_nonce_hearth_made_and_the_emulator_accepts_it(
        browser, start_client, emulator_url):
    client = start_client("apple.com", "--scope", "email", "--scope", "name", "--param", "locale=fr_FR")
    url = client.open_url()
    custom = json.loads(query_of(url)["customParameters"])
    assert custom["locale"] == "fr_FR"
    assert re.fullmatch(r"[0-9a-f]{64}", custom["nonce"]), "Hearth sends the SHA-256 of its raw nonce"

    open_provider_page(browser, url, "Apple")
    shown = requested_parameters(browser)
    assert shown["nonce"] == custom["nonce"]
    assert shown["locale"] == "fr_FR"
    assert shown["Scopes"] == "email, name"
    add_new_account(browser, email=f"{unique('apple-')}@privaterelay.example.com", display_name="Apple Person")

    assert_sign_in_completed_page(browser, emulator_url)
    result = client.result()
    assert_signed_in(result, "apple.com")
    assert client.expect("NEWUSER") == "1"
    assert client.user()["providers"] == ["apple.com"]
    client.finish()


def test_microsoft_with_a_tenant_signs_in_through_the_create_auth_uri_consent_page(
        browser, start_client, emulator_url):
    hint = f"{unique('alan-')}@contoso.example.com"
    client = start_client("microsoft.com", "--create-auth-uri", "--scope", "mail.read",
                          "--param", "tenant=contoso.onmicrosoft.com", "--param", f"login_hint={hint}",
                          "--param", "prompt=select_account")
    url = client.open_url()
    assert url.startswith(f"{emulator_url}/emulator/auth/consent?"), "the authUri createAuthUri returned"
    custom = json.loads(query_of(url)["customParameters"])
    assert custom == {"tenant": "contoso.onmicrosoft.com", "login_hint": hint, "prompt": "select_account"}

    open_provider_page(browser, url, "Microsoft")
    shown = requested_parameters(browser)
    assert shown["tenant"] == "contoso.onmicrosoft.com"
    assert shown["prompt"] == "select_account"
    assert "mail.read" in shown["Scopes"]
    assert browser.find_element(By.ID, "email-input").get_attribute("value") == hint, \
        "the app's login_hint starts the new-account form"
    add_new_account(browser, display_name="Alan Turing")

    assert_sign_in_completed_page(browser, emulator_url)
    result = client.result()
    assert_signed_in(result, "microsoft.com")
    assert client.user()["providers"] == ["microsoft.com"]
    client.finish()


def test_a_person_links_twitter_to_the_anonymous_player_in_the_browser_and_keeps_the_uid(
        browser, start_client, emulator_url):
    client = start_client("--link", "twitter.com")
    anonymous_uid = client.expect("ANON")
    open_provider_page(browser, client.open_url(), "Twitter")
    screen_name = unique("player_")
    add_new_account(browser, email=f"{screen_name}@example.com", screen_name=screen_name)

    assert_sign_in_completed_page(browser, emulator_url)
    result = client.result()
    assert_signed_in(result, "twitter.com")
    assert result.uid == anonymous_uid
    assert result.user_name == screen_name
    assert client.user() == {"anonymous": False, "providers": ["twitter.com"]}
    client.finish()


def test_cancel_on_the_emulator_page_ends_the_flow_as_web_context_cancelled(browser, start_client, emulator_url):
    client = start_client("twitter.com")
    open_provider_page(browser, client.open_url(), "Twitter")
    press_cancel(browser)

    _, heading, text = app_page_after_redirect(browser, emulator_url)
    assert heading == "Sign-in did not complete"
    assert "return to the app" in text
    result = client.result()
    assert result.code == WEB_CONTEXT_CANCELLED, f"{result.code} {result.message}"
    assert result.uid == "-"
    assert "cancel" in result.message.lower()
    assert client.user() is None, "nobody is signed in after a cancelled sign-in"
    client.finish()


def test_cancel_on_the_consent_page_ends_the_flow_as_web_context_cancelled(browser, start_client, emulator_url):
    client = start_client("--create-auth-uri", "github.com")
    open_provider_page(browser, client.open_url(), "GitHub")
    press_cancel(browser)

    _, heading, _ = app_page_after_redirect(browser, emulator_url)
    assert heading == "Sign-in did not complete"
    result = client.result()
    assert result.code == WEB_CONTEXT_CANCELLED, f"{result.code} {result.message}"
    assert result.uid == "-"
    assert client.user() is None
    client.finish()


def test_a_person_gets_an_apple_credential_in_the_browser_and_the_app_signs_in_with_it_afterwards(
        browser, start_client, emulator_url):
    client = start_client("--credential", "apple.com", "--scope", "email")
    url = client.open_url()
    assert query_of(url)["authType"] == "signInWithRedirect", "the Apple SDK's getCredentialWith page"
    custom = json.loads(query_of(url)["customParameters"])
    assert re.fullmatch(r"[0-9a-f]{64}", custom["nonce"]), "Hearth sends the SHA-256 of its raw nonce"

    open_provider_page(browser, url, "Apple")
    add_new_account(browser, email=f"{unique('apple-credential-')}@privaterelay.example.com",
                    display_name="Credential Person")

    assert_sign_in_completed_page(browser, emulator_url)
    code, provider_id, message = client.credential()
    assert (code, provider_id) == (0, "apple.com"), message
    assert client.user() is None, "getting the credential signs nobody in"
    result = client.result()  # the app's own sign-in with the credential
    assert_signed_in(result, "apple.com")
    assert client.expect("NEWUSER") == "1"
    assert client.user() == {"anonymous": False, "providers": ["apple.com"]}
    client.finish()


def test_cancel_on_the_consent_page_ends_the_credential_flow_as_web_context_cancelled(
        browser, start_client, emulator_url):
    client = start_client("--credential", "--create-auth-uri", "microsoft.com")
    open_provider_page(browser, client.open_url(), "Microsoft")
    press_cancel(browser)

    _, heading, _ = app_page_after_redirect(browser, emulator_url)
    assert heading == "Sign-in did not complete"
    code, provider_id, message = client.credential()
    assert code == WEB_CONTEXT_CANCELLED, f"{code} {message}"
    assert provider_id == "-"
    assert client.user() is None
    client.finish()
