/* Options structs are versioned by struct_size: a host compiled against an older header passes a smaller
 * struct and gets the defaults for the fields it lacks (Hearth never reads past struct_size); a struct_size
 * too small for the fields every version has is refused with an error, never a crash.
 *
 * Every struct here is followed by values Hearth would refuse, so reading past struct_size shows up as a
 * failure. Run against an emulator (FIREBASE_AUTH_EMULATOR_HOST) with XDG_DATA_HOME set to an empty
 * directory (tests/abi/test_abi.py does both). */
#define _POSIX_C_SOURCE 200809L

#include <hearth.h>

#include <dirent.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

#define WAIT_MS 15000

/* ------------------------------------------------------------------------------------------------
 * What a host compiled against an older hearth.h sees
 * ---------------------------------------------------------------------------------------------- */

/* hearth_app_options in the header that ended at `loop` (0.1's first fields). */
typedef struct older_app_options {
  uint32_t struct_size;
  const char *api_key;
  const char *project_id;
  const char *app_id;
  const char *auth_domain;
  const char *app_name;
  struct uv_loop_s *loop;
} older_app_options;
_Static_assert(offsetof(older_app_options, loop) == offsetof(hearth_app_options, loop),
               "older_app_options must be a prefix of hearth_app_options");
_Static_assert(sizeof(older_app_options) == offsetof(hearth_app_options, loop) + sizeof(void *),
               "older_app_options must end at loop");

/* hearth_provider_flow_options in a header that had only the UI delegate. */
typedef struct older_provider_flow_options {
  uint32_t struct_size;
  hearth_open_url_cb open_url;
  void *user_data;
} older_provider_flow_options;
_Static_assert(offsetof(older_provider_flow_options, user_data) == offsetof(hearth_provider_flow_options, user_data),
               "older_provider_flow_options must be a prefix of hearth_provider_flow_options");

/* hearth_provider_flow_options in the header before `release` (0.1: it ended at use_create_auth_uri). */
#define PROVIDER_FLOW_OPTIONS_BEFORE_RELEASE offsetof(hearth_provider_flow_options, release)

/* hearth_phone_listener in the header before `release` (0.1: it ended at user_data). */
typedef struct older_phone_listener {
  uint32_t struct_size;
  void (*on_code_sent)(void *user_data, const char *verification_id, const char *force_resending_token);
  void (*on_verification_failed)(void *user_data, hearth_error error, const char *message);
  void (*on_code_auto_retrieval_timeout)(void *user_data, const char *verification_id);
  void *user_data;
} older_phone_listener;
_Static_assert(sizeof(older_phone_listener) == offsetof(hearth_phone_listener, release),
               "older_phone_listener must end where release begins");

/* hearth_phone_auth_options in a header that had only the phone number. */
typedef struct older_phone_auth_options {
  uint32_t struct_size;
  const char *phone_number;
} older_phone_auth_options;
_Static_assert(offsetof(older_phone_auth_options, phone_number) == offsetof(hearth_phone_auth_options, phone_number),
               "older_phone_auth_options must be a prefix of hearth_phone_auth_options");

/* Fields past an older struct hold values Hearth refuses; struct_size says whether it may see them. */
static hearth_app_options app_options_with_refused_tail(uint32_t struct_size) {
  hearth_app_options options;
  hearth_app_options_init(&options);
  older_app_options older = {sizeof(older_app_options), "abi-test-api-key", NULL, NULL, NULL, NULL, NULL};
  memcpy(&options, &older, sizeof older);
  options.persistence = 77;             /* no such persistence */
  options.persistence_dir = "\xff\xfe"; /* not UTF-8 */
  options.request_timeout_ms = -1;      /* negative */
  options.ca_bundle_path = "\xff";      /* not UTF-8 */
  options.struct_size = struct_size;
  return options;
}

