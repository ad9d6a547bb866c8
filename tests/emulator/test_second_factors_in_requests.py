"""Second factors set in the request, as Firebase's emulator takes them: signUp `mfaInfo` (from any caller;
ids generated, repeated numbers dropped) and accounts:update `mfa.enrollments` (replacing the account's
factors; ids required). Signing in then asks for the second factor; a phone number cannot become the first
factor of such an account."""
import re

import pytest

from emulator_client import assert_bad_request, decode_jwt

PHONE = "+15555550100"
PHONE_2 = "+15555550101"
PHONE_3 = "+15555550102"
MFA_INFO = {"displayName": "Cell Phone", "phoneInfo": PHONE}
MFA_USER_FIRST_FACTOR = ("UNSUPPORTED_FIRST_FACTOR : A phone number cannot be set as a first factor on an SMS "
                         "based MFA user.")


def register(emu, email, mfa_info=None, **extra):
    """signUp with an API key, as the client SDKs call it."""
    body = {"email": email, "password": "notasecret", **extra}
    if mfa_info is not None:
        body["mfaInfo"] = mfa_info
    return emu.ok(emu.identity("signUp", body))


def factors_of(emu, id_token):
    return emu.lookup(id_token).get("mfaInfo")


def update_factors(emu, local_id, enrollments=..., mfa=None):
    mfa = {"enrollments": enrollments} if mfa is None else mfa
    return emu.admin(":update", {"localId": local_id, "mfa": mfa})


def includes(record, fields):
    return all(record.get(k) == v for k, v in fields.items())


# --- on sign-up ---------------------------------------------------------------------------------

def test_an_account_created_with_a_factor(emu):
    user = register(emu, "alice@example.com", [MFA_INFO])
    # Signing up answers tokens even so: the factor is asked for from the next sign-in on.
    assert "idToken" in user
    [factor] = factors_of(emu, user["idToken"])
    assert factor == {**MFA_INFO, "unobfuscatedPhoneInfo": PHONE, "mfaEnrollmentId": factor["mfaEnrollmentId"]}
    assert re.fullmatch(r"[A-Za-z0-9]{28}", factor["mfaEnrollmentId"])


def test_an_account_created_with_two_factors(emu):
    user = register(emu, "two@example.com", [MFA_INFO, {**MFA_INFO, "phoneInfo": PHONE_2}])
    factors = factors_of(emu, user["idToken"])
    assert [f["phoneInfo"] for f in factors] == [PHONE, PHONE_2]
    assert len({f["mfaEnrollmentId"] for f in factors}) == 2


def test_repeated_numbers_on_sign_up_are_dropped(emu):
    alice = register(emu, "dup-a@example.com", [MFA_INFO, MFA_INFO, MFA_INFO])
    [factor] = factors_of(emu, alice["idToken"])
    assert includes(factor, MFA_INFO)
    bob = register(emu, "dup-b@example.com", [MFA_INFO, MFA_INFO, MFA_INFO, {**MFA_INFO, "phoneInfo": PHONE_2}])
    assert [f["phoneInfo"] for f in factors_of(emu, bob["idToken"])] == [PHONE, PHONE_2]


def test_a_factor_needs_no_display_name(emu):
    user = register(emu, "nameless@example.com", [{"phoneInfo": PHONE}])
    [factor] = factors_of(emu, user["idToken"])
    assert "displayName" not in factor and factor["phoneInfo"] == PHONE


def test_an_invalid_factor_number_on_sign_up(emu):
    for caller in (lambda body: emu.admin("", body), lambda body: emu.identity("signUp", body)):
        assert_bad_request(caller({"email": "bad-mfa@example.com", "password": "notasecret",
                                   "mfaInfo": [{"phoneInfo": "5555550100"}]}),
                           "INVALID_MFA_PHONE_NUMBER : Invalid format.")
    assert emu.ok(emu.admin(":query", {"returnUserInfo": False})) == {"recordsCount": "0"}


