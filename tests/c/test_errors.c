/* test_errors.c — what a host can read about a call that failed at once: hearth_last_error_code and
 * hearth_last_error_message name the function and the cause, per thread, errno-style; invalid futures
 * answer a code no operation uses; the version is there as a number too. */
#include "test.h"

#include <limits.h>

/* The last error is `code` and its message starts with "function: " and mentions `cause`. */
#define CHECK_LAST_ERROR(code, function, cause)                                                      \
  do {                                                                                               \
    CHECK_CODE(hearth_last_error_code(), code);                                                      \
    const char *t_msg_ = hearth_last_error_message();                                                \
    if (!t_msg_ || strncmp(t_msg_, function ": ", strlen(function ": ")) != 0)                       \
      t_fail(__FILE__, __LINE__, "last error \"%s\" does not start with \"%s: \"", t_msg_ ? t_msg_ : "(NULL)", function); \
    CHECK_CONTAINS(t_msg_, cause);                                                                   \
  } while (0)

/* A fresh failure of another function, so that the next check sees only what the call under test left. */
static void prime(void) {
  CHECK_CODE(hearth_nonce_hash(NULL, NULL), HEARTH_ERROR_INVALID_ARGUMENT);
}

/* ------------------------------------------------------------------------------------------------
 * hearth_app_create: every cause has its own sentence
 * ---------------------------------------------------------------------------------------------- */
typedef struct create_case {
  const char *what;
  void (*spoil)(hearth_app_options *options);
  const char *cause;
} create_case;

static void no_api_key(hearth_app_options *o) { o->api_key = NULL; }
static void empty_api_key(hearth_app_options *o) { o->api_key = ""; }
static void bad_project(hearth_app_options *o) { o->project_id = "\xff\xfe"; }
static void bad_app_id(hearth_app_options *o) { o->app_id = "\xc0\xaf"; }
static void bad_auth_domain(hearth_app_options *o) { o->auth_domain = "\xed\xa0\x80"; }
static void empty_name(hearth_app_options *o) { o->app_name = ""; }
static void bad_name(hearth_app_options *o) { o->app_name = "\xff"; }
static void bad_persistence(hearth_app_options *o) { o->persistence = (hearth_persistence)99; }
static void callbacks_missing(hearth_app_options *o) { o->persistence = HEARTH_PERSISTENCE_CALLBACKS; }
static void negative_timeout(hearth_app_options *o) { o->request_timeout_ms = -1; }
static void huge_timeout(hearth_app_options *o) { o->request_timeout_ms = (int64_t)INT32_MAX + 1; }
static void missing_ca_bundle(hearth_app_options *o) { o->ca_bundle_path = "/nonexistent/hearth-ca.pem"; }
static void directory_ca_bundle(hearth_app_options *o) { o->ca_bundle_path = "/"; }
static void bad_persistence_dir(hearth_app_options *o) {
  o->persistence = HEARTH_PERSISTENCE_FILE;
  o->persistence_dir = "\xff";
}
static void uninitialized(hearth_app_options *o) { o->struct_size = 0; }

TEST(app_create_names_each_wrong_option_in_the_last_error, MODE_NONE) {
  const create_case cases[] = {
      {"no api key", no_api_key, "api_key is NULL"},
      {"empty api key", empty_api_key, "api_key is empty"},
      {"project id not UTF-8", bad_project, "project_id is not valid UTF-8"},
      {"app id not UTF-8", bad_app_id, "app_id is not valid UTF-8"},
      {"auth domain not UTF-8", bad_auth_domain, "auth_domain is not valid UTF-8"},
      {"empty app name", empty_name, "app_name is empty"},
      {"app name not UTF-8", bad_name, "app_name is not valid UTF-8"},
      {"persistence out of range", bad_persistence, "persistence is 99"},
      {"storage callbacks missing", callbacks_missing, "storage_load, storage_save, storage_erase are NULL"},
      {"negative timeout", negative_timeout, "request_timeout_ms is -1"},
      {"timeout too large", huge_timeout, "request_timeout_ms is 2147483648"},
      {"missing CA bundle", missing_ca_bundle, "ca_bundle_path"},
      {"CA bundle is a directory", directory_ca_bundle, "ca_bundle_path"},
      {"persistence dir not UTF-8", bad_persistence_dir, "persistence_dir is not valid UTF-8"},
      {"struct_size 0", uninitialized, "struct_size is 0"},
  };
  const char *seen[sizeof cases / sizeof cases[0]];
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    hearth_app_options options;
    hearth_app_options_init(&options);
    options.api_key = TEST_API_KEY;
    options.persistence = HEARTH_PERSISTENCE_NONE;
    cases[i].spoil(&options);
    prime();
    hearth_app *app = (hearth_app *)(uintptr_t)1;
    int rc = hearth_app_create(&options, &app);
    if (rc != HEARTH_ERROR_INVALID_ARGUMENT) t_fail(__FILE__, __LINE__, "%s: %s", cases[i].what, hearth_error_name(rc));
    CHECK(app == NULL);
    CHECK_LAST_ERROR(HEARTH_ERROR_INVALID_ARGUMENT, "hearth_app_create", cases[i].cause);
    seen[i] = t_strdup(hearth_last_error_message());
  }
  /* Ten different causes, ten different sentences. */
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    for (size_t j = 0; j < i; j++)
      if (cases[i].spoil != missing_ca_bundle && strcmp(seen[i], seen[j]) == 0)
        t_fail(__FILE__, __LINE__, "\"%s\" and \"%s\" read the same: %s", cases[i].what, cases[j].what, seen[i]);

  hearth_app *app = (hearth_app *)(uintptr_t)1;
  prime();
  CHECK_CODE(hearth_app_create(NULL, &app), HEARTH_ERROR_INVALID_ARGUMENT);
  CHECK(app == NULL);
  CHECK_LAST_ERROR(HEARTH_ERROR_INVALID_ARGUMENT, "hearth_app_create", "options is NULL");
  hearth_app_options options;
  hearth_app_options_init(&options);
  options.api_key = TEST_API_KEY;
  prime();
  CHECK_CODE(hearth_app_create(&options, NULL), HEARTH_ERROR_INVALID_ARGUMENT);
  CHECK_LAST_ERROR(HEARTH_ERROR_INVALID_ARGUMENT, "hearth_app_create", "out is NULL");
}

