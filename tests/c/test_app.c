/* test_app.c — error names, version, options, and the app's lifecycle, name, user data and post. */
#include "test.h"

#include <limits.h>

/* ------------------------------------------------------------------------------------------------
 * Error codes and version
 * ---------------------------------------------------------------------------------------------- */
#define E(code) {code, #code}
static const struct {
  int code;
  const char *name;
} every_error[] = {
    E(HEARTH_ERROR_NONE), E(HEARTH_ERROR_UNIMPLEMENTED), E(HEARTH_ERROR_FAILURE),
    E(HEARTH_ERROR_INVALID_CUSTOM_TOKEN), E(HEARTH_ERROR_CUSTOM_TOKEN_MISMATCH), E(HEARTH_ERROR_INVALID_CREDENTIAL),
    E(HEARTH_ERROR_USER_DISABLED), E(HEARTH_ERROR_ACCOUNT_EXISTS_WITH_DIFFERENT_CREDENTIALS),
    E(HEARTH_ERROR_OPERATION_NOT_ALLOWED), E(HEARTH_ERROR_EMAIL_ALREADY_IN_USE),
    E(HEARTH_ERROR_REQUIRES_RECENT_LOGIN), E(HEARTH_ERROR_CREDENTIAL_ALREADY_IN_USE), E(HEARTH_ERROR_INVALID_EMAIL),
    E(HEARTH_ERROR_WRONG_PASSWORD), E(HEARTH_ERROR_TOO_MANY_REQUESTS), E(HEARTH_ERROR_USER_NOT_FOUND),
    E(HEARTH_ERROR_PROVIDER_ALREADY_LINKED), E(HEARTH_ERROR_NO_SUCH_PROVIDER), E(HEARTH_ERROR_INVALID_USER_TOKEN),
    E(HEARTH_ERROR_USER_TOKEN_EXPIRED), E(HEARTH_ERROR_NETWORK_REQUEST_FAILED), E(HEARTH_ERROR_INVALID_API_KEY),
    E(HEARTH_ERROR_APP_NOT_AUTHORIZED), E(HEARTH_ERROR_USER_MISMATCH), E(HEARTH_ERROR_WEAK_PASSWORD),
    E(HEARTH_ERROR_NO_SIGNED_IN_USER), E(HEARTH_ERROR_API_NOT_AVAILABLE), E(HEARTH_ERROR_EXPIRED_ACTION_CODE),
    E(HEARTH_ERROR_INVALID_ACTION_CODE), E(HEARTH_ERROR_INVALID_MESSAGE_PAYLOAD),
    E(HEARTH_ERROR_INVALID_PHONE_NUMBER), E(HEARTH_ERROR_MISSING_PHONE_NUMBER),
    E(HEARTH_ERROR_INVALID_RECIPIENT_EMAIL), E(HEARTH_ERROR_INVALID_SENDER),
    E(HEARTH_ERROR_INVALID_VERIFICATION_CODE), E(HEARTH_ERROR_INVALID_VERIFICATION_ID),
    E(HEARTH_ERROR_MISSING_VERIFICATION_CODE), E(HEARTH_ERROR_MISSING_VERIFICATION_ID),
    E(HEARTH_ERROR_MISSING_EMAIL), E(HEARTH_ERROR_MISSING_PASSWORD), E(HEARTH_ERROR_QUOTA_EXCEEDED),
    E(HEARTH_ERROR_RETRY_PHONE_AUTH), E(HEARTH_ERROR_SESSION_EXPIRED), E(HEARTH_ERROR_APP_NOT_VERIFIED),
    E(HEARTH_ERROR_APP_VERIFICATION_FAILED), E(HEARTH_ERROR_CAPTCHA_CHECK_FAILED),
    E(HEARTH_ERROR_INVALID_APP_CREDENTIAL), E(HEARTH_ERROR_MISSING_APP_CREDENTIAL),
    E(HEARTH_ERROR_INVALID_CLIENT_ID), E(HEARTH_ERROR_INVALID_CONTINUE_URI), E(HEARTH_ERROR_MISSING_CONTINUE_URI),
    E(HEARTH_ERROR_KEYCHAIN_ERROR), E(HEARTH_ERROR_MISSING_APP_TOKEN), E(HEARTH_ERROR_MISSING_IOS_BUNDLE_ID),
    E(HEARTH_ERROR_NOTIFICATION_NOT_FORWARDED), E(HEARTH_ERROR_UNAUTHORIZED_DOMAIN),
    E(HEARTH_ERROR_WEB_CONTEXT_ALREADY_PRESENTED), E(HEARTH_ERROR_WEB_CONTEXT_CANCELLED),
    E(HEARTH_ERROR_DYNAMIC_LINK_NOT_ACTIVATED), E(HEARTH_ERROR_CANCELLED), E(HEARTH_ERROR_INVALID_PROVIDER_ID),
    E(HEARTH_ERROR_WEB_INTERNAL_ERROR), E(HEARTH_ERROR_WEB_STORAGE_UNSUPPORTED), E(HEARTH_ERROR_TENANT_ID_MISMATCH),
    E(HEARTH_ERROR_UNSUPPORTED_TENANT_OPERATION), E(HEARTH_ERROR_INVALID_LINK_DOMAIN),
    E(HEARTH_ERROR_REJECTED_CREDENTIAL), E(HEARTH_ERROR_PHONE_NUMBER_NOT_FOUND), E(HEARTH_ERROR_INVALID_TENANT_ID),
    E(HEARTH_ERROR_MISSING_CLIENT_IDENTIFIER), E(HEARTH_ERROR_MISSING_MULTI_FACTOR_SESSION),
    E(HEARTH_ERROR_MISSING_MULTI_FACTOR_INFO), E(HEARTH_ERROR_INVALID_MULTI_FACTOR_SESSION),
    E(HEARTH_ERROR_MULTI_FACTOR_INFO_NOT_FOUND), E(HEARTH_ERROR_ADMIN_RESTRICTED_OPERATION),
    E(HEARTH_ERROR_UNVERIFIED_EMAIL), E(HEARTH_ERROR_SECOND_FACTOR_ALREADY_ENROLLED),
    E(HEARTH_ERROR_MAXIMUM_SECOND_FACTOR_COUNT_EXCEEDED), E(HEARTH_ERROR_UNSUPPORTED_FIRST_FACTOR),
    E(HEARTH_ERROR_EMAIL_CHANGE_NEEDS_VERIFICATION), E(HEARTH_ERROR_INVALID_ARGUMENT),
    E(HEARTH_ERROR_INVALID_HANDLE), E(HEARTH_ERROR_SECOND_FACTOR_REQUIRED), E(HEARTH_ERROR_TIMED_OUT),
    E(HEARTH_ERROR_WOULD_DEADLOCK), E(HEARTH_ERROR_APP_DESTROYED), E(HEARTH_ERROR_LOOP_FAILURE),
    E(HEARTH_ERROR_PERSISTENCE_FAILURE),
};
#undef E
#define ERROR_COUNT (sizeof every_error / sizeof every_error[0])

