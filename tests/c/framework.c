/* framework.c — registration, the runner, assertions, per-test memory and the callback probe. */
#include "test.h"

#include "../common/time_scale.h"

#include <signal.h>
#include <time.h>
#include <unistd.h>

/* ------------------------------------------------------------------------------------------------
 * Registry
 * ---------------------------------------------------------------------------------------------- */
typedef struct registered_test {
  const char *name;
  test_fn fn;
  int modes;
  int order;
  int sequence;
} registered_test;

static registered_test registry[512];
static int registry_count;

void test_register(const char *name, test_fn fn, int modes, int order) {
  if (registry_count == (int)(sizeof registry / sizeof registry[0])) {
    fprintf(stderr, "too many tests\n");
    abort();
  }
  registry[registry_count] = (registered_test){name, fn, modes, order, registry_count};
  registry_count++;
}

static int compare_tests(const void *a, const void *b) {
  const registered_test *x = a, *y = b;
  if (x->order != y->order) return x->order < y->order ? -1 : 1;
  return x->sequence < y->sequence ? -1 : x->sequence > y->sequence;
}

/* ------------------------------------------------------------------------------------------------
 * The running test
 * ---------------------------------------------------------------------------------------------- */
typedef struct deferred {
  void (*fn)(void *);
  void *arg;
} deferred;

#define MAX_TRACKED 64

struct test_context {
  const char *name;
  int mode;
  uv_loop_t *loop;
  pthread_t test_thread;
  jmp_buf jump;
  bool can_jump;
  atomic_bool in_uv_run;
  /* Host mode: a ref'd timer of the host's own that never fires, as a game engine's loop has handles of
   * its own. Tests about a loop that holds nothing but Hearth close it (t_bare_host_loop). */
  uv_timer_t keepalive;
  bool keepalive_open;

  pthread_mutex_t lock; /* guards everything below */
  int failures;
  void **owned;
  size_t owned_count, owned_capacity;
  deferred defers[64];
  int defer_count;
  hearth_app *apps[MAX_TRACKED];
  int app_count;
  hearth_future *futures[256];
  int future_count;
  hearth_user *users[256];
  int user_count;
};

static _Atomic(test_context *) current;
static int passed_total, failed_total;
static atomic_int late_callbacks;

/* Apps whose hearth_app_destroy has returned and whose final calls have run; a callback of one of them is a
 * contract violation. A new app at a recycled address is removed from the set when it is created. */
static pthread_mutex_t destroyed_lock = PTHREAD_MUTEX_INITIALIZER;
static hearth_app *destroyed_apps[1024];
static int destroyed_count;

/* Apps destroyed where the final calls come afterwards (the header's "Callbacks and user_data"): with a
 * host loop, during the host's next uv_run; with Hearth's own loop, right after the callback that called
 * hearth_app_destroy. Their callbacks are fine until `turns_left` host loop turns have run (-1: for the
 * rest of the test; the tests of test_destroy.c count those calls exactly). */
typedef struct finishing_app {
  hearth_app *app;
  int turns_left;
} finishing_app;
static finishing_app finishing_apps[64];
static int finishing_count;

static bool app_is_destroyed(const hearth_app *app) {
  bool found = false;
  pthread_mutex_lock(&destroyed_lock);
  for (int i = 0; i < destroyed_count && !found; i++) found = destroyed_apps[i] == app;
  pthread_mutex_unlock(&destroyed_lock);
  return found;
}

/* Apps whose hearth_app_destroy has started: while it runs, a callback already under way may see the app
 * as gone (hearth_app_is_loop_thread() == 0). */
static hearth_app *destroying_apps[64];
static int destroying_count;

void t_app_destroying(hearth_app *app) {
  pthread_mutex_lock(&destroyed_lock);
  if (destroying_count == (int)(sizeof destroying_apps / sizeof destroying_apps[0])) destroying_count = 0;
  destroying_apps[destroying_count++] = app;
  pthread_mutex_unlock(&destroyed_lock);
}

static bool app_is_destroying(const hearth_app *app) {
  bool found = false;
  pthread_mutex_lock(&destroyed_lock);
  for (int i = 0; i < destroying_count && !found; i++) found = destroying_apps[i] == app;
  pthread_mutex_unlock(&destroyed_lock);
  return found;
}