def test_enrollment_ids_given_on_sign_up_are_not_used(emu):
    user = register(emu, "ids@example.com", [{**MFA_INFO, "mfaEnrollmentId": "thisShouldBeIgnored1"},
                                             {**MFA_INFO, "mfaEnrollmentId": "thisShouldBeIgnored2"}])
    [factor] = factors_of(emu, user["idToken"])
    assert factor["mfaEnrollmentId"] not in ("thisShouldBeIgnored1", "thisShouldBeIgnored2")


def test_an_empty_list_on_sign_up_is_kept_empty(emu):
    user = register(emu, "empty-list@example.com", [])
    assert factors_of(emu, user["idToken"]) == []
    assert "idToken" in emu.ok(emu.identity("signInWithPassword", {"email": "empty-list@example.com",
                                                                   "password": "notasecret"}))


# --- on update ----------------------------------------------------------------------------------

def test_creating_factors_on_update(emu):
    user = register(emu, "bob@example.com")
    emu.ok(update_factors(emu, user["localId"], [{**MFA_INFO, "mfaEnrollmentId": "enrollmentId1"}]))
    [factor] = factors_of(emu, user["idToken"])
    assert factor == {**MFA_INFO, "mfaEnrollmentId": "enrollmentId1", "unobfuscatedPhoneInfo": PHONE}


def test_adding_a_second_factor_keeps_the_first_as_given(emu):
    user = register(emu, "second@example.com", [MFA_INFO])
    [saved] = factors_of(emu, user["idToken"])
    second = {"displayName": "Second MFA Factor", "phoneInfo": PHONE_2, "mfaEnrollmentId": "enrollmentId2"}
    emu.ok(update_factors(emu, user["localId"], [saved, second]))
    first, added = factors_of(emu, user["idToken"])
    assert first == saved and includes(added, second)


def test_changing_a_factor_s_number_and_name(emu):
    user = register(emu, "change@example.com", [MFA_INFO])
    [saved] = factors_of(emu, user["idToken"])
    emu.ok(update_factors(emu, user["localId"], [{**saved, "displayName": "New Display Name",
                                                  "phoneInfo": PHONE_2}]))
    [factor] = factors_of(emu, user["idToken"])
    assert factor["displayName"] == "New Display Name" and factor["phoneInfo"] == PHONE_2
    assert factor["unobfuscatedPhoneInfo"] == PHONE_2 and factor["mfaEnrollmentId"] == saved["mfaEnrollmentId"]


def test_changing_a_factor_s_enrollment_id(emu):
    user = register(emu, "newid@example.com", [MFA_INFO])
    [saved] = factors_of(emu, user["idToken"])
    emu.ok(update_factors(emu, user["localId"], [{**saved, "mfaEnrollmentId": "newEnrollmentId"}]))
    [factor] = factors_of(emu, user["idToken"])
    assert factor["mfaEnrollmentId"] == "newEnrollmentId" and factor["phoneInfo"] == PHONE


def test_an_update_replaces_every_factor(emu):
    user = register(emu, "overwrite@example.com", [MFA_INFO, {**MFA_INFO, "phoneInfo": PHONE_3}])
    old_ids = [f["mfaEnrollmentId"] for f in factors_of(emu, user["idToken"])]
    replacement = {"displayName": "New New", "phoneInfo": PHONE_3, "mfaEnrollmentId": "newEnrollmentId"}
    emu.ok(update_factors(emu, user["localId"], [replacement]))
    [factor] = factors_of(emu, user["idToken"])
    assert includes(factor, replacement) and factor["mfaEnrollmentId"] not in old_ids


@pytest.mark.parametrize("mfa", [{"enrollments": []}, {}], ids=["empty list", "no list"])
def test_an_empty_or_absent_list_removes_every_factor(emu, mfa):
    user = register(emu, "remove@example.com", [MFA_INFO])
    emu.ok(update_factors(emu, user["localId"], mfa=mfa))
    assert "mfaInfo" not in emu.lookup(user["idToken"])


def test_an_update_without_mfa_keeps_the_factors(emu):
    user = register(emu, "keep@example.com", [MFA_INFO])
    emu.ok(emu.admin(":update", {"localId": user["localId"], "displayName": "Kept"}))
    assert len(factors_of(emu, user["idToken"])) == 1


