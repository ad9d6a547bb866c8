/*
 * test.h — the small framework behind the Hearth C suite.
 *
 * Every test is a named function registered with TEST(name, modes). A test that runs in both loop modes is
 * run twice: once with a host loop (the test creates a uv_loop_t and pumps uv_run(UV_RUN_NOWAIT) itself,
 * exactly as a game engine does once per frame) and once with Hearth's own loop thread (the test blocks in
 * hearth_future_wait). Each run prints one PASS/FAIL line; the last line is "N passed, M failed".
 *
 * Rules for writing tests:
 * - CHECK* records a failure and goes on; REQUIRE* records it and ends the test at once. REQUIRE only on
 *   the test's own thread (elsewhere it degrades to CHECK).
 * - State a callback can touch lives in t_alloc() memory (freed only after the test's apps are destroyed),
 *   never on the test function's stack: a REQUIRE leaves the function while the apps are still alive.
 * - Every callback starts with T_CB_ENTER(app) and ends with T_CB_EXIT(): that checks, for every test, that
 *   callbacks run on the loop thread, from inside uv_run, never re-entrantly, and never after an app's
 *   destroy has made its final calls (t_app_destroyed knows when that is).
 * - Apps come from t_app()/t_app_create() (tracked: destroyed after the test) and persistence defaults to
 *   NONE so no test writes to the user's data directory.
 */
#ifndef HEARTH_C_TEST_H
#define HEARTH_C_TEST_H

#define _GNU_SOURCE 1

#include <hearth.h>
#include <uv.h>

#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------------------------------
 * Registration
 * ---------------------------------------------------------------------------------------------- */
enum {
  MODE_HOST = 1,  /* the test owns a uv_loop_t and runs it */
  MODE_OWNED = 2, /* options.loop = NULL: Hearth runs its own loop thread */
  MODE_NONE = 4   /* no loop is involved (apps, if any, use the owned loop) */
};
#define BOTH_LOOPS (MODE_HOST | MODE_OWNED)

typedef void (*test_fn)(void);
void test_register(const char *name, test_fn fn, int modes, int order);

/* Tests run sorted by `order` (lower first), then in registration order. */
#define TEST_ORDERED(name, modes, order)                                                              \
  static void name(void);                                                                            \
  __attribute__((constructor)) static void name##_register(void) { test_register(#name, name, modes, order); } \
  static void name(void)
#define TEST(name, modes) TEST_ORDERED(name, modes, 10)

/* ------------------------------------------------------------------------------------------------
 * The running test
 * ---------------------------------------------------------------------------------------------- */
typedef struct test_context test_context;
int t_mode(void);               /* MODE_HOST, MODE_OWNED or MODE_NONE */
bool t_host(void);              /* t_mode() == MODE_HOST */
uv_loop_t *t_loop(void);        /* the host loop (NULL unless MODE_HOST) */
bool t_on_test_thread(void);
const char *t_name(void);

/* ------------------------------------------------------------------------------------------------
 * Assertions
 * ---------------------------------------------------------------------------------------------- */