static bool app_is_finishing(const hearth_app *app) {
  bool found = false;
  pthread_mutex_lock(&destroyed_lock);
  for (int i = 0; i < finishing_count && !found; i++) found = finishing_apps[i].app == app;
  pthread_mutex_unlock(&destroyed_lock);
  return found;
}

/* A host loop turn has run: apps whose final calls were due by now count as destroyed. */
static void host_turn_done(void);

static void note_destroyed(hearth_app *app, int finishing_turns) {
  pthread_mutex_lock(&destroyed_lock);
  for (int i = 0; i < destroying_count; i++) {
    if (destroying_apps[i] == app) destroying_apps[i--] = destroying_apps[--destroying_count];
  }
  if (finishing_turns != 0 && finishing_count < (int)(sizeof finishing_apps / sizeof finishing_apps[0])) {
    finishing_apps[finishing_count++] = (finishing_app){app, finishing_turns};
    pthread_mutex_unlock(&destroyed_lock);
    return;
  }
  if (destroyed_count == (int)(sizeof destroyed_apps / sizeof destroyed_apps[0])) {
    memmove(destroyed_apps, destroyed_apps + 512, (size_t)(destroyed_count - 512) * sizeof destroyed_apps[0]);
    destroyed_count -= 512;
  }
  destroyed_apps[destroyed_count++] = app;
  pthread_mutex_unlock(&destroyed_lock);
}

static void forget_destroyed(const hearth_app *app) {
  pthread_mutex_lock(&destroyed_lock);
  for (int i = 0; i < destroyed_count; i++) {
    if (destroyed_apps[i] == app) destroyed_apps[i--] = destroyed_apps[--destroyed_count];
  }
  for (int i = 0; i < finishing_count; i++) {
    if (finishing_apps[i].app == app) finishing_apps[i--] = finishing_apps[--finishing_count];
  }
  pthread_mutex_unlock(&destroyed_lock);
}

static void host_turn_done(void) {
  hearth_app *done[64];
  int count = 0;
  pthread_mutex_lock(&destroyed_lock);
  for (int i = 0; i < finishing_count; i++) {
    if (finishing_apps[i].turns_left > 0 && --finishing_apps[i].turns_left == 0) {
      done[count++] = finishing_apps[i].app;
      finishing_apps[i--] = finishing_apps[--finishing_count];
    }
  }
  pthread_mutex_unlock(&destroyed_lock);
  for (int i = 0; i < count; i++) note_destroyed(done[i], 0);
}

static test_context *ctx(void) {
  test_context *t = atomic_load(&current);
  if (!t) {
    fprintf(stderr, "test framework used outside a test\n");
    abort();
  }
  return t;
}

int t_mode(void) { return ctx()->mode; }
bool t_host(void) { return ctx()->mode == MODE_HOST; }
uv_loop_t *t_loop(void) { return ctx()->loop; }
bool t_on_test_thread(void) { return pthread_equal(pthread_self(), ctx()->test_thread) != 0; }
const char *t_name(void) { return ctx()->name; }
bool t_in_uv_run(void) { return atomic_load(&ctx()->in_uv_run); }

bool t_str_eq(const char *a, const char *b) {
  if (!a || !b) return a == b;
  return strcmp(a, b) == 0;
}

/* ------------------------------------------------------------------------------------------------
 * Failures
 * ---------------------------------------------------------------------------------------------- */
void t_fail(const char *file, int line, const char *fmt, ...) {
  test_context *t = atomic_load(&current);
  char message[1024];
  va_list args;
  va_start(args, fmt);
  vsnprintf(message, sizeof message, fmt, args);
  va_end(args);
  const char *base = strrchr(file, '/');
  base = base ? base + 1 : file;
  if (!t) {
    printf("    %s:%d: %s (outside any test)\n", base, line, message);
    atomic_fetch_add(&late_callbacks, 1);
    return;
  }
  pthread_mutex_lock(&t->lock);
  t->failures++;
  if (t->failures <= 40) printf("    %s:%d: %s\n", base, line, message);
  if (t->failures == 41) printf("    (more failures not shown)\n");
  fflush(stdout);
  pthread_mutex_unlock(&t->lock);
}