static hearth_app *create_or_null(const hearth_app_options *options, int expected_code) {
  hearth_app *app = (hearth_app *)(uintptr_t)0x1;
  int rc = hearth_app_create(options, &app);
  CHECK_INT(rc, expected_code);
  if (rc != 0) {
    CHECK(app == NULL);
    return NULL;
  }
  return app;
}

/* A current app kept in memory only, for the tests of the other options structs. */
static hearth_app *memory_app(void) {
  hearth_app_options options;
  hearth_app_options_init(&options);
  options.api_key = "abi-test-api-key";
  options.persistence = HEARTH_PERSISTENCE_NONE;
  hearth_app *app = NULL;
  REQUIRE(hearth_app_create(&options, &app) == 0 && app != NULL);
  return app;
}

/* Waits for a future and returns its error code (-1 if it did not complete in time). */
static int outcome(hearth_future *future) {
  REQUIRE(future != NULL);
  if (hearth_future_wait(future, WAIT_MS) != 0) return -1;
  return hearth_future_error(future);
}

static int count_files(const char *directory) {
  DIR *dir = opendir(directory);
  if (!dir) return 0;
  int count = 0;
  for (struct dirent *entry; (entry = readdir(dir)) != NULL;)
    if (entry->d_name[0] != '.') count++;
  closedir(dir);
  return count;
}

static const char *unique_phone_number(void) {
  static char number[32];
  snprintf(number, sizeof number, "+1650%03d%04d", (int)(getpid() % 1000), (int)(time(NULL) % 10000));
  return number;
}

static int open_nothing(void *user_data, const char *url) {
  (void)user_data;
  (void)url;
  return 1;
}

/* ------------------------------------------------------------------------------------------------
 * hearth_app_options
 * ---------------------------------------------------------------------------------------------- */

static void the_refused_tail_is_refused_when_struct_size_covers_it(void) {
  /* The control for the next test: these values do fail when Hearth may read them. */
  hearth_app_options options = app_options_with_refused_tail(sizeof(hearth_app_options));
  create_or_null(&options, HEARTH_ERROR_INVALID_ARGUMENT);
}

static void app_options_from_an_older_header_get_the_defaults_for_the_fields_they_lack(void) {
  const char *data_home = getenv("XDG_DATA_HOME");
  REQUIRE(data_home != NULL && *data_home != '\0');
  REQUIRE(getenv("FIREBASE_AUTH_EMULATOR_HOST") != NULL);
  hearth_app_options options = app_options_with_refused_tail(sizeof(older_app_options));
  hearth_app *app = create_or_null(&options, 0);
  REQUIRE(app != NULL);
  CHECK_STR(hearth_app_name(app), "[DEFAULT]");
  hearth_auth *auth = hearth_auth_get(app);
  hearth_future *future = hearth_auth_sign_in_anonymously(auth);
  CHECK_INT(outcome(future), 0);
  hearth_future_release(future);
  /* The default persistence: a session file under $XDG_DATA_HOME/hearth. */
  char directory[4096];
  snprintf(directory, sizeof directory, "%s/hearth", data_home);
  CHECK_INT(count_files(directory), 1);
  CHECK_INT(hearth_auth_sign_out(auth), 0);
  CHECK_INT(count_files(directory), 0);
  hearth_app_destroy(app);
}

static void app_options_that_end_before_loop_are_refused(void) {
  uint32_t minimum = (uint32_t)sizeof(older_app_options);
  hearth_app_options options = app_options_with_refused_tail(minimum - 1);
  create_or_null(&options, HEARTH_ERROR_INVALID_ARGUMENT);
  options.struct_size = (uint32_t)offsetof(hearth_app_options, app_name);
  create_or_null(&options, HEARTH_ERROR_INVALID_ARGUMENT);
  options.struct_size = 0;
  create_or_null(&options, HEARTH_ERROR_INVALID_ARGUMENT);
  /* The smallest struct every version accepts. */
  options.struct_size = minimum;
  hearth_app *app = create_or_null(&options, 0);
  if (app) hearth_app_destroy(app);
}

