"""The console's safety in a real browser: values a user controls (display names, emails, uids,
custom claims, identities, second factors, the search box, the address) are shown as text and never
run, even with the page's Content-Security-Policy switched off so that any markup that slipped
through would run; the policy itself refuses inline script; and pages of other local origins can
neither change the emulator's state through the console nor read the console, while the emulator's
REST surface still answers them as Firebase's emulator does (CORS)."""

import http.server
import json
import threading
import urllib.parse

import pytest

from console_support import DEFAULT_PROJECT, unique

# Each would run script if it became markup. The ids let the test look for the elements too.
PROBE_NAME = "<script>window.__xss.push('name-script')</script><img src=x id=xss-name onerror=\"window.__xss.push('name')\">"
PROBE_UID_PREFIX = "<img src=x id=xss-uid onerror=\"window.__xss.push('uid')\">"
PROBE_EMAIL_LOCAL = "\"<svg id=xss-email onload=window.__xss.push('email')>\""
PROBE_CLAIM = "</textarea><img src=x id=xss-claims onerror=\"window.__xss.push('claims')\">"
PROBE_PROVIDER = "<iframe id=xss-provider srcdoc=\"<script>parent.__xss.push('provider')</script>\"></iframe>"
PROBE_FACTOR = "<img src=x id=xss-factor onerror=\"window.__xss.push('factor')\">"
PROBE_PHOTO = "javascript:window.__xss.push('photo')"
PROBE_QUERY = "<img src=x id=xss-query onerror=\"window.__xss.push('query')\">"
PROBE_IDS = ["xss-name", "xss-uid", "xss-email", "xss-claims", "xss-provider", "xss-factor", "xss-query", "xss-project",
             "xss-tenant"]

INJECTED = """
return {
  ran: window.__xss.slice(),
  elements: arguments[0].filter((id) => document.getElementById(id)),
  foreign: document.querySelectorAll('#view img, #view svg, #view iframe, #view script, #view [onerror], #view [onload]').length,
};
"""


def assert_nothing_ran(console):
    state = console.browser.execute_script(INJECTED, PROBE_IDS)
    assert state == {"ran": [], "elements": [], "foreign": 0}, f"hostile input became markup: {state}"


def test_hostile_values_are_shown_as_text_and_never_run(console):
    browser = console.browser
    browser.execute_cdp_cmd("Page.setBypassCSP", {"enabled": True})
    try:
        marker = unique("probe")
        uid = f"{PROBE_UID_PREFIX}{marker}"
        email = f"{PROBE_EMAIL_LOCAL}{marker}@xss.example"
        console.create_accounts([{
            "localId": uid, "email": email, "emailVerified": True, "rawPassword": "secret-1",
            "displayName": PROBE_NAME, "photoUrl": PROBE_PHOTO,
            "customAttributes": json.dumps({"note": PROBE_CLAIM, PROBE_CLAIM: 1}),
            "providerUserInfo": [{"providerId": "google.com", "rawId": f"g-{marker}", "displayName": PROBE_PROVIDER,
                                  "email": f"{marker}@gmail.example"}],
            "mfaInfo": [{"displayName": PROBE_FACTOR, "phoneInfo": "+16505550111"}],
        }], project=DEFAULT_PROJECT)
        reset = console.identity("sendOobCode", {"requestType": "PASSWORD_RESET", "email": email})
        assert reset.status_code == 200, reset.text

        # The probe is live: the same payload put into the page as markup does run.
        console.open("accounts", project=DEFAULT_PROJECT)
        console.wait_for("#accounts-rows tr")
        assert browser.execute_script(
            "const d = document.createElement('div'); d.innerHTML = arguments[0]; document.body.append(d);"
            "return new Promise((done) => setTimeout(() => { d.remove(); const ran = window.__xss.splice(0); done(ran); }, 300));",
            PROBE_FACTOR) == ["factor"]

        # The table.
        console.type_into("#account-search", marker)
        console.wait_for_accounts("1 of")
        row = console.rows()[0]
        assert row.get_attribute("data-uid") == uid
        assert PROBE_NAME in row.text and email in row.text and uid in row.text
        assert_nothing_ran(console)

        # The account's page.
        row.click()
        console.wait_for_text("#user-title", PROBE_NAME)
        assert console.text("#user-uid") == uid and console.text("#user-email") == email
        assert PROBE_PHOTO in console.text("#user-profile")
        assert PROBE_PROVIDER in console.text("#user-providers") and PROBE_FACTOR in console.text("#user-factors")
        assert json.loads(console.find("#claims-editor").get_attribute("value")) == {"note": PROBE_CLAIM, PROBE_CLAIM: 1}
        assert not console.find_all("#view a[href^='javascript']")
        assert_nothing_ran(console)

        # Codes and links: the hostile email of a reset link.
        console.open("codes", project=DEFAULT_PROJECT)
        console.wait_for_text("#oob-rows", email)
        assert_nothing_ran(console)

        # A tenant's name, in the tenants table and the header's picker.
        probe_tenant = "<img src=x id=xss-tenant onerror=\"window.__xss.push('tenant')\">"
        created = console.admin.post(
            f"{console.url}/identitytoolkit.googleapis.com/v2/projects/{DEFAULT_PROJECT}/tenants",
            json={"displayName": probe_tenant}, timeout=10)
        assert created.status_code == 200, created.text
        tenant_id = created.json()["tenantId"]
        try:
            console.open("tenants", project=DEFAULT_PROJECT)
            console.wait_for_text("#tenants-table", probe_tenant)
            console.wait(lambda: probe_tenant in console.text("#tenant-select") or
                         any(probe_tenant in o.get_attribute("textContent") for o in console.find_all("#tenant-select option")),
                         "the picker did not list the tenant")
            assert_nothing_ran(console)
            assert not console.find_all("#xss-tenant")
        finally:
            console.admin.delete(f"{console.url}/identitytoolkit.googleapis.com/v2/projects/{DEFAULT_PROJECT}/tenants/{tenant_id}",
                                 timeout=10)

        # What a person types, and what an address says.
        console.open("accounts", project=DEFAULT_PROJECT)
        console.type_into("#account-search", PROBE_QUERY)
        console.wait_for_text("#accounts-rows", f"No account matches “{PROBE_QUERY}”.")
        assert_nothing_ran(console)
        hostile_project = "<img src=x id=xss-project onerror=\"window.__xss.push('project')\">"
        browser.get(f"{console.url}/emulator/ui/?project={urllib.parse.quote(hostile_project)}#/accounts")
        console.wait_for_text("#view", "Project and tenant ids are letters")
        assert console.find("#project-input").get_attribute("value") == hostile_project
        assert browser.title == f"{hostile_project} · hearth-emulator"
        assert_nothing_ran(console)
    finally:
        browser.execute_cdp_cmd("Page.setBypassCSP", {"enabled": False})


