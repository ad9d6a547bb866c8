/* harness.c — runs the generated bad-input cases: one forked child per header function, with a
 * timeout, and prints the results as a table.
 *
 *   badinput [FUNCTION...]     (under scripts/with-emulator; gen.py run sets BADIN_* accounts up)
 *
 * BADIN_VERBOSE=1 lists every case with what the call returned, not only the failures.
 *
 * A child prints "B<TAB>case" before each case and "E<TAB>case<TAB>ok|FAIL<TAB>what it got" after it,
 * so the parent names the case that crashed or hung. Exit status 0 when every case of every function
 * behaved. */
#include "harness.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CASE_TIMEOUT_MS 10000
#define FUNCTION_TIMEOUT_S 40

/* ------------------------------------------------------------------------------------------------
 * Case reporting (child side)
 * ---------------------------------------------------------------------------------------------- */
static const char *current_label = "";
static int child_failures;
static _Thread_local bool on_loop_thread;

static void emit(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void bi_report(bool ok, const char *got);
static void emit(const char *fmt, ...) {
  static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
  pthread_mutex_lock(&lock);
  va_list args;
  va_start(args, fmt);
  vprintf(fmt, args);
  va_end(args);
  fflush(stdout);
  pthread_mutex_unlock(&lock);
}

/* The function of the running case when it sets the last error, else NULL. */
static const char *last_error_function;

void bi_begin(const char *label) {
  current_label = label;
  last_error_function = NULL;
  emit("B\t%s\n", label);
}

void bi_begin_sets_last_error(const char *label, const char *function) {
  bi_begin(label);
  last_error_function = function;
  /* Another function's failure, so that a stale record of `function` cannot pass for a new one. */
  if (strcmp(function, "hearth_nonce_hash") != 0) hearth_nonce_hash(NULL, NULL);
  else hearth_oauth_provider_create(NULL);
}

/* A failure of the running case: does the last error name it (and carry `code` when it reported one)? */
static bool last_error_names_the_call(long long code, char *got, size_t got_size) {
  if (!last_error_function || on_loop_thread) return true;
  const char *message = hearth_last_error_message();
  size_t length = strlen(last_error_function);
  bool named = message && strncmp(message, last_error_function, length) == 0 && message[length] == ':' &&
               message[length + 1] == ' ' && message[length + 2] != '\0';
  bool coded = code == 0 ? hearth_last_error_code() != HEARTH_ERROR_NONE : hearth_last_error_code() == code;
  if (named && coded) return true;
  size_t used = strlen(got);
  snprintf(got + used, got_size - used, "; last error %s \"%s\"", hearth_error_name(hearth_last_error_code()),
           message ? message : "(NULL)");
  return false;
}

void bi_result(int failed, int must_fail, const char *got) {
  bool ok = failed || !must_fail;
  bi_report(ok, got);
}

static void bi_report(bool ok, const char *got) {
  if (!ok) child_failures++;
  emit("E\t%s\t%s\t%s\n", current_label, ok ? "ok" : "FAIL", got);
}

void bi_future(hearth_future *future, int must_fail) {
  char got[256];
  if (!future) {
    char text[512] = "NULL future";
    bi_report(last_error_names_the_call(0, text, sizeof text), text);
    return;
  }
  if (on_loop_thread) {
    /* Waiting here would deadlock the loop: that the call returned is what this case shows. */
    hearth_future_release(future);
    bi_result(0, 0, "future (started on the loop thread)");
    return;
  }
  int rc = hearth_future_wait(future, CASE_TIMEOUT_MS);
  if (rc != 0) {
    snprintf(got, sizeof got, "future did not complete: %s", hearth_error_name(rc));
    child_failures++;
    emit("E\t%s\tFAIL\t%s\n", current_label, got);
    return;
  }
  int error = hearth_future_error(future);
  snprintf(got, sizeof got, "future %s", hearth_error_name(error));
  hearth_future_release(future);
  bi_report(must_fail > 1 ? error == must_fail : error != 0 || !must_fail, got);
}

void bi_int(long long value, int must_fail, long long fail_value, int fail_is_nonzero) {
  char got[512];
  if (fail_is_nonzero && value != 0) snprintf(got, sizeof got, "%lld (%s)", value, hearth_error_name((int)value));
  else snprintf(got, sizeof got, "%lld", value);
  bool failed = fail_is_nonzero ? value != 0 : value == fail_value;
  bool recorded = !failed || last_error_names_the_call(fail_is_nonzero ? value : 0, got, sizeof got);
  if (fail_is_nonzero && must_fail > 1) bi_report(value == must_fail && recorded, got);
  else bi_report((failed || !must_fail) && recorded, got);
}

void bi_pointer(const void *value, int must_fail, int fail_is_null) {
  char got[512];
  snprintf(got, sizeof got, "%s", value ? "non-NULL" : "NULL");
  bool failed = fail_is_null ? value == NULL : value != NULL;
  bool recorded = !failed || last_error_names_the_call(0, got, sizeof got);
  bi_report((failed || !must_fail) && recorded, got);
}

void bi_void(void) { bi_result(1, 0, "returned"); }

/* ------------------------------------------------------------------------------------------------
 * Values and fixtures
 * ---------------------------------------------------------------------------------------------- */
const char *const bi_empty = "";
const char *const bi_not_utf8 = "\xff\xfe";
const char *const bi_overlong = "\xc0\xaf";
const char *const bi_surrogate = "\xed\xa0\x80";

const char *bi_long_string(void) {
  static char *text;
  if (!text) {
    text = malloc((1u << 20) + 1);
    memset(text, 'a', 1u << 20);
    text[1u << 20] = '\0';
  }
  return text;
}

static void die(const char *what) {
  emit("E\t%s\tFAIL\tfixture: %s\n", current_label, what);
  exit(3);
}

static const char *env(const char *name) {
  const char *value = getenv(name);
  if (!value) die(name);
  return value;
}

static hearth_app *make_app(const char *name, int persistence) {
  hearth_app_options options;
  hearth_app_options_init(&options);
  options.api_key = "fake-api-key";
  options.project_id = getenv("HEARTH_PROJECT") ? getenv("HEARTH_PROJECT") : "demo-hearth";
  options.app_name = name;
  options.persistence = persistence;
  options.storage_load = fx_load_cb;
  options.storage_save = fx_save_cb;
  options.storage_erase = fx_erase_cb;
  hearth_app *app = NULL;
  if (hearth_app_create(&options, &app) != 0) die("hearth_app_create");
  return app;
}

static hearth_future *await(hearth_future *future, const char *what) {
  if (!future || hearth_future_wait(future, CASE_TIMEOUT_MS) != 0) die(what);
  return future;
}

static hearth_app *app1, *app2, *app3, *app4;
hearth_app *fx_app(void) { return app1 ? app1 : (app1 = make_app("badin-1", HEARTH_PERSISTENCE_NONE)); }
hearth_app *fx_app2(void) { return app2 ? app2 : (app2 = make_app("badin-2", HEARTH_PERSISTENCE_NONE)); }
hearth_auth *fx_auth(void) { return hearth_auth_get(fx_app()); }
hearth_auth *fx_auth2(void) { return hearth_auth_get(fx_app2()); }

static hearth_future *sign_in_future;
hearth_future *fx_future(void) {
  if (!sign_in_future) {
    sign_in_future = await(hearth_auth_sign_in_anonymously(fx_auth()), "anonymous sign-in");
    if (hearth_future_error(sign_in_future) != 0) die("anonymous sign-in failed");
  }
  return sign_in_future;
}
hearth_user *fx_user(void) {
  static hearth_user *user;
  return user ? user : (user = hearth_user_retain(hearth_future_user(fx_future())));
}
const hearth_auth_result *fx_auth_result(void) { return hearth_future_auth_result(fx_future()); }
hearth_credential *fx_credential(void) {
  static hearth_credential *credential;
  if (!credential) credential = hearth_credential_create_email("badin-credential@example.com", "badin-pass-1");
  return credential;
}

/* App 3: the verified password user (BADIN_VERIFIED_EMAIL): provider data, a second-factor session. */
static hearth_user *verified_user(void) {
  static hearth_user *user;
  if (!user) {
    app3 = make_app("badin-3", HEARTH_PERSISTENCE_NONE);
    hearth_future *f = await(hearth_auth_sign_in_with_email_and_password(
                                 hearth_auth_get(app3), env("BADIN_VERIFIED_EMAIL"), env("BADIN_PASSWORD")),
                             "verified sign-in");
    if (hearth_future_error(f) != 0) die("verified sign-in failed");
    user = hearth_user_retain(hearth_future_user(f));
  }
  return user;
}
const hearth_user_info *fx_user_info(void) { return hearth_user_provider_data_at(verified_user(), 0); }
const hearth_multi_factor_session *fx_mf_session(void) {
  static hearth_future *f;
  if (!f) f = await(hearth_user_multi_factor_get_session(verified_user()), "second-factor session");
  if (!hearth_future_multi_factor_session(f)) die("second-factor session failed");
  return hearth_future_multi_factor_session(f);
}
const hearth_totp_secret *fx_totp_secret(void) {
  static hearth_future *f;
  if (!f) f = await(hearth_totp_secret_generate(fx_mf_session()), "TOTP secret");
  if (!hearth_future_totp_secret(f)) die("TOTP secret failed");
  return hearth_future_totp_secret(f);
}

const hearth_action_code_info *fx_action_code_info(void) {
  static hearth_future *f;
  if (!f) f = await(hearth_auth_check_action_code(fx_auth(), env("BADIN_OOB_CODE")), "action code check");
  if (!hearth_future_action_code_info(f)) die("action code check failed");
  return hearth_future_action_code_info(f);
}

/* App 4: the password user with an enrolled SMS factor (BADIN_MFA_EMAIL): a resolver and its hint. */
const hearth_multi_factor_resolver *fx_resolver(void) {
  static hearth_future *f;
  if (!f) {
    app4 = make_app("badin-4", HEARTH_PERSISTENCE_NONE);
    f = await(hearth_auth_sign_in_with_email_and_password(hearth_auth_get(app4), env("BADIN_MFA_EMAIL"),
                                                          env("BADIN_PASSWORD")),
              "second-factor sign-in");
  }
  if (!hearth_future_multi_factor_resolver(f)) die("no resolver");
  return hearth_future_multi_factor_resolver(f);
}
const hearth_multi_factor_info *fx_mf_info(void) { return hearth_multi_factor_resolver_hint_at(fx_resolver(), 0); }

hearth_oauth_provider *fx_provider(void) {
  static hearth_oauth_provider *provider;
  return provider ? provider : (provider = hearth_oauth_provider_create("github.com"));
}
hearth_multi_factor_assertion *fx_assertion(void) {
  static hearth_multi_factor_assertion *assertion;
  return assertion ? assertion : (assertion = hearth_multi_factor_assertion_create_totp_sign_in("badin-factor", "123456"));
}

static hearth_storage_reply *live_reply, *stale_reply;
hearth_storage_reply *fx_reply(void) { return live_reply; }
hearth_storage_reply *fx_stale_reply(void) {
  if (!stale_reply) hearth_app_destroy(make_app("badin-stale-reply", HEARTH_PERSISTENCE_CALLBACKS));
  return stale_reply;
}

void *fx_hearth_memory(void) {
  hearth_auth_set_language_code(fx_auth2(), "en");
  return hearth_auth_language_code(fx_auth2());
}
void *fx_user_data(void) {
  static int marker;
  return &marker;
}

hearth_app *fx_released_app(void) {
  hearth_app *app = make_app("badin-released", HEARTH_PERSISTENCE_NONE);
  hearth_app_destroy(app);
  return app;
}
hearth_auth *fx_released_auth(void) {
  hearth_app *app = make_app("badin-released-auth", HEARTH_PERSISTENCE_NONE);
  hearth_auth *auth = hearth_auth_get(app);
  hearth_app_destroy(app);
  return auth;
}
hearth_user *fx_released_user(void) {
  fx_user();
  hearth_user *user = hearth_auth_current_user(fx_auth());
  hearth_user_release(user);
  return user;
}
hearth_credential *fx_released_credential(void) {
  hearth_credential *credential = hearth_credential_create_email("badin-released@example.com", "badin-pass-1");
  hearth_credential_release(credential);
  return credential;
}
hearth_future *fx_released_future(void) {
  hearth_future *future = hearth_future_retain(fx_future());
  hearth_future_release(future);
  return future;
}
hearth_oauth_provider *fx_released_provider(void) {
  hearth_oauth_provider *provider = hearth_oauth_provider_create("github.com");
  hearth_oauth_provider_release(provider);
  return provider;
}
hearth_multi_factor_assertion *fx_released_assertion(void) {
  hearth_multi_factor_assertion *assertion = hearth_multi_factor_assertion_create_totp_sign_in("badin-factor", "123456");
  hearth_multi_factor_assertion_release(assertion);
  return assertion;
}
const hearth_user_info *fx_released_user_info(void) {
  verified_user();
  hearth_user *user = hearth_auth_current_user(hearth_auth_get(app3));
  const hearth_user_info *info = hearth_user_provider_data_at(user, 0);
  hearth_user_release(user);
  return info;
}
const hearth_auth_result *fx_released_auth_result(void) {
  /* A sign-in on an app of its own, destroyed afterwards, so no *_last_result keeps the operation. */
  hearth_app *app = make_app("badin-released-result", HEARTH_PERSISTENCE_NONE);
  hearth_future *f = await(hearth_auth_sign_in_anonymously(hearth_auth_get(app)), "sign-in");
  const hearth_auth_result *result = hearth_future_auth_result(f);
  hearth_app_destroy(app);
  hearth_future_release(f);
  return result;
}

const hearth_action_code_info *fx_released_action_code_info(void) {
  /* The same check on an app of its own, destroyed afterwards, its only reference released. */
  hearth_app *app = make_app("badin-released-info", HEARTH_PERSISTENCE_NONE);
  hearth_future *f = await(hearth_auth_check_action_code(hearth_auth_get(app), env("BADIN_OOB_CODE")), "check");
  const hearth_action_code_info *info = hearth_future_action_code_info(f);
  if (!info) die("action code check failed");
  hearth_app_destroy(app);
  hearth_future_release(f);
  return info;
}

void *fx_foreign(void) { return fx_provider(); }
void *fx_foreign_app(void) { return fx_credential(); }

hearth_app_options *fx_app_options(void) {
  static int n;
  static char name[64];
  static hearth_app_options options;
  hearth_app_options_init(&options);
  snprintf(name, sizeof name, "badin-new-%d", ++n);
  options.api_key = "fake-api-key";
  options.app_name = name;
  options.persistence = HEARTH_PERSISTENCE_NONE;
  return &options;
}
hearth_app_options *fx_zero_app_options(void) {
  static hearth_app_options options;
  memset(&options, 0, sizeof options);
  return &options;
}
hearth_app_options *fx_bad_enum_app_options(void) {
  hearth_app_options *options = fx_app_options();
  options->persistence = 99;
  return options;
}
hearth_provider_flow_options *fx_flow_options(void) {
  static hearth_provider_flow_options options;
  hearth_provider_flow_options_init(&options);
  options.open_url = fx_open_url_cb;
  return &options;
}
hearth_provider_flow_options *fx_zero_flow_options(void) {
  static hearth_provider_flow_options options;
  memset(&options, 0, sizeof options);
  return &options;
}
hearth_action_code_settings *fx_action_code_settings(void) {
  static hearth_action_code_settings settings;
  hearth_action_code_settings_init(&settings);
  settings.url = "com.example.badin:/finish";
  settings.handle_code_in_app = 1;
  return &settings;
}
hearth_action_code_settings *fx_zero_action_code_settings(void) {
  static hearth_action_code_settings settings;
  memset(&settings, 0, sizeof settings);
  settings.url = "com.example.badin:/finish";
  settings.handle_code_in_app = 1;
  return &settings;
}
hearth_phone_auth_options *fx_phone_options(void) {
  static hearth_phone_auth_options options;
  hearth_phone_auth_options_init(&options);
  options.phone_number = "+15555550100";
  return &options;
}
hearth_phone_auth_options *fx_zero_phone_options(void) {
  static hearth_phone_auth_options options;
  memset(&options, 0, sizeof options);
  return &options;
}
hearth_phone_auth_options *fx_other_app_phone_options(void) {
  static hearth_phone_auth_options options;
  hearth_phone_auth_options_init(&options);
  options.multi_factor_session = hearth_multi_factor_resolver_session(fx_resolver());
  options.multi_factor_hint = fx_mf_info();
  return &options;
}
hearth_phone_listener *fx_phone_listener(void) {
  /* No callbacks: Hearth must cope with a listener that wants none of them. */
  static hearth_phone_listener listener;
  memset(&listener, 0, sizeof listener);
  listener.struct_size = sizeof listener;
  return &listener;
}
hearth_phone_listener *fx_zero_phone_listener(void) {
  static hearth_phone_listener listener;
  memset(&listener, 0, sizeof listener);
  return &listener;
}
hearth_app **fx_app_out(void) {
  static hearth_app *out;
  return &out;
}
char *fx_out_buffer(void) {
  static char buffer[128];
  return buffer;
}

void fx_log_cb(void *user_data, hearth_log_level level, const char *message) {
  (void)user_data, (void)level, (void)message;
}
void fx_completion_cb(hearth_future *future, void *user_data) { (void)future, (void)user_data; }
void fx_auth_cb(hearth_auth *auth, void *user_data) { (void)auth, (void)user_data; }
void fx_post_cb(void *user_data, hearth_error status) { (void)user_data, (void)status; }
void fx_release_cb(void *user_data) { (void)user_data; }
int fx_save_cb(void *user_data, const char *key, const char *data, size_t length) {
  (void)user_data, (void)key, (void)data, (void)length;
  return 0;
}
int fx_erase_cb(void *user_data, const char *key) { (void)user_data, (void)key; return 0; }
int fx_open_url_cb(void *user_data, const char *url) { (void)user_data, (void)url; return 1; }

/* The storage load callback: remembers the reply (stale once this returns) and, when a function's cases
 * need a live one, runs them here. */
static const bi_function *run_in_load;
int fx_load_cb(void *user_data, const char *key, hearth_storage_reply *reply) {
  (void)user_data, (void)key;
  if (!run_in_load) stale_reply = reply;
  if (run_in_load) {
    const bi_function *function = run_in_load;
    run_in_load = NULL;
    live_reply = reply;
    function->cases();
    live_reply = NULL;
  }
  return 0;
}

/* ------------------------------------------------------------------------------------------------
 * Child: one function's cases, then its valid call from another thread and from a loop thread
 * ---------------------------------------------------------------------------------------------- */
static void *valid_call_thread(void *arg) {
  ((const bi_function *)arg)->valid_call();
  return NULL;
}

typedef struct {
  const bi_function *function;
  sem_t done;
} loop_call;

static void valid_call_on_loop(void *arg, hearth_error status) {
  (void)status;
  loop_call *call = arg;
  on_loop_thread = true;
  call->function->valid_call();
  on_loop_thread = false;
  sem_post(&call->done);
}

static int run_child(const bi_function *function) {
  if (function->in_storage_load) {
    fx_stale_reply();
    run_in_load = function;
    bi_begin("(storage load callback)");
    hearth_app_destroy(make_app("badin-storage", HEARTH_PERSISTENCE_CALLBACKS));
    bi_result(run_in_load == NULL, 1, run_in_load ? "load callback never ran" : "ran");
    return child_failures ? 1 : 0;
  }
  function->cases();

  /* Every function may be called from any thread: a thread of the host's ... */
  pthread_t thread;
  pthread_create(&thread, NULL, valid_call_thread, (void *)function);
  pthread_join(thread, NULL);
  /* ... and a loop thread (app 1's, or app 2's when the call above destroyed app 1). */
  loop_call call = {.function = function};
  sem_init(&call.done, 0, 0);
  int posted = hearth_app_post(fx_app(), valid_call_on_loop, &call);
  if (posted != 0) posted = hearth_app_post(fx_app2(), valid_call_on_loop, &call);
  bi_begin("(posted to a loop thread)");
  bi_result(posted == 0, 1, posted == 0 ? "posted" : hearth_error_name(posted));
  if (posted == 0) {
    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += CASE_TIMEOUT_MS / 1000;
    bi_begin("(loop-thread call returned)");
    int rc;
    while ((rc = sem_timedwait(&call.done, &deadline)) != 0 && errno == EINTR) {
    }
    bi_result(rc == 0, 1, rc == 0 ? "returned" : "did not return in 10 s");
  }
  return child_failures ? 1 : 0;
}

/* ------------------------------------------------------------------------------------------------
 * Parent: fork per function, collect lines, print the table
 * ---------------------------------------------------------------------------------------------- */
typedef struct {
  int cases, failures;
  char verdict[640];
  char details[32768];
} outcome;

static void append(char *buffer, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void append(char *buffer, size_t size, const char *fmt, ...) {
  size_t used = strlen(buffer);
  if (used + 1 >= size) return;
  va_list args;
  va_start(args, fmt);
  vsnprintf(buffer + used, size - used, fmt, args);
  va_end(args);
}

static void take_line(outcome *o, char *line, char *open_case, size_t open_size) {
  char *fields[4] = {0};
  int n = 0;
  for (char *p = line; n < 4 && p; n++) {
    fields[n] = p;
    p = strchr(p, '\t');
    if (p) *p++ = '\0';
  }
  if (n >= 2 && !strcmp(fields[0], "B")) {
    snprintf(open_case, open_size, "%s", fields[1]);
  } else if (n >= 3 && !strcmp(fields[0], "E")) {
    o->cases++;
    open_case[0] = '\0';
    if (getenv("BADIN_VERBOSE"))
      append(o->details, sizeof o->details, "    %-40s %-4s %s\n", fields[1], fields[2], n >= 4 ? fields[3] : "");
    else if (strcmp(fields[2], "ok") != 0) {
      o->failures++;
      append(o->details, sizeof o->details, "    %s: %s\n", fields[1], n >= 4 ? fields[3] : "");
    }
  }
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static outcome run_function(const bi_function *function) {
  outcome o = {0};
  int fds[2];
  if (pipe(fds) != 0) abort();
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    dup2(fds[1], STDOUT_FILENO);
    close(fds[1]);
    alarm(FUNCTION_TIMEOUT_S + 5); /* belt and braces: the parent kills first */
    _exit(run_child(function));
  }
  close(fds[1]);
  char buffer[1 << 16], open_case[256] = "";
  size_t held = 0;
  double deadline = now_s() + FUNCTION_TIMEOUT_S;
  bool timed_out = false;
  for (;;) {
    int wait_ms = (int)((deadline - now_s()) * 1000);
    if (wait_ms <= 0) {
      timed_out = true;
      break;
    }
    struct pollfd p = {fds[0], POLLIN, 0};
    if (poll(&p, 1, wait_ms) <= 0) continue;
    ssize_t got = read(fds[0], buffer + held, sizeof buffer - 1 - held);
    if (got <= 0) break;
    held += (size_t)got;
    buffer[held] = '\0';
    char *start = buffer, *newline;
    while ((newline = strchr(start, '\n'))) {
      *newline = '\0';
      take_line(&o, start, open_case, sizeof open_case);
      start = newline + 1;
    }
    held = strlen(start);
    memmove(buffer, start, held);
    if (held == sizeof buffer - 1) held = 0; /* an absurd line: drop it */
  }
  if (timed_out) kill(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  close(fds[0]);
  if (timed_out) {
    o.failures++;
    snprintf(o.verdict, sizeof o.verdict, "HANG in %s", open_case[0] ? open_case : "(between cases)");
  } else if (WIFSIGNALED(status)) {
    o.failures++;
    snprintf(o.verdict, sizeof o.verdict, "CRASH (%s) in %s", strsignal(WTERMSIG(status)),
             open_case[0] ? open_case : "(between cases)");
  } else if (WEXITSTATUS(status) == 3) {
    o.failures++;
    snprintf(o.verdict, sizeof o.verdict, "FIXTURE FAILED in %s", open_case[0] ? open_case : "(setup)");
  } else if (o.failures || WEXITSTATUS(status) != 0) {
    if (!o.failures) o.failures++;
    snprintf(o.verdict, sizeof o.verdict, "FAIL");
  } else {
    snprintf(o.verdict, sizeof o.verdict, "ok");
  }
  return o;
}

int main(int argc, char **argv) {
  if (!getenv("FIREBASE_AUTH_EMULATOR_HOST")) {
    fprintf(stderr, "badinput: run through `python3 tests/badinput/gen.py --run` (make test-bad-input)\n");
    return 2;
  }
  signal(SIGPIPE, SIG_IGN);
  double t0 = now_s();
  int functions = 0, failed = 0, cases = 0;
  printf("%-72s %6s  %s\n", "function", "cases", "result");
  for (size_t i = 0; i < bi_function_count; i++) {
    const bi_function *function = &bi_functions[i];
    if (argc > 1) {
      bool wanted = false;
      for (int a = 1; a < argc; a++) wanted |= !strcmp(argv[a], function->name);
      if (!wanted) continue;
    }
    outcome o = run_function(function);
    functions++;
    cases += o.cases;
    if (o.failures) failed++;
    printf("%-72s %6d  %s\n%s", function->name, o.cases, o.verdict, o.details);
    fflush(stdout);
  }
  printf("%d functions, %d cases, %d functions failed, %.1f s\n", functions, cases, failed, now_s() - t0);
  return failed ? 1 : 0;
}