TEST(every_error_code_has_its_enum_name, MODE_NONE) {
  for (size_t i = 0; i < ERROR_COUNT; i++) CHECK_STR(hearth_error_name(every_error[i].code), every_error[i].name);
}

TEST(codes_outside_the_enum_are_named_unknown, MODE_NONE) {
  const int unknown[] = {-2, 79, 999, 1008, 5000, INT_MIN, INT_MAX};
  for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++)
    CHECK_STR(hearth_error_name(unknown[i]), "HEARTH_ERROR_UNKNOWN");
}

TEST(every_error_code_has_an_english_sentence, MODE_NONE) {
  for (size_t i = 0; i < ERROR_COUNT; i++) {
    const char *message = hearth_error_message(every_error[i].code);
    if (!message || !*message) t_fail(__FILE__, __LINE__, "no message for %s", every_error[i].name);
  }
  CHECK(hearth_error_message(79) != NULL);
  CHECK(hearth_error_message(INT_MIN) != NULL);
  /* Distinct failures read differently. */
  CHECK(strcmp(hearth_error_message(HEARTH_ERROR_WRONG_PASSWORD), hearth_error_message(HEARTH_ERROR_USER_NOT_FOUND)) != 0);
}

TEST(version_matches_the_header, MODE_NONE) {
  CHECK_STR(hearth_version(), HEARTH_VERSION_STRING);
  char expected[32];
  snprintf(expected, sizeof expected, "%d.%d.%d", HEARTH_VERSION_MAJOR, HEARTH_VERSION_MINOR, HEARTH_VERSION_PATCH);
  CHECK_STR(hearth_version(), expected);
}

