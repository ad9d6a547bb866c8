/* test_bad_input.c — NULL for every pointer parameter, invalid UTF-8 for every string, released handles:
 * an error code every time, never a crash.
 *
 * The convention these tests pin down: a NULL or released handle that a function acts on gives
 * HEARTH_ERROR_INVALID_HANDLE (or the documented NULL / 0 / -1 / INVALID status); a NULL required argument
 * or an invalid UTF-8 string gives HEARTH_ERROR_INVALID_ARGUMENT; a released handle passed as an argument
 * gives HEARTH_ERROR_INVALID_HANDLE. */
#include "test.h"

static void completion_never_runs(hearth_future *f, void *user_data) {
  (void)f;
  (void)user_data;
  t_fail(__FILE__, __LINE__, "a completion callback on an invalid future ran");
}

static void listener_never_runs(hearth_auth *auth, void *user_data) {
  (void)auth;
  (void)user_data;
  t_fail(__FILE__, __LINE__, "a listener on a NULL auth ran");
}

static void post_never_runs(void *user_data, hearth_error status) {
  (void)status;
  (void)user_data;
  t_fail(__FILE__, __LINE__, "work posted to a NULL app ran");
}

/* ------------------------------------------------------------------------------------------------
 * NULL handles
 * ---------------------------------------------------------------------------------------------- */
TEST(null_app_and_auth_handles_are_rejected, MODE_NONE) {
  CHECK(hearth_app_name(NULL) == NULL);
  static int marker;
  hearth_app_set_user_data(NULL, &marker);
  CHECK(hearth_app_get_user_data(NULL) == NULL);
  CHECK_CODE(hearth_app_post(NULL, post_never_runs, NULL), HEARTH_ERROR_INVALID_HANDLE);
  CHECK_INT(hearth_app_is_loop_thread(NULL), 0);
  hearth_app_destroy(NULL);

  CHECK(hearth_auth_get(NULL) == NULL);
  CHECK(hearth_auth_app(NULL) == NULL);
  CHECK_CODE(hearth_auth_use_emulator(NULL, "127.0.0.1", 9099), HEARTH_ERROR_INVALID_HANDLE);
  CHECK_CODE(hearth_auth_set_language_code(NULL, "en"), HEARTH_ERROR_INVALID_HANDLE);
  CHECK(hearth_auth_language_code(NULL) == NULL);
  CHECK(hearth_auth_current_user(NULL) == NULL);
  CHECK_CODE(hearth_auth_sign_out(NULL), HEARTH_ERROR_INVALID_HANDLE);
  CHECK(hearth_auth_sign_in_anonymously(NULL) == NULL);
  CHECK(hearth_auth_create_user_with_email_and_password(NULL, "a@example.com", T_PASSWORD) == NULL);
  CHECK(hearth_auth_sign_in_with_email_and_password(NULL, "a@example.com", T_PASSWORD) == NULL);
  CHECK(hearth_auth_sign_in_with_custom_token(NULL, "{\"uid\":\"u1\"}") == NULL);
  hearth_credential *credential = hearth_credential_create_email("a@example.com", T_PASSWORD);
  CHECK(hearth_auth_sign_in_with_credential(NULL, credential) == NULL);
  CHECK(hearth_auth_sign_in_and_retrieve_data_with_credential(NULL, credential) == NULL);
  hearth_credential_release(credential);
  CHECK(hearth_auth_send_password_reset_email(NULL, "a@example.com", NULL) == NULL);
  CHECK(hearth_auth_fetch_providers_for_email(NULL, "a@example.com") == NULL);
  CHECK(hearth_auth_last_result(NULL, HEARTH_OP_AUTH_SIGN_IN_ANONYMOUSLY) == NULL);
  CHECK(hearth_auth_last_result(NULL, HEARTH_OP_AUTH_CREATE_USER_WITH_EMAIL_AND_PASSWORD) == NULL);
  CHECK(hearth_auth_last_result(NULL, HEARTH_OP_AUTH_SIGN_IN_WITH_EMAIL_AND_PASSWORD) == NULL);
  CHECK(hearth_auth_last_result(NULL, HEARTH_OP_AUTH_SIGN_IN_WITH_CUSTOM_TOKEN) == NULL);
  CHECK(hearth_auth_last_result(NULL, HEARTH_OP_AUTH_SIGN_IN_WITH_CREDENTIAL) == NULL);
  CHECK(hearth_auth_last_result(NULL, HEARTH_OP_AUTH_SIGN_IN_AND_RETRIEVE_DATA_WITH_CREDENTIAL) == NULL);
  CHECK(hearth_auth_last_result(NULL, HEARTH_OP_AUTH_SEND_PASSWORD_RESET_EMAIL) == NULL);
  CHECK(hearth_auth_last_result(NULL, HEARTH_OP_AUTH_FETCH_PROVIDERS_FOR_EMAIL) == NULL);
  CHECK(hearth_auth_last_result(NULL, HEARTH_OP_USER_GET_TOKEN) == NULL);
  CHECK(hearth_auth_last_result(NULL, HEARTH_OP_USER_RELOAD) == NULL);
  CHECK(hearth_auth_last_result(NULL, HEARTH_OP_USER_UPDATE_USER_PROFILE) == NULL);
  CHECK(hearth_auth_last_result(NULL, HEARTH_OP_USER_UPDATE_PASSWORD) == NULL);
  CHECK(hearth_auth_last_result(NULL, HEARTH_OP_USER_UPDATE_EMAIL) == NULL);
  CHECK(hearth_auth_last_result(NULL, HEARTH_OP_USER_SEND_EMAIL_VERIFICATION) == NULL);
  CHECK(hearth_auth_last_result(NULL, HEARTH_OP_USER_SEND_EMAIL_VERIFICATION_BEFORE_UPDATING_EMAIL) == NULL);
  CHECK(hearth_auth_last_result(NULL, HEARTH_OP_USER_DELETE) == NULL);
  CHECK_INT(hearth_auth_add_auth_state_listener(NULL, listener_never_runs, NULL, NULL), 0);
  CHECK_INT(hearth_auth_add_id_token_listener(NULL, listener_never_runs, NULL, NULL), 0);
  CHECK_CODE(hearth_auth_remove_auth_state_listener(NULL, 1), HEARTH_ERROR_INVALID_HANDLE);
  CHECK_CODE(hearth_auth_remove_id_token_listener(NULL, 1), HEARTH_ERROR_INVALID_HANDLE);
}

