/* test_auth.c — Auth: signing in and out every supported way, the server's errors mapped to codes,
 * credentials, auth results, password reset, provider lookup and the language code. */
#include "test.h"

#include <time.h>

static uint64_t now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* ------------------------------------------------------------------------------------------------
 * Anonymous
 * ---------------------------------------------------------------------------------------------- */
TEST(signing_in_anonymously_creates_an_anonymous_user, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  hearth_future *f = t_keep_future(hearth_auth_sign_in_anonymously(auth));
  t_await_ok(f);
  const hearth_auth_result *result = hearth_future_auth_result(f);
  REQUIRE(result != NULL);
  CHECK_INT(hearth_auth_result_is_new_user(result), 1);
  CHECK_STR(hearth_auth_result_provider_id(result), "anonymous");
  CHECK_STR(hearth_auth_result_user_name(result), "");
  CHECK_STR(hearth_auth_result_profile_json(result), "{}");
  const hearth_user *user = hearth_auth_result_user(result);
  REQUIRE(user != NULL);
  CHECK(strlen(hearth_user_uid(user)) > 0);
  CHECK_INT(hearth_user_is_anonymous(user), 1);
  CHECK_STR(hearth_user_email(user), "");
  CHECK_STR(t_current_uid(auth), hearth_user_uid(user));
  /* The server knows the account. */
  const json *record = emu_lookup(hearth_user_uid(user));
  REQUIRE(record != NULL);
  CHECK_STR(json_get_string(record, "localId"), hearth_user_uid(user));
}

TEST(signing_in_anonymously_again_keeps_the_anonymous_user, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *first = t_strdup(hearth_user_uid(t_sign_in_anonymously(auth)));
  hearth_future *again = t_keep_future(hearth_auth_sign_in_anonymously(auth));
  t_await_ok(again);
  const hearth_auth_result *result = hearth_future_auth_result(again);
  REQUIRE(result != NULL);
  CHECK_STR(hearth_user_uid(hearth_auth_result_user(result)), first);
  CHECK_STR(t_current_uid(auth), first);
}

TEST(signing_in_anonymously_replaces_a_signed_in_email_user, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *email_uid = t_strdup(hearth_user_uid(t_create_user(auth, t_email("replaced"), T_PASSWORD)));
  hearth_user *anonymous = t_sign_in_anonymously(auth);
  CHECK(strcmp(hearth_user_uid(anonymous), email_uid) != 0);
  CHECK_INT(hearth_user_is_anonymous(anonymous), 1);
}

/* ------------------------------------------------------------------------------------------------
 * Email and password
 * ---------------------------------------------------------------------------------------------- */
TEST(creating_a_user_signs_it_in_with_the_password_provider, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *email = t_email("create");
  uint64_t before = now_ms();
  hearth_future *f = t_keep_future(hearth_auth_create_user_with_email_and_password(auth, email, T_PASSWORD));
  t_await_ok(f);
  const hearth_auth_result *result = hearth_future_auth_result(f);
  REQUIRE(result != NULL);
  CHECK_INT(hearth_auth_result_is_new_user(result), 1);
  CHECK_STR(hearth_auth_result_provider_id(result), "password");
  const hearth_user *user = hearth_auth_result_user(result);
  REQUIRE(user != NULL);
  CHECK_STR(hearth_user_email(user), email);
  CHECK_INT(hearth_user_is_anonymous(user), 0);
  CHECK_INT(hearth_user_is_email_verified(user), 0);
  CHECK_STR(hearth_user_provider_id(user), "Firebase");
  uint64_t created = hearth_user_creation_timestamp(user);
  CHECK(created + 60000 >= before && created <= now_ms() + 60000);
  CHECK(hearth_user_last_sign_in_timestamp(user) >= created);
  CHECK_STR(t_current_uid(auth), hearth_user_uid(user));
  const json *record = emu_lookup(hearth_user_uid(user));
  REQUIRE(record != NULL);
  CHECK_STR(json_get_string(record, "email"), email);
}

