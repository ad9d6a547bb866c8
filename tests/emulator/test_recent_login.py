"""CREDENTIAL_TOO_OLD_LOGIN_AGAIN (beyond Firebase's emulator, which never asks): with
`recentLoginMaxAgeSeconds` set, a password change, an email change or an account deletion made
with an ID token whose sign-in (`auth_time`) is older than that fails until the user signs in again."""
import time

from emulator_client import EMULATOR, assert_bad_request, assert_invalid_argument, decode_jwt

TOO_OLD = "CREDENTIAL_TOO_OLD_LOGIN_AGAIN"


def wait_until_older_than(id_token, seconds):
    """Until the token's sign-in is more than `seconds` old (auth_time has one-second resolution)."""
    auth_time = decode_jwt(id_token)[1]["auth_time"]
    while int(time.time()) - auth_time <= seconds:
        time.sleep(0.05)


def test_the_check_is_off_by_default_and_set_per_project(emu):
    config = emu.ok(emu.request("GET", f"{EMULATOR}/config", key=False))
    assert config["recentLoginMaxAgeSeconds"] == 0
    assert emu.set_config(recentLoginMaxAgeSeconds=300)["recentLoginMaxAgeSeconds"] == 300
    assert emu.ok(emu.request("GET", f"{EMULATOR}/config", key=False))["recentLoginMaxAgeSeconds"] == 300
    # Other settings stay as they were.
    assert emu.set_config(signIn={"allowDuplicateEmails": True})["recentLoginMaxAgeSeconds"] == 300


def test_a_negative_age_is_refused(emu):
    response = emu.request("PATCH", f"{EMULATOR}/config", key=False, json_body={"recentLoginMaxAgeSeconds": -1})
    assert_invalid_argument(response, "Invalid JSON payload received. Invalid value at 'recentLoginMaxAgeSeconds'")


def test_sensitive_changes_after_an_old_sign_in_need_a_new_sign_in(emu):
    emu.set_config(recentLoginMaxAgeSeconds=1)
    user = emu.sign_up("old@example.com")
    wait_until_older_than(user.id_token, 1)

    assert_bad_request(emu.identity("update", {"idToken": user.id_token, "password": "new-password"}), TOO_OLD)
    assert_bad_request(emu.identity("update", {"idToken": user.id_token, "email": "new@example.com"}), TOO_OLD)
    assert_bad_request(emu.identity("delete", {"idToken": user.id_token}), TOO_OLD)
    # Nothing changed.
    assert emu.lookup(user.id_token)["email"] == "old@example.com"
    # A refreshed token keeps the old sign-in time.
    refreshed = emu.ok(emu.refresh(user.refresh_token))["id_token"]
    assert_bad_request(emu.identity("update", {"idToken": refreshed, "password": "new-password"}), TOO_OLD)

    # Other updates, the same email again, and admins are not asked.
    emu.ok(emu.identity("update", {"idToken": user.id_token, "displayName": "Still Fine"}))
    emu.ok(emu.identity("update", {"idToken": user.id_token, "email": "OLD@example.com"}))
    emu.ok(emu.admin(":update", {"localId": user.local_id, "password": "admin-set-password"}))

    # Signing in again makes the sign-in recent.
    fresh = emu.sign_in("old@example.com", "admin-set-password")
    body = emu.ok(emu.identity("update", {"idToken": fresh.id_token, "password": "changed-password"}))
    assert body["idToken"]
    emu.ok(emu.identity("delete", {"idToken": body["idToken"]}))


def test_an_identity_provider_sign_in_counts_as_recent(emu):
    emu.set_config(recentLoginMaxAgeSeconds=1)
    first = emu.ok(emu.sign_in_with_idp("google.com", {"sub": "g-recent", "email": "r@example.com",
                                                       "email_verified": True}))
    wait_until_older_than(first["idToken"], 1)
    assert_bad_request(emu.identity("delete", {"idToken": first["idToken"]}), TOO_OLD)
    again = emu.ok(emu.sign_in_with_idp("google.com", {"sub": "g-recent"}))
    emu.ok(emu.identity("delete", {"idToken": again["idToken"]}))


def test_turning_the_check_off_again_allows_old_sign_ins(emu):
    emu.set_config(recentLoginMaxAgeSeconds=1)
    user = emu.sign_up("off@example.com")
    wait_until_older_than(user.id_token, 1)
    assert_bad_request(emu.identity("delete", {"idToken": user.id_token}), TOO_OLD)
    emu.set_config(recentLoginMaxAgeSeconds=0)
    emu.ok(emu.identity("delete", {"idToken": user.id_token}))