/* ------------------------------------------------------------------------------------------------
 * Constructors that return NULL say why
 * ---------------------------------------------------------------------------------------------- */
TEST(credential_constructors_name_the_argument_they_refused, MODE_NONE) {
  prime();
  CHECK(hearth_credential_create_email(NULL, T_PASSWORD) == NULL);
  CHECK_LAST_ERROR(HEARTH_ERROR_INVALID_ARGUMENT, "hearth_credential_create_email", "email must not be NULL");
  CHECK(hearth_credential_create_email("a@example.com", "\xff") == NULL);
  CHECK_LAST_ERROR(HEARTH_ERROR_INVALID_ARGUMENT, "hearth_credential_create_email", "password is not valid UTF-8");
  CHECK(hearth_credential_create_google("\xc0\xaf", NULL) == NULL);
  CHECK_LAST_ERROR(HEARTH_ERROR_INVALID_ARGUMENT, "hearth_credential_create_google", "id_token is not valid UTF-8");
  CHECK(hearth_credential_create_facebook(NULL) == NULL);
  CHECK_LAST_ERROR(HEARTH_ERROR_INVALID_ARGUMENT, "hearth_credential_create_facebook", "access_token must not be NULL");
  CHECK(hearth_credential_create_facebook_limited_login("token", NULL) == NULL);
  CHECK_LAST_ERROR(HEARTH_ERROR_INVALID_ARGUMENT, "hearth_credential_create_facebook_limited_login", "raw_nonce");
  CHECK(hearth_credential_create_twitter("token", NULL) == NULL);
  CHECK_LAST_ERROR(HEARTH_ERROR_INVALID_ARGUMENT, "hearth_credential_create_twitter", "secret must not be NULL");
  CHECK(hearth_credential_create_github(NULL) == NULL);
  CHECK_LAST_ERROR(HEARTH_ERROR_INVALID_ARGUMENT, "hearth_credential_create_github", "token must not be NULL");
  CHECK(hearth_credential_create_play_games(NULL) == NULL);
  CHECK_LAST_ERROR(HEARTH_ERROR_INVALID_ARGUMENT, "hearth_credential_create_play_games", "server_auth_code");
  CHECK(hearth_credential_create_oauth(NULL, "id", NULL) == NULL);
  CHECK_LAST_ERROR(HEARTH_ERROR_INVALID_ARGUMENT, "hearth_credential_create_oauth", "provider_id must not be NULL");
  CHECK(hearth_credential_create_oauth_with_nonce("apple.com", "id", NULL, NULL) == NULL);
  CHECK_LAST_ERROR(HEARTH_ERROR_INVALID_ARGUMENT, "hearth_credential_create_oauth_with_nonce", "raw_nonce");
  CHECK(hearth_credential_create_apple("id", "nonce", NULL, "\xff", NULL) == NULL);
  CHECK_LAST_ERROR(HEARTH_ERROR_INVALID_ARGUMENT, "hearth_credential_create_apple", "given_name is not valid UTF-8");
  CHECK(hearth_credential_create_phone("verification", NULL) == NULL);
  CHECK_LAST_ERROR(HEARTH_ERROR_INVALID_ARGUMENT, "hearth_credential_create_phone", "code must not be NULL");
  CHECK(hearth_oauth_provider_create(NULL) == NULL);
  CHECK_LAST_ERROR(HEARTH_ERROR_INVALID_ARGUMENT, "hearth_oauth_provider_create", "provider_id must not be NULL");
  CHECK(hearth_multi_factor_assertion_create_totp_sign_in("factor", NULL) == NULL);
  CHECK_LAST_ERROR(HEARTH_ERROR_INVALID_ARGUMENT, "hearth_multi_factor_assertion_create_totp_sign_in", "code");
  hearth_credential *email = hearth_credential_create_email("a@example.com", T_PASSWORD);
  CHECK(hearth_multi_factor_assertion_create_phone(email) == NULL);
  CHECK_LAST_ERROR(HEARTH_ERROR_INVALID_ARGUMENT, "hearth_multi_factor_assertion_create_phone", "not a phone credential");
  hearth_credential_release(email);
  CHECK(hearth_credential_retain(email) == NULL);
  CHECK_LAST_ERROR(HEARTH_ERROR_INVALID_HANDLE, "hearth_credential_retain", "not a live credential");
}

