"""hearth-emulator --import DIR / --export-on-exit [DIR]: the Firebase emulator suite's export directory
(firebase-export-metadata.json, auth_export/accounts.json as accounts:batchGet lists them,
auth_export/config.json as GET .../config answers it), loaded with accounts:batchCreate's rules before
the server listens and written on SIGINT/SIGTERM. fixtures/firebase-export is a hand-written export in
Firebase's format. These tests start their own emulator processes (HEARTH_EMULATOR_BIN, else
.build/release)."""
import json
import os
import pathlib
import re
import shutil
import signal
import subprocess

import pytest

from emulator_client import PROJECT_ID, Emulator, assert_bad_request, decode_jwt

REPO = pathlib.Path(__file__).resolve().parents[2]
FIXTURE = pathlib.Path(__file__).resolve().parent / "fixtures" / "firebase-export"
FIXTURE_USERS = {u["localId"]: u for u in json.loads((FIXTURE / "auth_export/accounts.json").read_text())["users"]}
ADA = FIXTURE_USERS["passwordUser0000000000000001"]
READY = "hearth-emulator listening on "


@pytest.fixture(scope="module")
def binary() -> str:
    path = os.environ.get("HEARTH_EMULATOR_BIN") or str(REPO / ".build/release/hearth-emulator")
    if not os.access(path, os.X_OK):
        pytest.fail(f"hearth-emulator binary not found at {path}: build it (make build) or set HEARTH_EMULATOR_BIN")
    return path


