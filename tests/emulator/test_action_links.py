"""GET /emulator/action: the landing page the logged email links lead to."""
import time
from urllib.parse import parse_qs, urlparse


def follow(emu, link, **params):
    url = urlparse(link)
    query = {k: v[0] for k, v in parse_qs(url.query).items()}
    query.update(params)
    return emu.session.get(link.split("?")[0], params=query, allow_redirects=False, timeout=30)


def test_reset_link_sets_the_new_password(emu):
    user = emu.sign_up("act@example.com", "old-password")
    emu.ok(emu.identity("sendOobCode", {"requestType": "PASSWORD_RESET", "email": "act@example.com"}))
    [code] = emu.new_oob_codes()
    needs_password = follow(emu, code["oobLink"])
    assert needs_password.status_code == 400
    assert needs_password.json()["authEmulator"]["urlTemplate"] == code["oobLink"] + "&newPassword=NEW_PASSWORD_HERE"
    placeholder = follow(emu, code["oobLink"], newPassword="NEW_PASSWORD_HERE")
    assert placeholder.status_code == 400
    done = follow(emu, code["oobLink"], newPassword="from-the-link")
    assert done.status_code == 200
    assert done.json() == {"authEmulator": {"success": "The password has been successfully updated.",
                                            "email": "act@example.com"}}
    assert emu.sign_in("act@example.com", "from-the-link").local_id == user.local_id
    used = follow(emu, code["oobLink"], newPassword="again-password")
    assert used.status_code == 400 and "already been used" in used.json()["authEmulator"]["error"]


def test_verify_link_verifies_and_redirects_to_the_continue_url(emu):
    user = emu.sign_up("act@example.com")
    emu.ok(emu.identity("sendOobCode", {"requestType": "VERIFY_EMAIL", "idToken": user.id_token,
                                        "continueUrl": "https://app.example.com/verified"}))
    [code] = emu.new_oob_codes()
    response = follow(emu, code["oobLink"])
    assert response.status_code == 303
    assert response.headers["Location"] == "https://app.example.com/verified"
    assert emu.lookup(user.id_token)["emailVerified"] is True


def test_sign_in_link_redirects_with_the_code(emu):
    emu.ok(emu.identity("sendOobCode", {"requestType": "EMAIL_SIGNIN", "email": "act@example.com",
                                        "continueUrl": "https://app.example.com/finish?state=1"}))
    [code] = emu.new_oob_codes()
    response = follow(emu, code["oobLink"])
    assert response.status_code == 303
    target = urlparse(response.headers["Location"])
    assert target.netloc == "app.example.com" and target.path == "/finish"
    query = parse_qs(target.query)
    assert query["state"] == ["1"] and query["oobCode"] == [code["oobCode"]] and query["mode"] == ["signIn"]


def test_recover_link_restores_the_previous_email(emu):
    user = emu.sign_up("first@example.com")
    emu.ok(emu.identity("update", {"idToken": user.id_token, "email": "second@example.com"}))
    [code] = [c for c in emu.new_oob_codes() if c["requestType"] == "RECOVER_EMAIL"]
    response = follow(emu, code["oobLink"])
    assert response.status_code == 200, response.text
    assert response.json()["authEmulator"]["email"] == "first@example.com"
    assert emu.sign_in("first@example.com", "secret-password").local_id == user.local_id


def test_bad_links(emu, base_url):
    def get(**params):
        return emu.session.get(f"{base_url}/emulator/action", params=params, timeout=30)
    assert get(oobCode="x", mode="verifyEmail").json()["authEmulator"]["error"] == "missing apiKey query parameter"
    assert get(apiKey="k", mode="verifyEmail").json()["authEmulator"]["error"] == "missing oobCode query parameter"
    assert get(apiKey="k", oobCode="x", mode="fly").json() == {"authEmulator": {"error": "Invalid mode"}}
    response = get(apiKey="k", oobCode="unknown", mode="verifyEmail")
    assert response.status_code == 400 and "expired" in response.json()["authEmulator"]["error"]


def test_verify_and_change_link_changes_the_email(emu):
    user = emu.sign_up("before-change@example.com")
    emu.ok(emu.identity("sendOobCode", {"requestType": "VERIFY_AND_CHANGE_EMAIL", "idToken": user.id_token,
                                        "newEmail": "after-change@example.com"}))
    [code] = emu.new_oob_codes()
    assert parse_qs(urlparse(code["oobLink"]).query)["mode"] == ["verifyAndChangeEmail"]
    response = follow(emu, code["oobLink"])
    assert response.status_code == 200
    assert response.json() == {"authEmulator": {"success": "The email has been successfully changed.",
                                                "newEmail": "after-change@example.com"}}
    signed_in = emu.sign_in("after-change@example.com", "secret-password")
    assert signed_in.local_id == user.local_id
    assert emu.lookup(signed_in.id_token)["emailVerified"] is True
    used = follow(emu, code["oobLink"])
    assert used.status_code == 400
    assert used.json()["authEmulator"] == {
        "error": "Your request to change your email has expired or the link has already been used.",
        "instructions": "Try changing your email again."}


def test_sign_in_link_hands_every_link_parameter_to_the_app(emu):
    emu.ok(emu.identity("sendOobCode", {"requestType": "EMAIL_SIGNIN", "email": "all-params@example.com",
                                        "continueUrl": "https://app.example.com/finish?mode=old&keep=1"}))
    [code] = emu.new_oob_codes()
    response = follow(emu, code["oobLink"], extra="kept too")
    query = parse_qs(urlparse(response.headers["Location"]).query)
    assert query == {"mode": ["signIn"], "keep": ["1"], "lang": ["en"], "oobCode": [code["oobCode"]],
                     "apiKey": ["fake-api-key"], "extra": ["kept too"]}


def test_a_browser_gets_a_form_for_the_new_password(emu):
    user = emu.sign_up("form-reset@example.com", "old-password")
    emu.ok(emu.identity("sendOobCode", {"requestType": "PASSWORD_RESET", "email": "form-reset@example.com"}))
    [code] = emu.new_oob_codes()
    browser = {"Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}
    for extra in ({}, {"newPassword": "NEW_PASSWORD_HERE"}):
        page = follow_with(emu, code["oobLink"], browser, **extra)
        assert page.status_code == 200 and page.headers["Content-Type"].startswith("text/html")
        assert 'name="newPassword"' in page.text and "form-reset@example.com" in page.text
        assert f'name="oobCode" value="{code["oobCode"]}"' in page.text
    done = follow_with(emu, code["oobLink"], browser, newPassword="typed-in-form")
    assert done.json()["authEmulator"]["success"] == "The password has been successfully updated."
    assert emu.sign_in("form-reset@example.com", "typed-in-form").local_id == user.local_id


def test_an_expired_code_reads_as_expired_or_used(emu):
    user = emu.sign_up("late@example.com")
    emu.ok(emu.identity("sendOobCode", {"requestType": "VERIFY_EMAIL", "idToken": user.id_token}))
    [code] = emu.new_oob_codes()
    emu.set_config(oobCodeTtlSeconds=1)
    time.sleep(1.2)
    response = follow(emu, code["oobLink"])
    assert response.status_code == 400
    assert response.json()["authEmulator"]["error"] == (
        "Your request to verify your email has expired or the link has already been used.")


def follow_with(emu, link, headers, **params):
    url = urlparse(link)
    query = {k: v[0] for k, v in parse_qs(url.query).items()}
    query.update(params)
    return emu.session.get(link.split("?")[0], params=query, headers=headers, allow_redirects=False, timeout=30)
