/* hearth_log_set_callback: off by default, levels, what the messages say and what they never say
 * (passwords, tokens, codes, the API key), and the callback's lifetime across threads. */
#include "test.h"

#include <fcntl.h>
#include <time.h>
#include <unistd.h>

/* ------------------------------------------------------------------------------------------------
 * A recorder: every message the callback hears, in order
 * ---------------------------------------------------------------------------------------------- */
#define MAX_RECORDS 4096

typedef struct log_recorder {
  pthread_mutex_t lock;
  int count;
  int levels[MAX_RECORDS];
  char *messages[MAX_RECORDS];
  atomic_int calls;
} log_recorder;

static void record(void *user_data, hearth_log_level level, const char *message) {
  log_recorder *r = user_data;
  atomic_fetch_add(&r->calls, 1);
  pthread_mutex_lock(&r->lock);
  if (r->count < MAX_RECORDS) {
    r->levels[r->count] = level;
    r->messages[r->count] = strdup(message ? message : "(NULL)");
    r->count++;
  }
  pthread_mutex_unlock(&r->lock);
}

static void recorder_free(void *arg) {
  /* Logging off first: after that returns, no callback touches the recorder. */
  hearth_log_set_callback(HEARTH_LOG_OFF, NULL, NULL);
  log_recorder *r = arg;
  for (int i = 0; i < r->count; i++) free(r->messages[i]);
  pthread_mutex_destroy(&r->lock);
  free(r);
}

/* Installs a recorder at `level` for the rest of the test. */
static log_recorder *listen_at(int level) {
  log_recorder *r = calloc(1, sizeof *r);
  REQUIRE(r != NULL);
  pthread_mutex_init(&r->lock, NULL);
  t_defer(recorder_free, r);
  REQUIRE_CODE(hearth_log_set_callback(level, record, r), 0);
  return r;
}

static int recorded(log_recorder *r) {
  pthread_mutex_lock(&r->lock);
  int count = r->count;
  pthread_mutex_unlock(&r->lock);
  return count;
}

/* The index of the first message at `level` containing every needle (NULL-terminated), or -1. */
static int find_message(log_recorder *r, int level, const char *const *needles) {
  pthread_mutex_lock(&r->lock);
  int found = -1;
  for (int i = 0; i < r->count && found < 0; i++) {
    if (r->levels[i] != level) continue;
    bool all = true;
    for (const char *const *n = needles; *n && all; n++) all = strstr(r->messages[i], *n) != NULL;
    if (all) found = i;
  }
  pthread_mutex_unlock(&r->lock);
  return found;
}
#define FIND(r, level, ...) find_message((r), (level), (const char *const[]){__VA_ARGS__, NULL})