class Process:
    """One emulator run; `emu` talks to it once it is listening."""

    def __init__(self, binary, *args):
        self.process = subprocess.Popen([binary, "--port", "0", "--project", PROJECT_ID, *args],
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.line = self.process.stdout.readline()
        self.emu = Emulator(self.line[len(READY):].strip()) if self.line.startswith(READY) else None

    def stop(self, sig=signal.SIGINT) -> tuple[int, str]:
        self.process.send_signal(sig)
        _, err = self.process.communicate(timeout=20)
        return self.process.returncode, err

    def refused(self) -> tuple[int, str]:
        """Exit status and stderr of a start that must fail before listening."""
        assert self.emu is None, f"started although it should not: {self.line}"
        _, err = self.process.communicate(timeout=20)
        return self.process.returncode, err


@pytest.fixture()
def start(binary):
    started = []

    def run(*args) -> Process:
        process = Process(binary, *args)
        started.append(process)
        return process

    yield run
    for process in started:
        if process.process.poll() is None:
            process.process.kill()
            process.process.wait(timeout=10)


@pytest.fixture()
def export_copy(tmp_path) -> pathlib.Path:
    """A writable copy of the fixture export."""
    return pathlib.Path(shutil.copytree(FIXTURE, tmp_path / "export"))


def running(start, *args) -> Process:
    process = start(*args)
    assert process.emu is not None, process.refused()
    return process


def exported_users(directory: pathlib.Path) -> dict:
    text = (directory / "auth_export/accounts.json").read_text()
    document = json.loads(text)
    assert document["kind"] == "identitytoolkit#DownloadAccountResponse"
    return {u["localId"]: u for u in document["users"]}


def admin_lookup(emu, local_id) -> dict:
    return emu.ok(emu.admin(":lookup", {"localId": [local_id]}))["users"][0]


# --- importing Firebase's format ------------------------------------------------------------------
def test_every_imported_account_reads_back_exactly_as_exported(start):
    emu = running(start, "--import", str(FIXTURE)).emu
    for local_id, exported in FIXTURE_USERS.items():
        assert admin_lookup(emu, local_id) == exported


def test_an_imported_password_user_signs_in_with_the_password_in_its_fake_hash(start):
    emu = running(start, "--import", str(FIXTURE)).emu
    user = emu.sign_in("ada@example.com", "analytical-engine")
    assert user.local_id == ADA["localId"]
    claims = decode_jwt(user.id_token)[1]
    assert claims["email"] == "ada@example.com" and claims["email_verified"] is True
    assert claims["firebase"]["sign_in_provider"] == "password"
    # customAttributes become the token's claims.
    assert claims["role"] == "admin" and claims["level"] == 3
    profile = emu.lookup(user.id_token)
    assert (profile["displayName"], profile["photoUrl"], profile["createdAt"]) == (
        "Ada Lovelace", "https://example.com/ada.png", "1700000000000")


def test_the_imported_config_applies(start):
    # fixtures' config.json turns on email enumeration protection.
    emu = running(start, "--import", str(FIXTURE)).emu
    assert emu.ok(emu.request("GET", f"/emulator/v1/projects/{PROJECT_ID}/config", key=False))[
        "emailPrivacyConfig"] == {"enableImprovedEmailPrivacy": True}
    assert_bad_request(emu.identity("signInWithPassword", {"email": "ada@example.com", "password": "wrong-one"}),
                       "INVALID_LOGIN_CREDENTIALS")


def test_an_imported_phone_user_signs_in_with_an_sms_code(start):
    emu = running(start, "--import", str(FIXTURE)).emu
    body = emu.sign_in_with_phone("+15555550101")
    assert body["localId"] == "phoneUser0000000000000000001"
    assert body["isNewUser"] is False


def test_an_imported_provider_identity_is_reached_by_the_fake_idp_credential(start):
    emu = running(start, "--import", str(FIXTURE)).emu
    body = emu.ok(emu.sign_in_with_idp("google.com", {"sub": "108000000000000000001", "email": "grace@example.com",
                                                      "email_verified": True}))
    assert body["localId"] == "googleUser0000000000000000001"
    assert body.get("isNewUser", False) is False


def test_an_imported_sms_second_factor_is_asked_for_and_completes_the_sign_in(start):
    emu = running(start, "--import", str(FIXTURE)).emu
    first = emu.ok(emu.identity("signInWithPassword", {"email": "margaret@example.com",
                                                       "password": "apollo-11-guidance", "returnSecureToken": True}))
    assert "idToken" not in first
    [hint] = first["mfaInfo"]
    assert hint["mfaEnrollmentId"] == "smsFactor00000000000000000001"
    assert hint["phoneInfo"] == "+*******0102"
    session = emu.ok(emu.mfa("mfaSignIn:start", {"mfaPendingCredential": first["mfaPendingCredential"],
                                                 "mfaEnrollmentId": hint["mfaEnrollmentId"]}))
    session_info = session["phoneResponseInfo"]["sessionInfo"]
    code = emu.verification_code(session_info)["code"]
    done = emu.ok(emu.mfa("mfaSignIn:finalize", {"mfaPendingCredential": first["mfaPendingCredential"],
                                                 "phoneVerificationInfo": {"sessionInfo": session_info, "code": code}}))
    assert decode_jwt(done["idToken"])[1]["firebase"]["sign_in_second_factor"] == "phone"


def test_an_imported_disabled_user_cannot_sign_in(start):
    emu = running(start, "--import", str(FIXTURE)).emu
    assert_bad_request(emu.identity("signInWithPassword", {"email": "disabled@example.com",
                                                           "password": "locked-out-1"}), "USER_DISABLED")


def test_the_metadata_names_where_the_auth_data_is(start, export_copy):
    (export_copy / "auth_export").rename(export_copy / "elsewhere")
    metadata = json.loads((export_copy / "firebase-export-metadata.json").read_text())
    metadata["auth"]["path"] = "elsewhere"
    (export_copy / "firebase-export-metadata.json").write_text(json.dumps(metadata))
    emu = running(start, "--import", str(export_copy)).emu
    assert emu.sign_in("ada@example.com", "analytical-engine").local_id == ADA["localId"]


def test_without_metadata_auth_export_is_used(start, export_copy):
    (export_copy / "firebase-export-metadata.json").unlink()
    emu = running(start, "--import", str(export_copy)).emu
    assert emu.sign_in("ada@example.com", "analytical-engine").local_id == ADA["localId"]


def test_raw_passwords_can_be_imported(start, tmp_path):
    auth = tmp_path / "auth_export"
    auth.mkdir()
    (auth / "accounts.json").write_text(json.dumps({"users": [
        {"localId": "raw1", "email": "raw@example.com", "rawPassword": "plain-text-1"}]}))
    emu = running(start, "--import", str(tmp_path)).emu
    assert emu.sign_in("raw@example.com", "plain-text-1").local_id == "raw1"


def test_command_line_settings_win_over_the_imported_config(start, tmp_path):
    auth = tmp_path / "auth_export"
    auth.mkdir()
    (auth / "config.json").write_text(json.dumps({
        "smsCodeTtlSeconds": 500, "testPhoneNumbers": {"+16505553434": "654321"},
        "signIn": {"allowDuplicateEmails": True}}))
    emu = running(start, "--import", str(tmp_path), "--sms-code-ttl-seconds", "77").emu
    config = emu.ok(emu.request("GET", f"/emulator/v1/projects/{PROJECT_ID}/config", key=False))
    assert config["smsCodeTtlSeconds"] == 77
    assert config["testPhoneNumbers"] == {"+16505553434": "654321"}
    assert config["signIn"] == {"allowDuplicateEmails": True}


# --- refusing what cannot be loaded ---------------------------------------------------------------
def edit_accounts(directory: pathlib.Path, change) -> None:
    path = directory / "auth_export/accounts.json"
    document = json.loads(path.read_text())
    change(document["users"])
    path.write_text(json.dumps(document))


MALFORMED = {
    "not JSON": (lambda d: (d / "auth_export/accounts.json").write_text('{"users": [{"localId": "a",]}'),
                 "accounts.json: not valid JSON"),
    "unknown field": (lambda d: edit_accounts(d, lambda users: users[0].update(favouriteColour="blue")),
                      "Unknown name \"favouriteColour\" at 'users[0]'"),
    "wrong type": (lambda d: edit_accounts(d, lambda users: users[1].update(emailVerified="yes")),
                   "Invalid value at 'users[1].emailVerified'"),
    "invalid email": (lambda d: edit_accounts(d, lambda users: users[3].update(email="not-an-email")),
                      'users[3] (localId "passwordUser0000000000000001"): email is invalid'),
    "production hash": (lambda d: edit_accounts(d, lambda users: users[3].update(passwordHash="c2NyeXB0LWhhc2g=")),
                        "passwordHash must be the emulator's fakeHash"),
    "duplicate localId": (lambda d: edit_accounts(d, lambda users: users.append(dict(users[0]))),
                          "DUPLICATE_LOCAL_ID : disabledUser00000000000000001"),
    "duplicate email": (lambda d: edit_accounts(d, lambda users: users.append({"localId": "x", "email": "ada@example.com"})),
                        "does not support importing duplicate email: ada@example.com"),
    "timestamp out of range": (lambda d: edit_accounts(d, lambda users: users[3].update(passwordUpdatedAt=1e300)),
                               "passwordUpdatedAt must be milliseconds since 1970"),
    "reserved claim": (lambda d: edit_accounts(d, lambda users: users[3].update(customAttributes='{"sub":"x"}')),
                       "Custom claims provided include a reserved claim."),
    "unverified MFA email": (lambda d: edit_accounts(d, lambda users: users[2].update(emailVerified=False)),
                             "Second factor account requires email to be verified."),
    "TOTP without its secret": (lambda d: edit_accounts(d, lambda users: users[2]["mfaInfo"].append(
        {"mfaEnrollmentId": "t1", "totpInfo": {}})), "totpInfo.sharedSecretKey"),
    "invalid setting": (lambda d: (d / "auth_export/config.json").write_text('{"smsCodeTtlSeconds": 0}'),
                        "config.json: Invalid value at 'smsCodeTtlSeconds'"),
    "metadata without a path": (lambda d: (d / "firebase-export-metadata.json").write_text('{"auth": {}}'),
                                "auth.path must be a non-empty string"),
}


@pytest.mark.parametrize("case", list(MALFORMED))
def test_an_export_that_cannot_be_loaded_whole_stops_the_start(start, export_copy, case):
    break_it, expected = MALFORMED[case]
    break_it(export_copy)
    code, err = start("--import", str(export_copy)).refused()
    assert code == 1
    assert expected in err, err
    assert f"hearth-emulator: {export_copy}" in err, "the message names the file"


def test_a_missing_import_directory_stops_the_start(start, tmp_path):
    code, err = start("--import", str(tmp_path / "nowhere")).refused()
    assert code == 1
    assert f"{tmp_path / 'nowhere'}: no such directory" in err


def test_export_on_exit_needs_a_directory_or_an_import(start):
    code, err = start("--export-on-exit").refused()
    assert code == 2
    assert "--export-on-exit needs a directory, or --import DIR" in err


# --- exporting ------------------------------------------------------------------------------------
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_termination_signal_writes_the_export_then_exits(start, tmp_path, sig):
    target = tmp_path / "out"
    process = running(start, "--import", str(FIXTURE), "--export-on-exit", str(target))
    new = process.emu.sign_up("new@example.com", "brand-new-pw")
    process.emu.set_config(smsCodeTtlSeconds=123)
    code, err = process.stop(sig)
    assert code == 0, err

    metadata = json.loads((target / "firebase-export-metadata.json").read_text())
    assert metadata["auth"]["path"] == "auth_export"
    users = exported_users(target)
    assert set(users) == set(FIXTURE_USERS) | {new.local_id}
    assert users[new.local_id]["passwordHash"].endswith(":password=brand-new-pw")
    assert json.loads((target / "auth_export/config.json").read_text())["smsCodeTtlSeconds"] == 123
    leftovers = [p.name for p in target.rglob("*") if ".tmp" in p.name]
    assert leftovers == []
    assert f"Exported {len(FIXTURE_USERS) + 1} accounts" in err


def test_export_on_exit_without_a_directory_writes_back_to_the_import_and_keeps_other_emulators(start, export_copy):
    metadata = json.loads((export_copy / "firebase-export-metadata.json").read_text())
    metadata["firestore"] = {"version": "1.19.1", "path": "firestore_export",
                             "metadata_file": "firestore_export/firestore_export.overall_export_metadata"}
    (export_copy / "firebase-export-metadata.json").write_text(json.dumps(metadata))
    process = running(start, "--import", str(export_copy), "--export-on-exit")
    process.emu.ok(process.emu.admin(":delete", {"localId": "disabledUser00000000000000001"}))
    code, err = process.stop()
    assert code == 0, err
    assert set(exported_users(export_copy)) == set(FIXTURE_USERS) - {"disabledUser00000000000000001"}
    written = json.loads((export_copy / "firebase-export-metadata.json").read_text())
    assert written["firestore"] == metadata["firestore"]
    assert written["version"] == "13.29.1"


def test_export_import_export_gives_the_same_accounts(start, tmp_path):
    first, second = tmp_path / "first", tmp_path / "second"
    process = running(start, "--import", str(FIXTURE), "--export-on-exit", str(first))
    emu = process.emu
    emu.sign_up_anonymously()
    linked = emu.sign_up("linked@example.com", "linked-pass-1")
    emu.ok(emu.sign_in_with_idp("github.com", {"sub": "gh-42", "email": "linked@example.com"},
                                link_to=linked.id_token))
    emu.ok(emu.admin(":update", {"localId": linked.local_id, "emailVerified": True,
                                 "customAttributes": json.dumps({"tier": "gold"})}))
    assert process.stop()[0] == 0

    assert running(start, "--import", str(first), "--export-on-exit", str(second)).stop()[0] == 0
    assert exported_users(second) == exported_users(first)
    assert json.loads((second / "auth_export/config.json").read_text()) == \
        json.loads((first / "auth_export/config.json").read_text())
    # And the fixture itself survives the trip unchanged.
    for local_id, user in FIXTURE_USERS.items():
        assert exported_users(second)[local_id] == user


def test_a_totp_second_factor_survives_export_and_import(start, tmp_path):
    from emulator_client import totp_code
    target = tmp_path / "out"
    process = running(start, "--import", str(FIXTURE), "--export-on-exit", str(target))
    emu = process.emu
    user = emu.sign_in("ada@example.com", "analytical-engine")
    session = emu.ok(emu.mfa("mfaEnrollment:start", {"idToken": user.id_token, "totpEnrollmentInfo": {}}))[
        "totpSessionInfo"]
    emu.ok(emu.mfa("mfaEnrollment:finalize", {
        "idToken": user.id_token, "displayName": "Authenticator",
        "totpVerificationInfo": {"sessionInfo": session["sessionInfo"],
                                 "verificationCode": totp_code(session["sharedSecretKey"])}}))
    assert process.stop()[0] == 0
    [factor] = exported_users(target)[ADA["localId"]]["mfaInfo"]
    assert factor["totpInfo"] == {"sharedSecretKey": session["sharedSecretKey"]}

    emu = running(start, "--import", str(target)).emu
    # Lookup still never shows the secret.
    assert admin_lookup(emu, ADA["localId"])["mfaInfo"][0]["totpInfo"] == {}
    first = emu.ok(emu.identity("signInWithPassword", {"email": "ada@example.com", "password": "analytical-engine"}))
    done = emu.ok(emu.mfa("mfaSignIn:finalize", {
        "mfaPendingCredential": first["mfaPendingCredential"], "mfaEnrollmentId": factor["mfaEnrollmentId"],
        "totpVerificationInfo": {"verificationCode": totp_code(session["sharedSecretKey"])}}))
    assert decode_jwt(done["idToken"])[1]["firebase"]["sign_in_second_factor"] == "totp"


# --- readable logs --------------------------------------------------------------------------------
def test_sms_codes_and_email_links_are_one_copyable_line_each_and_passwords_are_not_logged(start):
    process = running(start, "--import", str(FIXTURE))
    emu = process.emu
    session_info = emu.send_code("+15555550101")
    code = emu.verification_code(session_info)["code"]
    emu.ok(emu.identity("sendOobCode", {"requestType": "VERIFY_EMAIL", "email": "ada@example.com",
                                        "idToken": emu.sign_in("ada@example.com", "analytical-engine").id_token}))
    [link] = [c["oobLink"] for c in emu.oob_codes() if c["requestType"] == "VERIFY_EMAIL"]
    _, err = process.stop()

    [sms_line] = [line for line in err.splitlines() if code in line]
    assert re.search(rf"To verify the phone number \+15555550101, use the code {code}\.", sms_line)
    [link_line] = [line for line in err.splitlines() if "oobCode=" in line]
    # The link is the line's last word, so a double-click or a terminal's URL detection takes all of it.
    assert link_line.endswith(f"To verify the email address ada@example.com, follow this link: {link}")
    assert "analytical-engine" not in err and "apollo-11-guidance" not in err


# --- accounts:batchCreate, the same rules over HTTP ------------------------------------------------
def batch_create(emu, body):
    return emu.post(f"/identitytoolkit.googleapis.com/v1/projects/{PROJECT_ID}/accounts:batchCreate", body,
                    key=False, admin=True)


def test_batch_create_creates_the_accounts_it_can_and_lists_the_others_by_index(start):
    emu = running(start).emu
    body = emu.ok(batch_create(emu, {"users": [
        {"localId": "up1", "email": "up1@example.com", "rawPassword": "uploaded-1", "displayName": "Up One"},
        {"localId": "up2", "email": "not-an-email"},
        {"localId": "up3", "providerUserInfo": [{"providerId": "github.com", "rawId": "gh-3"}]},
        {"localId": "up4", "customAttributes": '{"iss":"me"}'},
    ]}))
    assert body == {"kind": "identitytoolkit#UploadAccountResponse", "error": [
        {"index": 1, "message": "email is invalid"},
        {"index": 3, "message": "Custom claims provided include a reserved claim."}]}
    assert emu.sign_in("up1@example.com", "uploaded-1").local_id == "up1"
    assert admin_lookup(emu, "up3")["providerUserInfo"] == [{"providerId": "github.com", "rawId": "gh-3"}]
    assert emu.ok(emu.admin(":lookup", {"localId": ["up2", "up4"]})).get("users") is None


def test_batch_create_refuses_an_empty_list_and_repeated_local_ids(start):
    emu = running(start).emu
    assert_bad_request(batch_create(emu, {"users": []}), "MISSING_USER_ACCOUNT")
    assert_bad_request(batch_create(emu, {"users": [{"localId": "same"}, {"localId": "same"}]}),
                       "DUPLICATE_LOCAL_ID : same")


def test_batch_create_overwrites_an_existing_account_only_when_allowed(start):
    emu = running(start).emu
    existing = emu.sign_up("before@example.com", "before-pass")
    refused = emu.ok(batch_create(emu, {"users": [{"localId": existing.local_id, "email": "after@example.com"}]}))
    assert refused["error"] == [{"index": 0, "message": "localId belongs to an existing account - can not overwrite."}]
    emu.ok(batch_create(emu, {"allowOverwrite": True, "users": [
        {"localId": existing.local_id, "email": "after@example.com", "rawPassword": "after-pass"}]}))
    assert emu.sign_in("after@example.com", "after-pass").local_id == existing.local_id
    assert_bad_request(emu.identity("signInWithPassword", {"email": "before@example.com", "password": "before-pass"}),
                       "EMAIL_NOT_FOUND")


def test_batch_create_sanity_check_refuses_one_identity_on_two_accounts(start):
    emu = running(start).emu
    identity = {"providerId": "google.com", "rawId": "dup"}
    assert_bad_request(batch_create(emu, {"sanityCheck": True, "users": [
        {"localId": "a", "providerUserInfo": [identity]}, {"localId": "b", "providerUserInfo": [identity]}]}),
        "DUPLICATE_RAW_ID : Provider id(google.com), Raw id(dup)")


def test_tenant_accounts_export_and_import_in_their_own_files(start, tmp_path):
    # Firebase's emulator writes one accounts-<tenantId>.json per tenant and reads them back.
    first = running(start, "--export-on-exit", str(tmp_path))
    tenant_id = first.emu.ok(first.emu.v2_admin("POST", "/tenants", {"allowPasswordSignup": True}))["tenantId"]
    created = first.emu.ok(first.emu.identity("signUp", {"email": "tenant-export@example.com",
                                                         "password": "tenant-password", "tenantId": tenant_id}))
    first.emu.sign_up("project-export@example.com")
    assert first.stop()[0] == 0
    tenant_file = json.loads((tmp_path / f"auth_export/accounts-{tenant_id}.json").read_text())
    assert [(u["localId"], u["tenantId"]) for u in tenant_file["users"]] == [(created["localId"], tenant_id)]
    project_file = json.loads((tmp_path / "auth_export/accounts.json").read_text())
    assert [u["email"] for u in project_file["users"]] == ["project-export@example.com"]

    second = running(start, "--import", str(tmp_path))
    signed_in = second.emu.ok(second.emu.identity("signInWithPassword", {
        "email": "tenant-export@example.com", "password": "tenant-password", "tenantId": tenant_id}))
    assert signed_in["localId"] == created["localId"]
    assert decode_jwt(signed_in["idToken"])[1]["firebase"]["tenant"] == tenant_id
    assert_bad_request(second.emu.identity("signInWithPassword", {"email": "tenant-export@example.com",
                                                                  "password": "tenant-password"}), "EMAIL_NOT_FOUND")
    second.stop()


def test_a_tenant_gone_at_the_next_export_leaves_no_file(start, tmp_path):
    (tmp_path / "auth_export").mkdir()
    stale = tmp_path / "auth_export/accounts-gone.json"
    stale.write_text('{"kind":"identitytoolkit#DownloadAccountResponse","users":[]}')
    process = running(start, "--import", str(tmp_path), "--export-on-exit")
    process.emu.ok(process.emu.v2_admin("DELETE", "/tenants/gone"))
    assert process.stop()[0] == 0
    assert not stale.exists()