TEST(calls_returning_an_error_code_explain_it, BOTH_LOOPS) {
  hearth_app *app = t_app();
  hearth_auth *auth = hearth_auth_get(app);
  prime();
  CHECK_CODE(hearth_auth_use_emulator(auth, NULL, 9099), HEARTH_ERROR_INVALID_ARGUMENT);
  CHECK_LAST_ERROR(HEARTH_ERROR_INVALID_ARGUMENT, "hearth_auth_use_emulator", "host must not be NULL");
  CHECK_CODE(hearth_auth_use_emulator(auth, "127.0.0.1", 0), HEARTH_ERROR_INVALID_ARGUMENT);
  CHECK_LAST_ERROR(HEARTH_ERROR_INVALID_ARGUMENT, "hearth_auth_use_emulator", "port is 0");
  CHECK_CODE(hearth_auth_remove_auth_state_listener(auth, 12345), HEARTH_ERROR_INVALID_ARGUMENT);
  CHECK_LAST_ERROR(HEARTH_ERROR_INVALID_ARGUMENT, "hearth_auth_remove_auth_state_listener", "12345");
  CHECK_CODE(hearth_log_set_callback((hearth_log_level)7, NULL, NULL), HEARTH_ERROR_INVALID_ARGUMENT);
  CHECK_LAST_ERROR(HEARTH_ERROR_INVALID_ARGUMENT, "hearth_log_set_callback", "level 7");
  char out[4];
  CHECK_CODE(hearth_totp_code_generate("JBSWY3DPEHPK3PXP", NULL, 6, 30, 59, out, sizeof out), HEARTH_ERROR_INVALID_ARGUMENT);
  CHECK_LAST_ERROR(HEARTH_ERROR_INVALID_ARGUMENT, "hearth_totp_code_generate", "out_size is 4");
  CHECK_CODE(hearth_totp_code_generate("JBSWY3DPEHPK3PXP", "MD5", 6, 30, 59, out, 0), HEARTH_ERROR_INVALID_ARGUMENT);
  CHECK_CODE(hearth_totp_code_generate("JBSWY3DPEHPK3PXP", "MD5", 6, 30, 59, NULL, 8), HEARTH_ERROR_INVALID_ARGUMENT);
  CHECK_LAST_ERROR(HEARTH_ERROR_INVALID_ARGUMENT, "hearth_totp_code_generate", "out is NULL");
  CHECK(hearth_auth_last_result(auth, (hearth_operation)999) == NULL);
  CHECK_LAST_ERROR(HEARTH_ERROR_INVALID_ARGUMENT, "hearth_auth_last_result", "operation 999");
  CHECK(hearth_auth_add_id_token_listener(auth, NULL, NULL, NULL) == 0);
  CHECK_LAST_ERROR(HEARTH_ERROR_INVALID_ARGUMENT, "hearth_auth_add_id_token_listener", "callback is NULL");
  hearth_future *pending = t_keep_future(hearth_auth_sign_in_anonymously(auth));
  if (!t_host()) {
    /* A wait that times out is a failure of the call too. */
    int rc = hearth_future_wait(pending, 0);
    if (rc != 0) CHECK_LAST_ERROR(HEARTH_ERROR_TIMED_OUT, "hearth_future_wait", "0 ms");
  }
  t_await_ok(pending);
  t_app_destroy(app);
  CHECK(hearth_auth_sign_in_anonymously(auth) == NULL);
  CHECK_LAST_ERROR(HEARTH_ERROR_INVALID_HANDLE, "hearth_auth_sign_in_anonymously", "not a live Auth");
  CHECK_CODE(hearth_app_post(app, NULL, NULL), HEARTH_ERROR_INVALID_HANDLE);
  CHECK_LAST_ERROR(HEARTH_ERROR_INVALID_HANDLE, "hearth_app_post", "not a live app");
}