/* ------------------------------------------------------------------------------------------------
 * hearth_provider_flow_options
 * ---------------------------------------------------------------------------------------------- */

static hearth_provider_flow_options flow_options_with_refused_tail(uint32_t struct_size) {
  hearth_provider_flow_options options;
  hearth_provider_flow_options_init(&options);
  older_provider_flow_options older = {sizeof(older_provider_flow_options), open_nothing, NULL};
  memcpy(&options, &older, sizeof older);
  options.redirect_uri = ""; /* refused: empty */
  options.timeout_ms = -1;   /* refused: negative */
  options.struct_size = struct_size;
  return options;
}

static void provider_flow_options_from_an_older_header_are_read_up_to_their_size(void) {
  hearth_app *app = memory_app();
  hearth_auth *auth = hearth_auth_get(app);
  hearth_provider_flow_options options = flow_options_with_refused_tail(sizeof(hearth_provider_flow_options));
  CHECK_INT(hearth_auth_set_provider_flow_options(auth, &options), HEARTH_ERROR_INVALID_ARGUMENT);
  options = flow_options_with_refused_tail(sizeof(older_provider_flow_options));
  CHECK_INT(hearth_auth_set_provider_flow_options(auth, &options), 0);
  hearth_app_destroy(app);
}

static atomic_int flow_releases;
static void count_flow_release(void *user_data) {
  (void)user_data;
  atomic_fetch_add(&flow_releases, 1);
}

/* A host built before `release` existed: whatever lies past its struct is never called. */
static void provider_flow_options_before_release_are_never_released(void) {
  hearth_app *app = memory_app();
  hearth_provider_flow_options options;
  hearth_provider_flow_options_init(&options);
  options.open_url = open_nothing;
  options.release = count_flow_release; /* past the older struct: must not be read */
  options.struct_size = (uint32_t)PROVIDER_FLOW_OPTIONS_BEFORE_RELEASE;
  CHECK_INT(hearth_auth_set_provider_flow_options(hearth_auth_get(app), &options), 0);
  options.struct_size = (uint32_t)PROVIDER_FLOW_OPTIONS_BEFORE_RELEASE;
  CHECK_INT(hearth_auth_set_provider_flow_options(hearth_auth_get(app), &options), 0); /* replaces the first */
  hearth_app_destroy(app);
  CHECK_INT(atomic_load(&flow_releases), 0);
  /* The current struct: released once, when the app goes. */
  app = memory_app();
  options.struct_size = sizeof options;
  CHECK_INT(hearth_auth_set_provider_flow_options(hearth_auth_get(app), &options), 0);
  CHECK_INT(atomic_load(&flow_releases), 0);
  hearth_app_destroy(app);
  CHECK_INT(atomic_load(&flow_releases), 1);
}

static void provider_flow_options_too_small_for_the_ui_delegate_are_refused(void) {
  hearth_app *app = memory_app();
  hearth_auth *auth = hearth_auth_get(app);
  const uint32_t too_small[] = {
      0,
      (uint32_t)sizeof(uint32_t),
      (uint32_t)offsetof(hearth_provider_flow_options, open_url),
      (uint32_t)(offsetof(hearth_provider_flow_options, open_url) + sizeof(hearth_open_url_cb) - 1),
  };
  for (size_t i = 0; i < sizeof too_small / sizeof too_small[0]; i++) {
    hearth_provider_flow_options options = flow_options_with_refused_tail(too_small[i]);
    int rc = hearth_auth_set_provider_flow_options(auth, &options);
    if (rc != HEARTH_ERROR_INVALID_ARGUMENT) fprintf(stderr, "struct_size %u:\n", (unsigned)too_small[i]);
    CHECK_INT(rc, HEARTH_ERROR_INVALID_ARGUMENT);
  }
  /* None took effect: a provider sign-in still has no flow options. */
  hearth_oauth_provider *provider = hearth_oauth_provider_create("twitter.com");
  hearth_future *future = hearth_auth_sign_in_with_provider(auth, provider);
  CHECK_INT(outcome(future), HEARTH_ERROR_INVALID_ARGUMENT);
  hearth_future_release(future);
  hearth_oauth_provider_release(provider);
  hearth_app_destroy(app);
}