static void fail_with_transcript(log_recorder *r, const char *file, int line, const char *what) {
  pthread_mutex_lock(&r->lock);
  size_t size = 1;
  for (int i = 0; i < r->count; i++) size += strlen(r->messages[i]) + 8;
  char *transcript = t_alloc(size);
  for (int i = 0; i < r->count; i++) {
    strcat(transcript, "\n  ");
    char prefix[8];
    snprintf(prefix, sizeof prefix, "%d ", r->levels[i]);
    strcat(transcript, prefix);
    strcat(transcript, r->messages[i]);
  }
  pthread_mutex_unlock(&r->lock);
  t_fail(file, line, "%s; the log was:%s", what, transcript);
}
#define CHECK_LOGGED(r, level, ...)                                                                  \
  do {                                                                                               \
    if (FIND((r), (level), __VA_ARGS__) < 0)                                                         \
      fail_with_transcript((r), __FILE__, __LINE__, "no " #level " message with " #__VA_ARGS__);     \
  } while (0)

/* Fails when any recorded message contains `secret`. */
static void check_never_logged(log_recorder *r, const char *secret, const char *what, const char *file, int line) {
  if (!secret || !*secret) {
    t_fail(file, line, "the test has no %s to look for", what);
    return;
  }
  pthread_mutex_lock(&r->lock);
  for (int i = 0; i < r->count; i++) {
    if (strstr(r->messages[i], secret)) t_fail(file, line, "the %s was logged: %s", what, r->messages[i]);
  }
  pthread_mutex_unlock(&r->lock);
}
#define CHECK_NEVER_LOGGED(r, secret, what) check_never_logged((r), (secret), (what), __FILE__, __LINE__)

/* ------------------------------------------------------------------------------------------------
 * Off by default
 * ---------------------------------------------------------------------------------------------- */

/* Redirects stdout and stderr into a file while `fn` runs; returns what was written. */
static char *output_of(void (*fn)(void)) {
  char path[] = "/tmp/hearth-log-test-XXXXXX";
  int file = mkstemp(path);
  REQUIRE(file >= 0);
  unlink(path);
  fflush(stdout);
  fflush(stderr);
  int saved_out = dup(1), saved_err = dup(2);
  dup2(file, 1);
  dup2(file, 2);
  fn();
  fflush(stdout);
  fflush(stderr);
  dup2(saved_out, 1);
  dup2(saved_err, 2);
  close(saved_out);
  close(saved_err);
  off_t size = lseek(file, 0, SEEK_END);
  char *text = t_alloc((size_t)size + 1);
  if (size > 0 && pread(file, text, (size_t)size, 0) != size) text[0] = '\0';
  close(file);
  return text;
}

static void a_busy_session(void) {
  hearth_app *app = t_app();
  hearth_auth *auth = hearth_auth_get(app);
  const char *email = t_email("quiet");
  t_create_user(auth, email, T_PASSWORD);
  hearth_future *f = t_keep_future(hearth_auth_sign_in_with_email_and_password(auth, email, "not-the-password-9"));
  t_await(f);
  hearth_auth_sign_out(auth);
  t_app_destroy(app);
}

TEST(without_a_log_callback_hearth_writes_nothing_to_stdout_or_stderr, BOTH_LOOPS) {
  REQUIRE_CODE(hearth_log_set_callback(HEARTH_LOG_OFF, NULL, NULL), 0);
  char *output = output_of(a_busy_session);
  CHECK_STR(output, "");
}

/* ------------------------------------------------------------------------------------------------
 * What the log says
 * ---------------------------------------------------------------------------------------------- */

TEST(at_debug_the_log_tells_requests_operations_and_sign_in_changes, BOTH_LOOPS) {
  log_recorder *r = listen_at(HEARTH_LOG_DEBUG);
  hearth_app *app = t_app();
  const char *name = t_printf("[%s] ", hearth_app_name(app));
  hearth_auth *auth = hearth_auth_get(app);
  const char *email = t_email("talkative");
  hearth_user *user = t_create_user(auth, email, T_PASSWORD);
  const char *uid = t_strdup(hearth_user_uid(user));
  CHECK_CODE(t_await(t_keep_future(hearth_auth_sign_in_with_email_and_password(auth, email, "wrong-password-1"))),
             HEARTH_ERROR_WRONG_PASSWORD);
  CHECK_CODE(hearth_auth_sign_out(auth), 0);
  t_app_destroy(app);

  CHECK_LOGGED(r, HEARTH_LOG_INFO, name, "app created");
  CHECK_LOGGED(r, HEARTH_LOG_DEBUG, name, "createUserWithEmailAndPassword started");
  CHECK_LOGGED(r, HEARTH_LOG_INFO, name, "createUserWithEmailAndPassword succeeded");
  CHECK_LOGGED(r, HEARTH_LOG_DEBUG, "POST http://",
               "/identitytoolkit.googleapis.com/v1/accounts:signUp?key=<redacted>: HTTP 200 in ");
  CHECK_LOGGED(r, HEARTH_LOG_INFO, name, t_printf("signed in as %s", uid));
  CHECK_LOGGED(r, HEARTH_LOG_DEBUG,
               "accounts:signInWithPassword?key=<redacted>: HTTP 400, HEARTH_ERROR_WRONG_PASSWORD (INVALID_PASSWORD)");
  CHECK_LOGGED(r, HEARTH_LOG_WARNING, name, "signInWithEmailAndPassword failed: HEARTH_ERROR_WRONG_PASSWORD: ");
  CHECK_LOGGED(r, HEARTH_LOG_INFO, name, "signed out");
  CHECK_LOGGED(r, HEARTH_LOG_INFO, name, "app destroyed");
}

TEST(operations_refused_before_any_request_are_logged_as_warnings, MODE_OWNED) {
  log_recorder *r = listen_at(HEARTH_LOG_WARNING);
  hearth_app *app = t_app();
  hearth_auth *auth = hearth_auth_get(app);
  CHECK_CODE(t_await(t_keep_future(hearth_auth_sign_in_with_email_and_password(auth, NULL, "x"))),
             HEARTH_ERROR_INVALID_ARGUMENT);
  CHECK_LOGGED(r, HEARTH_LOG_WARNING, "signInWithEmailAndPassword refused: HEARTH_ERROR_INVALID_ARGUMENT: email");
}

TEST(every_message_is_one_line_of_utf8, MODE_OWNED) {
  log_recorder *r = listen_at(HEARTH_LOG_DEBUG);
  hearth_app *app = t_app();
  hearth_auth *auth = hearth_auth_get(app);
  t_sign_in_anonymously(auth);
  t_await(t_keep_future(hearth_auth_sign_in_with_email_and_password(auth, "nobody@example.com", "pw-123456")));
  t_app_destroy(app);
  REQUIRE(recorded(r) > 0);
  for (int i = 0; i < recorded(r); i++) {
    const char *m = r->messages[i];
    CHECK(*m != '\0');
    CHECK(strchr(m, '\n') == NULL && strchr(m, '\r') == NULL);
    CHECK(r->levels[i] >= HEARTH_LOG_DEBUG && r->levels[i] <= HEARTH_LOG_ERROR);
    /* A Hearth function that refuses invalid UTF-8 accepts the message as an email. */
    hearth_credential *c = hearth_credential_create_email(m, "x");
    CHECK(c != NULL);
    hearth_credential_release(c);
  }
}

TEST(log_messages_never_contain_passwords_tokens_codes_or_the_api_key, MODE_OWNED) {
  log_recorder *r = listen_at(HEARTH_LOG_DEBUG);
  hearth_app *app = t_app();
  hearth_auth *auth = hearth_auth_get(app);
  const char *password = "Very-Secret-Password-77";
  const char *wrong_password = "Wrong-Secret-Password-78";
  const char *email = t_email("secretive");
  hearth_user *user = t_create_user(auth, email, password);
  const char *id_token = t_token(user, 1); /* a refresh: the refresh token travels too */
  CHECK_CODE(t_await(t_keep_future(hearth_auth_sign_in_with_email_and_password(auth, email, wrong_password))),
             HEARTH_ERROR_WRONG_PASSWORD);
  t_await_ok(t_keep_future(hearth_auth_send_password_reset_email(auth, email, NULL)));
  const json *oob = emu_oob_code(email, "PASSWORD_RESET");
  REQUIRE(oob != NULL);
  const char *oob_code = json_get_string(oob, "oobCode");
  CHECK_CODE(hearth_auth_sign_out(auth), 0);

  const char *verification_id = t_send_code(auth, t_phone_number());
  const char *sms_code = emu_sms_code(verification_id);
  hearth_credential *phone = t_keep_credential(hearth_credential_create_phone(verification_id, sms_code));
  t_await_ok(t_keep_future(hearth_auth_sign_in_with_credential(auth, phone)));
  t_app_destroy(app);

  REQUIRE(recorded(r) > 10);
  CHECK_NEVER_LOGGED(r, password, "password");
  CHECK_NEVER_LOGGED(r, wrong_password, "wrong password");
  CHECK_NEVER_LOGGED(r, id_token, "ID token");
  CHECK_NEVER_LOGGED(r, TEST_API_KEY, "API key");
  CHECK_NEVER_LOGGED(r, oob_code, "password reset code");
  CHECK_NEVER_LOGGED(r, verification_id, "verification id");
  CHECK_NEVER_LOGGED(r, t_printf("%s\"", sms_code), "SMS code"); /* as it would appear in a body */
  CHECK_NEVER_LOGGED(r, t_printf("code=%s", sms_code), "SMS code");
  CHECK_NEVER_LOGGED(r, t_printf(" %s", sms_code), "SMS code");
}

/* ------------------------------------------------------------------------------------------------
 * Every secret of a whole session, at the most verbose level
 * ---------------------------------------------------------------------------------------------- */

#define MAX_SECRETS 128

/* Secrets as the test meets them: what each is, and its text. The storage callbacks add the refresh
 * tokens of every saved session, from the loop thread. */
typedef struct secret_list {
  pthread_mutex_t lock;
  int count;
  const char *what[MAX_SECRETS];
  const char *value[MAX_SECRETS];
  int saves;
} secret_list;

static void keep_secret(secret_list *s, const char *what, const char *value) {
  if (!value || !*value) {
    t_fail(__FILE__, __LINE__, "the test has no %s to look for", what);
    return;
  }
  pthread_mutex_lock(&s->lock);
  if (s->count < MAX_SECRETS) {
    s->what[s->count] = what;
    s->value[s->count] = t_strdup(value);
    s->count++;
  }
  pthread_mutex_unlock(&s->lock);
}

static void secret_list_free(void *arg) {
  secret_list *s = arg;
  pthread_mutex_destroy(&s->lock);
}

static int session_load(void *user_data, const char *key, hearth_storage_reply *reply) {
  (void)user_data, (void)key, (void)reply;
  return 0; /* nothing stored: start signed out */
}

/* Every session Hearth saves carries the refresh token of that moment (rotated ones included). */
static int session_save(void *user_data, const char *key, const char *data, size_t length) {
  (void)key;
  secret_list *s = user_data;
  char *text = strndup(data, length);
  const char *field = "\"refreshToken\":\"";
  const char *start = text ? strstr(text, field) : NULL;
  if (start) {
    start += strlen(field);
    const char *end = strchr(start, '"');
    if (end) keep_secret(s, "refresh token", t_printf("%.*s", (int)(end - start), start));
  }
  pthread_mutex_lock(&s->lock);
  s->saves++;
  pthread_mutex_unlock(&s->lock);
  free(text);
  return 0;
}

static int session_erase(void *user_data, const char *key) {
  (void)user_data, (void)key;
  return 0;
}

static const char *id_token_now(secret_list *s, hearth_auth *auth, int force_refresh) {
  const char *token = t_token(t_current_user(auth), force_refresh);
  keep_secret(s, "ID token", token);
  return token;
}

static const char *totp_code(const char *key) {
  char code[16];
  REQUIRE_CODE(hearth_totp_code_generate(key, "SHA1", 6, 30, (int64_t)time(NULL), code, sizeof code), 0);
  return t_strdup(code);
}

/* A short code (SMS, TOTP) is only looked for where it would stand as a value: quoted, after '=', or as
 * a word; six digits alone also occur in durations. */
static void check_code_never_logged(log_recorder *r, const char *code, const char *what, const char *file, int line) {
  check_never_logged(r, t_printf("%s\"", code), what, file, line);
  check_never_logged(r, t_printf("=%s", code), what, file, line);
  check_never_logged(r, t_printf(" %s", code), what, file, line);
}

TEST(a_whole_session_at_debug_logs_no_token_password_code_secret_or_key, MODE_OWNED) {
  log_recorder *r = listen_at(HEARTH_LOG_DEBUG);
  secret_list *s = t_alloc(sizeof *s);
  pthread_mutex_init(&s->lock, NULL);
  t_defer(secret_list_free, s);
  const char *codes[8];
  const char *code_names[8];
  int code_count = 0;

  hearth_app_options options;
  t_options(&options);
  options.persistence = HEARTH_PERSISTENCE_CALLBACKS;
  options.storage_load = session_load;
  options.storage_save = session_save;
  options.storage_erase = session_erase;
  options.storage_user_data = s;
  hearth_app *app = t_app_create(&options);
  hearth_auth *auth = hearth_auth_get(app);
  keep_secret(s, "API key", TEST_API_KEY);

  /* Sign-up, sign-in with a password (and a wrong one), a forced token refresh. */
  const char *password = "Sign-Up-Secret-Password-41";
  const char *wrong_password = "Wrong-Secret-Password-42";
  const char *email = t_email("secrets");
  keep_secret(s, "password", password);
  keep_secret(s, "wrong password", wrong_password);
  t_create_user(auth, email, password);
  id_token_now(s, auth, 0);
  CHECK_CODE(hearth_auth_sign_out(auth), 0);
  CHECK_CODE(t_await(t_keep_future(hearth_auth_sign_in_with_email_and_password(auth, email, wrong_password))),
             HEARTH_ERROR_WRONG_PASSWORD);
  t_await_ok(t_keep_future(hearth_auth_sign_in_with_email_and_password(auth, email, password)));
  id_token_now(s, auth, 0);
  id_token_now(s, auth, 1);

  /* A new password, and an email verification (the server keeps the code; it must not come back). */
  const char *new_password = "Updated-Secret-Password-43";
  keep_secret(s, "new password", new_password);
  t_await_ok(t_keep_future(hearth_user_update_password(t_current_user(auth), new_password)));
  t_await_ok(t_keep_future(hearth_user_send_email_verification(t_current_user(auth), NULL)));
  const json *oob = emu_oob_code(email, "VERIFY_EMAIL");
  REQUIRE(oob != NULL);
  keep_secret(s, "email verification code", json_get_string(oob, "oobCode"));
  REQUIRE_INT(emu_apply_oob_code(json_get_string(oob, "oobCode")), 200);
  t_await_ok(t_keep_future(hearth_user_reload(t_current_user(auth))));

  /* An authenticator app: its shared secret, the enrollment code, then a sign-in through the resolver. */
  hearth_future *session_f = t_keep_future(hearth_user_multi_factor_get_session(t_current_user(auth)));
  t_await_ok(session_f);
  hearth_future *secret_f = t_keep_future(hearth_totp_secret_generate(hearth_future_multi_factor_session(session_f)));
  t_await_ok(secret_f);
  const hearth_totp_secret *secret = hearth_future_totp_secret(secret_f);
  REQUIRE(secret != NULL);
  const char *key = t_strdup(hearth_totp_secret_shared_secret_key(secret));
  keep_secret(s, "TOTP shared secret", key);
  codes[code_count] = totp_code(key);
  code_names[code_count++] = "TOTP enrollment code";
  hearth_multi_factor_assertion *enrollment =
      t_keep_assertion(hearth_multi_factor_assertion_create_totp_enrollment(secret, codes[code_count - 1]));
  t_await_ok(t_keep_future(hearth_user_multi_factor_enroll(t_current_user(auth), enrollment, "Authenticator")));
  id_token_now(s, auth, 0);
  CHECK_CODE(hearth_auth_sign_out(auth), 0);
  hearth_future *stopped = t_keep_future(hearth_auth_sign_in_with_email_and_password(auth, email, new_password));
  CHECK_CODE(t_await(stopped), HEARTH_ERROR_SECOND_FACTOR_REQUIRED);
  const hearth_multi_factor_resolver *resolver = hearth_future_multi_factor_resolver(stopped);
  REQUIRE(resolver != NULL);
  const char *enrollment_id = hearth_multi_factor_info_uid(hearth_multi_factor_resolver_hint_at(resolver, 0));
  codes[code_count] = totp_code(key);
  code_names[code_count++] = "TOTP sign-in code";
  hearth_multi_factor_assertion *second =
      t_keep_assertion(hearth_multi_factor_assertion_create_totp_sign_in(enrollment_id, codes[code_count - 1]));
  t_await_ok(t_keep_future(hearth_multi_factor_resolver_resolve_sign_in(resolver, second)));
  id_token_now(s, auth, 0);
  CHECK_CODE(hearth_auth_sign_out(auth), 0);

  /* Phone: the verification id and the SMS code. */
  const char *verification_id = t_send_code(auth, t_phone_number());
  keep_secret(s, "verification id", verification_id);
  codes[code_count] = t_strdup(emu_sms_code(verification_id));
  code_names[code_count++] = "SMS code";
  t_await_ok(t_keep_future(
      hearth_auth_sign_in_with_credential(auth, t_keep_credential(hearth_credential_create_phone(verification_id, codes[code_count - 1])))));
  id_token_now(s, auth, 0);
  CHECK_CODE(hearth_auth_sign_out(auth), 0);

  /* An email sign-in link (used, then refused as used), and a password reset code that is checked,
   * verified and confirmed. */
  const char *link_email = t_email("link-secret");
  hearth_action_code_settings settings;
  hearth_action_code_settings_init(&settings);
  settings.url = "com.example.secrets:/finish";
  settings.handle_code_in_app = 1;
  t_await_ok(t_keep_future(hearth_auth_send_sign_in_link_to_email(auth, link_email, &settings)));
  const json *sign_in_oob = emu_oob_code(link_email, "EMAIL_SIGNIN");
  REQUIRE(sign_in_oob != NULL);
  keep_secret(s, "email sign-in code", json_get_string(sign_in_oob, "oobCode"));
  const char *sign_in_link = t_strdup(json_get_string(sign_in_oob, "oobLink"));
  t_await_ok(t_keep_future(hearth_auth_sign_in_with_email_link(auth, link_email, sign_in_link)));
  id_token_now(s, auth, 0);
  CHECK_CODE(hearth_auth_sign_out(auth), 0);
  CHECK_CODE(t_await(t_keep_future(hearth_auth_sign_in_with_email_link(auth, link_email, sign_in_link))),
             HEARTH_ERROR_INVALID_ACTION_CODE);
  t_await_ok(t_keep_future(hearth_auth_send_password_reset_email(auth, link_email, &settings)));
  const json *reset_oob = emu_oob_code(link_email, "PASSWORD_RESET");
  REQUIRE(reset_oob != NULL);
  const char *reset_code = t_strdup(json_get_string(reset_oob, "oobCode"));
  keep_secret(s, "password reset code", reset_code);
  const char *reset_password = "Reset-Secret-Password-46";
  keep_secret(s, "password set by a reset code", reset_password);
  t_await_ok(t_keep_future(hearth_auth_check_action_code(auth, reset_code)));
  t_await_ok(t_keep_future(hearth_auth_verify_password_reset_code(auth, reset_code)));
  t_await_ok(t_keep_future(hearth_auth_confirm_password_reset(auth, reset_code, reset_password)));
  CHECK_CODE(t_await(t_keep_future(hearth_auth_confirm_password_reset(auth, reset_code, reset_password))),
             HEARTH_ERROR_INVALID_ACTION_CODE);

  /* A custom token, then an anonymous user linked to a password and to a Google ID token. */
  const char *custom_token = t_printf("{\"uid\":\"%s\"}", t_subject("custom-secret"));
  keep_secret(s, "custom token", custom_token);
  t_await_ok(t_keep_future(hearth_auth_sign_in_with_custom_token(auth, custom_token)));
  id_token_now(s, auth, 0);
  t_sign_in_anonymously(auth);
  const char *link_password = "Linked-Secret-Password-44";
  keep_secret(s, "linked password", link_password);
  t_await_ok(t_keep_future(hearth_user_link_with_credential(
      t_current_user(auth), t_keep_credential(hearth_credential_create_email(t_email("linked"), link_password)))));
  const char *google_token = t_unsigned_jwt(t_idp_claims(t_subject("google-secret"), t_email("google"), true, "G", NULL));
  keep_secret(s, "Google ID token", google_token);
  t_await_ok(t_keep_future(hearth_user_link_with_credential(
      t_current_user(auth), t_keep_credential(hearth_credential_create_google(google_token, "google-access-secret-45")))));
  keep_secret(s, "Google access token", "google-access-secret-45");
  id_token_now(s, auth, 1);
  CHECK_CODE(hearth_auth_sign_out(auth), 0);

  /* A provider's page in the browser: what comes back on the redirect stays out of the log. */
  t_browser *browser = t_browser_new(app);
  t_browser_attach(browser, 0);
  t_browser_sign_in_as(browser, t_printf("email=%s&displayName=Flow", t_url_encode(t_email("flow"))));
  hearth_oauth_provider *provider = hearth_oauth_provider_create("github.com");
  REQUIRE(provider != NULL);
  hearth_future *flow = t_keep_future(hearth_auth_sign_in_with_provider(auth, provider));
  t_await_ok(flow);
  hearth_oauth_provider_release(provider);
  t_visit visit = t_browser_wait(browser, 1);
  REQUIRE(visit.location != NULL);
  const char *query = strchr(visit.location, '?');
  REQUIRE(query != NULL);
  for (char *pair = strtok(t_strdup(query + 1), "&"); pair; pair = strtok(NULL, "&")) {
    char *equals = strchr(pair, '=');
    if (!equals) continue;
    *equals = '\0';
    const char *value = t_url_param(visit.location, pair);
    /* Long values are the tokens, codes and state; short ones (providerId) are not secret. */
    if (value && strlen(value) >= 16) keep_secret(s, t_printf("redirect parameter %s", pair), value);
  }
  id_token_now(s, auth, 0);
  t_app_destroy(app);

  REQUIRE(recorded(r) > 40);
  REQUIRE(s->saves > 5);
  int refresh_tokens = 0;
  for (int i = 0; i < s->count; i++) {
    if (!strcmp(s->what[i], "refresh token")) refresh_tokens++;
    check_never_logged(r, s->value[i], s->what[i], __FILE__, __LINE__);
  }
  CHECK(refresh_tokens >= 5);
  for (int i = 0; i < code_count; i++) check_code_never_logged(r, codes[i], code_names[i], __FILE__, __LINE__);
  /* What the log does say about all that: requests, without their query values. */
  CHECK_LOGGED(r, HEARTH_LOG_DEBUG, "/securetoken.googleapis.com/v1/token?key=<redacted>: HTTP 200");
  CHECK_LOGGED(r, HEARTH_LOG_DEBUG, "accounts/mfaSignIn:finalize?key=<redacted>: HTTP 200");
  CHECK_LOGGED(r, HEARTH_LOG_DEBUG, "accounts:signInWithIdp?key=<redacted>: HTTP 200");
  CHECK_LOGGED(r, HEARTH_LOG_DEBUG, "accounts:signInWithEmailLink?key=<redacted>: HTTP 200");
  CHECK_LOGGED(r, HEARTH_LOG_DEBUG, "accounts:resetPassword?key=<redacted>: HTTP 200");
}

/* ------------------------------------------------------------------------------------------------
 * Failures of operations that carry credentials, at the most verbose level
 * ---------------------------------------------------------------------------------------------- */

/* A code one digit off `code`. */
static const char *mistyped(const char *code) {
  char *wrong = t_strdup(code);
  size_t last = strlen(wrong) - 1;
  wrong[last] = wrong[last] == '9' ? '0' : (char)(wrong[last] + 1);
  return wrong;
}

/* Fails the test unless the future failed with `code` and its message holds `echoed`: the scenario
 * (a server that repeats what it was sent) really happened. */
static void check_failed_echoing(hearth_future *f, int code, const char *echoed) {
  CHECK_CODE(t_await(f), code);
  const char *message = hearth_future_error_message(f);
  if (!message || !strstr(message, echoed))
    t_fail(__FILE__, __LINE__, "the server's message does not repeat \"%s\": %s", echoed, message ? message : "(NULL)");
}

TEST(failed_identity_provider_phone_and_second_factor_operations_log_none_of_their_secrets, MODE_OWNED) {
  log_recorder *r = listen_at(HEARTH_LOG_DEBUG);
  hearth_app *app = t_app();
  hearth_auth *auth = hearth_auth_get(app);
  const char *secrets[32];
  const char *what[32];
  int count = 0;
#define KEEP(name, value) (what[count] = (name), secrets[count++] = (value))

  /* Identity providers: tokens the server cannot parse come back in its error text. Short ones, which
   * the length rule alone would let through. */
  const char *bad_google = KEEP("unparseable Google ID token", t_printf("not-a-jwt-%s", t_subject("g")));
  const char *google_access = KEEP("Google access token", "ya29.short-access-7");
  check_failed_echoing(t_keep_future(hearth_auth_sign_in_with_credential(
                           auth, t_keep_credential(hearth_credential_create_google(bad_google, google_access)))),
                       HEARTH_ERROR_INVALID_CREDENTIAL, bad_google);
  const char *bad_json = KEEP("broken JSON ID token", t_printf("{\"sub\":\"%s\",", t_subject("json")));
  check_failed_echoing(t_keep_future(hearth_auth_sign_in_with_credential(
                           auth, t_keep_credential(hearth_credential_create_oauth("oidc.example", bad_json, NULL)))),
                       HEARTH_ERROR_INVALID_CREDENTIAL, bad_json);
  hearth_user *anonymous = t_sign_in_anonymously(auth);
  const char *bad_link = KEEP("unparseable ID token to link", t_printf("link-%s", t_subject("l")));
  check_failed_echoing(t_keep_future(hearth_user_link_with_credential(
                           anonymous, t_keep_credential(hearth_credential_create_google(bad_link, NULL)))),
                       HEARTH_ERROR_INVALID_CREDENTIAL, bad_link);
  const char *bad_reauth = KEEP("unparseable ID token to reauthenticate", t_printf("re-%s", t_subject("r")));
  check_failed_echoing(t_keep_future(hearth_user_reauthenticate(
                           t_current_user(auth), t_keep_credential(hearth_credential_create_google(bad_reauth, NULL)))),
                       HEARTH_ERROR_INVALID_CREDENTIAL, bad_reauth);
  const char *bad_custom = KEEP("malformed custom token", t_printf("{\"uid\":\"%s\"", t_subject("c")));
  CHECK_CODE(t_await(t_keep_future(hearth_auth_sign_in_with_custom_token(auth, bad_custom))),
             HEARTH_ERROR_INVALID_CUSTOM_TOKEN);
  CHECK_CODE(hearth_auth_sign_out(auth), 0);

  /* Phone: a mistyped code, then the right one. */
  const char *phone_id = KEEP("phone verification id", t_send_code(auth, t_phone_number()));
  const char *phone_code = KEEP("SMS code", t_strdup(emu_sms_code(phone_id)));
  const char *phone_wrong = KEEP("mistyped SMS code", mistyped(phone_code));
  CHECK_CODE(t_await(t_keep_future(hearth_auth_sign_in_with_credential(
                 auth, t_keep_credential(hearth_credential_create_phone(phone_id, phone_wrong))))),
             HEARTH_ERROR_INVALID_VERIFICATION_CODE);
  t_await_ok(t_keep_future(hearth_auth_sign_in_with_credential(
      auth, t_keep_credential(hearth_credential_create_phone(phone_id, phone_code)))));
  CHECK_CODE(hearth_auth_sign_out(auth), 0);

  /* An SMS second factor: enrollment with a mistyped code and the right one, then a sign-in that needs
   * it, resolved with a mistyped code and the right one. */
  const char *google = t_idp_claims(t_subject("mfa"), t_email("mfa-log"), true, "Second Factor", NULL);
  t_await_ok(t_keep_future(hearth_auth_sign_in_with_credential(auth, t_keep_credential(hearth_credential_create_google(google, NULL)))));
  hearth_future *session = t_keep_future(hearth_user_multi_factor_get_session(t_current_user(auth)));
  t_await_ok(session);
  const char *number = t_phone_number();
  hearth_phone_auth_options options;
  hearth_phone_auth_options_init(&options);
  options.phone_number = number;
  options.multi_factor_session = hearth_future_multi_factor_session(session);
  hearth_future *sent = t_verify_phone(auth, &options);
  t_await_ok(sent);
  const char *enroll_id = KEEP("enrollment session info", t_strdup(hearth_future_string(sent)));
  const char *enroll_code = KEEP("enrollment SMS code", t_strdup(emu_sms_code(enroll_id)));
  const char *enroll_wrong = KEEP("mistyped enrollment code", mistyped(enroll_code));
  CHECK_CODE(t_await(t_keep_future(hearth_user_multi_factor_enroll(
                 t_current_user(auth),
                 t_keep_assertion(hearth_multi_factor_assertion_create_phone(
                     t_keep_credential(hearth_credential_create_phone(enroll_id, enroll_wrong)))),
                 "Phone"))),
             HEARTH_ERROR_INVALID_VERIFICATION_CODE);
  t_await_ok(t_keep_future(hearth_user_multi_factor_enroll(
      t_current_user(auth),
      t_keep_assertion(hearth_multi_factor_assertion_create_phone(t_keep_credential(hearth_credential_create_phone(enroll_id, enroll_code)))),
      "Phone")));
  CHECK_CODE(hearth_auth_sign_out(auth), 0);
  hearth_future *stopped = t_keep_future(
      hearth_auth_sign_in_with_credential(auth, t_keep_credential(hearth_credential_create_google(google, NULL))));
  CHECK_CODE(t_await(stopped), HEARTH_ERROR_SECOND_FACTOR_REQUIRED);
  const hearth_multi_factor_resolver *resolver = hearth_future_multi_factor_resolver(stopped);
  REQUIRE(resolver != NULL);
  hearth_phone_auth_options_init(&options);
  options.multi_factor_session = hearth_multi_factor_resolver_session(resolver);
  options.multi_factor_hint = hearth_multi_factor_resolver_hint_at(resolver, 0);
  sent = t_verify_phone(auth, &options);
  t_await_ok(sent);
  const char *sign_in_id = KEEP("second-factor session info", t_strdup(hearth_future_string(sent)));
  const char *sign_in_code = KEEP("second-factor SMS code", t_strdup(emu_sms_code(sign_in_id)));
  const char *sign_in_wrong = KEEP("mistyped second-factor code", mistyped(sign_in_code));
  CHECK_CODE(t_await(t_keep_future(hearth_multi_factor_resolver_resolve_sign_in(
                 resolver, t_keep_assertion(hearth_multi_factor_assertion_create_phone(
                               t_keep_credential(hearth_credential_create_phone(sign_in_id, sign_in_wrong))))))),
             HEARTH_ERROR_INVALID_VERIFICATION_CODE);
  t_await_ok(t_keep_future(hearth_multi_factor_resolver_resolve_sign_in(
      resolver, t_keep_assertion(hearth_multi_factor_assertion_create_phone(
                    t_keep_credential(hearth_credential_create_phone(sign_in_id, sign_in_code)))))));
  t_app_destroy(app);
#undef KEEP

  REQUIRE(recorded(r) > 20);
  for (int i = 0; i < count; i++) {
    if (strlen(secrets[i]) <= 8) check_code_never_logged(r, secrets[i], what[i], __FILE__, __LINE__);
    else check_never_logged(r, secrets[i], what[i], __FILE__, __LINE__);
  }
  /* What the log does say: which operation failed, and how. */
  CHECK_LOGGED(r, HEARTH_LOG_WARNING, "signInWithCredential failed: HEARTH_ERROR_INVALID_CREDENTIAL (INVALID_IDP_RESPONSE)");
  CHECK_LOGGED(r, HEARTH_LOG_WARNING, "linkWithCredential failed: HEARTH_ERROR_INVALID_CREDENTIAL (INVALID_IDP_RESPONSE)");
  CHECK_LOGGED(r, HEARTH_LOG_WARNING,
               "multiFactorEnroll failed: HEARTH_ERROR_INVALID_VERIFICATION_CODE (INVALID_CODE)");
  CHECK_LOGGED(r, HEARTH_LOG_WARNING, "resolveSignIn failed: HEARTH_ERROR_INVALID_VERIFICATION_CODE (INVALID_CODE)");
  CHECK_LOGGED(r, HEARTH_LOG_DEBUG,
               "accounts:signInWithIdp?key=<redacted>: HTTP 400, HEARTH_ERROR_INVALID_CREDENTIAL (INVALID_IDP_RESPONSE)");
}

/* ------------------------------------------------------------------------------------------------
 * Levels
 * ---------------------------------------------------------------------------------------------- */

TEST(the_level_keeps_quieter_messages_out, MODE_OWNED) {
  log_recorder *r = listen_at(HEARTH_LOG_WARNING);
  hearth_app *app = t_app();
  hearth_auth *auth = hearth_auth_get(app);
  t_sign_in_anonymously(auth);
  CHECK_INT(recorded(r), 0);
  CHECK_CODE(t_await(t_keep_future(hearth_auth_sign_in_with_email_and_password(auth, "ghost@example.com", "pw-1"))),
             HEARTH_ERROR_USER_NOT_FOUND);
  CHECK_INT(recorded(r), 1);
  CHECK_LOGGED(r, HEARTH_LOG_WARNING, "signInWithEmailAndPassword failed: HEARTH_ERROR_USER_NOT_FOUND");
}

TEST(an_unknown_level_is_refused_and_the_previous_setting_stays, MODE_OWNED) {
  log_recorder *r = listen_at(HEARTH_LOG_INFO);
  log_recorder other = {0};
  CHECK_CODE(hearth_log_set_callback(-1, record, &other), HEARTH_ERROR_INVALID_ARGUMENT);
  CHECK_CODE(hearth_log_set_callback(HEARTH_LOG_OFF + 1, record, &other), HEARTH_ERROR_INVALID_ARGUMENT);
  hearth_app *app = t_app();
  t_sign_in_anonymously(hearth_auth_get(app));
  CHECK(recorded(r) > 0);
  CHECK_INT(atomic_load(&other.calls), 0);
}

TEST(turning_logging_off_stops_every_message, MODE_OWNED) {
  log_recorder *r = listen_at(HEARTH_LOG_DEBUG);
  hearth_app *app = t_app();
  hearth_auth *auth = hearth_auth_get(app);
  t_sign_in_anonymously(auth);
  REQUIRE(recorded(r) > 0);
  CHECK_CODE(hearth_log_set_callback(HEARTH_LOG_DEBUG, NULL, r), 0); /* a NULL callback is off too */
  int before = recorded(r);
  hearth_auth_sign_out(auth);
  t_sign_in_anonymously(auth);
  t_settle(50);
  CHECK_INT(recorded(r), before);
}

/* ------------------------------------------------------------------------------------------------
 * The callback across threads
 * ---------------------------------------------------------------------------------------------- */

typedef struct slow_listener {
  atomic_int inside;
  atomic_int finished;
  atomic_int calls;
} slow_listener;

static void slow_record(void *user_data, hearth_log_level level, const char *message) {
  (void)level, (void)message;
  slow_listener *s = user_data;
  if (atomic_fetch_add(&s->calls, 1) == 0) {
    atomic_store(&s->inside, 1);
    t_sleep_ms(300);
    atomic_store(&s->finished, 1);
  }
}

static void logging_off(void *unused) {
  (void)unused;
  hearth_log_set_callback(HEARTH_LOG_OFF, NULL, NULL);
}

TEST(replacing_the_callback_waits_for_a_call_running_on_the_loop_thread, MODE_OWNED) {
  static slow_listener s;
  memset(&s, 0, sizeof s);
  t_defer(logging_off, NULL);
  REQUIRE_CODE(hearth_log_set_callback(HEARTH_LOG_DEBUG, slow_record, &s), 0);
  hearth_app *app = t_app(); /* "app created" is logged here, on this thread: wait for a loop-thread call */
  atomic_store(&s.calls, 1);
  hearth_future *f = t_keep_future(hearth_auth_sign_in_anonymously(hearth_auth_get(app)));
  atomic_store(&s.calls, 0);
  double deadline = t_now() + 5;
  while (!atomic_load(&s.inside) && t_now() < deadline) t_sleep_ms(1);
  REQUIRE(atomic_load(&s.inside));
  CHECK_CODE(hearth_log_set_callback(HEARTH_LOG_OFF, NULL, NULL), 0);
  CHECK(atomic_load(&s.finished)); /* it waited for the running call */
  int calls = atomic_load(&s.calls);
  t_await(f);
  t_settle(50);
  CHECK_INT(atomic_load(&s.calls), calls);
}

typedef struct reentrant_listener {
  hearth_auth *auth;
  atomic_int calls;
} reentrant_listener;

static void reentrant_record(void *user_data, hearth_log_level level, const char *message) {
  (void)level, (void)message;
  reentrant_listener *l = user_data;
  atomic_fetch_add(&l->calls, 1);
  /* A sign-out logs "signed out", but not from inside the callback (no recursion)... */
  hearth_auth_sign_out(l->auth);
  /* ...and turning logging off from inside the callback does not wait for itself. */
  hearth_log_set_callback(HEARTH_LOG_OFF, NULL, NULL);
}

TEST(the_callback_may_call_hearth_and_turn_logging_off_from_inside, BOTH_LOOPS) {
  t_defer(logging_off, NULL);
  hearth_app *app = t_app();
  hearth_auth *auth = hearth_auth_get(app);
  static reentrant_listener l;
  l.auth = auth;
  atomic_store(&l.calls, 0);
  REQUIRE_CODE(hearth_log_set_callback(HEARTH_LOG_INFO, reentrant_record, &l), 0);
  /* The first INFO message of this sign-in ("signed in as ...") signs out again from the callback. */
  CHECK_CODE(t_await(t_keep_future(hearth_auth_sign_in_anonymously(auth))), 0);
  t_settle(50);
  CHECK_INT(atomic_load(&l.calls), 1);
  CHECK_STR(t_current_uid(auth), "");
}
