/*
 * hearth_c.c — Hearth from C against the canned server.
 *
 *   --mode host   the host's libuv loop (options.loop): Hearth creates no thread; completions start
 *                 the next operation from inside the callback (a game loop or a load bot)
 *   --mode owned  Hearth's own loop thread: sequentially (inflight 1) the calling thread blocks in
 *                 hearth_future_wait; with more in flight, completions start the next operation on
 *                 Hearth's loop thread (password only: one app)
 *
 * Apps: password sign-ins share one app (one Auth, any number in flight). An Auth has one user, so
 * anonymous sign-ups (sign out, then sign in anonymously: an Auth that is already anonymous answers
 * without a request) and get_token(force) (concurrent refreshes of one user share one request) use one
 * app per operation in flight, all on the same loop.
 */
#define _GNU_SOURCE
#include "bench_common.h"

#include <hearth.h>
#include <pthread.h>
#include <uv.h>

typedef struct slot {
  hearth_auth *auth;
  hearth_user *user; /* token runs: the signed-in user */
  int64_t start_ns;
} slot;

static bench_run run;
static uv_loop_t host_loop;
static int owned;
static hearth_app **apps;
static int app_count;
static slot *slots;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t drained = PTHREAD_COND_INITIALIZER;
static long wave_done, wave_errors;
static int in_wave;
static long posts_pending; /* owned loop: operations posted to the loop thread, not started yet */

static const char *api_key(const bench_config *c) { return c->op == BENCH_ANON ? BENCH_ANON_KEY : BENCH_PASSWORD_KEY; }

static hearth_app *make_app(const bench_config *c, int index) {
  char name[64];
  snprintf(name, sizeof name, "bench-%d", index);
  hearth_app_options o;
  hearth_app_options_init(&o);
  o.api_key = api_key(c);
  o.app_name = name;
  o.persistence = HEARTH_PERSISTENCE_NONE;
  o.loop = owned ? NULL : &host_loop;
  hearth_app *app = NULL;
  int rc = hearth_app_create(&o, &app);
  if (rc != 0) {
    fprintf(stderr, "hearth_c: hearth_app_create: %s\n", hearth_error_name(rc));
    exit(1);
  }
  rc = hearth_auth_use_emulator(hearth_auth_get(app), c->host, (uint16_t)c->port);
  if (rc != 0) {
    fprintf(stderr, "hearth_c: hearth_auth_use_emulator: %s\n", hearth_error_name(rc));
    exit(1);
  }
  return app;
}

/* The outcome of a finished operation as an error code; a success must carry its result. */
static int outcome(hearth_future *f) {
  int error = hearth_future_error(f);
  if (error) return error;
  if (run.cfg.op == BENCH_TOKEN) return hearth_future_string(f) ? 0 : HEARTH_ERROR_FAILURE;
  const hearth_user *user = hearth_future_user(f);
  return user && *hearth_user_uid(user) ? 0 : HEARTH_ERROR_FAILURE;
}

static hearth_future *start(slot *s) {
  switch (run.cfg.op) {
  case BENCH_ANON:
    hearth_auth_sign_out(s->auth);
    return hearth_auth_sign_in_anonymously(s->auth);
  case BENCH_PASSWORD:
    return hearth_auth_sign_in_with_email_and_password(s->auth, BENCH_EMAIL, BENCH_SECRET);
  default:
    return hearth_user_get_token(s->user, 1);
  }
}

static void on_done(hearth_future *f, void *user_data);

static void issue(slot *s) {
  s->start_ns = bench_now_ns();
  bench_started(&run);
  hearth_future *f = start(s);
  if (!f || hearth_future_add_callback(f, on_done, s) != 0) {
    fprintf(stderr, "hearth_c: could not start an operation\n");
    exit(1);
  }
}

static void on_done(hearth_future *f, void *user_data) {
  slot *s = user_data;
  int error = outcome(f);
  hearth_future_release(f);
  if (owned) pthread_mutex_lock(&lock);
  if (in_wave) {
    wave_done++;
    if (error) wave_errors++;
    run.inflight_now--;
  } else if (bench_complete(&run, s->start_ns, error)) {
    issue(s);
  }
  if (owned && run.inflight_now == 0 && posts_pending == 0) pthread_cond_broadcast(&drained);
  if (owned) pthread_mutex_unlock(&lock);
}

/* Runs the host loop, or waits until the owned loop has finished everything in flight. */
static void wait_idle(void) {
  if (!owned) {
    uv_run(&host_loop, UV_RUN_DEFAULT);
    return;
  }
  pthread_mutex_lock(&lock);
  while (run.inflight_now > 0 || posts_pending > 0) pthread_cond_wait(&drained, &lock);
  pthread_mutex_unlock(&lock);
}

static void post_issue(void *user_data, hearth_error status) {
  (void)status;
  pthread_mutex_lock(&lock);
  issue(user_data);
  posts_pending--;
  pthread_mutex_unlock(&lock);
}

/* Starts one operation per slot: from this thread on a host loop, on the loop thread when owned. */
static void issue_all(int count) {
  for (int i = 0; i < count; i++) {
    slot *s = &slots[i];
    if (!owned) {
      issue(s);
      continue;
    }
    pthread_mutex_lock(&lock);
    posts_pending++;
    pthread_mutex_unlock(&lock);
    if (hearth_app_post(hearth_auth_app(s->auth), post_issue, s) != 0) exit(1);
  }
}