TEST(creating_a_user_with_a_taken_email_fails_with_email_already_in_use, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *email = t_email("taken");
  const char *uid = t_strdup(hearth_user_uid(t_create_user(auth, email, T_PASSWORD)));
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_create_user_with_email_and_password(auth, email, "another-password")),
                   HEARTH_ERROR_EMAIL_ALREADY_IN_USE);
  CHECK_STR(t_current_uid(auth), uid); /* a failed sign-in never replaces the user */
}

TEST(creating_a_user_with_a_short_password_fails_with_weak_password_and_the_server_detail, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  hearth_future *f = t_keep_future(hearth_auth_create_user_with_email_and_password(auth, t_email("weak"), "12345"));
  CHECK_FAILS_WITH(f, HEARTH_ERROR_WEAK_PASSWORD);
  CHECK_CONTAINS(hearth_future_error_message(f), "Password should be at least 6 characters");
  CHECK(hearth_auth_current_user(auth) == NULL);
}

TEST(creating_a_user_with_a_malformed_email_fails_with_invalid_email, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_create_user_with_email_and_password(auth, "not-an-email", T_PASSWORD)),
                   HEARTH_ERROR_INVALID_EMAIL);
}

TEST(creating_a_user_with_an_empty_email_or_password_fails_with_missing_email_or_password, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_create_user_with_email_and_password(auth, "", T_PASSWORD)),
                   HEARTH_ERROR_MISSING_EMAIL);
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_create_user_with_email_and_password(auth, t_email("nopw"), "")),
                   HEARTH_ERROR_MISSING_PASSWORD);
}

TEST(signing_in_with_the_right_password_signs_the_user_in, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *email = t_email("signin");
  const char *uid = t_strdup(hearth_user_uid(t_create_user(auth, email, T_PASSWORD)));
  CHECK_CODE(hearth_auth_sign_out(auth), 0);
  hearth_future *f = t_keep_future(hearth_auth_sign_in_with_email_and_password(auth, email, T_PASSWORD));
  t_await_ok(f);
  const hearth_auth_result *result = hearth_future_auth_result(f);
  REQUIRE(result != NULL);
  CHECK_INT(hearth_auth_result_is_new_user(result), 0);
  CHECK_STR(hearth_auth_result_provider_id(result), "password");
  CHECK_STR(hearth_user_uid(hearth_auth_result_user(result)), uid);
  CHECK_STR(t_current_uid(auth), uid);
}

TEST(signing_in_with_a_wrong_password_fails_with_wrong_password, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *email = t_email("wrongpw");
  t_create_user(auth, email, T_PASSWORD);
  const char *anonymous = t_strdup(hearth_user_uid(t_sign_in_anonymously(auth)));
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_sign_in_with_email_and_password(auth, email, "wrong-password")),
                   HEARTH_ERROR_WRONG_PASSWORD);
  CHECK_STR(t_current_uid(auth), anonymous); /* the signed-in user stays */
}

TEST(signing_in_with_an_unknown_email_fails_with_user_not_found, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_sign_in_with_email_and_password(auth, t_email("ghost"), T_PASSWORD)),
                   HEARTH_ERROR_USER_NOT_FOUND);
  CHECK(hearth_auth_current_user(auth) == NULL);
}

TEST(signing_in_with_a_malformed_email_fails_with_invalid_email, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_sign_in_with_email_and_password(auth, "no-at-sign", T_PASSWORD)),
                   HEARTH_ERROR_INVALID_EMAIL);
}

TEST(signing_in_with_an_empty_email_or_password_fails_with_missing_email_or_password, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_sign_in_with_email_and_password(auth, "", T_PASSWORD)),
                   HEARTH_ERROR_MISSING_EMAIL);
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_sign_in_with_email_and_password(auth, t_email("nopw"), "")),
                   HEARTH_ERROR_MISSING_PASSWORD);
}

static void restore_email_privacy(void *unused) {
  (void)unused;
  if (emu_set_improved_email_privacy(false) != 200) t_fail(__FILE__, __LINE__, "could not turn email privacy off");
}

