/* test_user.c — user snapshots and the operations on the signed-in user: tokens, reload, profile,
 * password, verification emails, delete. */
#include "test.h"

static bool signed_out(hearth_auth *auth) {
  hearth_user *user = hearth_auth_current_user(auth);
  bool none = user == NULL;
  hearth_user_release(user);
  return none;
}

/* ------------------------------------------------------------------------------------------------
 * Snapshots
 * ---------------------------------------------------------------------------------------------- */
TEST(an_anonymous_snapshot_has_no_profile_and_no_providers, BOTH_LOOPS) {
  hearth_user *user = t_sign_in_anonymously(hearth_auth_get(t_app()));
  CHECK(strlen(hearth_user_uid(user)) > 0);
  CHECK_STR(hearth_user_email(user), "");
  CHECK_STR(hearth_user_display_name(user), "");
  CHECK_STR(hearth_user_photo_url(user), "");
  CHECK_STR(hearth_user_phone_number(user), "");
  CHECK_STR(hearth_user_provider_id(user), "Firebase");
  CHECK_INT(hearth_user_is_anonymous(user), 1);
  CHECK_INT(hearth_user_is_email_verified(user), 0);
  CHECK(hearth_user_creation_timestamp(user) > 0);
  CHECK(hearth_user_last_sign_in_timestamp(user) >= hearth_user_creation_timestamp(user));
  CHECK_INT(hearth_user_provider_data_count(user), 0);
  CHECK(hearth_user_provider_data_at(user, 0) == NULL);
}

TEST(an_email_snapshot_lists_the_password_provider, BOTH_LOOPS) {
  const char *email = t_email("snapshot");
  hearth_user *user = t_create_user(hearth_auth_get(t_app()), email, T_PASSWORD);
  CHECK_STR(hearth_user_email(user), email);
  REQUIRE_INT(hearth_user_provider_data_count(user), 1);
  const hearth_user_info *info = hearth_user_provider_data_at(user, 0);
  REQUIRE(info != NULL);
  CHECK_STR(hearth_user_info_provider_id(info), "password");
  CHECK_STR(hearth_user_info_uid(info), email);
  CHECK_STR(hearth_user_info_email(info), email);
  CHECK_STR(hearth_user_info_display_name(info), "");
  CHECK_STR(hearth_user_info_photo_url(info), "");
  CHECK_STR(hearth_user_info_phone_number(info), "");
  CHECK(hearth_user_provider_data_at(user, 1) == NULL);
}

TEST(a_snapshot_never_changes_after_the_user_does, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  hearth_user *before = t_sign_in_anonymously(auth);
  t_await_ok(t_keep_future(hearth_user_update_user_profile(before, "New Name", NULL)));
  CHECK_STR(hearth_user_display_name(before), "");
  CHECK_STR(hearth_user_display_name(t_current_user(auth)), "New Name");
}

TEST(a_retained_user_outlives_its_future, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  hearth_future *f = hearth_auth_sign_in_anonymously(auth);
  t_await_ok(f);
  hearth_user *kept = hearth_user_retain(hearth_future_user(f));
  REQUIRE(kept != NULL);
  char uid[256];
  snprintf(uid, sizeof uid, "%s", hearth_user_uid(hearth_future_user(f)));
  hearth_future_release(f);
  CHECK_STR(hearth_user_uid(kept), uid);
  CHECK_INT(hearth_user_is_anonymous(kept), 1);
  /* Still usable for operations. */
  t_token(kept, 0);
  hearth_user_release(kept);
}

/* ------------------------------------------------------------------------------------------------
 * Tokens
 * ---------------------------------------------------------------------------------------------- */
TEST(get_token_returns_the_cached_token_until_forced, BOTH_LOOPS) {
  hearth_user *user = t_sign_in_anonymously(hearth_auth_get(t_app()));
  const char *first = t_token(user, 0);
  /* Tokens carry whole-second timestamps: after a second, a refreshed token is visibly new. */
  t_sleep_ms(1100);
  CHECK_STR(t_token(user, 0), first);
  t_sleep_ms(1100);
  const char *forced = t_token(user, 1);
  CHECK(strcmp(forced, first) != 0);
  CHECK_STR(t_token(user, 0), forced);
  const json *old_claims = t_token_claims(first);
  const json *new_claims = t_token_claims(forced);
  CHECK(json_number(json_get(new_claims, "iat")) > json_number(json_get(old_claims, "iat")));
  CHECK_STR(json_get_string(new_claims, "user_id"), hearth_user_uid(user));
}