TEST(freeing_null_is_a_no_op, MODE_NONE) {
  hearth_free(NULL);
  CHECK(true);
}

/* ------------------------------------------------------------------------------------------------
 * Options
 * ---------------------------------------------------------------------------------------------- */
TEST(options_init_sets_the_struct_size_and_defaults, MODE_NONE) {
  hearth_app_options options;
  memset(&options, 0xA5, sizeof options);
  hearth_app_options_init(&options);
  CHECK_INT(options.struct_size, sizeof(hearth_app_options));
  CHECK(options.api_key == NULL);
  CHECK(options.project_id == NULL);
  CHECK(options.app_id == NULL);
  CHECK(options.auth_domain == NULL);
  CHECK(options.app_name == NULL);
  CHECK(options.loop == NULL);
  CHECK_INT(options.persistence, HEARTH_PERSISTENCE_FILE);
  CHECK(options.persistence_dir == NULL);
  CHECK(options.storage_load == NULL);
  CHECK(options.storage_save == NULL);
  CHECK(options.storage_erase == NULL);
  CHECK(options.storage_user_data == NULL);
  CHECK_INT(options.request_timeout_ms, 0);
  CHECK(options.ca_bundle_path == NULL);
  hearth_app_options_init(NULL); /* no crash */
}

/* Creating with these options fails with `code` and stores NULL. */
static void check_create_fails(const hearth_app_options *options, int code, const char *file, int line) {
  hearth_app *app = (hearth_app *)(uintptr_t)0x1;
  int rc = hearth_app_create(options, &app);
  if (rc != code)
    t_fail(file, line, "hearth_app_create returned %s, expected %s", hearth_error_name(rc), hearth_error_name(code));
  if (app != NULL) {
    t_fail(file, line, "hearth_app_create failed but did not store NULL");
    if (rc == 0 && app != (hearth_app *)(uintptr_t)0x1) hearth_app_destroy(app);
  }
}
#define CHECK_CREATE_FAILS(options, code) check_create_fails((options), (code), __FILE__, __LINE__)

TEST(creating_an_app_without_options_fails, MODE_NONE) {
  CHECK_CREATE_FAILS(NULL, HEARTH_ERROR_INVALID_ARGUMENT);
  hearth_app_options options;
  t_options(&options);
  CHECK_CODE(hearth_app_create(&options, NULL), HEARTH_ERROR_INVALID_ARGUMENT);
}

TEST(creating_an_app_without_an_api_key_fails, MODE_NONE) {
  hearth_app_options options;
  t_options(&options);
  options.api_key = NULL;
  CHECK_CREATE_FAILS(&options, HEARTH_ERROR_INVALID_ARGUMENT);
  options.api_key = "";
  CHECK_CREATE_FAILS(&options, HEARTH_ERROR_INVALID_ARGUMENT);
}

TEST(creating_an_app_with_a_missing_or_too_small_struct_size_fails, MODE_NONE) {
  hearth_app_options options;
  t_options(&options);
  options.struct_size = 0;
  CHECK_CREATE_FAILS(&options, HEARTH_ERROR_INVALID_ARGUMENT);
  options.struct_size = sizeof(uint32_t); /* covers no field at all */
  CHECK_CREATE_FAILS(&options, HEARTH_ERROR_INVALID_ARGUMENT);
  options.struct_size = (uint32_t)offsetof(hearth_app_options, api_key); /* stops before the required key */
  CHECK_CREATE_FAILS(&options, HEARTH_ERROR_INVALID_ARGUMENT);
}