TEST(null_future_handles_are_rejected, MODE_NONE) {
  CHECK_INT(hearth_future_status(NULL), HEARTH_FUTURE_INVALID);
  CHECK_CODE(hearth_future_error(NULL), HEARTH_ERROR_INVALID_HANDLE);
  CHECK(hearth_future_error_message(NULL) == NULL);
  CHECK_CODE(hearth_future_add_callback(NULL, completion_never_runs, NULL), HEARTH_ERROR_INVALID_HANDLE);
  CHECK_CODE(hearth_future_wait(NULL, 0), HEARTH_ERROR_INVALID_HANDLE);
  CHECK_CODE(hearth_future_wait(NULL, -1), HEARTH_ERROR_INVALID_HANDLE);
  hearth_future_release(NULL);
  CHECK(hearth_future_retain(NULL) == NULL);
  CHECK(hearth_future_auth_result(NULL) == NULL);
  CHECK(hearth_future_user(NULL) == NULL);
  CHECK(hearth_future_string(NULL) == NULL);
  CHECK_INT(hearth_future_string_count(NULL), 0);
  CHECK(hearth_future_string_at(NULL, 0) == NULL);
}

TEST(null_user_result_info_and_credential_handles_are_rejected, MODE_NONE) {
  CHECK(hearth_auth_result_user(NULL) == NULL);
  CHECK(hearth_auth_result_provider_id(NULL) == NULL);
  CHECK(hearth_auth_result_user_name(NULL) == NULL);
  CHECK(hearth_auth_result_profile_json(NULL) == NULL);
  CHECK_INT(hearth_auth_result_is_new_user(NULL), 0);

  CHECK(hearth_user_retain(NULL) == NULL);
  hearth_user_release(NULL);
  CHECK(hearth_user_uid(NULL) == NULL);
  CHECK(hearth_user_email(NULL) == NULL);
  CHECK(hearth_user_display_name(NULL) == NULL);
  CHECK(hearth_user_photo_url(NULL) == NULL);
  CHECK(hearth_user_phone_number(NULL) == NULL);
  CHECK(hearth_user_provider_id(NULL) == NULL);
  CHECK_INT(hearth_user_is_anonymous(NULL), 0);
  CHECK_INT(hearth_user_is_email_verified(NULL), 0);
  CHECK_INT(hearth_user_creation_timestamp(NULL), 0);
  CHECK_INT(hearth_user_last_sign_in_timestamp(NULL), 0);
  CHECK_INT(hearth_user_provider_data_count(NULL), 0);
  CHECK(hearth_user_provider_data_at(NULL, 0) == NULL);
  CHECK(hearth_user_info_uid(NULL) == NULL);
  CHECK(hearth_user_info_provider_id(NULL) == NULL);
  CHECK(hearth_user_info_email(NULL) == NULL);
  CHECK(hearth_user_info_display_name(NULL) == NULL);
  CHECK(hearth_user_info_photo_url(NULL) == NULL);
  CHECK(hearth_user_info_phone_number(NULL) == NULL);
  CHECK(hearth_user_get_token(NULL, 0) == NULL);
  CHECK(hearth_user_reload(NULL) == NULL);
  CHECK(hearth_user_update_user_profile(NULL, "x", "y") == NULL);
  CHECK(hearth_user_update_password(NULL, T_PASSWORD) == NULL);
  CHECK(hearth_user_update_email(NULL, "a@example.com") == NULL);
  CHECK(hearth_user_send_email_verification(NULL, NULL) == NULL);
  CHECK(hearth_user_send_email_verification_before_updating_email(NULL, "a@example.com", NULL) == NULL);
  CHECK(hearth_user_delete(NULL) == NULL);

  CHECK(hearth_credential_provider(NULL) == NULL);
  CHECK_INT(hearth_credential_is_valid(NULL), 0);
  CHECK(hearth_credential_retain(NULL) == NULL);
  hearth_credential_release(NULL);
  CHECK(hearth_credential_create_email(NULL, T_PASSWORD) == NULL);
  CHECK(hearth_credential_create_email("a@example.com", NULL) == NULL);

  CHECK_CODE(hearth_storage_reply_set(NULL, "x", 1), HEARTH_ERROR_INVALID_HANDLE);
}