/* ------------------------------------------------------------------------------------------------
 * hearth_phone_auth_options and hearth_phone_listener
 * ---------------------------------------------------------------------------------------------- */

static hearth_phone_auth_options phone_options_with_refused_tail(uint32_t struct_size, const char *number) {
  hearth_phone_auth_options options;
  hearth_phone_auth_options_init(&options);
  older_phone_auth_options older = {sizeof(older_phone_auth_options), number};
  memcpy(&options, &older, sizeof older);
  options.timeout_ms = -1;                 /* refused: negative */
  options.force_resending_token = "\xff"; /* refused: not UTF-8 */
  options.struct_size = struct_size;
  return options;
}

static atomic_int listener_calls;
static void on_code_sent(void *user_data, const char *verification_id, const char *token) {
  (void)user_data, (void)verification_id, (void)token;
  atomic_fetch_add(&listener_calls, 1);
}
static void on_verification_failed(void *user_data, hearth_error error, const char *message) {
  (void)user_data, (void)error, (void)message;
  atomic_fetch_add(&listener_calls, 1);
}
static void on_timeout(void *user_data, const char *verification_id) {
  (void)user_data, (void)verification_id;
  atomic_fetch_add(&listener_calls, 1);
}

static void phone_options_from_an_older_header_are_read_up_to_their_size(void) {
  REQUIRE(getenv("FIREBASE_AUTH_EMULATOR_HOST") != NULL);
  hearth_app *app = memory_app();
  hearth_auth *auth = hearth_auth_get(app);
  const char *number = unique_phone_number();
  hearth_phone_auth_options options = phone_options_with_refused_tail(sizeof(hearth_phone_auth_options), number);
  hearth_future *future = hearth_auth_verify_phone_number(auth, &options);
  CHECK_INT(outcome(future), HEARTH_ERROR_INVALID_ARGUMENT);
  hearth_future_release(future);
  options = phone_options_with_refused_tail(sizeof(older_phone_auth_options), number);
  future = hearth_auth_verify_phone_number(auth, &options);
  CHECK_INT(outcome(future), 0);
  const char *verification_id = hearth_future_string(future);
  CHECK(verification_id != NULL && *verification_id != '\0');
  hearth_future_release(future);
  hearth_app_destroy(app);
}

static atomic_int phone_releases;
static void count_phone_release(void *user_data) {
  (void)user_data;
  atomic_fetch_add(&phone_releases, 1);
}

/* A listener of the header before `release`: its callbacks run, and what lies past it is never called. */
static void a_phone_listener_from_before_release_works_and_is_never_released(void) {
  REQUIRE(getenv("FIREBASE_AUTH_EMULATOR_HOST") != NULL);
  hearth_app *app = memory_app();
  hearth_auth *auth = hearth_auth_get(app);
  hearth_phone_auth_options options;
  hearth_phone_auth_options_init(&options);
  options.phone_number = unique_phone_number();
  hearth_phone_listener listener;
  memset(&listener, 0, sizeof listener);
  older_phone_listener older = {sizeof(older_phone_listener), on_code_sent, on_verification_failed, on_timeout, NULL};
  memcpy(&listener, &older, sizeof older);
  listener.release = count_phone_release; /* past struct_size */
  int before = atomic_load(&listener_calls);
  CHECK_INT(hearth_auth_verify_phone_number_with_listener(auth, &options, &listener), 0);
  for (int i = 0; i < 1000 && atomic_load(&listener_calls) == before; i++) {
    struct timespec pause = {0, 5 * 1000 * 1000};
    nanosleep(&pause, NULL);
  }
  CHECK_INT(atomic_load(&listener_calls), before + 1); /* on_code_sent */
  hearth_app_destroy(app);
  CHECK_INT(atomic_load(&phone_releases), 0);
  /* The current struct: released once, by the destroy (the timeout was still to come). */
  app = memory_app();
  auth = hearth_auth_get(app);
  options.phone_number = unique_phone_number();
  listener.struct_size = sizeof listener;
  before = atomic_load(&listener_calls);
  CHECK_INT(hearth_auth_verify_phone_number_with_listener(auth, &options, &listener), 0);
  for (int i = 0; i < 1000 && atomic_load(&listener_calls) == before; i++) {
    struct timespec pause = {0, 5 * 1000 * 1000};
    nanosleep(&pause, NULL);
  }
  hearth_app_destroy(app);
  CHECK_INT(atomic_load(&phone_releases), 1);
}