/* ------------------------------------------------------------------------------------------------
 * When it is kept, replaced, and whose it is
 * ---------------------------------------------------------------------------------------------- */
static void other_thread_reads(void *arg) {
  const char **seen = arg;
  seen[0] = t_strdup(hearth_last_error_message());
  seen[1] = t_printf("%d", (int)hearth_last_error_code());
  CHECK(hearth_credential_create_github(NULL) == NULL);
  seen[2] = t_strdup(hearth_last_error_message());
}

TEST(the_last_error_is_per_thread_kept_by_successes_and_replaced_by_the_next_failure, MODE_NONE) {
  prime();
  CHECK(hearth_credential_create_twitter(NULL, "s") == NULL);
  CHECK_LAST_ERROR(HEARTH_ERROR_INVALID_ARGUMENT, "hearth_credential_create_twitter", "token must not be NULL");
  /* Successes, and accessors even on invalid handles, leave it alone. */
  hearth_credential *credential = hearth_credential_create_github("token");
  CHECK(credential != NULL);
  CHECK_STR(hearth_credential_provider(credential), "github.com");
  hearth_credential_release(credential);
  CHECK(hearth_credential_provider(NULL) == NULL);
  CHECK_CODE(hearth_future_error(NULL), HEARTH_ERROR_INVALID_HANDLE);
  CHECK_INT(hearth_future_status(NULL), HEARTH_FUTURE_INVALID);
  CHECK(hearth_user_uid(NULL) == NULL);
  char raw[HEARTH_NONCE_SIZE], hex[HEARTH_SHA256_HEX_SIZE];
  CHECK_CODE(hearth_nonce_generate(raw, hex), 0);
  CHECK_LAST_ERROR(HEARTH_ERROR_INVALID_ARGUMENT, "hearth_credential_create_twitter", "token must not be NULL");
  /* The next failure replaces it. */
  CHECK(hearth_credential_create_twitter("t", NULL) == NULL);
  CHECK_LAST_ERROR(HEARTH_ERROR_INVALID_ARGUMENT, "hearth_credential_create_twitter", "secret must not be NULL");

  /* Another thread has its own: nothing failed there yet, then its own failure, not ours. */
  const char **seen = t_alloc(3 * sizeof *seen);
  t_thread *thread = t_spawn(other_thread_reads, seen);
  t_join(thread);
  CHECK_STR(seen[0], "");
  CHECK_STR(seen[1], "0");
  CHECK_CONTAINS(seen[2], "hearth_credential_create_github: token must not be NULL");
  CHECK_LAST_ERROR(HEARTH_ERROR_INVALID_ARGUMENT, "hearth_credential_create_twitter", "secret must not be NULL");
}

/* ------------------------------------------------------------------------------------------------
 * Futures and versions
 * ---------------------------------------------------------------------------------------------- */
TEST(an_invalid_future_answers_a_code_no_operation_fails_with, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  hearth_future *future = hearth_auth_sign_in_anonymously(auth);
  t_await_ok(future);
  hearth_future_release(future);
  CHECK_CODE(hearth_future_error(future), HEARTH_ERROR_INVALID_HANDLE);
  CHECK_CODE(hearth_future_error(NULL), HEARTH_ERROR_INVALID_HANDLE);
  /* -1 is HEARTH_ERROR_UNIMPLEMENTED, a real answer: an invalid handle must not look like it. */
  CHECK(hearth_future_error(NULL) != HEARTH_ERROR_UNIMPLEMENTED);
  CHECK_STR(hearth_error_name(hearth_future_error(NULL)), "HEARTH_ERROR_INVALID_HANDLE");
}

TEST(the_version_number_matches_the_header_and_the_string, MODE_NONE) {
  CHECK_INT(hearth_version_number(), HEARTH_VERSION_NUMBER);
  CHECK_INT(HEARTH_VERSION_NUMBER, HEARTH_VERSION_MAJOR * 10000 + HEARTH_VERSION_MINOR * 100 + HEARTH_VERSION_PATCH);
  char expected[32];
  snprintf(expected, sizeof expected, "%d.%d.%d", hearth_version_number() / 10000, hearth_version_number() / 100 % 100,
           hearth_version_number() % 100);
  CHECK_STR(hearth_version(), expected);
#if HEARTH_VERSION_NUMBER < 100
#error "HEARTH_VERSION_NUMBER must be usable in #if"
#endif
}