/* ------------------------------------------------------------------------------------------------
 * NULL required arguments
 * ---------------------------------------------------------------------------------------------- */
TEST(null_required_arguments_fail_with_invalid_argument, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_create_user_with_email_and_password(auth, NULL, T_PASSWORD)),
                   HEARTH_ERROR_INVALID_ARGUMENT);
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_create_user_with_email_and_password(auth, t_email("n"), NULL)),
                   HEARTH_ERROR_INVALID_ARGUMENT);
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_sign_in_with_email_and_password(auth, NULL, T_PASSWORD)),
                   HEARTH_ERROR_INVALID_ARGUMENT);
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_sign_in_with_email_and_password(auth, t_email("n"), NULL)),
                   HEARTH_ERROR_INVALID_ARGUMENT);
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_sign_in_with_custom_token(auth, NULL)), HEARTH_ERROR_INVALID_ARGUMENT);
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_sign_in_with_credential(auth, NULL)), HEARTH_ERROR_INVALID_ARGUMENT);
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_sign_in_and_retrieve_data_with_credential(auth, NULL)),
                   HEARTH_ERROR_INVALID_ARGUMENT);
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_send_password_reset_email(auth, NULL, NULL)), HEARTH_ERROR_INVALID_ARGUMENT);
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_fetch_providers_for_email(auth, NULL)), HEARTH_ERROR_INVALID_ARGUMENT);
  CHECK(hearth_auth_current_user(auth) == NULL);

  hearth_user *user = t_sign_in_anonymously(auth);
  CHECK_FAILS_WITH(t_keep_future(hearth_user_update_password(user, NULL)), HEARTH_ERROR_INVALID_ARGUMENT);
  CHECK_FAILS_WITH(t_keep_future(hearth_user_update_email(user, NULL)), HEARTH_ERROR_INVALID_ARGUMENT);
  CHECK_FAILS_WITH(t_keep_future(hearth_user_send_email_verification_before_updating_email(user, NULL, NULL)),
                   HEARTH_ERROR_INVALID_ARGUMENT);
  /* NULL is not an error where it means "keep": both profile fields kept. */
  t_await_ok(t_keep_future(hearth_user_update_user_profile(user, NULL, NULL)));
  CHECK_STR(t_current_uid(auth), hearth_user_uid(user));
}

/* ------------------------------------------------------------------------------------------------
 * Invalid UTF-8
 * ---------------------------------------------------------------------------------------------- */
