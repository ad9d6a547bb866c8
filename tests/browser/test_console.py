"""A person uses hearth-emulator's web console (/emulator/ui/) in Chromium: the accounts table with
search and paging (10,000 accounts too), one account's page and every action on it, adding a user,
clearing all accounts, codes and links arriving without a reload, every setting, tenants, and export
and import. Each check of what the page did reads the emulator's REST surface, not the page.

Screenshots go to out/browser/console/ (and docs/emulator-ui/ under `make console-screenshots`)."""

import io
import json
import zipfile

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from console_support import DEFAULT_PROJECT, unique, unique_phone


# --- Accounts: the table -------------------------------------------------------------------------

def paging_accounts(count: int) -> list[dict]:
    """Accounts created one millisecond apart, so newest first is user-{count-1} ... user-0."""
    return [{"localId": f"user-{n:04}", "email": f"person{n:04}@paging.example", "displayName": f"Person {n}",
             "phoneNumber": f"+1650555{n:04}", "createdAt": str(1_700_000_000_000 + n),
             **({"rawPassword": "secret-1"} if n % 2 else {})} for n in range(count)]


def test_accounts_table_searches_by_email_phone_and_uid_and_pages(console):
    console.create_accounts(paging_accounts(120))
    console.open("accounts")
    console.wait_for_accounts("120 accounts · showing 1–50")
    assert console.row_uids() == [f"user-{n:04}" for n in range(119, 69, -1)]
    first = console.rows()[0]
    assert "person0119@paging.example" in first.text and "+16505550119" in first.text and "Person 119" in first.text

    console.click("#page-next")
    console.wait_for_text("#page-status", "Page 2 of 3")
    assert console.row_uids() == [f"user-{n:04}" for n in range(69, 19, -1)]
    console.click("#page-next")
    console.wait_for_text("#page-status", "Page 3 of 3")
    assert console.row_uids() == [f"user-{n:04}" for n in range(19, -1, -1)]
    assert not console.find("#page-next").is_enabled()
    console.click("#page-previous")
    console.wait_for_text("#page-status", "Page 2 of 3")
    Select(console.find("#page-size")).select_by_value("100")
    console.wait_for_text("#page-status", "Page 1 of 2")
    assert len(console.rows()) == 100

    searches = [
        ("person0042@", ["user-0042"]),              # email
        ("PAGING.EXAMPLE", None),                     # email, any case: all 120
        ("+1 650-555-0077", ["user-0077"]),           # phone, as people type it
        ("555 0101", ["user-0101"]),                  # phone digits
        ("user-003", [f"user-{n:04}" for n in range(39, 29, -1)]),  # uid
        ("nobody-here", []),
    ]
    for query, expected in searches:
        console.type_into("#account-search", query)
        if expected is None:
            console.wait_for_accounts(f"120 of 120 accounts match “{query}”")
            continue
        console.wait_for_accounts(f"{len(expected)} of 120 accounts match “{query}”")
        assert console.row_uids() == expected, query
    assert "No account matches “nobody-here”." in console.text("#accounts-rows")
    # The search is in the address: a reload shows the same.
    assert "q=nobody-here" in console.browser.current_url
    console.type_into("#account-search", "person0042@")
    console.wait_for_accounts("1 of 120 accounts match")
    console.screenshot("accounts-search")
    console.find("#account-search").clear()
    console.find("#account-search").send_keys(" ")
    console.wait_for_accounts("120 accounts · showing 1–100")

    # A row opens the account's page.
    console.rows()[3].click()
    console.wait_for_text("#user-uid", "user-0116")
    assert console.browser.current_url.endswith("#/accounts/user-0116")