def test_an_update_needs_enrollment_ids(emu):
    user = register(emu, "needs-id@example.com", [MFA_INFO])
    assert_bad_request(update_factors(emu, user["localId"], [MFA_INFO]),
                       "INVALID_MFA_ENROLLMENT_ID : mfaEnrollmentId must be defined.")
    assert len(factors_of(emu, user["idToken"])) == 1


def test_repeated_numbers_on_update_are_dropped(emu):
    user = register(emu, "dedupe@example.com")
    emu.ok(update_factors(emu, user["localId"], [{**MFA_INFO, "mfaEnrollmentId": "enrollmentId1"},
                                                 {**MFA_INFO, "mfaEnrollmentId": "enrollmentId1"}]))
    [factor] = factors_of(emu, user["idToken"])
    assert includes(factor, MFA_INFO) and factor["mfaEnrollmentId"] == "enrollmentId1"
    emu.ok(update_factors(emu, user["localId"], [{**MFA_INFO, "mfaEnrollmentId": f"enrollmentId{n}"}
                                                 for n in (2, 3, 4)]))
    [factor] = factors_of(emu, user["idToken"])
    assert factor["mfaEnrollmentId"] == "enrollmentId2"
    emu.ok(update_factors(emu, user["localId"], [
        *[{**MFA_INFO, "mfaEnrollmentId": f"enrollmentId{n}"} for n in (5, 6, 7)],
        {"phoneInfo": PHONE_2, "mfaEnrollmentId": "enrollmentId8"},
        {"phoneInfo": PHONE_2, "mfaEnrollmentId": "enrollmentId9"}]))
    assert [(f["phoneInfo"], f["mfaEnrollmentId"]) for f in factors_of(emu, user["idToken"])] == [
        (PHONE, "enrollmentId5"), (PHONE_2, "enrollmentId8")]


def test_one_id_for_two_numbers_is_a_duplicate(emu):
    user = register(emu, "dup-id@example.com")
    assert_bad_request(update_factors(emu, user["localId"], [
        {**MFA_INFO, "mfaEnrollmentId": "duplicateMfaEnrollmentId "},
        {"phoneInfo": PHONE_2, "mfaEnrollmentId": "duplicateMfaEnrollmentId "}]), "DUPLICATE_MFA_ENROLLMENT_ID")


def test_enrollment_ids_need_not_be_unique_across_accounts(emu):
    bob = register(emu, "bob-ids@example.com", [MFA_INFO])
    alice = register(emu, "alice-ids@example.com", [MFA_INFO])
    [bob_factor] = factors_of(emu, bob["idToken"])
    alice_id = factors_of(emu, alice["idToken"])[0]["mfaEnrollmentId"]
    emu.ok(update_factors(emu, bob["localId"], [{**bob_factor, "mfaEnrollmentId": alice_id}]))
    assert factors_of(emu, bob["idToken"])[0]["mfaEnrollmentId"] == alice_id


@pytest.mark.parametrize("phone_info", [None, "5555550100"], ids=["missing", "no country code"])
def test_an_invalid_factor_number_on_update(emu, phone_info):
    user = register(emu, "bad-update@example.com", [MFA_INFO])
    [saved] = factors_of(emu, user["idToken"])
    factor = {k: v for k, v in saved.items() if k != "phoneInfo"}
    if phone_info:
        factor["phoneInfo"] = phone_info
    assert_bad_request(update_factors(emu, user["localId"], [factor]), "INVALID_MFA_PHONE_NUMBER : Invalid format.")
    assert factors_of(emu, user["idToken"]) == [saved]


def test_factors_of_an_unknown_account(emu):
    assert_bad_request(update_factors(emu, "anything", [{**MFA_INFO, "mfaEnrollmentId": "anything"}]),
                       "USER_NOT_FOUND")