static const char *const bad_utf8[] = {
    "\xff\xfe",              /* bytes that never occur in UTF-8 */
    "abc\x80",               /* a stray continuation byte */
    "\xc0\xaf",              /* an overlong encoding of '/' */
    "\xed\xa0\x80",          /* a UTF-16 surrogate */
    "\xf4\x90\x80\x80",      /* beyond U+10FFFF */
    "ok\xe2\x82",            /* truncated sequence */
    "user\xfe@example.com",  /* hidden inside an otherwise valid address */
};
#define BAD_COUNT (sizeof bad_utf8 / sizeof bad_utf8[0])

TEST(invalid_utf8_app_options_are_rejected, MODE_NONE) {
  for (size_t i = 0; i < BAD_COUNT; i++) {
    const char *bad = bad_utf8[i];
    for (int field = 0; field < 7; field++) {
      hearth_app_options options;
      t_options(&options);
      options.persistence_dir = t_temp_dir();
      switch (field) {
      case 0: options.api_key = bad; break;
      case 1: options.project_id = bad; break;
      case 2: options.app_id = bad; break;
      case 3: options.auth_domain = bad; break;
      case 4: options.app_name = bad; break;
      case 5: options.persistence = HEARTH_PERSISTENCE_FILE; options.persistence_dir = bad; break;
      default: options.ca_bundle_path = bad; break;
      }
      hearth_app *app = NULL;
      int rc = hearth_app_create(&options, &app);
      if (rc != HEARTH_ERROR_INVALID_ARGUMENT)
        t_fail(__FILE__, __LINE__, "option %d with bad string %zu: %s", field, i, hearth_error_name(rc));
      if (app) {
        t_fail(__FILE__, __LINE__, "option %d with bad string %zu created an app", field, i);
        hearth_app_destroy(app);
      }
    }
  }
}

TEST(invalid_utf8_arguments_fail_with_invalid_argument, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *email = t_email("utf8");
  for (size_t i = 0; i < BAD_COUNT; i++) {
    const char *bad = bad_utf8[i];
    CHECK_FAILS_WITH(t_keep_future(hearth_auth_create_user_with_email_and_password(auth, bad, T_PASSWORD)),
                     HEARTH_ERROR_INVALID_ARGUMENT);
    CHECK_FAILS_WITH(t_keep_future(hearth_auth_create_user_with_email_and_password(auth, email, bad)),
                     HEARTH_ERROR_INVALID_ARGUMENT);
    CHECK_FAILS_WITH(t_keep_future(hearth_auth_sign_in_with_email_and_password(auth, bad, T_PASSWORD)),
                     HEARTH_ERROR_INVALID_ARGUMENT);
    CHECK_FAILS_WITH(t_keep_future(hearth_auth_sign_in_with_email_and_password(auth, email, bad)),
                     HEARTH_ERROR_INVALID_ARGUMENT);
    CHECK_FAILS_WITH(t_keep_future(hearth_auth_sign_in_with_custom_token(auth, bad)), HEARTH_ERROR_INVALID_ARGUMENT);
    CHECK_FAILS_WITH(t_keep_future(hearth_auth_send_password_reset_email(auth, bad, NULL)), HEARTH_ERROR_INVALID_ARGUMENT);
    CHECK_FAILS_WITH(t_keep_future(hearth_auth_fetch_providers_for_email(auth, bad)), HEARTH_ERROR_INVALID_ARGUMENT);
    CHECK(hearth_credential_create_email(bad, T_PASSWORD) == NULL);
    CHECK(hearth_credential_create_email(email, bad) == NULL);
    CHECK_CODE(hearth_auth_use_emulator(auth, bad, 9099), HEARTH_ERROR_INVALID_ARGUMENT);
    CHECK_CODE(hearth_auth_set_language_code(auth, bad), HEARTH_ERROR_INVALID_ARGUMENT);
  }
  CHECK(hearth_auth_current_user(auth) == NULL);
  CHECK(emu_oob_code(email, "PASSWORD_RESET") == NULL); /* nothing bad reached the server */

  hearth_user *user = t_create_user(auth, email, T_PASSWORD);
  for (size_t i = 0; i < BAD_COUNT; i++) {
    const char *bad = bad_utf8[i];
    CHECK_FAILS_WITH(t_keep_future(hearth_user_update_user_profile(user, bad, NULL)), HEARTH_ERROR_INVALID_ARGUMENT);
    CHECK_FAILS_WITH(t_keep_future(hearth_user_update_user_profile(user, NULL, bad)), HEARTH_ERROR_INVALID_ARGUMENT);
    CHECK_FAILS_WITH(t_keep_future(hearth_user_update_password(user, bad)), HEARTH_ERROR_INVALID_ARGUMENT);
    CHECK_FAILS_WITH(t_keep_future(hearth_user_update_email(user, bad)), HEARTH_ERROR_INVALID_ARGUMENT);
    CHECK_FAILS_WITH(t_keep_future(hearth_user_send_email_verification_before_updating_email(user, bad, NULL)),
                     HEARTH_ERROR_INVALID_ARGUMENT);
  }
  /* The account is untouched and the password still works. */
  CHECK_STR(json_get_string(emu_lookup(hearth_user_uid(user)), "displayName"), NULL);
  CHECK_CODE(hearth_auth_sign_out(auth), 0);
  t_await_ok(t_keep_future(hearth_auth_sign_in_with_email_and_password(auth, email, T_PASSWORD)));
}