int t_failure_count(void) {
  test_context *t = ctx();
  pthread_mutex_lock(&t->lock);
  int n = t->failures;
  pthread_mutex_unlock(&t->lock);
  return n;
}

void t_abort_test(void) {
  test_context *t = ctx();
  if (t->can_jump && pthread_equal(pthread_self(), t->test_thread)) longjmp(t->jump, 1);
}

/* ------------------------------------------------------------------------------------------------
 * Per-test memory and handles
 * ---------------------------------------------------------------------------------------------- */
void *t_own(void *p) {
  if (!p) return NULL;
  test_context *t = ctx();
  pthread_mutex_lock(&t->lock);
  if (t->owned_count == t->owned_capacity) {
    size_t capacity = t->owned_capacity ? t->owned_capacity * 2 : 64;
    void **grown = realloc(t->owned, capacity * sizeof *grown);
    if (!grown) abort();
    t->owned = grown;
    t->owned_capacity = capacity;
  }
  t->owned[t->owned_count++] = p;
  pthread_mutex_unlock(&t->lock);
  return p;
}

void *t_alloc(size_t size) {
  void *p = calloc(1, size ? size : 1);
  if (!p) abort();
  return t_own(p);
}

char *t_strdup(const char *s) {
  if (!s) return NULL;
  char *copy = strdup(s);
  if (!copy) abort();
  return t_own(copy);
}

char *t_printf(const char *fmt, ...) {
  va_list args;
  va_start(args, fmt);
  char *text = NULL;
  if (vasprintf(&text, fmt, args) < 0) abort();
  va_end(args);
  return t_own(text);
}

void t_defer(void (*fn)(void *), void *arg) {
  test_context *t = ctx();
  pthread_mutex_lock(&t->lock);
  if (t->defer_count == (int)(sizeof t->defers / sizeof t->defers[0])) abort();
  t->defers[t->defer_count++] = (deferred){fn, arg};
  pthread_mutex_unlock(&t->lock);
}

hearth_future *t_keep_future(hearth_future *f) {
  if (!f) return NULL;
  test_context *t = ctx();
  pthread_mutex_lock(&t->lock);
  if (t->future_count == (int)(sizeof t->futures / sizeof t->futures[0])) abort();
  t->futures[t->future_count++] = f;
  pthread_mutex_unlock(&t->lock);
  return f;
}

hearth_user *t_keep_user(hearth_user *u) {
  if (!u) return NULL;
  test_context *t = ctx();
  pthread_mutex_lock(&t->lock);
  if (t->user_count == (int)(sizeof t->users / sizeof t->users[0])) abort();
  t->users[t->user_count++] = u;
  pthread_mutex_unlock(&t->lock);
  return u;
}

/* ------------------------------------------------------------------------------------------------
 * Apps
 * ---------------------------------------------------------------------------------------------- */
hearth_app *t_app_create(const hearth_app_options *options) {
  hearth_app *app = (hearth_app *)(uintptr_t)1; /* must be overwritten */
  int rc = hearth_app_create(options, &app);
  if (rc != 0) {
    t_fail(__FILE__, __LINE__, "hearth_app_create failed: %s (%d)", hearth_error_name(rc), rc);
    t_abort_test();
    return NULL;
  }
  REQUIRE(app != NULL && app != (hearth_app *)(uintptr_t)1);
  forget_destroyed(app);
  test_context *t = ctx();
  pthread_mutex_lock(&t->lock);
  if (t->app_count == MAX_TRACKED) abort();
  t->apps[t->app_count++] = app;
  pthread_mutex_unlock(&t->lock);
  return app;
}

void t_app_destroyed(hearth_app *app) {
  /* Host loop: the final calls run during one of the next turns (the first that delivers the destroy's
   * closes; from another thread, the one after its wake-up). Hearth's own loop, destroyed from one of its
   * callbacks: right after that callback, at a moment the probe cannot see. */
  int finishing_turns = 0;
  if (t_host()) finishing_turns = 2;
  else if (t_in_callback()) finishing_turns = -1;
  note_destroyed(app, finishing_turns);
  test_context *t = ctx();
  pthread_mutex_lock(&t->lock);
  for (int i = 0; i < t->app_count; i++) {
    if (t->apps[i] == app) {
      memmove(&t->apps[i], &t->apps[i + 1], (size_t)(t->app_count - i - 1) * sizeof t->apps[0]);
      t->app_count--;
      break;
    }
  }
  pthread_mutex_unlock(&t->lock);
}