def test_the_account_itself_may_set_its_factors(emu):
    user = register(emu, "self@example.com")
    emu.ok(emu.identity("update", {"idToken": user["idToken"], "mfa": {"enrollments": [
        {**MFA_INFO, "mfaEnrollmentId": "own"}]}}))
    assert [f["mfaEnrollmentId"] for f in factors_of(emu, user["idToken"])] == ["own"]


# --- what such an account then does ------------------------------------------------------------

def test_signing_in_asks_for_the_second_factor(emu):
    user = register(emu, "asked@example.com", [MFA_INFO, {"phoneInfo": PHONE_2}])
    body = emu.ok(emu.identity("signInWithPassword", {"email": "asked@example.com", "password": "notasecret"}))
    assert "idToken" not in body and "refreshToken" not in body
    assert body["localId"] == user["localId"] and body["email"] == "asked@example.com"
    assert body["registered"] is True and body["mfaPendingCredential"]
    ids = [f["mfaEnrollmentId"] for f in factors_of(emu, user["idToken"])]
    assert body["mfaInfo"] == [{"mfaEnrollmentId": ids[0], "displayName": "Cell Phone", "phoneInfo": "+*******0100"},
                               {"mfaEnrollmentId": ids[1], "phoneInfo": "+*******0101"}]


def test_a_phone_number_cannot_become_the_first_factor_of_such_an_account(emu):
    user = register(emu, "no-phone-first@example.com", [MFA_INFO])
    # Linking a verified number to it...
    assert_bad_request(emu.verify_phone(emu.send_code(PHONE), idToken=user["idToken"]), MFA_USER_FIRST_FACTOR)
    assert "phoneNumber" not in emu.lookup(user["idToken"])
    # ...and texting the number of an account that has one.
    emu.ok(emu.admin(":update", {"localId": user["localId"], "phoneNumber": PHONE_3}))
    assert_bad_request(emu.identity("sendVerificationCode", {"phoneNumber": PHONE_3}), MFA_USER_FIRST_FACTOR)


def test_withdrawing_the_last_factor_leaves_an_empty_list(emu):
    emu.ok(emu.admin("", {"email": "withdraw-last@example.com", "password": "notasecret", "emailVerified": True,
                          "mfaInfo": [MFA_INFO]}))
    pending = emu.ok(emu.identity("signInWithPassword", {"email": "withdraw-last@example.com",
                                                         "password": "notasecret"}))
    start = emu.ok(emu.mfa("mfaSignIn:start", {"mfaPendingCredential": pending["mfaPendingCredential"],
                                                "mfaEnrollmentId": pending["mfaInfo"][0]["mfaEnrollmentId"]}))
    session = start["phoneResponseInfo"]["sessionInfo"]
    signed_in = emu.ok(emu.mfa("mfaSignIn:finalize", {
        "mfaPendingCredential": pending["mfaPendingCredential"],
        "phoneVerificationInfo": {"sessionInfo": session, "code": emu.verification_code(session)["code"]}}))
    withdrawn = emu.ok(emu.mfa("mfaEnrollment:withdraw", {"idToken": signed_in["idToken"],
                                                          "mfaEnrollmentId": pending["mfaInfo"][0]["mfaEnrollmentId"]}))
    assert emu.lookup(withdrawn["idToken"])["mfaInfo"] == []
    assert "sign_in_second_factor" not in decode_jwt(withdrawn["idToken"])[1]["firebase"]
    assert_bad_request(emu.mfa("mfaEnrollment:withdraw", {"idToken": withdrawn["idToken"],
                                                          "mfaEnrollmentId": pending["mfaInfo"][0]["mfaEnrollmentId"]}),
                       "MFA_ENROLLMENT_NOT_FOUND")


def test_an_account_found_by_email_in_another_letter_case(emu):
    user = register(emu, "bob-case@example.com")
    found = emu.ok(emu.admin(":lookup", {"email": ["BOB-Case@Example.COM"]}))["users"]
    assert [u["localId"] for u in found] == [user["localId"]]
    assert emu.ok(emu.admin(":lookup", {"email": ["nobody@example.com"]})) == {
        "kind": "identitytoolkit#GetAccountInfoResponse"}