/* ------------------------------------------------------------------------------------------------
 * Released handles
 * ---------------------------------------------------------------------------------------------- */
TEST(a_released_user_is_an_invalid_handle, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  t_sign_in_anonymously(auth);
  hearth_user *user = hearth_auth_current_user(auth);
  REQUIRE(user != NULL);
  hearth_user *copy = hearth_user_retain(user);
  REQUIRE(copy != NULL);
  hearth_user_release(user);
  hearth_user_release(copy);
  /* Both references are gone (retain may return the same pointer: then both names are the one handle). */
  CHECK(hearth_user_uid(copy) == NULL);
  CHECK(hearth_user_email(copy) == NULL);
  CHECK_INT(hearth_user_is_anonymous(copy), 0);
  CHECK_INT(hearth_user_provider_data_count(copy), 0);
  CHECK(hearth_user_provider_data_at(copy, 0) == NULL);
  CHECK(hearth_user_retain(copy) == NULL);
  CHECK(hearth_user_get_token(copy, 0) == NULL);
  CHECK(hearth_user_reload(copy) == NULL);
  CHECK(hearth_user_update_user_profile(copy, "x", NULL) == NULL);
  CHECK(hearth_user_update_password(copy, T_PASSWORD) == NULL);
  CHECK(hearth_user_update_email(copy, "a@example.com") == NULL);
  CHECK(hearth_user_send_email_verification(copy, NULL) == NULL);
  CHECK(hearth_user_send_email_verification_before_updating_email(copy, "a@example.com", NULL) == NULL);
  CHECK(hearth_user_delete(copy) == NULL);
  CHECK(hearth_user_uid(user) == NULL);
  hearth_user_release(copy); /* releasing again is harmless */
  hearth_user_release(user);
  CHECK(strlen(t_current_uid(auth)) > 0); /* the session itself is untouched */
}

TEST(a_released_credential_is_an_invalid_handle, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *email = t_email("released");
  t_create_user(auth, email, T_PASSWORD);
  CHECK_CODE(hearth_auth_sign_out(auth), 0);
  hearth_credential *credential = hearth_credential_create_email(email, T_PASSWORD);
  REQUIRE(credential != NULL);
  hearth_credential *copy = hearth_credential_retain(credential);
  REQUIRE(copy != NULL);
  hearth_credential_release(credential);
  hearth_credential_release(copy);
  CHECK_INT(hearth_credential_is_valid(copy), 0);
  CHECK_INT(hearth_credential_is_valid(credential), 0);
  CHECK(hearth_credential_provider(copy) == NULL);
  CHECK(hearth_credential_retain(copy) == NULL);
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_sign_in_with_credential(auth, copy)), HEARTH_ERROR_INVALID_HANDLE);
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_sign_in_and_retrieve_data_with_credential(auth, copy)),
                   HEARTH_ERROR_INVALID_HANDLE);
  hearth_credential_release(copy);
  CHECK(hearth_auth_current_user(auth) == NULL);
}