TEST(with_improved_email_privacy_bad_logins_fail_with_invalid_credential, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *email = t_email("privacy");
  t_create_user(auth, email, T_PASSWORD);
  CHECK_CODE(hearth_auth_sign_out(auth), 0);
  t_defer(restore_email_privacy, NULL);
  REQUIRE_INT(emu_set_improved_email_privacy(true), 200);
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_sign_in_with_email_and_password(auth, email, "wrong-password")),
                   HEARTH_ERROR_INVALID_CREDENTIAL);
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_sign_in_with_email_and_password(auth, t_email("ghost"), T_PASSWORD)),
                   HEARTH_ERROR_INVALID_CREDENTIAL);
  /* Provider lookup reveals nothing under email privacy. */
  hearth_future *providers = t_keep_future(hearth_auth_fetch_providers_for_email(auth, email));
  t_await_ok(providers);
  CHECK_INT(hearth_future_string_count(providers), 0);
}

/* ------------------------------------------------------------------------------------------------
 * Credentials
 * ---------------------------------------------------------------------------------------------- */
TEST(an_email_credential_is_a_live_password_credential, MODE_NONE) {
  hearth_credential *credential = hearth_credential_create_email("cred@example.com", "secret-pw");
  REQUIRE(credential != NULL);
  CHECK_INT(hearth_credential_is_valid(credential), 1);
  CHECK_STR(hearth_credential_provider(credential), "password");
  hearth_credential *copy = hearth_credential_retain(credential);
  REQUIRE(copy != NULL);
  CHECK_INT(hearth_credential_is_valid(copy), 1);
  CHECK_STR(hearth_credential_provider(copy), "password");
  hearth_credential_release(credential);
  CHECK_INT(hearth_credential_is_valid(copy), 1); /* the other reference keeps it alive */
  CHECK_STR(hearth_credential_provider(copy), "password");
  hearth_credential_release(copy);
  hearth_credential_release(NULL);
}

TEST(signing_in_with_an_email_credential_gives_the_user, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *email = t_email("credential");
  const char *uid = t_strdup(hearth_user_uid(t_create_user(auth, email, T_PASSWORD)));
  CHECK_CODE(hearth_auth_sign_out(auth), 0);
  hearth_credential *credential = hearth_credential_create_email(email, T_PASSWORD);
  REQUIRE(credential != NULL);
  hearth_future *f = t_keep_future(hearth_auth_sign_in_with_credential(auth, credential));
  hearth_credential_release(credential); /* the operation keeps what it needs */
  t_await_ok(f);
  const hearth_user *user = hearth_future_user(f);
  REQUIRE(user != NULL);
  CHECK_STR(hearth_user_uid(user), uid);
  CHECK_STR(hearth_user_email(user), email);
  CHECK_STR(t_current_uid(auth), uid);
}

TEST(signing_in_and_retrieving_data_with_an_email_credential_gives_an_auth_result, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *email = t_email("retrieve");
  const char *uid = t_strdup(hearth_user_uid(t_create_user(auth, email, T_PASSWORD)));
  CHECK_CODE(hearth_auth_sign_out(auth), 0);
  hearth_credential *credential = hearth_credential_create_email(email, T_PASSWORD);
  hearth_future *f = t_keep_future(hearth_auth_sign_in_and_retrieve_data_with_credential(auth, credential));
  hearth_credential_release(credential);
  t_await_ok(f);
  const hearth_auth_result *result = hearth_future_auth_result(f);
  REQUIRE(result != NULL);
  CHECK_STR(hearth_user_uid(hearth_auth_result_user(result)), uid);
  CHECK_STR(hearth_auth_result_provider_id(result), "password");
  CHECK_INT(hearth_auth_result_is_new_user(result), 0);
  CHECK(hearth_future_user(f) != NULL);
}