void t_app_destroy(hearth_app *app) {
  t_app_destroying(app);
  hearth_app_destroy(app);
  t_app_destroyed(app);
}

/* ------------------------------------------------------------------------------------------------
 * Loop turns
 * ---------------------------------------------------------------------------------------------- */
double t_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

const char *t_instrumentation(void) { return hearth_test_instrumentation(); }

/* Read at each check: the load part of the scale changes while the suite runs. */
double t_time_scale(void) { return hearth_test_time_scale(); }

void t_sleep_ms(int ms) {
  struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
  while (nanosleep(&ts, &ts) != 0) {
  }
}

static int run_host_loop(test_context *t, uv_run_mode mode) {
  atomic_store(&t->in_uv_run, true);
  int rc = uv_run(t->loop, mode);
  atomic_store(&t->in_uv_run, false);
  host_turn_done();
  return rc;
}

static void run_host_loop_once(test_context *t) { run_host_loop(t, UV_RUN_NOWAIT); }

int t_uv_run(uv_run_mode mode) {
  test_context *t = ctx();
  if (t->mode != MODE_HOST || !pthread_equal(pthread_self(), t->test_thread)) {
    t_fail(__FILE__, __LINE__, "t_uv_run needs the host loop's thread");
    return -1;
  }
  return run_host_loop(t, mode);
}

void t_turn(void) {
  test_context *t = ctx();
  if (t->mode == MODE_HOST) {
    if (!pthread_equal(pthread_self(), t->test_thread)) {
      t_fail(__FILE__, __LINE__, "t_turn called off the test thread in host mode");
      return;
    }
    run_host_loop_once(t);
  }
  t_sleep_ms(1);
}

void t_settle(int ms) {
  double end = t_now() + ms / 1000.0;
  while (t_now() < end) t_turn();
}

/* ------------------------------------------------------------------------------------------------
 * Callback probe
 * ---------------------------------------------------------------------------------------------- */
static _Thread_local int callback_depth;

bool t_in_callback(void) { return callback_depth > 0; }

void t_cb_enter(hearth_app *app, const char *what, const char *file, int line) {
  test_context *t = atomic_load(&current);
  callback_depth++;
  if (!t) {
    atomic_fetch_add(&late_callbacks, 1);
    printf("    %s:%d: %s ran between tests (after its app was destroyed)\n", file, line, what);
    return;
  }
  if (callback_depth > 1) t_fail(file, line, "%s ran re-entrantly (inside another callback, depth %d)", what, callback_depth);
  bool destroyed = app && app_is_destroyed(app);
  if (destroyed) t_fail(file, line, "%s ran after hearth_app_destroy returned and its final calls had run", what);
  bool finishing = app && app_is_finishing(app);
  bool on_test_thread = pthread_equal(pthread_self(), t->test_thread) != 0;
  if (t->mode == MODE_HOST) {
    if (!on_test_thread) t_fail(file, line, "%s ran on a thread other than the one running the host loop", what);
    else if (!atomic_load(&t->in_uv_run)) t_fail(file, line, "%s ran outside uv_run (inside a Hearth call?)", what);
  } else if (on_test_thread) {
    t_fail(file, line, "%s ran on the test's own thread, not Hearth's loop thread", what);
  }
  if (app && !destroyed && !finishing && hearth_app_is_loop_thread(app) != 1 && !app_is_destroying(app))
    t_fail(file, line, "hearth_app_is_loop_thread() is not 1 inside %s", what);
}

void t_cb_exit(void) { callback_depth--; }

/* ------------------------------------------------------------------------------------------------
 * Event sequences
 * ---------------------------------------------------------------------------------------------- */
t_seq *t_seq_new(void) {
  t_seq *seq = t_alloc(sizeof *seq);
  pthread_mutex_init(&seq->lock, NULL);
  return seq;
}