TEST(a_pointer_that_was_never_a_handle_is_rejected, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  /* A foreign pointer of the right type: Hearth must not trust what it points to. */
  static uint64_t junk[64];
  memset(junk, 0x5A, sizeof junk);
  hearth_credential *foreign_credential = (hearth_credential *)junk;
  CHECK_INT(hearth_credential_is_valid(foreign_credential), 0);
  CHECK(hearth_credential_provider(foreign_credential) == NULL);
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_sign_in_with_credential(auth, foreign_credential)),
                   HEARTH_ERROR_INVALID_HANDLE);
  hearth_future *foreign_future = (hearth_future *)junk;
  CHECK_INT(hearth_future_status(foreign_future), HEARTH_FUTURE_INVALID);
  CHECK(hearth_future_retain(foreign_future) == NULL);
  CHECK_CODE(hearth_future_wait(foreign_future, 0), HEARTH_ERROR_INVALID_HANDLE);
  hearth_user *foreign_user = (hearth_user *)junk;
  CHECK(hearth_user_uid(foreign_user) == NULL);
  CHECK(hearth_user_get_token(foreign_user, 0) == NULL);
}

/* ------------------------------------------------------------------------------------------------
 * Federated identity: providers, provider flows, linking, auth result details
 * ---------------------------------------------------------------------------------------------- */
static int open_url_never_runs(void *user_data, const char *url) {
  (void)user_data;
  (void)url;
  t_fail(__FILE__, __LINE__, "a UI delegate ran for a flow that should have been refused");
  return 1;
}

static void refuse_every_page(hearth_auth *auth) {
  hearth_provider_flow_options options;
  hearth_provider_flow_options_init(&options);
  options.open_url = open_url_never_runs;
  REQUIRE_CODE(hearth_auth_set_provider_flow_options(auth, &options), 0);
}

TEST(null_handles_of_the_federated_api_are_rejected, MODE_NONE) {
  CHECK(hearth_oauth_provider_create(NULL) == NULL);
  hearth_oauth_provider_release(NULL);
  CHECK(hearth_oauth_provider_id(NULL) == NULL);
  CHECK_CODE(hearth_oauth_provider_add_scope(NULL, "email"), HEARTH_ERROR_INVALID_HANDLE);
  CHECK_CODE(hearth_oauth_provider_set_custom_parameter(NULL, "locale", "fr"), HEARTH_ERROR_INVALID_HANDLE);

  hearth_provider_flow_options options;
  hearth_provider_flow_options_init(&options);
  options.open_url = open_url_never_runs;
  CHECK_CODE(hearth_auth_set_provider_flow_options(NULL, &options), HEARTH_ERROR_INVALID_HANDLE);
  hearth_oauth_provider *provider = hearth_oauth_provider_create("twitter.com");
  REQUIRE(provider != NULL);
  CHECK(hearth_auth_sign_in_with_provider(NULL, provider) == NULL);
  CHECK(hearth_user_link_with_provider(NULL, provider) == NULL);
  CHECK(hearth_user_reauthenticate_with_provider(NULL, provider) == NULL);
  hearth_oauth_provider_release(provider);
  CHECK_INT(hearth_auth_handle_url(NULL, "com.example.game:/oauth?state=x"), 0);
  CHECK_CODE(hearth_auth_cancel_provider_flow(NULL), HEARTH_ERROR_INVALID_HANDLE);
  CHECK(hearth_auth_last_result(NULL, HEARTH_OP_AUTH_SIGN_IN_WITH_PROVIDER) == NULL);
  CHECK(hearth_auth_last_result(NULL, HEARTH_OP_USER_LINK_WITH_PROVIDER) == NULL);
  CHECK(hearth_auth_last_result(NULL, HEARTH_OP_USER_REAUTHENTICATE_WITH_PROVIDER) == NULL);

  CHECK(hearth_auth_result_credential(NULL) == NULL);
  CHECK(hearth_auth_result_updated_credential(NULL) == NULL);
  CHECK(hearth_auth_result_email(NULL) == NULL);
  CHECK(hearth_credential_id_token(NULL) == NULL);
  CHECK(hearth_credential_access_token(NULL) == NULL);
  CHECK(hearth_credential_secret(NULL) == NULL);

  hearth_credential *credential = hearth_credential_create_google("{\"sub\":\"s\"}", NULL);
  CHECK(hearth_user_link_with_credential(NULL, credential) == NULL);
  CHECK(hearth_user_unlink(NULL, "google.com") == NULL);
  CHECK(hearth_user_reauthenticate(NULL, credential) == NULL);
  CHECK(hearth_user_reauthenticate_and_retrieve_data(NULL, credential) == NULL);
  hearth_credential_release(credential);
  CHECK(hearth_auth_last_result(NULL, HEARTH_OP_USER_LINK_WITH_CREDENTIAL) == NULL);
  CHECK(hearth_auth_last_result(NULL, HEARTH_OP_USER_UNLINK) == NULL);
  CHECK(hearth_auth_last_result(NULL, HEARTH_OP_USER_REAUTHENTICATE) == NULL);
  CHECK(hearth_auth_last_result(NULL, HEARTH_OP_USER_REAUTHENTICATE_AND_RETRIEVE_DATA) == NULL);
}