/* Token runs: every app signs in once (before the measurement, counted as setup requests). */
static long sign_in_all(void) {
  for (int i = 0; i < app_count; i++) {
    hearth_future *f = hearth_auth_sign_in_with_email_and_password(hearth_auth_get(apps[i]), BENCH_EMAIL, BENCH_SECRET);
    if (owned) {
      hearth_future_wait(f, 30000);
    } else {
      while (hearth_future_status(f) == HEARTH_FUTURE_PENDING) uv_run(&host_loop, UV_RUN_ONCE);
    }
    if (hearth_future_error(f) != 0) {
      fprintf(stderr, "hearth_c: setup sign-in failed: %s\n", hearth_future_error_message(f));
      exit(1);
    }
    hearth_future_release(f);
  }
  for (int i = 0; i < run.cfg.inflight; i++) slots[i].user = hearth_auth_current_user(slots[i].auth);
  return 2L * app_count;
}

/* Sequential with a blocking wait on Hearth's own loop thread. */
static void run_owned_blocking(void) {
  slot *s = &slots[0];
  for (;;) {
    int64_t t = bench_now_ns();
    bench_started(&run);
    hearth_future *f = start(s);
    hearth_future_wait(f, 30000);
    int error = outcome(f);
    hearth_future_release(f);
    if (!bench_complete(&run, t, error)) break;
  }
}

static void teardown(void) {
  for (int i = 0; i < run.cfg.inflight; i++)
    if (slots[i].user) hearth_user_release(slots[i].user);
  for (int i = 0; i < app_count; i++) hearth_app_destroy(apps[i]);
  if (!owned) {
    uv_run(&host_loop, UV_RUN_DEFAULT);
    uv_loop_close(&host_loop);
  }
}

int main(int argc, char **argv) {
  int64_t main_ns = bench_now_ns();
  bench_config cfg = bench_parse(argc, argv, "host");
  owned = !strcmp(cfg.mode, "owned");
  if (!owned && strcmp(cfg.mode, "host") != 0) bench_usage(argv[0]);
  if (!owned) uv_loop_init(&host_loop);
  bench_run_init(&run, cfg);

  if (cfg.first) {
    hearth_app *app = make_app(&cfg, 0);
    int64_t issue_ns = bench_now_ns();
    hearth_future *f = hearth_auth_sign_in_with_email_and_password(hearth_auth_get(app), BENCH_EMAIL, BENCH_SECRET);
    if (owned) hearth_future_wait(f, 30000);
    else while (hearth_future_status(f) == HEARTH_FUTURE_PENDING) uv_run(&host_loop, UV_RUN_ONCE);
    int64_t done = bench_now_ns();
    int error = outcome(f);
    bench_report_first(&cfg, "hearth-c", main_ns, issue_ns, done, error, bench_status_kib("VmRSS:"),
                       bench_thread_count());
    hearth_future_release(f);
    hearth_app_destroy(app);
    if (!owned) {
      uv_run(&host_loop, UV_RUN_DEFAULT);
      uv_loop_close(&host_loop);
    }
    return 0;
  }

  int per_slot_apps = cfg.op != BENCH_PASSWORD;
  if (owned && cfg.inflight > 1 && per_slot_apps) {
    fprintf(stderr, "hearth_c: --mode owned runs anon/token sequentially only (one loop thread per app)\n");
    return 2;
  }
  int slot_count = cfg.wave > 0 ? (int)cfg.wave : cfg.inflight;
  if (cfg.wave > 0 && per_slot_apps) {
    fprintf(stderr, "hearth_c: --wave measures password sign-ins on one app\n");
    return 2;
  }
  app_count = per_slot_apps ? cfg.inflight : 1;
  apps = calloc((size_t)app_count, sizeof *apps);
  slots = calloc((size_t)slot_count, sizeof *slots);
  for (int i = 0; i < app_count; i++) apps[i] = make_app(&cfg, i);
  for (int i = 0; i < slot_count; i++) slots[i].auth = hearth_auth_get(apps[per_slot_apps ? i : 0]);
  long setup_requests = cfg.op == BENCH_TOKEN ? sign_in_all() : 0;

  if (cfg.wave > 0) {
    /* Warm-up on one slot, then the wave: every operation started at once, all must complete. */
    run.cfg.inflight = 1;
    run.cfg.ops = 0;
    issue_all(1);
    wait_idle();
    long before = bench_status_kib("VmRSS:");
    bench_reset_peak_rss();
    in_wave = 1;
    int64_t t0 = bench_now_ns();
    issue_all(slot_count);
    wait_idle();
    double seconds = (double)(bench_now_ns() - t0) / 1e9;
    bench_report_wave(&cfg, "hearth-c", wave_done, wave_errors, before, bench_status_kib("VmHWM:"),
                      bench_status_kib("VmRSS:"), bench_thread_count(), seconds);
    teardown();
    return 0;
  }

  if (owned && cfg.inflight == 1) {
    run_owned_blocking();
  } else {
    issue_all(cfg.inflight);
    wait_idle();
  }
  char extra[64];
  snprintf(extra, sizeof extra, "\"apps\":%d", app_count);
  bench_report(&run, "hearth-c", cfg.op == BENCH_TOKEN ? 1 : 2, setup_requests, extra);
  teardown();
  return 0;
}