TEST(id_token_claims_identify_the_user_and_how_they_signed_in, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  hearth_user *anonymous = t_sign_in_anonymously(auth);
  const json *claims = t_token_claims(t_token(anonymous, 0));
  CHECK_STR(json_get_string(claims, "user_id"), hearth_user_uid(anonymous));
  CHECK_STR(json_get_string(claims, "sub"), hearth_user_uid(anonymous));
  CHECK_STR(json_get_string(claims, "aud"), t_project());
  CHECK_STR(json_get_string(json_get(claims, "firebase"), "sign_in_provider"), "anonymous");
  CHECK(json_number(json_get(claims, "exp")) > json_number(json_get(claims, "iat")));

  const char *email = t_email("claims");
  hearth_user *user = t_create_user(auth, email, T_PASSWORD);
  claims = t_token_claims(t_token(user, 0));
  CHECK_STR(json_get_string(claims, "user_id"), hearth_user_uid(user));
  CHECK_STR(json_get_string(claims, "email"), email);
  CHECK(json_kind(json_get(claims, "email_verified")) == JSON_BOOL && !json_bool(json_get(claims, "email_verified")));
  const json *firebase = json_get(claims, "firebase");
  CHECK_STR(json_get_string(firebase, "sign_in_provider"), "password");
  CHECK_STR(json_string(json_at(json_get(json_get(firebase, "identities"), "email"), 0)), email);
}

TEST(a_forced_refresh_after_the_server_deleted_the_account_signs_the_user_out, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  hearth_user *user = t_sign_in_anonymously(auth);
  REQUIRE_INT(emu_admin_delete(hearth_user_uid(user)), 200);
  hearth_future *f = t_keep_future(hearth_user_get_token(user, 1));
  int rc = t_await(f);
  CHECK(rc != 0);
  CHECK(rc != HEARTH_ERROR_NETWORK_REQUEST_FAILED);
  CHECK(hearth_future_string(f) == NULL);
  WAIT_UNTIL(signed_out(auth));
  CHECK_STR(t_current_uid(auth), "");
}

/* ------------------------------------------------------------------------------------------------
 * Reload and profile
 * ---------------------------------------------------------------------------------------------- */
TEST(reload_fetches_changes_made_on_the_server, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  hearth_user *user = t_sign_in_anonymously(auth);
  REQUIRE_INT(emu_admin_update(hearth_user_uid(user),
                               "\"displayName\":\"Set By Admin\",\"photoUrl\":\"https://example.com/admin.png\""),
              200);
  CHECK_STR(hearth_user_display_name(t_current_user(auth)), ""); /* not yet known to the client */
  hearth_future *f = t_keep_future(hearth_user_reload(user));
  t_await_ok(f);
  const hearth_user *fresh = hearth_future_user(f);
  REQUIRE(fresh != NULL);
  CHECK_STR(hearth_user_display_name(fresh), "Set By Admin");
  CHECK_STR(hearth_user_photo_url(fresh), "https://example.com/admin.png");
  CHECK_STR(hearth_user_uid(fresh), hearth_user_uid(user));
  CHECK_STR(hearth_user_display_name(t_current_user(auth)), "Set By Admin");
  CHECK_STR(hearth_user_display_name(user), ""); /* the old snapshot stays as it was */
}

TEST(reloading_an_account_deleted_on_the_server_fails_with_user_not_found_and_signs_out, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  hearth_user *user = t_sign_in_anonymously(auth);
  REQUIRE_INT(emu_admin_delete(hearth_user_uid(user)), 200);
  CHECK_FAILS_WITH(t_keep_future(hearth_user_reload(user)), HEARTH_ERROR_USER_NOT_FOUND);
  CHECK_STR(t_current_uid(auth), "");
}

TEST(a_disabled_account_cannot_sign_in_and_is_signed_out_on_reload, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *email = t_email("disabled");
  hearth_user *user = t_create_user(auth, email, T_PASSWORD);
  REQUIRE_INT(emu_admin_update(hearth_user_uid(user), "\"disableUser\":true"), 200);
  CHECK_FAILS_WITH(t_keep_future(hearth_user_reload(user)), HEARTH_ERROR_USER_DISABLED);
  CHECK_STR(t_current_uid(auth), "");
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_sign_in_with_email_and_password(auth, email, T_PASSWORD)),
                   HEARTH_ERROR_USER_DISABLED);
}