def test_ten_thousand_accounts_render_within_a_second(console):
    """The one timing check the console's issue asks for: from the start of navigation to the first
    page of a 10,000-account table on screen, measured by the browser (Navigation Timing origin to
    the page's own performance mark, set after the frame that shows the rows)."""
    console.create_accounts(paging_accounts(10_000))
    console.open("accounts")
    console.wait_for_accounts("10,000 accounts · showing 1–50")
    rendered = console.wait(lambda: console.browser.execute_script(
        "const [mark] = performance.getEntriesByName('hearth:accounts-rendered'); return mark ? mark.startTime : null"),
        "the page never marked the table as rendered")
    print(f"10,000-account table rendered {rendered:.0f} ms after navigation started")
    assert rendered < 1000, f"the table took {rendered:.0f} ms from navigation start to rendered rows"
    assert console.row_uids()[0] == "user-9999" and len(console.rows()) == 50
    console.screenshot("accounts")

    console.type_into("#account-search", "person9876@")
    console.wait_for_accounts("1 of 10,000 accounts match")
    assert console.row_uids() == ["user-9876"]
    console.type_into("#account-search", "+16505550")
    console.wait_for_accounts("1,000 of 10,000 accounts match")
    console.find("#account-search").clear()
    console.browser.execute_script("location.hash = '#/accounts?page=200'")
    console.wait_for_text("#page-status", "Page 200 of 200")
    assert console.row_uids() == [f"user-{n:04}" for n in range(49, -1, -1)]


# --- One account -----------------------------------------------------------------------------------

def rich_account(uid: str, email: str) -> dict:
    return {
        "localId": uid, "email": email, "emailVerified": True, "rawPassword": "first-secret",
        "displayName": "Rich Account", "phoneNumber": unique_phone(),
        "providerUserInfo": [{"providerId": "google.com", "rawId": f"g-{uid}", "email": f"{uid}@gmail.example",
                              "displayName": "Rich on Google"}],
        "mfaInfo": [{"mfaEnrollmentId": "enrolled-phone", "displayName": "work phone", "phoneInfo": "+16505550199",
                     "enrolledAt": "2026-01-02T03:04:05Z"}],
        "customAttributes": json.dumps({"role": "editor", "level": 3}),
        "createdAt": "1767323045000", "lastLoginAt": "1767409445000",
    }


def test_account_page_shows_providers_factors_metadata_and_claims_and_acts_on_them(console):
    # In the default project, where an app's API key signs in, so the changes are seen by sign-ins.
    uid, email = unique("rich-"), f"{unique('rich')}@example.com"
    console.create_accounts([rich_account(uid, email)], project=DEFAULT_PROJECT)
    console.open(f"accounts/{uid}", project=DEFAULT_PROJECT)
    console.wait_for_text("#user-title", "Rich Account")
    assert console.text("#user-uid") == uid
    assert console.text("#user-email") == email and console.text("#user-email-verified") == "verified"
    providers = {row.get_attribute("data-provider"): row.text for row in console.find_all("#user-providers tbody tr")}
    assert set(providers) == {"google.com", "password", "phone"}
    assert f"g-{uid}" in providers["google.com"] and "Rich on Google" in providers["google.com"]
    assert "work phone" in console.text("#user-factors") and "SMS +16505550199" in console.text("#user-factors")
    metadata = console.text("#user-metadata")
    assert "Created\n2026-01-0" in metadata and "Last sign-in\n2026-01-0" in metadata
    assert json.loads(console.find("#claims-editor").get_attribute("value")) == {"role": "editor", "level": 3}
    console.screenshot("account")

    # Custom claims: saved, refused when not a JSON object, refused by the emulator when reserved.
    console.type_into("#claims-editor", '{"role": "admin", "teams": ["a", "b"]}')
    console.click("#claims-save")
    console.toast("Custom claims saved")
    assert json.loads(console.lookup(uid, DEFAULT_PROJECT)["customAttributes"]) == {"role": "admin", "teams": ["a", "b"]}
    console.type_into("#claims-editor", '{"role": ')
    console.click("#claims-save")
    console.wait_for_text("#claims-status", "Not JSON")
    console.type_into("#claims-editor", '["admin"]')
    console.click("#claims-save")
    console.wait_for_text("#claims-status", "Custom claims are a JSON object")
    console.type_into("#claims-editor", '{"sub": "someone-else"}')
    console.click("#claims-save")
    console.wait_for_text("#claims-status", "FORBIDDEN_CLAIM")
    assert json.loads(console.lookup(uid, DEFAULT_PROJECT)["customAttributes"]) == {"role": "admin", "teams": ["a", "b"]}

    # Disable: the account cannot sign in; enable: it can again.
    assert console.sign_in(email, "first-secret").status_code == 200
    console.click("#toggle-disabled")
    console.wait_for_text("#user-status", "Disabled")
    assert console.lookup(uid, DEFAULT_PROJECT)["disabled"] is True
    refused = console.sign_in(email, "first-secret")
    assert refused.status_code == 400 and refused.json()["error"]["message"] == "USER_DISABLED"
    console.click("#toggle-disabled")
    console.wait_for_text("#user-status", "Enabled")
    assert console.lookup(uid, DEFAULT_PROJECT).get("disabled") is False
    assert console.sign_in(email, "first-secret").status_code == 200

    # A new password replaces the old one.
    console.type_into("#set-password-input", "second-secret")
    console.click("#set-password-submit")
    console.toast("Password set")
    assert console.sign_in(email, "second-secret").status_code == 200
    assert console.sign_in(email, "first-secret").json()["error"]["message"] == "INVALID_PASSWORD"

    # Email verification both ways.
    console.click("#toggle-verified")
    console.wait_for_text("#user-email-verified", "not verified")
    assert console.lookup(uid, DEFAULT_PROJECT)["emailVerified"] is False
    console.click("#toggle-verified")
    console.wait(lambda: console.text("#user-email-verified") == "verified", "the email was not marked verified again")
    assert console.lookup(uid, DEFAULT_PROJECT)["emailVerified"] is True

    # Delete asks first, then the account is gone and the table shows.
    console.click("#delete-account")
    console.wait_for_text(".user-actions", f"Delete Rich Account?")
    console.click("#delete-account-confirm")
    console.toast("Account deleted")
    console.wait(lambda: console.browser.current_url.endswith("#/accounts"), "the table did not come back")
    assert console.lookup(uid, DEFAULT_PROJECT) is None
    console.open(f"accounts/{uid}", project=DEFAULT_PROJECT)
    console.wait_for_text("#user-missing", f"No account has the uid “{uid}”.")