def test_the_content_security_policy_refuses_inline_script(console):
    console.open("accounts")
    console.wait_for("#accounts-rows tr")
    ran = console.browser.execute_script("""
        const script = document.createElement('script');
        script.textContent = 'window.__inlineRan = true';
        document.body.append(script);
        const image = document.createElement('img');
        image.setAttribute('src', 'x');
        image.setAttribute('onerror', 'window.__inlineRan = true');
        document.body.append(image);
        return new Promise((done) => setTimeout(() => done(window.__inlineRan === true), 300));""")
    assert ran is False
    violations = console.browser.execute_script("return window.__cspViolations")
    assert "script-src-elem" in violations or "script-src" in violations, violations


class Attacker(http.server.BaseHTTPRequestHandler):
    page = b""

    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(self.page)))
        self.end_headers()
        self.wfile.write(self.page)

    def log_message(self, *args):
        pass


ATTACK = """<!doctype html><title>another local page</title>
<form id="form" method="post" enctype="text/plain" action="{delete}"><input name='{{"localId":"{uid}","x":"' value='"}}'></form>
<script>
const results = {{}};
async function attempt(name, request) {{
  try {{
    const answer = await request();
    results[name] = answer instanceof Response ? (answer.type === 'opaque' ? 'opaque' : answer.status) : answer;
  }} catch (error) {{
    results[name] = 'refused: ' + error.name;
  }}
}}
(async () => {{
  await attempt('guessedToken', () => fetch('{delete}', {{ method: 'POST', body: JSON.stringify({{ localId: '{uid}' }}),
    headers: {{ 'X-Hearth-Console-Token': '0'.repeat(32), 'Content-Type': 'application/json' }} }}));
  await attempt('noCors', () => fetch('{delete}', {{ method: 'POST', mode: 'no-cors', body: JSON.stringify({{ localId: '{uid}' }}),
    headers: {{ 'Content-Type': 'text/plain' }} }}));
  await attempt('wipe', () => fetch('{wipe}', {{ method: 'DELETE' }}));
  await attempt('readAccounts', () => fetch('{accounts}').then((answer) => answer.status));
  await attempt('readPage', () => fetch('{page}').then((answer) => answer.text()).then((text) => text.length));
  await attempt('restLookup', () => fetch('{lookup}', {{ method: 'POST', body: JSON.stringify({{ localId: ['{uid}'] }}),
    headers: {{ 'Authorization': 'Bearer owner', 'Content-Type': 'application/json' }} }})
    .then((answer) => answer.json()).then((body) => (body.users || []).length));
  window.__results = results;
}})();
</script>"""


@pytest.fixture
def attacker_site():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Attacker)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_another_local_page_cannot_change_state_through_the_console(console, attacker_site):
    uid = unique("target-")
    console.create_accounts([{"localId": uid, "email": f"{uid}@example.com"}])
    base = f"{console.url}/emulator/ui"
    Attacker.page = ATTACK.format(
        uid=uid,
        delete=f"{base}/api/rest/identitytoolkit.googleapis.com/v1/projects/{console.project}/accounts:delete",
        wipe=f"{base}/api/rest/emulator/v1/projects/{console.project}/accounts",
        accounts=f"{base}/api/projects/{console.project}/accounts",
        page=f"{base}/",
        lookup=f"{console.url}/identitytoolkit.googleapis.com/v1/projects/{console.project}/accounts:lookup",
    ).encode()

    console.browser.get(f"{attacker_site}/attack.html")
    results = console.wait(lambda: console.browser.execute_script("return window.__results"), "the attacks did not finish")
    assert results == {
        "guessedToken": "refused: TypeError",   # the preflight for the custom field is not granted
        "noCors": "refused: TypeError",          # sent, refused by the console; Cross-Origin-Resource-Policy hides even that
        "wipe": "refused: TypeError",            # DELETE needs a preflight
        "readAccounts": "refused: TypeError",    # no CORS: the answer is not the other page's to read
        "readPage": "refused: TypeError",        # nor the page with its token
        "restLookup": 1,                         # the REST surface answers other origins, as Firebase's emulator does
    }, results
    assert console.lookup(uid) is not None

    # A plain form needs no preflight: it reaches the console and is refused there.
    console.browser.execute_script("document.getElementById('form').submit()")
    console.wait(lambda: console.browser.current_url.startswith(base), "the form did not post")
    console.wait_for_text("body", "refused")
    assert console.lookup(uid) is not None
    assert console.all_accounts() != []