TEST(a_credential_with_a_wrong_password_fails_with_wrong_password, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *email = t_email("badcred");
  t_create_user(auth, email, T_PASSWORD);
  CHECK_CODE(hearth_auth_sign_out(auth), 0);
  hearth_credential *credential = hearth_credential_create_email(email, "wrong-password");
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_sign_in_with_credential(auth, credential)), HEARTH_ERROR_WRONG_PASSWORD);
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_sign_in_and_retrieve_data_with_credential(auth, credential)),
                   HEARTH_ERROR_WRONG_PASSWORD);
  hearth_credential_release(credential);
  CHECK(hearth_auth_current_user(auth) == NULL);
}

/* ------------------------------------------------------------------------------------------------
 * Custom tokens (the emulator accepts unsigned JSON tokens)
 * ---------------------------------------------------------------------------------------------- */
TEST(signing_in_with_a_custom_token_uses_its_uid, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  hearth_future *first = t_keep_future(hearth_auth_sign_in_with_custom_token(auth, "{\"uid\":\"u1\"}"));
  t_await_ok(first);
  const hearth_auth_result *result = hearth_future_auth_result(first);
  REQUIRE(result != NULL);
  CHECK_STR(hearth_user_uid(hearth_auth_result_user(result)), "u1");
  CHECK_INT(hearth_auth_result_is_new_user(result), 1);
  CHECK_STR(hearth_auth_result_provider_id(result), "custom");
  CHECK_INT(hearth_user_is_anonymous(hearth_auth_result_user(result)), 0);
  CHECK_STR(t_current_uid(auth), "u1");

  CHECK_CODE(hearth_auth_sign_out(auth), 0);
  hearth_future *second = t_keep_future(hearth_auth_sign_in_with_custom_token(auth, "{\"uid\":\"u1\"}"));
  t_await_ok(second);
  CHECK_INT(hearth_auth_result_is_new_user(hearth_future_auth_result(second)), 0);
}

TEST(custom_token_claims_reach_the_id_token, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  t_await_ok(t_keep_future(
      hearth_auth_sign_in_with_custom_token(auth, "{\"uid\":\"claims-user\",\"claims\":{\"role\":\"admin\",\"level\":7}}")));
  const json *claims = t_token_claims(t_token(t_current_user(auth), 0));
  CHECK_STR(json_get_string(claims, "role"), "admin");
  CHECK(json_number(json_get(claims, "level")) == 7);
  CHECK_STR(json_get_string(claims, "user_id"), "claims-user");
  CHECK_STR(json_get_string(json_get(claims, "firebase"), "sign_in_provider"), "custom");
}

TEST(an_invalid_custom_token_fails_with_invalid_custom_token, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_sign_in_with_custom_token(auth, "not-a-token")),
                   HEARTH_ERROR_INVALID_CUSTOM_TOKEN);
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_sign_in_with_custom_token(auth, "")), HEARTH_ERROR_INVALID_CUSTOM_TOKEN);
  CHECK(hearth_auth_current_user(auth) == NULL);
}

/* ------------------------------------------------------------------------------------------------
 * Signing out and the current user
 * ---------------------------------------------------------------------------------------------- */
TEST(signing_out_clears_the_current_user_at_once, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  t_sign_in_anonymously(auth);
  CHECK_CODE(hearth_auth_sign_out(auth), 0);
  CHECK(hearth_auth_current_user(auth) == NULL);
  CHECK_CODE(hearth_auth_sign_out(auth), 0); /* signing out twice is fine */
  CHECK(hearth_auth_current_user(auth) == NULL);
}

TEST(each_current_user_call_returns_a_new_snapshot_reference, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  t_sign_in_anonymously(auth);
  hearth_user *a = hearth_auth_current_user(auth);
  hearth_user *b = hearth_auth_current_user(auth);
  REQUIRE(a != NULL && b != NULL);
  char uid[256];
  snprintf(uid, sizeof uid, "%s", hearth_user_uid(a));
  hearth_user_release(a);
  CHECK_STR(hearth_user_uid(b), uid); /* releasing one reference leaves the other */
  hearth_user_release(b);
}