TEST(creating_an_app_with_out_of_range_options_fails, MODE_NONE) {
  hearth_app_options options;
  t_options(&options);
  options.persistence = 7;
  CHECK_CREATE_FAILS(&options, HEARTH_ERROR_INVALID_ARGUMENT);
  options.persistence = -1;
  CHECK_CREATE_FAILS(&options, HEARTH_ERROR_INVALID_ARGUMENT);

  t_options(&options);
  options.request_timeout_ms = -5;
  CHECK_CREATE_FAILS(&options, HEARTH_ERROR_INVALID_ARGUMENT);

  t_options(&options);
  options.app_name = "";
  CHECK_CREATE_FAILS(&options, HEARTH_ERROR_INVALID_ARGUMENT);
}

TEST(callback_persistence_without_its_callbacks_fails, MODE_NONE) {
  hearth_app_options options;
  t_options(&options);
  options.persistence = HEARTH_PERSISTENCE_CALLBACKS;
  CHECK_CREATE_FAILS(&options, HEARTH_ERROR_INVALID_ARGUMENT);
}

/* ------------------------------------------------------------------------------------------------
 * The app
 * ---------------------------------------------------------------------------------------------- */
TEST(an_app_without_a_name_is_named_DEFAULT, BOTH_LOOPS) {
  hearth_app_options options;
  t_options(&options);
  options.app_name = NULL;
  hearth_app *app = t_app_create(&options);
  CHECK_STR(hearth_app_name(app), "[DEFAULT]");
}

TEST(the_app_keeps_a_copy_of_its_name, BOTH_LOOPS) {
  char name[32];
  snprintf(name, sizeof name, "game-%d", 42);
  hearth_app_options options;
  t_options(&options);
  options.app_name = name;
  hearth_app *app = t_app_create(&options);
  memset(name, 'x', sizeof name - 1);
  CHECK_STR(hearth_app_name(app), "game-42");
}

TEST(user_data_round_trips, BOTH_LOOPS) {
  hearth_app *app = t_app();
  CHECK(hearth_app_get_user_data(app) == NULL);
  int marker = 0;
  hearth_app_set_user_data(app, &marker);
  CHECK(hearth_app_get_user_data(app) == &marker);
  hearth_app_set_user_data(app, NULL);
  CHECK(hearth_app_get_user_data(app) == NULL);
}

TEST(auth_is_the_same_borrowed_object_and_knows_its_app, BOTH_LOOPS) {
  hearth_app *app = t_app();
  hearth_auth *auth = hearth_auth_get(app);
  REQUIRE(auth != NULL);
  CHECK(hearth_auth_get(app) == auth);
  CHECK(hearth_auth_app(auth) == app);
}

TEST(a_new_app_has_no_signed_in_user, BOTH_LOOPS) {
  hearth_app *app = t_app();
  CHECK(hearth_auth_current_user(hearth_auth_get(app)) == NULL);
}

TEST(two_apps_live_side_by_side, BOTH_LOOPS) {
  hearth_app *first = t_app();
  hearth_app *second = t_app();
  CHECK(first != second);
  CHECK(hearth_auth_get(first) != hearth_auth_get(second));
  hearth_user *a = t_sign_in_anonymously(hearth_auth_get(first));
  CHECK(hearth_auth_current_user(hearth_auth_get(second)) == NULL);
  hearth_user *b = t_sign_in_anonymously(hearth_auth_get(second));
  CHECK(strcmp(hearth_user_uid(a), hearth_user_uid(b)) != 0);
}

TEST(destroying_null_is_a_no_op, MODE_NONE) {
  hearth_app_destroy(NULL);
  CHECK(true);
}

TEST(destroying_an_idle_app_returns_promptly, BOTH_LOOPS) {
  hearth_app *app = t_app();
  t_sign_in_anonymously(hearth_auth_get(app));
  double start = t_now();
  t_app_destroy(app);
  CHECK(t_now() - start < T_LIMIT(1.0));
}

/* ------------------------------------------------------------------------------------------------
 * Posting work to the loop
 * ---------------------------------------------------------------------------------------------- */
typedef struct post_record {
  hearth_app *app;
  atomic_int calls;
  atomic_int inner_calls;
  atomic_int inner_ran_inside_post;
  atomic_int post_rc;
  void *seen_user_data;
} post_record;