void t_seq_add(t_seq *seq, const char *item) {
  pthread_mutex_lock(&seq->lock);
  size_t used = strlen(seq->text);
  snprintf(seq->text + used, sizeof seq->text - used, "%s%s", seq->count ? "," : "", item);
  seq->count++;
  pthread_mutex_unlock(&seq->lock);
}

int t_seq_count(t_seq *seq) {
  pthread_mutex_lock(&seq->lock);
  int n = seq->count;
  pthread_mutex_unlock(&seq->lock);
  return n;
}

const char *t_seq_text(t_seq *seq) {
  pthread_mutex_lock(&seq->lock);
  char *copy = t_strdup(seq->text);
  pthread_mutex_unlock(&seq->lock);
  return copy;
}

/* ------------------------------------------------------------------------------------------------
 * Watchdog and crash reporting: a hung or crashed test still ends the suite with its summary line.
 * ---------------------------------------------------------------------------------------------- */
#define TEST_TIME_LIMIT_SECONDS 120
static atomic_llong deadline_ms;
static char current_label[256];

static const char *mode_label(int mode) {
  return mode == MODE_HOST ? " [host loop]" : mode == MODE_OWNED ? " [owned loop]" : "";
}

static void *watchdog(void *unused) {
  (void)unused;
  for (;;) {
    sleep(1);
    long long deadline = atomic_load(&deadline_ms);
    if (deadline && (long long)(t_now() * 1000) > deadline) {
      printf("FAIL  %s: still running after %d s (hung)\n", current_label, TEST_TIME_LIMIT_SECONDS);
      printf("%d passed, %d failed\n", passed_total, failed_total + 1);
      fflush(stdout);
      _exit(1);
    }
  }
  return NULL;
}

static void on_crash(int sig) {
  char line[512];
  int n = snprintf(line, sizeof line, "FAIL  %s: crashed with signal %d\n%d passed, %d failed\n", current_label, sig,
                   passed_total, failed_total + 1);
  fflush(stdout);
  if (n > 0) {
    ssize_t ignored = write(1, line, (size_t)n);
    (void)ignored;
  }
  _exit(1);
}

/* ------------------------------------------------------------------------------------------------
 * Running one test in one mode
 * ---------------------------------------------------------------------------------------------- */
static const char *handle_type_name(uv_handle_type type) {
  switch (type) {
#define NAME(upper, lower) case UV_##upper: return #lower;
    UV_HANDLE_TYPE_MAP(NAME)
#undef NAME
  default: return "unknown";
  }
}

static void describe_handle(uv_handle_t *handle, void *arg) {
  (void)arg;
  printf("      open handle: %s%s%s\n", handle_type_name(handle->type), uv_is_active(handle) ? " (active)" : "",
         uv_is_closing(handle) ? " (closing)" : "");
}

static void keepalive_never_fires(uv_timer_t *timer) { (void)timer; }

void t_bare_host_loop(void) {
  test_context *t = ctx();
  if (t->mode != MODE_HOST || !t->keepalive_open) return;
  uv_close((uv_handle_t *)&t->keepalive, NULL);
  t->keepalive_open = false;
  run_host_loop_once(t); /* finishes the close */
}

static void close_host_loop(test_context *t) {
  /* The contract: after hearth_app_destroy the host runs its loop once more, then uv_loop_close works. */
  run_host_loop_once(t);
  if (t->keepalive_open) {
    uv_close((uv_handle_t *)&t->keepalive, NULL);
    t->keepalive_open = false;
    run_host_loop_once(t);
  }
  int rc = uv_loop_close(t->loop);
  if (rc == 0) {
    free(t->loop);
    return;
  }
  t_fail(__FILE__, __LINE__, "uv_loop_close after destroy + one uv_run: %s", uv_err_name(rc));
  uv_walk(t->loop, describe_handle, NULL);
  double end = t_now() + 2.0;
  while (t_now() < end) {
    run_host_loop_once(t);
    if (uv_loop_close(t->loop) == 0) {
      free(t->loop);
      return;
    }
    t_sleep_ms(5);
  }
  /* Leaked on purpose: Hearth still holds handles on it. */
}