def test_add_a_user_mark_the_email_verified_and_clear_all_accounts(console):
    console.create_accounts([{"localId": f"existing-{n}"} for n in range(3)])
    console.open("accounts")
    console.wait_for_accounts("3 accounts")
    console.click("#add-account")
    console.type_into("#new-email", "Added.Person@Example.com")
    console.type_into("#new-password", "added-secret")
    console.type_into("#new-display-name", "Added Person")
    console.type_into("#new-phone", "+16505550123")
    console.type_into("#new-uid", "added-person")
    console.type_into("#new-claims", '{"plan": "pro"}')
    console.screenshot("add-user")
    console.click("#create-account-submit")
    console.wait_for_text("#user-uid", "added-person")
    created = console.lookup("added-person")
    assert created["email"] == "added.person@example.com" and created["displayName"] == "Added Person"
    assert created["phoneNumber"] == "+16505550123" and created["passwordHash"].endswith(":password=added-secret")
    assert json.loads(created["customAttributes"]) == {"plan": "pro"} and created["emailVerified"] is False

    console.click("#toggle-verified")
    console.wait(lambda: console.text("#user-email-verified") == "verified", "the email was not marked verified")
    assert console.lookup("added-person")["emailVerified"] is True

    # The emulator's refusals show in the form.
    console.click("#back-to-accounts")
    console.wait_for_accounts("4 accounts")
    console.click("#add-account")
    console.type_into("#new-phone", "555")
    console.click("#create-account-submit")
    console.wait_for_text("#create-account", "INVALID_PHONE_NUMBER")
    console.type_into("#new-phone", "+16505550124")
    console.type_into("#new-claims", "{oops")
    console.click("#create-account-submit")
    console.wait_for_text("#create-account", "The custom claims are not JSON")
    assert len(console.all_accounts()) == 4

    console.click("#clear-accounts")
    console.wait_for_text(".toolbar", "Delete all 4 accounts of")
    console.click("#clear-accounts-confirm")
    console.wait_for_accounts("0 accounts")
    assert "No accounts yet" in console.text("#accounts-rows")
    assert console.all_accounts() == []


# --- Codes and links -------------------------------------------------------------------------------

