"""accounts:delete for clients and admins."""
from emulator_client import assert_bad_request


def test_account_deletes_itself(emu):
    user = emu.sign_up("gone@example.com")
    body = emu.ok(emu.identity("delete", {"idToken": user.id_token}))
    assert body == {"kind": "identitytoolkit#DeleteAccountResponse"}
    assert_bad_request(emu.identity("signInWithPassword", {"email": "gone@example.com", "password": "secret-password"}),
                       "EMAIL_NOT_FOUND")
    assert_bad_request(emu.refresh(user.refresh_token), "INVALID_REFRESH_TOKEN")
    # The email is free again.
    emu.sign_up("gone@example.com")


def test_client_delete_needs_an_id_token(emu):
    assert_bad_request(emu.identity("delete", {}), "MISSING_ID_TOKEN")
    assert_bad_request(emu.identity("delete", {"idToken": "junk"}), "INVALID_ID_TOKEN")


def test_admin_deletes_by_local_id(emu):
    user = emu.sign_up_anonymously()
    emu.ok(emu.admin(":delete", {"localId": user.local_id}))
    assert emu.ok(emu.admin(":lookup", {"localId": [user.local_id]})).get("users") is None
    assert_bad_request(emu.admin(":delete", {"localId": user.local_id}), "USER_NOT_FOUND")
    assert_bad_request(emu.admin(":delete", {}), "MISSING_LOCAL_ID")