void t_fail(const char *file, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void t_abort_test(void);
int t_failure_count(void); /* failures recorded so far in this test run */

#define CHECK(cond)                                                                                  \
  do {                                                                                               \
    if (!(cond)) t_fail(__FILE__, __LINE__, "CHECK(%s)", #cond);                                     \
  } while (0)
#define REQUIRE(cond)                                                                                \
  do {                                                                                               \
    if (!(cond)) {                                                                                   \
      t_fail(__FILE__, __LINE__, "REQUIRE(%s)", #cond);                                              \
      t_abort_test();                                                                                \
    }                                                                                                \
  } while (0)
#define CHECK_INT(actual, expected)                                                                  \
  do {                                                                                               \
    long long t_a_ = (long long)(actual), t_e_ = (long long)(expected);                              \
    if (t_a_ != t_e_) t_fail(__FILE__, __LINE__, "%s is %lld, expected %s (%lld)", #actual, t_a_, #expected, t_e_); \
  } while (0)
#define REQUIRE_INT(actual, expected)                                                                \
  do {                                                                                               \
    int t_before_ = t_failure_count();                                                               \
    CHECK_INT(actual, expected);                                                                     \
    if (t_failure_count() != t_before_) t_abort_test();                                              \
  } while (0)
/* Compares hearth error codes and prints their names. */
#define CHECK_CODE(actual, expected)                                                                 \
  do {                                                                                               \
    int t_a_ = (int)(actual), t_e_ = (int)(expected);                                                \
    if (t_a_ != t_e_)                                                                                \
      t_fail(__FILE__, __LINE__, "%s is %s (%d), expected %s (%d)", #actual, hearth_error_name(t_a_), t_a_, \
             hearth_error_name(t_e_), t_e_);                                                         \
  } while (0)
#define REQUIRE_CODE(actual, expected)                                                               \
  do {                                                                                               \
    int t_before_ = t_failure_count();                                                               \
    CHECK_CODE(actual, expected);                                                                    \
    if (t_failure_count() != t_before_) t_abort_test();                                              \
  } while (0)
/* NULL-safe string equality. */
#define CHECK_STR(actual, expected)                                                                  \
  do {                                                                                               \
    const char *t_a_ = (actual), *t_e_ = (expected);                                                 \
    if (!t_str_eq(t_a_, t_e_))                                                                       \
      t_fail(__FILE__, __LINE__, "%s is %s%s%s, expected %s%s%s", #actual, t_a_ ? "\"" : "", t_a_ ? t_a_ : "NULL", \
             t_a_ ? "\"" : "", t_e_ ? "\"" : "", t_e_ ? t_e_ : "NULL", t_e_ ? "\"" : "");            \
  } while (0)
#define REQUIRE_STR(actual, expected)                                                                \
  do {                                                                                               \
    int t_before_ = t_failure_count();                                                               \
    CHECK_STR(actual, expected);                                                                     \
    if (t_failure_count() != t_before_) t_abort_test();                                              \
  } while (0)
#define CHECK_CONTAINS(haystack, needle)                                                             \
  do {                                                                                               \
    const char *t_h_ = (haystack), *t_n_ = (needle);                                                 \
    if (!t_h_ || !strstr(t_h_, t_n_))                                                                \
      t_fail(__FILE__, __LINE__, "%s (%s%s%s) does not contain \"%s\"", #haystack, t_h_ ? "\"" : "",  \
             t_h_ ? t_h_ : "NULL", t_h_ ? "\"" : "", t_n_);                                          \
  } while (0)
bool t_str_eq(const char *a, const char *b);

/* A failed future: its code, and a non-empty message. */
#define CHECK_FAILS_WITH(future, code)                                                               \
  do {                                                                                               \
    hearth_future *t_f_ = (future);                                                                  \
    CHECK_CODE(t_await(t_f_), code);                                                                 \
    const char *t_m_ = hearth_future_error_message(t_f_);                                            \
    if (!t_m_ || !*t_m_) t_fail(__FILE__, __LINE__, "%s failed without a message", #future);         \
  } while (0)

/* ------------------------------------------------------------------------------------------------
 * Memory that lives until the test's apps are gone
 * ---------------------------------------------------------------------------------------------- */
void *t_alloc(size_t size);                   /* zeroed */
char *t_strdup(const char *s);                /* NULL stays NULL */
char *t_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void *t_own(void *malloced);                  /* free()d after the test */
void t_defer(void (*fn)(void *), void *arg);  /* runs after the test body, before apps are destroyed */
/* Handles released after the test (after the apps are destroyed: they must outlive the app). */
hearth_future *t_keep_future(hearth_future *f);
hearth_user *t_keep_user(hearth_user *u);

/* ------------------------------------------------------------------------------------------------
 * Apps and loops
 * ---------------------------------------------------------------------------------------------- */
#define TEST_API_KEY "test-api-key"
const char *t_project(void); /* $HEARTH_PROJECT or "demo-hearth" */

/* Defaults for this test's mode: api key, project, loop (host mode), persistence NONE, a unique app name. */
void t_options(hearth_app_options *options);
hearth_app *t_app_create(const hearth_app_options *options); /* REQUIREs success; tracked */
hearth_app *t_app(void);                                     /* t_options + t_app_create */
/* An app whose requests go to a server that accepts connections and never answers: operations stay
 * pending until the request timeout (0: the 30 s default). */
hearth_app *t_unanswered_app(int64_t timeout_ms);
void t_app_destroy(hearth_app *app);   /* hearth_app_destroy + t_app_destroyed */
void t_app_destroying(hearth_app *app); /* call right before a hearth_app_destroy made outside t_app_destroy */
void t_app_destroyed(hearth_app *app);  /* ... and this right after it returns: untrack; its callbacks must stop */

/* Host mode: the test's loop normally holds a ref'd handle of the host's own (as an engine's loop does);
 * this closes it, so the loop holds nothing but Hearth. No-op in other modes. */
void t_bare_host_loop(void);
/* Host mode: uv_run on the test's loop, marked so the callback probe knows it is inside uv_run. */
int t_uv_run(uv_run_mode mode);
/* One loop turn: host mode runs uv_run(UV_RUN_NOWAIT); then a 1 ms sleep. */
void t_turn(void);
void t_settle(int ms); /* turns for `ms` milliseconds: lets anything that would happen, happen */
void t_sleep_ms(int ms);
double t_now(void);    /* monotonic seconds */

/* Time limits that guard product promises hold on the plain build and scale under ASan, TSan and
 * valgrind (tests/common/time_scale.h says why and by how much). */
const char *t_instrumentation(void); /* "asan", "tsan", "valgrind", or NULL on the plain build */
double t_time_scale(void);           /* 1 on the plain build */
#define T_LIMIT(seconds) ((seconds) * t_time_scale())

#define T_WAIT_SECONDS 20.0
/* Turns until `cond` holds or T_WAIT_SECONDS pass; check `cond` afterwards. */
#define WAIT_UNTIL(cond)                                                                             \
  do {                                                                                               \
    double t_deadline_ = t_now() + T_WAIT_SECONDS;                                                   \
    while (!(cond) && t_now() < t_deadline_) t_turn();                                               \
  } while (0)
#define REQUIRE_EVENTUALLY(cond)                                                                     \
  do {                                                                                               \
    WAIT_UNTIL(cond);                                                                                \
    REQUIRE(cond);                                                                                   \
  } while (0)

/* Waits for the future in this test's mode (host: pump the loop; owned: hearth_future_wait), REQUIREs
 * that it completes, and returns its error code. */
int t_await(hearth_future *future);
/* t_await + REQUIRE success (prints the error message otherwise). */
void t_await_ok_at(hearth_future *future, const char *what, const char *file, int line);
#define t_await_ok(future) t_await_ok_at((future), #future, __FILE__, __LINE__)

/* ------------------------------------------------------------------------------------------------
 * Callback probe
 * ---------------------------------------------------------------------------------------------- */
void t_cb_enter(hearth_app *app, const char *what, const char *file, int line);
void t_cb_exit(void);
#define T_CB_ENTER(app) t_cb_enter((app), __func__, __FILE__, __LINE__)
#define T_CB_EXIT() t_cb_exit()
/* Set by the framework around uv_run in host mode. */
bool t_in_uv_run(void);
/* True inside a callback that started with T_CB_ENTER (on this thread). */
bool t_in_callback(void);

/* A thread-safe record of events, compared as one comma-separated string. */
typedef struct t_seq {
  pthread_mutex_t lock;
  char text[2048];
  int count;
} t_seq;
t_seq *t_seq_new(void);
void t_seq_add(t_seq *seq, const char *item);
int t_seq_count(t_seq *seq);
const char *t_seq_text(t_seq *seq); /* a copy owned by the test */

/* ------------------------------------------------------------------------------------------------
 * Users
 * ---------------------------------------------------------------------------------------------- */
const char *t_email(const char *tag); /* unique per call, lower case */
#define T_PASSWORD "correct-horse-1"
/* Each signs in and returns the signed-in user's snapshot (kept: released after the test). */
hearth_user *t_sign_in_anonymously(hearth_auth *auth);
hearth_user *t_create_user(hearth_auth *auth, const char *email, const char *password);
hearth_user *t_current_user(hearth_auth *auth); /* REQUIREs a signed-in user; kept */
const char *t_current_uid(hearth_auth *auth);   /* "" when signed out; test-owned copy */
/* Fresh ID token via hearth_user_get_token (test-owned copy). */
const char *t_token(const hearth_user *user, int force_refresh);

/* ------------------------------------------------------------------------------------------------
 * Identity providers (the emulator accepts fake IdP tokens: the claims as JSON, or an unsigned JWT)
 * ---------------------------------------------------------------------------------------------- */
const char *t_subject(const char *tag); /* a provider user id (sub), unique per call */
/* {"sub":..,"email":..,"email_verified":..,"name":..} plus `more` (e.g. ",\"nonce\":\"..\""); NULL email or
 * name: left out; NULL more: nothing. Test-owned. */
const char *t_idp_claims(const char *sub, const char *email, bool email_verified, const char *name, const char *more);
/* The same claims as an unsigned JWT ({"alg":"none"}). Test-owned. */
const char *t_unsigned_jwt(const char *claims_json);
/* The provider entry of a user's provider data, or NULL. */
const hearth_user_info *t_provider_info(const hearth_user *user, const char *provider_id);
/* The user's provider ids, sorted and comma-separated ("google.com,password"). Test-owned. */
const char *t_provider_ids(const hearth_user *user);

/* ------------------------------------------------------------------------------------------------
 * JSON (tiny reader for emulator answers and token claims)
 * ---------------------------------------------------------------------------------------------- */
typedef struct json json;
typedef enum { JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT } json_type;
json *json_parse(const char *text, size_t length); /* NULL when not valid JSON */
void json_free(json *value);
json_type json_kind(const json *value);
const json *json_get(const json *object, const char *key); /* NULL when absent or not an object */
const json *json_at(const json *array, size_t index);
size_t json_count(const json *array_or_object);
const char *json_string(const json *value); /* NULL unless a string */
double json_number(const json *value);
bool json_bool(const json *value);
const char *json_get_string(const json *object, const char *key);
const json *t_json(const char *text); /* parsed, owned by the test; REQUIREs valid JSON */

/* Decodes the claims (payload) of a JWT; REQUIREs a well-formed token. Owned by the test. */
const json *t_token_claims(const char *jwt);
/* base64url without padding -> bytes (malloc'd, NUL-terminated); NULL on bad input. */
char *t_base64url_decode(const char *text, size_t length, size_t *out_length);

/* ------------------------------------------------------------------------------------------------
 * The emulator (raw HTTP/1.1 over a socket: no extra link dependency)
 * ---------------------------------------------------------------------------------------------- */
int emu_init(void);            /* parses FIREBASE_AUTH_EMULATOR_HOST and checks GET / ; 0 on success */
const char *emu_host(void);    /* as in FIREBASE_AUTH_EMULATOR_HOST */
uint16_t emu_port(void);
/* Returns the body (malloc'd, NUL-terminated) and stores the HTTP status; NULL on transport failure. */
char *emu_request(const char *method, const char *path, const char *body, bool admin, int *status);
int emu_reset(void);                                    /* wipes accounts; 0 on success */
const json *emu_oob_code(const char *email, const char *request_type); /* the newest match, or NULL */
int emu_apply_oob_code(const char *oob_code);           /* accounts:update {oobCode}; HTTP status */
int emu_reset_password(const char *oob_code, const char *new_password); /* accounts:resetPassword; HTTP status */
const json *emu_lookup(const char *uid);                /* the server's record of the account, or NULL */
int emu_admin_update(const char *uid, const char *fields_json); /* HTTP status */
int emu_admin_delete(const char *uid);                  /* HTTP status */
int emu_set_improved_email_privacy(bool on);            /* HTTP status */
/* Sign-ins older than `seconds` fail sensitive updates with CREDENTIAL_TOO_OLD_LOGIN_AGAIN (0 = never);
 * HTTP status. */
int emu_set_recent_login_max_age(int seconds);

/* ------------------------------------------------------------------------------------------------
 * HTTP as a browser does it, and URLs
 * ---------------------------------------------------------------------------------------------- */
typedef struct t_http_response {
  int status;           /* 0 when there was no HTTP answer */
  int transport_error;  /* errno of a failed exchange (ECONNREFUSED, ...), else 0 */
  const char *location; /* the Location header, or NULL; test-owned */
  const char *body;     /* test-owned; NULL when there was no answer */
} t_http_response;
/* GET of an http:// URL on a fresh connection; redirects are not followed. Any thread. */
t_http_response t_http_get(const char *url);
/* POST of an application/x-www-form-urlencoded body, as a provider's form_post answer arrives. */
t_http_response t_http_post_form(const char *url, const char *form);
/* Sends `request` byte for byte to the URL's host and port and reads the answer. */
t_http_response t_http_raw(const char *url, const char *request);

/* The decoded value of the first query parameter `name` ('+' is a space), or NULL; test-owned. */
const char *t_url_param(const char *url, const char *name);
/* scheme://authority and path, without query or fragment; test-owned. */
const char *t_url_base(const char *url);
/* `url` with parameter `name` set to `value` (replaced where present, else appended); test-owned. */
const char *t_url_with_param(const char *url, const char *name, const char *value);
/* Percent-encoding of everything but RFC 3986's unreserved characters (NULL: ""); test-owned. */
const char *t_url_encode(const char *text);

/* ------------------------------------------------------------------------------------------------
 * The person at the browser, for provider flows
 *
 * A t_browser is a provider flow's UI delegate: its open_url hands the URL to a thread of its own that
 * plays the user (open_url runs on the loop thread and must not block it: the loopback receiver is
 * served by that same loop). The user fetches the provider page with the planned choice, follows its
 * 303 to the app's redirect (an HTTP GET to the loopback receiver, or hearth_auth_handle_url for a
 * custom scheme) and records every step as a t_visit. The same user passes the emulator's fake reCAPTCHA
 * page that app verification opens before an SMS is sent: signing in there is ticking "I'm not a robot"
 * (the plan's choice is not used), cancelling is its Cancel button.
 * ---------------------------------------------------------------------------------------------- */
typedef enum t_user_action {
  T_USER_SIGNS_IN,   /* picks the identity described by the plan's choice */
  T_USER_WALKS_AWAY, /* looks at the page and does nothing: the flow stays pending */
  T_USER_CANCELS,    /* presses Cancel on the provider page */
  T_USER_REFUSED     /* open_url itself fails (returns non-zero): the page is never shown */
} t_user_action;

typedef struct t_plan {
  t_user_action action;
  /* The choice on the provider page, as query parameters: "email=a%40example.com&emailVerified=false". */
  const char *choice;
  /* Before the real redirect, the user's browser delivers the same redirect with a forged state (and,
   * for a custom scheme, the host first offers hearth_auth_handle_url a URL of another scheme). */
  bool forged_redirect_first;
  /* The provider answers with a form post (response_mode=form_post, as Apple does): the browser POSTs
   * the redirect's query as a form to the redirect target instead of following it. */
  bool form_post;
  /* When set, the redirect arrives with this id_token instead of the provider's (a token minted for
   * another sign-in). */
  const char *swapped_id_token;
} t_plan;

typedef struct t_visit {
  const char *opened_url;   /* what open_url got */
  int page_status;          /* the provider page's answer to the choice (303) */
  const char *location;     /* where the page sent the browser */
  int forged_status;        /* the receiver's answer to the forged redirect (400); 0 when not tried */
  int forged_handled;       /* custom scheme: hearth_auth_handle_url of the forged redirect (0); -1 when not tried */
  int foreign_handled;      /* custom scheme: hearth_auth_handle_url of another scheme's URL (0); -1 when not tried */
  int redirect_status;      /* the loopback receiver's answer (200); 0 when not fetched */
  int redirect_error;       /* errno when fetching the redirect failed */
  const char *redirect_body;
  int handled;              /* custom scheme: hearth_auth_handle_url of the redirect (1); -1 when not tried */
} t_visit;

typedef struct t_browser t_browser;
/* A browser for `app`'s provider flows; its thread stops after the test. */
t_browser *t_browser_new(hearth_app *app);
/* What the user does with the pages opened from now on. */
void t_browser_plan(t_browser *browser, t_plan plan);
void t_browser_sign_in_as(t_browser *browser, const char *choice); /* T_USER_SIGNS_IN with `choice` */
/* Flow options using this browser as the UI delegate (redirect_uri etc. left at their defaults). */
void t_browser_options(t_browser *browser, hearth_provider_flow_options *options);
/* t_browser_options + hearth_auth_set_provider_flow_options (REQUIREs success). */
void t_browser_attach(t_browser *browser, int use_create_auth_uri);
int t_browser_opened(t_browser *browser);   /* open_url calls so far */
/* Releases of this browser as a UI delegate so far (t_browser_options sets `release`). */
int t_browser_releases(t_browser *browser);
int t_browser_finished(t_browser *browser); /* visits the user is done with */
/* Turns until `count` visits are finished (REQUIREs it), and returns the last one. */
t_visit t_browser_wait(t_browser *browser, int count);
t_visit t_browser_visit(t_browser *browser, int index); /* 0-based; zeroed when out of range */

/* ------------------------------------------------------------------------------------------------
 * Phone numbers, SMS codes and one-time codes
 * ---------------------------------------------------------------------------------------------- */
/* Firebase's documented fictional test number and its code (configured with emu_configure). */
#define T_FICTIONAL_NUMBER "+16505554567"
#define T_FICTIONAL_CODE "123456"
const char *t_phone_number(void); /* an E.164 number no other test of this run uses; test-owned */
/* Handles released after the test body (before its apps are destroyed); NULL stays NULL. */
hearth_credential *t_keep_credential(hearth_credential *credential);
hearth_multi_factor_assertion *t_keep_assertion(hearth_multi_factor_assertion *assertion);
hearth_future *t_verify_phone(hearth_auth *auth, const hearth_phone_auth_options *options); /* kept; not NULL */
/* Sends a code to the number (default options) and returns the verification id; REQUIREs success. */
const char *t_send_code(hearth_auth *auth, const char *phone_number);
/* A phone credential of the verification id and the code the emulator sent for it (kept). */
hearth_credential *t_sms_credential(const char *verification_id);
/* Signs in with a code sent to the number; the signed-in user (kept). */
hearth_user *t_sign_in_with_phone(hearth_auth *auth, const char *phone_number);

/* The emulator's listing entry ({code, phoneNumber, sessionInfo, locale}) of the SMS sent for a
 * verification id, or NULL. */
const json *emu_verification_code(const char *verification_id);
const char *emu_sms_code(const char *verification_id); /* its code; REQUIREs the entry */
int emu_verification_code_count(const char *phone_number); /* unused codes the emulator lists for it */
/* PATCHes the project config with these fields ("\"smsCodeTtlSeconds\":1"); REQUIREs success. The phone
 * settings (test numbers, code lifetime, rate limit, app verification) are restored after the test. */
void emu_configure(const char *fields_json);
/* The emulator's output ($HEARTH_EMULATOR_LOG) once it contains `needle`, or after 5 s; test-owned. */
const char *emu_log_until(const char *needle);

/* The suite's own SHA-1, HMAC-SHA-1, base32 and RFC 6238 TOTP (totp.c), sharing nothing with Hearth. */
void t_sha1(const uint8_t *data, size_t length, uint8_t digest[20]);
void t_hmac_sha1(const uint8_t *key, size_t key_length, const uint8_t *message, size_t length, uint8_t mac[20]);
const char *t_base32(const uint8_t *bytes, size_t length); /* upper case, unpadded; test-owned */
/* The HMAC-SHA-1 TOTP code of a base32 secret at a Unix time; test-owned; NULL for bad arguments. */
const char *t_totp_sha1(const char *base32_secret, int digits, int period_seconds, int64_t unix_time);

/* ------------------------------------------------------------------------------------------------
 * Processes, sockets, files
 * ---------------------------------------------------------------------------------------------- */
int t_thread_count(void);                /* entries in /proc/self/task */
/* A loopback TCP port that accepts connections and never answers (closed after the test). */
uint16_t t_blackhole_port(void);
uint16_t t_closed_port(void);            /* a loopback port nobody listens on */
const char *t_temp_dir(void);            /* a fresh 0700 directory, removed after the test */
/* Regular files under `dir` (recursively), as a NULL-terminated test-owned array of paths. */
const char **t_files_in(const char *dir);
char *t_read_file(const char *path, size_t *length); /* test-owned; NULL if unreadable */
void t_write_file(const char *path, const char *data, size_t length);

/* A thread that runs fn(arg); t_join waits for it. */
typedef struct t_thread t_thread;
t_thread *t_spawn(void (*fn)(void *), void *arg);
void t_join(t_thread *thread);

#endif /* HEARTH_C_TEST_H */