def test_codes_and_links_arrive_without_a_reload_and_copy_with_one_click(console):
    """Apps' codes go to the default project (API keys act on it); other tests' codes may be there too."""
    console.allow_clipboard()
    console.open("codes", project=DEFAULT_PROJECT)
    console.wait_for("#sms-rows tr")
    console.browser.execute_script("window.__samePage = 'still here'")

    phone = unique_phone()
    sent = console.identity("sendVerificationCode", {"phoneNumber": phone})
    assert sent.status_code == 200, sent.text
    [listed] = [c for c in console.verification_codes() if c["sessionInfo"] == sent.json()["sessionInfo"]]
    row = console.wait_for(f'#sms-rows tr[data-phone="{phone}"]', "the SMS code did not appear")
    assert row.find_element(By.CSS_SELECTOR, ".sms-code").text == listed["code"]
    assert "fresh" in row.get_attribute("class")
    row.find_element(By.CSS_SELECTOR, "button.copy-code").click()
    console.wait(lambda: console.clipboard() == listed["code"], "the code was not copied")

    email = f"{unique('verify')}@example.com"
    signed_up = console.identity("signUp", {"email": email, "password": "secret-1", "returnSecureToken": True}).json()
    sent = console.identity("sendOobCode", {"requestType": "VERIFY_EMAIL", "idToken": signed_up["idToken"]})
    assert sent.status_code == 200, sent.text
    [link] = [c for c in console.oob_codes() if c["email"] == email]
    row = console.wait_for(f'#oob-rows tr[data-email="{email}"]', "the action link did not appear")
    assert "Verify email" in row.text
    row.find_element(By.CSS_SELECTOR, "button.copy-link").click()
    console.wait(lambda: console.clipboard() == link["oobLink"], "the link was not copied")
    row.find_element(By.CSS_SELECTOR, "button.copy-code").click()
    console.wait(lambda: console.clipboard() == link["oobCode"], "the code was not copied")
    assert console.browser.execute_script("return window.__samePage") == "still here"
    assert int(console.text("#codes-badge")) >= 2
    console.screenshot("codes")

    # The link opens the emulator's action page, which verifies the email.
    opener = console.browser.current_window_handle
    open_link = row.find_element(By.CSS_SELECTOR, "a.open-link")
    assert open_link.get_attribute("href") == link["oobLink"]
    open_link.click()
    console.wait(lambda: len(console.browser.window_handles) == 2, "the action page did not open")
    action = next(handle for handle in console.browser.window_handles if handle != opener)
    console.browser.switch_to.window(action)
    try:
        console.wait_for_text("body", "The email has been successfully verified.")
        assert console.browser.current_url.startswith(f"{console.url}/emulator/action?")
    finally:
        console.browser.close()
        console.browser.switch_to.window(opener)
    assert console.lookup(signed_up["localId"], DEFAULT_PROJECT)["emailVerified"] is True
    # A used code leaves the list, still without a reload.
    console.wait(lambda: not console.find_all(f'#oob-rows tr[data-email="{email}"]'), "the used link stayed listed")
    assert console.browser.execute_script("return window.__samePage") == "still here"


# --- Settings ---------------------------------------------------------------------------------------