TEST(null_and_invalid_utf8_provider_arguments_are_refused, MODE_NONE) {
  for (size_t i = 0; i < BAD_COUNT; i++) CHECK(hearth_oauth_provider_create(bad_utf8[i]) == NULL);
  hearth_oauth_provider *provider = hearth_oauth_provider_create("microsoft.com");
  REQUIRE(provider != NULL);
  CHECK_CODE(hearth_oauth_provider_add_scope(provider, NULL), HEARTH_ERROR_INVALID_ARGUMENT);
  CHECK_CODE(hearth_oauth_provider_set_custom_parameter(provider, NULL, "x"), HEARTH_ERROR_INVALID_ARGUMENT);
  CHECK_CODE(hearth_oauth_provider_set_custom_parameter(provider, "tenant", NULL), HEARTH_ERROR_INVALID_ARGUMENT);
  for (size_t i = 0; i < BAD_COUNT; i++) {
    CHECK_CODE(hearth_oauth_provider_add_scope(provider, bad_utf8[i]), HEARTH_ERROR_INVALID_ARGUMENT);
    CHECK_CODE(hearth_oauth_provider_set_custom_parameter(provider, bad_utf8[i], "x"), HEARTH_ERROR_INVALID_ARGUMENT);
    CHECK_CODE(hearth_oauth_provider_set_custom_parameter(provider, "tenant", bad_utf8[i]), HEARTH_ERROR_INVALID_ARGUMENT);
  }
  CHECK_STR(hearth_oauth_provider_id(provider), "microsoft.com");
  hearth_oauth_provider_release(provider);
}

TEST(a_released_provider_is_an_invalid_handle, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  refuse_every_page(auth);
  hearth_user *user = t_sign_in_anonymously(auth);
  char id[32];
  snprintf(id, sizeof id, "%s", "twitter.com");
  hearth_oauth_provider *provider = hearth_oauth_provider_create(id);
  REQUIRE(provider != NULL);
  memset(id, 'x', sizeof id - 1); /* the id was copied */
  CHECK_STR(hearth_oauth_provider_id(provider), "twitter.com");
  hearth_oauth_provider_release(provider);
  CHECK(hearth_oauth_provider_id(provider) == NULL);
  CHECK_CODE(hearth_oauth_provider_add_scope(provider, "email"), HEARTH_ERROR_INVALID_HANDLE);
  CHECK_CODE(hearth_oauth_provider_set_custom_parameter(provider, "lang", "fr"), HEARTH_ERROR_INVALID_HANDLE);
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_sign_in_with_provider(auth, provider)), HEARTH_ERROR_INVALID_HANDLE);
  CHECK_FAILS_WITH(t_keep_future(hearth_user_link_with_provider(user, provider)), HEARTH_ERROR_INVALID_HANDLE);
  CHECK_FAILS_WITH(t_keep_future(hearth_user_reauthenticate_with_provider(user, provider)),
                   HEARTH_ERROR_INVALID_HANDLE);
  hearth_oauth_provider_release(provider); /* releasing again is harmless */
  /* NULL where a provider is required. */
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_sign_in_with_provider(auth, NULL)), HEARTH_ERROR_INVALID_ARGUMENT);
  CHECK_FAILS_WITH(t_keep_future(hearth_user_link_with_provider(user, NULL)), HEARTH_ERROR_INVALID_ARGUMENT);
  CHECK_FAILS_WITH(t_keep_future(hearth_user_reauthenticate_with_provider(user, NULL)), HEARTH_ERROR_INVALID_ARGUMENT);
  CHECK_STR(t_current_uid(auth), hearth_user_uid(user));
}