TEST(updating_the_profile_sets_keeps_and_deletes_fields, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  hearth_user *user = t_sign_in_anonymously(auth);
  const char *uid = hearth_user_uid(user);

  hearth_future *set = t_keep_future(hearth_user_update_user_profile(user, "Ada", "https://example.com/ada.png"));
  t_await_ok(set);
  REQUIRE(hearth_future_user(set) != NULL);
  CHECK_STR(hearth_user_display_name(hearth_future_user(set)), "Ada");
  CHECK_STR(hearth_user_photo_url(hearth_future_user(set)), "https://example.com/ada.png");
  CHECK_STR(hearth_user_display_name(t_current_user(auth)), "Ada");
  const json *record = emu_lookup(uid);
  CHECK_STR(json_get_string(record, "displayName"), "Ada");
  CHECK_STR(json_get_string(record, "photoUrl"), "https://example.com/ada.png");

  /* NULL keeps a field. */
  hearth_future *keep = t_keep_future(hearth_user_update_user_profile(user, NULL, "https://example.com/ada2.png"));
  t_await_ok(keep);
  CHECK_STR(hearth_user_display_name(hearth_future_user(keep)), "Ada");
  CHECK_STR(hearth_user_photo_url(hearth_future_user(keep)), "https://example.com/ada2.png");

  /* "" deletes it. */
  hearth_future *clear_name = t_keep_future(hearth_user_update_user_profile(user, "", NULL));
  t_await_ok(clear_name);
  CHECK_STR(hearth_user_display_name(hearth_future_user(clear_name)), "");
  CHECK_STR(hearth_user_photo_url(hearth_future_user(clear_name)), "https://example.com/ada2.png");
  hearth_future *clear_photo = t_keep_future(hearth_user_update_user_profile(user, NULL, ""));
  t_await_ok(clear_photo);
  CHECK_STR(hearth_user_photo_url(hearth_future_user(clear_photo)), "");

  /* The server agrees. */
  record = emu_lookup(uid);
  REQUIRE(record != NULL);
  const char *name = json_get_string(record, "displayName");
  const char *photo = json_get_string(record, "photoUrl");
  CHECK(name == NULL || *name == '\0');
  CHECK(photo == NULL || *photo == '\0');
  hearth_future *reload = t_keep_future(hearth_user_reload(user));
  t_await_ok(reload);
  CHECK_STR(hearth_user_display_name(hearth_future_user(reload)), "");
  CHECK_STR(hearth_user_photo_url(hearth_future_user(reload)), "");
}

TEST(profile_text_is_utf8_end_to_end, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  hearth_user *user = t_sign_in_anonymously(auth);
  const char *name = "Zoë \xe2\x9c\x93 \xf0\x9f\x94\xa5 \"quoted\" \\ back";
  t_await_ok(t_keep_future(hearth_user_update_user_profile(user, name, NULL)));
  hearth_future *reload = t_keep_future(hearth_user_reload(user));
  t_await_ok(reload);
  CHECK_STR(hearth_user_display_name(hearth_future_user(reload)), name);
  CHECK_STR(json_get_string(emu_lookup(hearth_user_uid(user)), "displayName"), name);
}

/* ------------------------------------------------------------------------------------------------
 * Password and email
 * ---------------------------------------------------------------------------------------------- */
TEST(updating_the_password_changes_which_password_signs_in, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *email = t_email("newpw");
  hearth_user *user = t_create_user(auth, email, T_PASSWORD);
  hearth_future *f = t_keep_future(hearth_user_update_password(user, "the-new-password"));
  t_await_ok(f);
  CHECK(hearth_future_user(f) == NULL);
  /* Still signed in, with tokens that keep working. */
  CHECK_STR(t_current_uid(auth), hearth_user_uid(user));
  t_token(t_current_user(auth), 1);
  CHECK_CODE(hearth_auth_sign_out(auth), 0);
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_sign_in_with_email_and_password(auth, email, T_PASSWORD)),
                   HEARTH_ERROR_WRONG_PASSWORD);
  t_await_ok(t_keep_future(hearth_auth_sign_in_with_email_and_password(auth, email, "the-new-password")));
}

TEST(updating_to_a_short_password_fails_with_weak_password, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  hearth_user *user = t_create_user(auth, t_email("weakpw"), T_PASSWORD);
  hearth_future *f = t_keep_future(hearth_user_update_password(user, "123"));
  CHECK_FAILS_WITH(f, HEARTH_ERROR_WEAK_PASSWORD);
  CHECK_CONTAINS(hearth_future_error_message(f), "at least 6 characters");
}