/* ------------------------------------------------------------------------------------------------
 * Password reset and provider lookup
 * ---------------------------------------------------------------------------------------------- */
TEST(a_password_reset_email_goes_to_the_account, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *email = t_email("reset");
  t_create_user(auth, email, T_PASSWORD);
  CHECK_CODE(hearth_auth_sign_out(auth), 0);
  hearth_future *f = t_keep_future(hearth_auth_send_password_reset_email(auth, email, NULL));
  t_await_ok(f);
  CHECK(hearth_future_auth_result(f) == NULL);
  const json *code = emu_oob_code(email, "PASSWORD_RESET");
  REQUIRE(code != NULL);
  /* Using the emailed code to set a new password makes that password work. */
  const char *oob_code = json_get_string(code, "oobCode");
  REQUIRE(oob_code != NULL);
  CHECK_INT(emu_reset_password(oob_code, "brand-new-pw"), 200);
  t_await_ok(t_keep_future(hearth_auth_sign_in_with_email_and_password(auth, email, "brand-new-pw")));
}

TEST(a_password_reset_for_an_unknown_email_fails_with_user_not_found, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_send_password_reset_email(auth, t_email("nobody"), NULL)),
                   HEARTH_ERROR_USER_NOT_FOUND);
}

TEST(fetching_providers_lists_password_for_an_email_account, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *email = t_email("providers");
  t_create_user(auth, email, T_PASSWORD);
  hearth_future *f = t_keep_future(hearth_auth_fetch_providers_for_email(auth, email));
  t_await_ok(f);
  REQUIRE_INT(hearth_future_string_count(f), 1);
  CHECK_STR(hearth_future_string_at(f, 0), "password");
  CHECK(hearth_future_string_at(f, 1) == NULL);
  CHECK(hearth_future_string_at(f, (size_t)-1) == NULL);
}

TEST(fetching_providers_for_an_unknown_email_gives_an_empty_list, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  hearth_future *f = t_keep_future(hearth_auth_fetch_providers_for_email(auth, t_email("unknown")));
  t_await_ok(f);
  CHECK_INT(hearth_future_string_count(f), 0);
  CHECK(hearth_future_string_at(f, 0) == NULL);
}

/* ------------------------------------------------------------------------------------------------
 * Language code
 * ---------------------------------------------------------------------------------------------- */
static const char *language(hearth_auth *auth) {
  char *code = hearth_auth_language_code(auth);
  const char *copy = t_strdup(code);
  hearth_free(code);
  return copy;
}

TEST(the_language_code_is_set_read_and_cleared, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  CHECK(language(auth) == NULL);
  CHECK_CODE(hearth_auth_set_language_code(auth, "fr"), 0);
  CHECK_STR(language(auth), "fr");
  CHECK_CODE(hearth_auth_set_language_code(auth, "\xff\xfe"), HEARTH_ERROR_INVALID_ARGUMENT);
  CHECK_STR(language(auth), "fr"); /* a rejected value changes nothing */
  CHECK_CODE(hearth_auth_set_language_code(auth, ""), 0);
  CHECK(language(auth) == NULL);
  CHECK_CODE(hearth_auth_set_language_code(auth, "de"), 0);
  CHECK_CODE(hearth_auth_set_language_code(auth, NULL), 0);
  CHECK(language(auth) == NULL);
}

TEST(emails_are_still_sent_with_a_language_code, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  CHECK_CODE(hearth_auth_set_language_code(auth, "fr"), 0);
  const char *email = t_email("langue");
  hearth_user *user = t_create_user(auth, email, T_PASSWORD);
  t_await_ok(t_keep_future(hearth_user_send_email_verification(user, NULL)));
  t_await_ok(t_keep_future(hearth_auth_send_password_reset_email(auth, email, NULL)));
  CHECK(emu_oob_code(email, "VERIFY_EMAIL") != NULL);
  CHECK(emu_oob_code(email, "PASSWORD_RESET") != NULL);
}