def test_every_setting_is_changed_from_the_page(console):
    console.open("settings")
    console.wait_for("#settings-form")
    assert console.find("#setting-sms-ttl").get_attribute("value") == "300"
    console.type_into("#setting-recent-login", "120")
    console.type_into("#setting-sms-ttl", "90")
    console.type_into("#setting-sms-max-sends", "3")
    console.type_into("#setting-sms-window", "30")
    console.type_into("#setting-oob-ttl", "600")
    for checkbox in ("#setting-app-verification", "#setting-email-privacy", "#setting-duplicate-emails"):
        console.click(checkbox)
    console.click("#settings-save")
    console.toast("Settings saved")
    config = console.config()
    assert config["recentLoginMaxAgeSeconds"] == 120 and config["smsCodeTtlSeconds"] == 90
    assert config["smsRateLimit"] == {"maxSends": 3, "windowSeconds": 30}
    assert config["appVerificationRequired"] is True
    assert config["emailPrivacyConfig"] == {"enableImprovedEmailPrivacy": True}
    assert config["signIn"] == {"allowDuplicateEmails": True}
    assert config["oobCodeTtlSeconds"] == 600

    # Turned back off, and a value the emulator refuses is reported, changing nothing.
    for checkbox in ("#setting-app-verification", "#setting-email-privacy"):
        console.click(checkbox)
    console.type_into("#setting-recent-login", "2147483648")
    console.click("#settings-save")
    console.wait_for_text("#settings-status", "recentLoginMaxAgeSeconds")
    assert console.config()["appVerificationRequired"] is True
    console.type_into("#setting-recent-login", "0")
    console.click("#settings-save")
    console.toast("Settings saved")
    config = console.config()
    assert (config["recentLoginMaxAgeSeconds"], config["appVerificationRequired"]) == (0, False)
    assert config["emailPrivacyConfig"] == {"enableImprovedEmailPrivacy": False}

    # Test phone numbers: added as people write them, stored normalized, removed.
    console.type_into("#test-number-input", "+1 650-555-3434")
    console.type_into("#test-code-input", "654321")
    console.click("#test-number-add")
    console.toast("added")
    console.wait_for('#test-numbers-table tr[data-phone="+16505553434"]')
    console.type_into("#test-number-input", "+44 7700 900999")
    console.type_into("#test-code-input", "111222")
    console.click("#test-number-add")
    console.wait_for('#test-numbers-table tr[data-phone="+447700900999"]')
    assert console.config()["testPhoneNumbers"] == {"+16505553434": "654321", "+447700900999": "111222"}
    console.type_into("#test-number-input", "+16505550000")
    console.type_into("#test-code-input", "12")
    console.click("#test-number-add")
    console.wait_for_text("#test-numbers-status", "testPhoneNumbers")
    console.screenshot("settings")
    console.find('#test-numbers-table tr[data-phone="+16505553434"] button.remove-test-number').click()
    console.wait(lambda: not console.find_all('#test-numbers-table tr[data-phone="+16505553434"]'), "the number stayed")
    assert console.config()["testPhoneNumbers"] == {"+447700900999": "111222"}


def test_a_test_number_set_in_the_page_signs_in_with_its_fixed_code(console):
    """The settings act on the emulator: a number added in the page gets no SMS and takes its code."""
    phone = unique_phone()
    console.open("settings", project=DEFAULT_PROJECT)
    console.wait_for("#test-number-form")
    before = console.config(DEFAULT_PROJECT)["testPhoneNumbers"]
    try:
        console.type_into("#test-number-input", phone)
        console.type_into("#test-code-input", "246810")
        console.click("#test-number-add")
        console.wait_for(f'#test-numbers-table tr[data-phone="{phone}"]')
        session = console.identity("sendVerificationCode", {"phoneNumber": phone}).json()["sessionInfo"]
        signed_in = console.identity("signInWithPhoneNumber", {"sessionInfo": session, "code": "246810"})
        assert signed_in.status_code == 200, signed_in.text
        assert signed_in.json()["phoneNumber"] == phone
    finally:
        console.set_config(DEFAULT_PROJECT, testPhoneNumbers=before)


# --- Tenants ----------------------------------------------------------------------------------------

def tenant_resource(console, tenant_id: str) -> dict:
    response = console.admin.get(f"{console.url}/identitytoolkit.googleapis.com/v2/projects/{console.project}/tenants/{tenant_id}",
                                 timeout=10)
    assert response.status_code == 200, response.text
    return response.json()


def tenant_ids(console) -> list[str]:
    response = console.admin.get(f"{console.url}/identitytoolkit.googleapis.com/v2/projects/{console.project}/tenants", timeout=10)
    return [tenant["tenantId"] for tenant in response.json().get("tenants", [])]