TEST(updating_the_email_moves_the_sign_in_to_the_new_unverified_address, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *email = t_email("oldaddress");
  const char *new_email = t_email("newaddress");
  hearth_user *user = t_create_user(auth, email, T_PASSWORD);
  hearth_future *f = t_keep_future(hearth_user_update_email(user, new_email));
  t_await_ok(f);
  CHECK(hearth_future_user(f) == NULL);
  hearth_user *current = t_current_user(auth);
  CHECK_STR(hearth_user_uid(current), hearth_user_uid(user));
  CHECK_STR(hearth_user_email(current), new_email);
  CHECK_INT(hearth_user_is_email_verified(current), 0);
  CHECK_STR(json_get_string(emu_lookup(hearth_user_uid(user)), "email"), new_email);
  /* The change revoked the old tokens; the session holds new ones that work. */
  t_token(current, 1);
  CHECK_CODE(hearth_auth_sign_out(auth), 0);
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_sign_in_with_email_and_password(auth, email, T_PASSWORD)),
                   HEARTH_ERROR_USER_NOT_FOUND);
  t_await_ok(t_keep_future(hearth_auth_sign_in_with_email_and_password(auth, new_email, T_PASSWORD)));
  CHECK_STR(t_current_uid(auth), hearth_user_uid(user));
}

TEST(updating_the_email_to_another_accounts_address_fails_with_email_already_in_use, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *taken = t_email("taken");
  t_create_user(auth, taken, T_PASSWORD);
  hearth_user *user = t_create_user(auth, t_email("mover"), T_PASSWORD);
  CHECK_FAILS_WITH(t_keep_future(hearth_user_update_email(user, taken)), HEARTH_ERROR_EMAIL_ALREADY_IN_USE);
  CHECK_STR(hearth_user_email(t_current_user(auth)), hearth_user_email(user));
}

TEST(updating_to_an_empty_or_malformed_email_fails_before_or_at_the_server, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  hearth_user *user = t_create_user(auth, t_email("badnew"), T_PASSWORD);
  CHECK_FAILS_WITH(t_keep_future(hearth_user_update_email(user, "")), HEARTH_ERROR_MISSING_EMAIL);
  CHECK_FAILS_WITH(t_keep_future(hearth_user_update_email(user, "not-an-address")), HEARTH_ERROR_INVALID_EMAIL);
  CHECK_STR(json_get_string(emu_lookup(hearth_user_uid(user)), "email"), hearth_user_email(user));
}

TEST(an_anonymous_user_given_an_email_stays_anonymous_until_it_has_a_password, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  hearth_user *user = t_sign_in_anonymously(auth);
  const char *email = t_email("anonmail");
  t_await_ok(t_keep_future(hearth_user_update_email(user, email)));
  CHECK_STR(hearth_user_email(t_current_user(auth)), email);
  CHECK_INT(hearth_user_is_anonymous(t_current_user(auth)), 1);
  t_await_ok(t_keep_future(hearth_user_update_password(t_current_user(auth), T_PASSWORD)));
  CHECK_INT(hearth_user_is_anonymous(t_current_user(auth)), 0);
  CHECK_CODE(hearth_auth_sign_out(auth), 0);
  t_await_ok(t_keep_future(hearth_auth_sign_in_with_email_and_password(auth, email, T_PASSWORD)));
  CHECK_STR(t_current_uid(auth), hearth_user_uid(user));
}

TEST(applying_the_verification_code_verifies_the_address, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *email = t_email("verify");
  hearth_user *user = t_create_user(auth, email, T_PASSWORD);
  t_await_ok(t_keep_future(hearth_user_send_email_verification(user, NULL)));
  const json *code = emu_oob_code(email, "VERIFY_EMAIL");
  REQUIRE(code != NULL);
  CHECK_INT(emu_apply_oob_code(json_get_string(code, "oobCode")), 200);
  hearth_future *reload = t_keep_future(hearth_user_reload(user));
  t_await_ok(reload);
  CHECK_INT(hearth_user_is_email_verified(hearth_future_user(reload)), 1);
  CHECK_INT(hearth_user_is_email_verified(t_current_user(auth)), 1);
}