static void inner_posted(void *user_data, hearth_error status) {
  (void)status;
  post_record *r = user_data;
  T_CB_ENTER(r->app);
  atomic_fetch_add(&r->inner_calls, 1);
  T_CB_EXIT();
}

static void posted(void *user_data, hearth_error status) {
  (void)status;
  post_record *r = user_data;
  T_CB_ENTER(r->app);
  r->seen_user_data = user_data;
  /* Posting from the loop thread still runs on a later turn, never inside this call. */
  atomic_store(&r->post_rc, hearth_app_post(r->app, inner_posted, r));
  atomic_store(&r->inner_ran_inside_post, atomic_load(&r->inner_calls));
  atomic_fetch_add(&r->calls, 1);
  T_CB_EXIT();
}

TEST(post_runs_the_function_once_on_the_loop_thread_on_a_later_turn, BOTH_LOOPS) {
  post_record *r = t_alloc(sizeof *r);
  r->app = t_app();
  atomic_store(&r->post_rc, -1);
  CHECK_CODE(hearth_app_post(r->app, posted, r), 0);
  if (t_host()) CHECK_INT(atomic_load(&r->calls), 0); /* the host has not run its loop yet */
  REQUIRE_EVENTUALLY(atomic_load(&r->calls) == 1);
  CHECK(r->seen_user_data == r);
  CHECK_CODE(atomic_load(&r->post_rc), 0);
  CHECK_INT(atomic_load(&r->inner_ran_inside_post), 0);
  REQUIRE_EVENTUALLY(atomic_load(&r->inner_calls) == 1);
  t_settle(50);
  CHECK_INT(atomic_load(&r->calls), 1);
  CHECK_INT(atomic_load(&r->inner_calls), 1);
}

static void counted(void *user_data, hearth_error status) {
  (void)status;
  post_record *r = user_data;
  T_CB_ENTER(r->app);
  atomic_fetch_add(&r->calls, 1);
  T_CB_EXIT();
}

static void post_many_from_a_thread(void *user_data) {
  post_record *r = user_data;
  for (int i = 0; i < 200; i++) {
    int rc = hearth_app_post(r->app, counted, r);
    if (rc != 0) t_fail(__FILE__, __LINE__, "hearth_app_post from another thread: %s", hearth_error_name(rc));
  }
}

TEST(posts_from_other_threads_all_run_on_the_loop_thread, BOTH_LOOPS) {
  post_record *r = t_alloc(sizeof *r);
  r->app = t_app();
  t_thread *a = t_spawn(post_many_from_a_thread, r);
  t_thread *b = t_spawn(post_many_from_a_thread, r);
  t_join(a);
  t_join(b);
  REQUIRE_EVENTUALLY(atomic_load(&r->calls) == 400);
  t_settle(50);
  CHECK_INT(atomic_load(&r->calls), 400);
}

TEST(post_rejects_a_missing_function_or_app, BOTH_LOOPS) {
  hearth_app *app = t_app();
  CHECK_CODE(hearth_app_post(app, NULL, NULL), HEARTH_ERROR_INVALID_ARGUMENT);
  CHECK_CODE(hearth_app_post(NULL, counted, NULL), HEARTH_ERROR_INVALID_HANDLE);
}

static void is_loop_thread_from_a_thread(void *user_data) {
  post_record *r = user_data;
  atomic_store(&r->calls, hearth_app_is_loop_thread(r->app));
}

TEST(only_the_loop_thread_is_the_loop_thread, BOTH_LOOPS) {
  post_record *r = t_alloc(sizeof *r);
  r->app = t_app();
  t_sign_in_anonymously(hearth_auth_get(r->app)); /* the loop has run Hearth's work at least once */
  CHECK_INT(hearth_app_is_loop_thread(r->app), t_host() ? 1 : 0);
  atomic_store(&r->calls, -1);
  t_join(t_spawn(is_loop_thread_from_a_thread, r));
  CHECK_INT(atomic_load(&r->calls), 0);
  CHECK_INT(hearth_app_is_loop_thread(NULL), 0);
}