def test_tenants_are_created_switched_opened_and_deleted(console):
    console.open("tenants")
    console.wait_for_text("#tenants-table", "No tenants yet.")
    console.type_into("#new-tenant-name", "staging")
    console.click("#new-tenant-enableAnonymousUser")
    console.click("#create-tenant-submit")
    console.toast("created")
    [tenant_id] = tenant_ids(console)
    created = tenant_resource(console, tenant_id)
    assert created["displayName"] == "staging"
    assert (created["allowPasswordSignup"], created["enableEmailLinkSignin"], created["enableAnonymousUser"]) == (True, True, False)
    row = f'#tenants-table tr[data-tenant="{tenant_id}"]'
    console.wait_for(row)

    # Each switch is the tenant's setting.
    console.find(f"{row} input.tenant-enableAnonymousUser").click()
    console.toast("Anonymous on")
    assert tenant_resource(console, tenant_id)["enableAnonymousUser"] is True
    console.find(f"{row} input.tenant-mfa").click()
    console.toast("SMS second factors on")
    assert tenant_resource(console, tenant_id)["mfaConfig"] == {"state": "ENABLED", "enabledProviders": ["PHONE_SMS"]}
    console.find(f"{row} input.tenant-allowPasswordSignup").click()
    console.toast("Email/password off")
    assert tenant_resource(console, tenant_id)["allowPasswordSignup"] is False
    console.find(f"{row} input.tenant-allowPasswordSignup").click()
    console.toast("Email/password on")
    console.find(f"{row} input.tenant-disableAuth").click()
    console.toast("Auth disabled on")
    assert tenant_resource(console, tenant_id)["disableAuth"] is True
    console.find(f"{row} input.tenant-disableAuth").click()
    console.toast("Auth disabled off")
    assert tenant_resource(console, tenant_id)["disableAuth"] is False
    console.screenshot("tenants")

    # Open: the console shows the tenant; what it adds is the tenant's, not the project's.
    console.find(f"{row} a.open-tenant").click()
    console.wait(lambda: f"tenant={tenant_id}" in console.browser.current_url, "the tenant did not open")
    console.wait_for_text("#scope-note", f"tenant {tenant_id}")
    console.wait_for_accounts("0 accounts")
    assert Select(console.find("#tenant-select")).first_selected_option.get_attribute("value") == tenant_id
    console.click("#add-account")
    console.type_into("#new-email", "in-tenant@example.com")
    console.type_into("#new-password", "tenant-secret")
    console.type_into("#new-uid", "tenant-user")
    console.click("#create-account-submit")
    console.wait_for_text("#user-uid", "tenant-user")
    looked_up = console.admin.post(console.admin_path(f"/tenants/{tenant_id}/accounts:lookup"),
                                   json={"localId": ["tenant-user"]}, timeout=10).json()["users"][0]
    assert looked_up["tenantId"] == tenant_id and looked_up["email"] == "in-tenant@example.com"
    assert console.lookup("tenant-user") is None

    # The header's picker goes back to the project.
    Select(console.find("#tenant-select")).select_by_value("")
    console.wait(lambda: "tenant=" not in console.browser.current_url, "the project did not come back")
    console.wait_for_accounts("0 accounts")

    console.open("tenants")
    console.wait_for(row)
    console.click(f"{row} button.delete-tenant")
    console.find(f"{row} .confirm button.danger").click()
    console.toast(f"Tenant {tenant_id} deleted")
    assert tenant_ids(console) == []


def test_a_tenants_codes_and_links_show_in_its_scope(console):
    """An app's request naming the tenant (tenantId in the body) lands in that tenant's codes."""
    tenant_id = unique("codes-")
    email = f"{tenant_id}@example.com"
    assert console.identity("signUp", {"email": email, "password": "secret-1", "tenantId": tenant_id}).status_code == 200
    console.open("codes", project=DEFAULT_PROJECT, tenant=tenant_id)
    console.wait_for_text("#oob-rows", "No email action link yet.")
    sent = console.identity("sendOobCode", {"requestType": "PASSWORD_RESET", "email": email, "tenantId": tenant_id})
    assert sent.status_code == 200, sent.text
    console.wait_for(f'#oob-rows tr[data-email="{email}"]', "the tenant's link did not appear")
    assert "Reset password" in console.text("#oob-rows")


# --- Import and export ------------------------------------------------------------------------------