TEST(verify_before_update_sends_a_change_code_that_moves_the_account, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *email = t_email("before");
  const char *new_email = t_email("after");
  hearth_user *user = t_create_user(auth, email, T_PASSWORD);
  t_await_ok(t_keep_future(hearth_user_send_email_verification_before_updating_email(user, new_email, NULL)));
  CHECK_STR(hearth_user_email(t_current_user(auth)), email); /* nothing changes before the code is used */
  const json *code = emu_oob_code(email, "VERIFY_AND_CHANGE_EMAIL");
  REQUIRE(code != NULL);
  CHECK_STR(json_get_string(code, "newEmail"), new_email);
  CHECK_INT(emu_apply_oob_code(json_get_string(code, "oobCode")), 200);
  CHECK_CODE(hearth_auth_sign_out(auth), 0);
  t_await_ok(t_keep_future(hearth_auth_sign_in_with_email_and_password(auth, new_email, T_PASSWORD)));
  CHECK_STR(hearth_user_email(t_current_user(auth)), new_email);
  CHECK_INT(hearth_user_is_email_verified(t_current_user(auth)), 1);
}

/* ------------------------------------------------------------------------------------------------
 * Delete
 * ---------------------------------------------------------------------------------------------- */
TEST(deleting_the_user_signs_out_and_removes_the_account, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *email = t_email("delete");
  hearth_user *user = t_create_user(auth, email, T_PASSWORD);
  const char *uid = t_strdup(hearth_user_uid(user));
  t_await_ok(t_keep_future(hearth_user_delete(user)));
  CHECK(hearth_auth_current_user(auth) == NULL);
  CHECK(emu_lookup(uid) == NULL);
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_sign_in_with_email_and_password(auth, email, T_PASSWORD)),
                   HEARTH_ERROR_USER_NOT_FOUND);
  /* The snapshot is still readable. */
  CHECK_STR(hearth_user_uid(user), uid);
}

/* ------------------------------------------------------------------------------------------------
 * Operations on a user who is no longer signed in
 * ---------------------------------------------------------------------------------------------- */
static void check_every_operation_fails_with_no_signed_in_user(hearth_user *user) {
  CHECK_FAILS_WITH(t_keep_future(hearth_user_get_token(user, 0)), HEARTH_ERROR_NO_SIGNED_IN_USER);
  CHECK_FAILS_WITH(t_keep_future(hearth_user_get_token(user, 1)), HEARTH_ERROR_NO_SIGNED_IN_USER);
  CHECK_FAILS_WITH(t_keep_future(hearth_user_reload(user)), HEARTH_ERROR_NO_SIGNED_IN_USER);
  CHECK_FAILS_WITH(t_keep_future(hearth_user_update_user_profile(user, "x", NULL)), HEARTH_ERROR_NO_SIGNED_IN_USER);
  CHECK_FAILS_WITH(t_keep_future(hearth_user_update_password(user, "another-pw")), HEARTH_ERROR_NO_SIGNED_IN_USER);
  CHECK_FAILS_WITH(t_keep_future(hearth_user_update_email(user, t_email("y"))), HEARTH_ERROR_NO_SIGNED_IN_USER);
  CHECK_FAILS_WITH(t_keep_future(hearth_user_send_email_verification(user, NULL)), HEARTH_ERROR_NO_SIGNED_IN_USER);
  CHECK_FAILS_WITH(t_keep_future(hearth_user_send_email_verification_before_updating_email(user, t_email("x"), NULL)),
                   HEARTH_ERROR_NO_SIGNED_IN_USER);
  CHECK_FAILS_WITH(t_keep_future(hearth_user_delete(user)), HEARTH_ERROR_NO_SIGNED_IN_USER);
}

TEST(operations_on_a_signed_out_users_snapshot_fail_with_no_signed_in_user, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  hearth_user *user = t_create_user(auth, t_email("gone"), T_PASSWORD);
  CHECK_CODE(hearth_auth_sign_out(auth), 0);
  check_every_operation_fails_with_no_signed_in_user(user);
  CHECK(emu_lookup(hearth_user_uid(user)) != NULL); /* and nothing happened to the account */
}

TEST(operations_on_another_users_snapshot_fail_with_no_signed_in_user, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  hearth_user *first = t_create_user(auth, t_email("first"), T_PASSWORD);
  hearth_user *second = t_create_user(auth, t_email("second"), T_PASSWORD);
  check_every_operation_fails_with_no_signed_in_user(first);
  CHECK_STR(t_current_uid(auth), hearth_user_uid(second));
  CHECK_STR(json_get_string(emu_lookup(hearth_user_uid(first)), "displayName"), NULL);
}