TEST(linking_with_null_released_or_invalid_arguments_is_refused, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  hearth_user *user = t_create_user(auth, t_email("badlink"), T_PASSWORD);
  CHECK_FAILS_WITH(t_keep_future(hearth_user_link_with_credential(user, NULL)), HEARTH_ERROR_INVALID_ARGUMENT);
  CHECK_FAILS_WITH(t_keep_future(hearth_user_reauthenticate(user, NULL)), HEARTH_ERROR_INVALID_ARGUMENT);
  CHECK_FAILS_WITH(t_keep_future(hearth_user_reauthenticate_and_retrieve_data(user, NULL)),
                   HEARTH_ERROR_INVALID_ARGUMENT);
  CHECK_FAILS_WITH(t_keep_future(hearth_user_unlink(user, NULL)), HEARTH_ERROR_INVALID_ARGUMENT);
  for (size_t i = 0; i < BAD_COUNT; i++)
    CHECK_FAILS_WITH(t_keep_future(hearth_user_unlink(user, bad_utf8[i])), HEARTH_ERROR_INVALID_ARGUMENT);

  hearth_credential *released = hearth_credential_create_google("{\"sub\":\"released\"}", NULL);
  REQUIRE(released != NULL);
  hearth_credential_release(released);
  CHECK_FAILS_WITH(t_keep_future(hearth_user_link_with_credential(user, released)), HEARTH_ERROR_INVALID_HANDLE);
  CHECK_FAILS_WITH(t_keep_future(hearth_user_reauthenticate(user, released)), HEARTH_ERROR_INVALID_HANDLE);
  CHECK_FAILS_WITH(t_keep_future(hearth_user_reauthenticate_and_retrieve_data(user, released)),
                   HEARTH_ERROR_INVALID_HANDLE);
  CHECK_STR(t_provider_ids(t_current_user(auth)), "password"); /* nothing reached the account */
  CHECK_STR(t_current_uid(auth), hearth_user_uid(user));
}

TEST(a_released_user_cannot_link_unlink_or_reauthenticate, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  refuse_every_page(auth);
  t_sign_in_anonymously(auth);
  hearth_user *user = hearth_auth_current_user(auth);
  REQUIRE(user != NULL);
  hearth_user_release(user);
  hearth_credential *credential = hearth_credential_create_google("{\"sub\":\"s\"}", NULL);
  hearth_oauth_provider *provider = hearth_oauth_provider_create("twitter.com");
  CHECK(hearth_user_link_with_credential(user, credential) == NULL);
  CHECK(hearth_user_unlink(user, "google.com") == NULL);
  CHECK(hearth_user_reauthenticate(user, credential) == NULL);
  CHECK(hearth_user_reauthenticate_and_retrieve_data(user, credential) == NULL);
  CHECK(hearth_user_link_with_provider(user, provider) == NULL);
  CHECK(hearth_user_reauthenticate_with_provider(user, provider) == NULL);
  hearth_credential_release(credential);
  hearth_oauth_provider_release(provider);
  CHECK(strlen(t_current_uid(auth)) > 0);
}

TEST(foreign_pointers_are_not_providers_or_auth_results, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  refuse_every_page(auth);
  static uint64_t junk[64];
  memset(junk, 0x5A, sizeof junk);
  hearth_oauth_provider *foreign_provider = (hearth_oauth_provider *)junk;
  CHECK(hearth_oauth_provider_id(foreign_provider) == NULL);
  CHECK_CODE(hearth_oauth_provider_add_scope(foreign_provider, "email"), HEARTH_ERROR_INVALID_HANDLE);
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_sign_in_with_provider(auth, foreign_provider)), HEARTH_ERROR_INVALID_HANDLE);
  hearth_oauth_provider_release(foreign_provider);
  const hearth_auth_result *foreign_result = (const hearth_auth_result *)junk;
  CHECK(hearth_auth_result_credential(foreign_result) == NULL);
  CHECK(hearth_auth_result_updated_credential(foreign_result) == NULL);
  CHECK(hearth_auth_result_email(foreign_result) == NULL);
  CHECK(hearth_auth_result_user(foreign_result) == NULL);
  const hearth_credential *foreign_credential = (const hearth_credential *)junk;
  CHECK(hearth_credential_id_token(foreign_credential) == NULL);
  CHECK(hearth_credential_access_token(foreign_credential) == NULL);
  CHECK(hearth_credential_secret(foreign_credential) == NULL);
  hearth_credential_release((hearth_credential *)junk);
}