def test_export_downloads_and_every_way_of_importing_it_back(console, tmp_path):
    users = [{"localId": f"kept-{n}", "email": f"kept{n}@example.com", "rawPassword": f"secret-{n}",
              "displayName": f"Kept {n}"} for n in range(3)]
    console.create_accounts(users)
    console.set_config(smsCodeTtlSeconds=77)
    downloads = tmp_path / "downloads"
    console.download_to(downloads)
    console.open("data")
    console.click("#export-download")
    console.wait_for_text("#export-status", f"Downloaded hearth-emulator-export-{console.project}.zip")
    archive = console.wait_for_download(downloads, f"hearth-emulator-export-{console.project}.zip")
    with zipfile.ZipFile(archive) as exported:
        assert exported.namelist() == ["firebase-export-metadata.json", "auth_export/accounts.json", "auth_export/config.json"]
        assert [u["localId"] for u in json.loads(exported.read("auth_export/accounts.json"))["users"]] == ["kept-0", "kept-1", "kept-2"]
        exported.extractall(tmp_path / "folder")
        files = {name: exported.read(name) for name in exported.namelist()}

    def wipe():
        response = console.admin.delete(f"{console.url}/emulator/v1/projects/{console.project}/accounts", timeout=10)
        assert response.status_code == 200
        console.set_config(smsCodeTtlSeconds=300)
        assert console.all_accounts() == []

    def import_and_check(input_selector, paths, expected_files):
        console.open("data")
        console.find(input_selector).send_keys("\n".join(str(path) for path in paths))
        console.wait_for_text("#import-preview", "Export found: 3 accounts and settings.")
        listed = [item.text for item in console.find_all("#import-preview ul.files li")]
        assert listed == expected_files
        console.click("#import-confirm")
        console.wait_for_text("#import-status", f"Imported 3 accounts and the settings into {console.project}.")
        assert sorted(u["localId"] for u in console.all_accounts()) == ["kept-0", "kept-1", "kept-2"]
        assert console.config()["smsCodeTtlSeconds"] == 77

    directory_files = ["auth_export/accounts.json", "auth_export/config.json", "firebase-export-metadata.json"]
    # The downloaded zip.
    wipe()
    import_and_check("#import-files", [archive], directory_files)
    console.screenshot("import-export")
    # The unzipped folder.
    wipe()
    import_and_check("#import-folder", [tmp_path / "folder"], directory_files)
    # Its two files, chosen one by one.
    wipe()
    import_and_check("#import-files", [tmp_path / "folder/auth_export/accounts.json", tmp_path / "folder/auth_export/config.json"],
                     ["accounts.json", "config.json"])
    # A zip a person made of the folder with their own tool: deflated, one folder deeper.
    deflated = tmp_path / "emulator-data.zip"
    with zipfile.ZipFile(deflated, "w", compression=zipfile.ZIP_DEFLATED) as made:
        made.writestr("emulator-data/", "")
        for name, data in files.items():
            made.writestr(f"emulator-data/{name}", data)
        made.writestr("emulator-data/firestore_export/all_namespaces.overall_export_metadata", b"\x00\x01binary")
    wipe()
    import_and_check("#import-files", [deflated], directory_files)

    # An export with an account that cannot be loaded changes nothing, and says which.
    broken = tmp_path / "broken.zip"
    accounts = json.loads(files["auth_export/accounts.json"])
    accounts["users"].append({"localId": "broken", "email": "not-an-email"})
    with zipfile.ZipFile(broken, "w") as made:
        made.writestr("auth_export/accounts.json", json.dumps(accounts))
    console.open("data")
    console.find("#import-files").send_keys(str(broken))
    console.wait_for_text("#import-preview", "Export found: 4 accounts.")
    console.click("#import-confirm")
    console.wait_for_text("#import-status", 'users[3] (localId "broken"): email is invalid')
    assert len(console.all_accounts()) == 3
    # Something that is not an export.
    stray = tmp_path / "notes.txt"
    stray.write_text("hello")
    console.open("data")
    console.find("#import-files").send_keys(str(stray))
    console.wait_for_text("#import-status", "No export found")


def test_console_follows_the_project_in_its_address_and_header(console):
    other = unique("other-")
    console.create_accounts([{"localId": "only-here", "email": "only@here.example"}])
    console.create_accounts([{"localId": "only-there"}], project=other)
    console.open("accounts")
    console.wait_for_accounts("1 account")
    assert console.row_uids() == ["only-here"]
    assert console.find("#project-input").get_attribute("value") == console.project
    console.type_into("#project-input", other)
    console.find("#project-input").submit()
    console.wait(lambda: f"project={other}" in console.browser.current_url, "the project did not change")
    console.wait_for_accounts("1 account")
    assert console.row_uids() == ["only-there"]
    assert console.browser.title == f"{other} · hearth-emulator"