static void phone_options_too_small_for_the_phone_number_are_refused(void) {
  hearth_app *app = memory_app();
  hearth_auth *auth = hearth_auth_get(app);
  hearth_phone_listener listener = {sizeof(hearth_phone_listener), on_code_sent, on_verification_failed, on_timeout,
                                    NULL, NULL};
  const uint32_t too_small[] = {0, (uint32_t)sizeof(uint32_t),
                                (uint32_t)offsetof(hearth_phone_auth_options, phone_number)};
  for (size_t i = 0; i < sizeof too_small / sizeof too_small[0]; i++) {
    hearth_phone_auth_options options = phone_options_with_refused_tail(too_small[i], "+16505550100");
    hearth_future *future = hearth_auth_verify_phone_number(auth, &options);
    CHECK_INT(outcome(future), HEARTH_ERROR_INVALID_ARGUMENT);
    const char *message = hearth_future_error_message(future);
    CHECK(message != NULL && strstr(message, "struct_size") != NULL);
    hearth_future_release(future);
    CHECK_INT(hearth_auth_verify_phone_number_with_listener(auth, &options, &listener), HEARTH_ERROR_INVALID_ARGUMENT);
  }
  /* A listener struct smaller than the callbacks it must hold. */
  hearth_phone_auth_options options;
  hearth_phone_auth_options_init(&options);
  options.phone_number = "+16505550100";
  listener.struct_size = (uint32_t)offsetof(hearth_phone_listener, user_data);
  CHECK_INT(hearth_auth_verify_phone_number_with_listener(auth, &options, &listener), HEARTH_ERROR_INVALID_ARGUMENT);
  listener.struct_size = 0;
  CHECK_INT(hearth_auth_verify_phone_number_with_listener(auth, &options, &listener), HEARTH_ERROR_INVALID_ARGUMENT);
  /* No callback runs for a refused call; give a stray one time to show up. */
  struct timespec pause = {0, 200 * 1000 * 1000};
  nanosleep(&pause, NULL);
  CHECK_INT(atomic_load(&listener_calls), 0);
  hearth_app_destroy(app);
}

/* ------------------------------------------------------------------------------------------------
 * hearth_action_code_settings
 * ---------------------------------------------------------------------------------------------- */

/* The first hearth_action_code_settings ended... at the end: every field is in every version so far. A
 * host struct covering only `url` stands for one built against a header that may grow; what lies past
 * its struct_size must not be read. */
#define ACTION_CODE_SETTINGS_URL_ONLY (offsetof(hearth_action_code_settings, url) + sizeof(const char *))

static hearth_action_code_settings settings_with_refused_tail(uint32_t struct_size) {
  hearth_action_code_settings settings;
  hearth_action_code_settings_init(&settings);
  settings.url = "https://app.example.com/finish";
  settings.link_domain = ""; /* refused: empty */
  settings.struct_size = struct_size;
  return settings;
}