static void run_one(const registered_test *test, int mode) {
  test_context *t = calloc(1, sizeof *t);
  if (!t) abort();
  t->name = test->name;
  t->mode = mode;
  t->test_thread = pthread_self();
  pthread_mutex_init(&t->lock, NULL);
  if (mode == MODE_HOST) {
    t->loop = malloc(sizeof *t->loop);
    if (!t->loop || uv_loop_init(t->loop) != 0) abort();
    uv_timer_init(t->loop, &t->keepalive);
    uv_timer_start(&t->keepalive, keepalive_never_fires, 1000000000, 0);
    t->keepalive_open = true;
  }
  snprintf(current_label, sizeof current_label, "%s%s", test->name, mode_label(mode));
  int late_before = atomic_load(&late_callbacks);
  atomic_store(&current, t);
  atomic_store(&deadline_ms, (long long)(t_now() * 1000) + TEST_TIME_LIMIT_SECONDS * 1000LL);

  if (emu_reset() != 0) t_fail(__FILE__, __LINE__, "could not wipe the emulator's accounts");
  t->can_jump = true;
  if (setjmp(t->jump) == 0) test->fn();
  t->can_jump = false;

  for (int i = t->defer_count - 1; i >= 0; i--) t->defers[i].fn(t->defers[i].arg);
  while (t->app_count > 0) t_app_destroy(t->apps[t->app_count - 1]);
  if (t->loop) close_host_loop(t);
  for (int i = 0; i < t->future_count; i++) hearth_future_release(t->futures[i]);
  for (int i = 0; i < t->user_count; i++) hearth_user_release(t->users[i]);

  atomic_store(&deadline_ms, 0);
  int late = atomic_load(&late_callbacks) - late_before;
  if (late > 0) t_fail(__FILE__, __LINE__, "%d callback(s) ran outside their test", late);
  bool ok = t->failures == 0;
  atomic_store(&current, NULL);
  for (size_t i = 0; i < t->owned_count; i++) free(t->owned[i]);
  free(t->owned);
  pthread_mutex_destroy(&t->lock);
  free(t);

  if (ok) passed_total++;
  else failed_total++;
  printf("%s  %s\n", ok ? "PASS" : "FAIL", current_label);
  fflush(stdout);
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  const char *filter = argc > 1 ? argv[1] : NULL;
  const char *host = getenv("FIREBASE_AUTH_EMULATOR_HOST");
  if (!host || !*host) {
    printf("FAIL  suite: FIREBASE_AUTH_EMULATOR_HOST is not set; run it with scripts/with-emulator (make test-c)\n");
    printf("0 passed, 1 failed\n");
    return 1;
  }
  if (emu_init() != 0) {
    printf("FAIL  suite: no hearth-emulator answers at %s\n", host);
    printf("0 passed, 1 failed\n");
    return 1;
  }

  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = on_crash;
  int signals[] = {SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL};
  for (size_t i = 0; i < sizeof signals / sizeof signals[0]; i++) sigaction(signals[i], &action, NULL);
  signal(SIGPIPE, SIG_IGN);

  if (t_instrumentation() || t_time_scale() != 1)
    printf("note  time limits x%g (%s)\n", t_time_scale(), t_instrumentation() ? t_instrumentation() : "HEARTH_TEST_TIME_SCALE");

  pthread_t dog;
  pthread_create(&dog, NULL, watchdog, NULL);
  pthread_detach(dog);

  qsort(registry, (size_t)registry_count, sizeof registry[0], compare_tests);
  int ran = 0;
  for (int i = 0; i < registry_count; i++) {
    if (filter && !strstr(registry[i].name, filter)) continue;
    const int modes[] = {MODE_HOST, MODE_OWNED, MODE_NONE};
    for (size_t m = 0; m < 3; m++) {
      if (registry[i].modes & modes[m]) {
        run_one(&registry[i], modes[m]);
        ran++;
      }
    }
  }
  if (ran == 0) {
    printf("FAIL  suite: no test matches \"%s\"\n", filter ? filter : "");
    failed_total++;
  }
  printf("%d passed, %d failed\n", passed_total, failed_total);
  return failed_total == 0 ? 0 : 1;
}