static void action_code_settings_are_read_up_to_their_size(void) {
  REQUIRE(getenv("FIREBASE_AUTH_EMULATOR_HOST") != NULL);
  hearth_app *app = memory_app();
  hearth_auth *auth = hearth_auth_get(app);
  char email[96];
  snprintf(email, sizeof email, "abi-settings-%ld-%d@example.com", (long)time(NULL), (int)getpid());
  hearth_future *created = hearth_auth_create_user_with_email_and_password(auth, email, "abi-password-1");
  REQUIRE(outcome(created) == 0);
  hearth_future_release(created);
  /* The control: the tail is refused when the struct covers it. */
  hearth_action_code_settings settings = settings_with_refused_tail(sizeof(hearth_action_code_settings));
  hearth_future *future = hearth_auth_send_password_reset_email(auth, email, &settings);
  CHECK_INT(outcome(future), HEARTH_ERROR_INVALID_LINK_DOMAIN);
  hearth_future_release(future);
  settings = settings_with_refused_tail((uint32_t)ACTION_CODE_SETTINGS_URL_ONLY);
  future = hearth_auth_send_password_reset_email(auth, email, &settings);
  CHECK_INT(outcome(future), 0);
  hearth_future_release(future);
  /* handle_code_in_app past the struct reads as 0: a sign-in link is then refused, as Firebase refuses it. */
  settings = settings_with_refused_tail((uint32_t)ACTION_CODE_SETTINGS_URL_ONLY);
  settings.handle_code_in_app = 1;
  future = hearth_auth_send_sign_in_link_to_email(auth, email, &settings);
  CHECK_INT(outcome(future), HEARTH_ERROR_INVALID_ARGUMENT);
  const char *message = hearth_future_error_message(future);
  CHECK(message != NULL && strstr(message, "handle_code_in_app") != NULL);
  hearth_future_release(future);
  hearth_app_destroy(app);
}

static void action_code_settings_too_small_for_the_url_are_refused(void) {
  hearth_app *app = memory_app();
  hearth_auth *auth = hearth_auth_get(app);
  const uint32_t too_small[] = {0, (uint32_t)sizeof(uint32_t), (uint32_t)offsetof(hearth_action_code_settings, url),
                                (uint32_t)ACTION_CODE_SETTINGS_URL_ONLY - 1};
  for (size_t i = 0; i < sizeof too_small / sizeof too_small[0]; i++) {
    hearth_action_code_settings settings = settings_with_refused_tail(too_small[i]);
    settings.handle_code_in_app = 1;
    hearth_future *future = hearth_auth_send_sign_in_link_to_email(auth, "abi@example.com", &settings);
    CHECK_INT(outcome(future), HEARTH_ERROR_INVALID_ARGUMENT);
    const char *message = hearth_future_error_message(future);
    CHECK(message != NULL && strstr(message, "struct_size") != NULL);
    hearth_future_release(future);
    future = hearth_auth_send_password_reset_email(auth, "abi@example.com", &settings);
    CHECK_INT(outcome(future), HEARTH_ERROR_INVALID_ARGUMENT);
    hearth_future_release(future);
  }
  hearth_app_destroy(app);
}

int main(int argc, char **argv) {
  static const check_test tests[] = {
      TEST_ENTRY(the_refused_tail_is_refused_when_struct_size_covers_it),
      TEST_ENTRY(app_options_from_an_older_header_get_the_defaults_for_the_fields_they_lack),
      TEST_ENTRY(app_options_that_end_before_loop_are_refused),
      TEST_ENTRY(provider_flow_options_from_an_older_header_are_read_up_to_their_size),
      TEST_ENTRY(provider_flow_options_too_small_for_the_ui_delegate_are_refused),
      TEST_ENTRY(provider_flow_options_before_release_are_never_released),
      TEST_ENTRY(phone_options_from_an_older_header_are_read_up_to_their_size),
      TEST_ENTRY(phone_options_too_small_for_the_phone_number_are_refused),
      TEST_ENTRY(a_phone_listener_from_before_release_works_and_is_never_released),
      TEST_ENTRY(action_code_settings_are_read_up_to_their_size),
      TEST_ENTRY(action_code_settings_too_small_for_the_url_are_refused),
  };
  return check_main(tests, sizeof tests / sizeof tests[0], argc, argv);
}
