/* load.c — many concurrent operations from one app, and a long run of mixed operations.
 *
 *   load [--host-loop] [--sign-ins N]                 N concurrent sign-ins (half password, half anonymous)
 *   load [--host-loop] --soak SECONDS [--warm-up S]   mixed operations (warm-up S, default 60 s)
 *
 * Runs against the emulator named by FIREBASE_AUTH_EMULATOR_HOST (scripts/with-emulator). With
 * --host-loop the program owns a uv_loop_t and runs it itself (Hearth creates no thread); otherwise
 * Hearth runs its own loop thread and the operations are started from this (another) thread.
 *
 * Load: N/2 password users are created concurrently first (a phase of its own), then N sign-ins start
 * at once. Every future must complete exactly once (counted in its completion callback, then 300 ms
 * more are allowed for a stray second call) and without an error, and the process must stay under
 * 1,000 open descriptors (requests share a bounded set of kept-alive connections, so the common
 * 1,024-descriptor limit is enough). Figures: wall time, ops/s, peak RSS, peak open descriptors
 * (sampled every 5 ms). A request's timeout counts from the call, so the last of 10,000 waits for the
 * other 9,999 in curl's queue: the load's apps give it 5 minutes (the default 30 s ran out at a load of
 * 6 on 2 cores, where the sign-ins ran at ~270/s), since this test is about completing every operation
 * exactly once, not about latency.
 *
 * Soak: APPS apps each run the cycle sign-in (anonymous) -> get_token(force) -> reload -> update
 * profile -> link an email credential -> unlink "password" -> sign-out, one cycle per CYCLE_MS at most.
 * RSS is sampled every 10 s; the run passes when the last sample exceeds the one taken at the end of
 * the warm-up by less than 1 MiB and no operation failed.
 *
 * Prints one JSON line of figures last; exit status 0 when the run passed, 1 when it failed, 2 when it
 * could not run.
 */
#define _GNU_SOURCE 1
#include <dirent.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#include <uv.h>

#include "hearth.h"

#define PASSWORD "load-password-1"
#define MAX_FDS 1000

static bool host_mode;
static uv_loop_t host_loop;

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void sleep_ms(long ms) {
  struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
  nanosleep(&ts, NULL);
}

static long rss_bytes(void) {
  long pages = 0, resident = 0;
  FILE *f = fopen("/proc/self/statm", "r");
  if (!f) return -1;
  if (fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = -1;
  fclose(f);
  return resident * sysconf(_SC_PAGESIZE);
}

static int open_fds(void) {
  DIR *dir = opendir("/proc/self/fd");
  if (!dir) return -1;
  int n = 0;
  while (readdir(dir)) n++;
  closedir(dir);
  return n - 3; /* ".", ".." and the directory's own descriptor */
}

static long peak_rss_bytes(void) {
  struct rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss * 1024L;
}

static hearth_app *make_app(const char *name) {
  hearth_app_options options;
  hearth_app_options_init(&options);
  options.api_key = "fake-api-key";
  options.project_id = getenv("HEARTH_PROJECT") ? getenv("HEARTH_PROJECT") : "demo-hearth";
  options.app_name = name;
  options.persistence = HEARTH_PERSISTENCE_NONE;
  options.request_timeout_ms = 300000;
  options.loop = host_mode ? &host_loop : NULL;
  hearth_app *app = NULL;
  int rc = hearth_app_create(&options, &app);
  if (rc != 0) {
    fprintf(stderr, "load: hearth_app_create: %s\n", hearth_error_name(rc));
    exit(2);
  }
  return app;
}

/* Runs the host loop (host mode) or sleeps (owned mode) for about `ms`. */
static void pump(long ms) {
  if (!host_mode) {
    sleep_ms(ms);
    return;
  }
  double end = now_s() + (double)ms / 1e3;
  do {
    uv_run(&host_loop, UV_RUN_NOWAIT);
    sleep_ms(1);
  } while (now_s() < end);
}

/* ------------------------------------------------------------------------------------------------
 * Load
 * ---------------------------------------------------------------------------------------------- */
typedef struct {
  atomic_int calls;
  atomic_int error;
} slot;

static atomic_int completed;
static atomic_bool sampling;
static atomic_int peak_fds;

static void *sampler(void *arg) {
  (void)arg;
  while (atomic_load(&sampling)) {
    int fds = open_fds();
    if (fds > atomic_load(&peak_fds)) atomic_store(&peak_fds, fds);
    sleep_ms(5);
  }
  return NULL;
}

static void on_done(hearth_future *future, void *user_data) {
  slot *s = user_data;
  atomic_store(&s->error, hearth_future_error(future));
  if (atomic_fetch_add(&s->calls, 1) == 0) atomic_fetch_add(&completed, 1);
}

typedef struct {
  const char *name;
  int count;
  double seconds;
  int failed;         /* futures that completed with an error */
  int not_once;       /* futures whose callback ran 0 or 2+ times */
  int first_error;
} phase_result;

/* Starts `count` operations with start(i), waits for every completion, checks "exactly once". */
static phase_result run_phase(const char *name, int count, hearth_future *(*start)(hearth_auth *, int),
                              hearth_auth *auth) {
  slot *slots = calloc((size_t)count, sizeof *slots);
  hearth_future **futures = calloc((size_t)count, sizeof *futures);
  atomic_store(&completed, 0);
  double t0 = now_s();
  for (int i = 0; i < count; i++) {
    futures[i] = start(auth, i);
    if (!futures[i] || hearth_future_add_callback(futures[i], on_done, &slots[i]) != 0) {
      fprintf(stderr, "load: could not start %s #%d\n", name, i);
      exit(2);
    }
  }
  double deadline = t0 + 120;
  while (atomic_load(&completed) < count && now_s() < deadline) pump(host_mode ? 0 : 2);
  double seconds = now_s() - t0;
  pump(300); /* a second completion would show up here */
  phase_result r = {name, count, seconds, 0, 0, 0};
  for (int i = 0; i < count; i++) {
    if (atomic_load(&slots[i].calls) != 1) r.not_once++;
    int error = atomic_load(&slots[i].error);
    if (error != 0) {
      if (!r.failed++) {
        r.first_error = error;
        fprintf(stderr, "load: %s #%d failed: %s: %s\n", name, i, hearth_error_name(error),
                hearth_future_error_message(futures[i]));
      }
    }
    hearth_future_release(futures[i]);
  }
  free(futures);
  free(slots);
  printf("%-10s %6d ops  %7.2f s  %8.0f ops/s  failed %d  not-exactly-once %d\n", name, count, seconds,
         (double)count / seconds, r.failed, r.not_once);
  fflush(stdout);
  return r;
}

static char *email_for(int i) {
  static _Thread_local char buffer[96];
  snprintf(buffer, sizeof buffer, "load-%d-%d@example.com", (int)getpid(), i);
  return buffer;
}

static hearth_future *start_create(hearth_auth *auth, int i) {
  return hearth_auth_create_user_with_email_and_password(auth, email_for(i), PASSWORD);
}

static hearth_future *start_sign_in(hearth_auth *auth, int i) {
  if (i % 2 == 0) return hearth_auth_sign_in_with_email_and_password(auth, email_for(i / 2), PASSWORD);
  return hearth_auth_sign_in_anonymously(auth);
}

static int run_load(int sign_ins) {
  pthread_t thread;
  atomic_store(&sampling, true);
  pthread_create(&thread, NULL, sampler, NULL);
  hearth_app *app = make_app("load");
  hearth_auth *auth = hearth_auth_get(app);
  long rss_before = rss_bytes();
  int fds_before = open_fds();

  phase_result create = run_phase("create", (sign_ins + 1) / 2, start_create, auth);
  phase_result sign_in = run_phase("sign-in", sign_ins, start_sign_in, auth);

  hearth_app_destroy(app);
  if (host_mode) pump(50);
  atomic_store(&sampling, false);
  pthread_join(thread, NULL);

  int peak = atomic_load(&peak_fds);
  bool ok = create.failed == 0 && create.not_once == 0 && sign_in.failed == 0 && sign_in.not_once == 0;
  if (peak >= MAX_FDS) {
    fprintf(stderr, "load: %d descriptors open at the peak: requests are not sharing connections\n", peak);
    ok = false;
  }
  printf("{\"mode\": \"%s\", \"sign_ins\": %d, \"create_seconds\": %.3f, \"sign_in_seconds\": %.3f, "
         "\"sign_in_ops_per_second\": %.0f, \"failed\": %d, \"not_exactly_once\": %d, "
         "\"rss_before_mib\": %.1f, \"peak_rss_mib\": %.1f, \"fds_before\": %d, \"peak_fds\": %d, \"ok\": %s}\n",
         host_mode ? "host-loop" : "owned-loop", sign_ins, create.seconds, sign_in.seconds,
         (double)sign_ins / sign_in.seconds, create.failed + sign_in.failed, create.not_once + sign_in.not_once,
         (double)rss_before / 1048576.0, (double)peak_rss_bytes() / 1048576.0, fds_before,
         peak, ok ? "true" : "false");
  return ok ? 0 : 1;
}

/* ------------------------------------------------------------------------------------------------
 * Soak
 * ---------------------------------------------------------------------------------------------- */
#define APPS 4
#define CYCLE_MS 50

enum step { SIGN_IN, GET_TOKEN, RELOAD, UPDATE_PROFILE, LINK, UNLINK, SIGN_OUT, STEPS };
static const char *const step_names[STEPS] = {"sign-in", "get-token", "reload", "update-profile",
                                              "link-email", "unlink", "sign-out"};

typedef struct worker {
  int index;
  hearth_app *app;
  hearth_auth *auth;
  hearth_user *user;
  enum step step;     /* the step in flight (one at a time per worker) */
  long cycles;
  atomic_bool idle;   /* between cycles */
} worker;

static atomic_long operations;
static atomic_long failures[STEPS];

static void on_step(hearth_future *future, void *user_data);

/* Starts `step` of the worker's cycle; its completion callback starts the next one, on the app's loop
 * thread. A failed step skips to the sign-out. */
static void run_step(worker *w, enum step step) {
  {
    hearth_future *future = NULL;
    switch (step) {
    case SIGN_IN:
      future = hearth_auth_sign_in_anonymously(w->auth);
      break;
    case GET_TOKEN: future = hearth_user_get_token(w->user, 1); break;
    case RELOAD: future = hearth_user_reload(w->user); break;
    case UPDATE_PROFILE: {
      char name[64];
      snprintf(name, sizeof name, "Soak %d.%ld", w->index, w->cycles);
      future = hearth_user_update_user_profile(w->user, name, NULL);
      break;
    }
    case LINK: {
      char email[96];
      snprintf(email, sizeof email, "soak-%d-%d-%ld@example.com", (int)getpid(), w->index, w->cycles);
      hearth_credential *credential = hearth_credential_create_email(email, PASSWORD);
      future = hearth_user_link_with_credential(w->user, credential);
      hearth_credential_release(credential);
      break;
    }
    case UNLINK: future = hearth_user_unlink(w->user, "password"); break;
    case SIGN_OUT:
    default: {
      int rc = hearth_auth_sign_out(w->auth);
      atomic_fetch_add(&operations, 1);
      if (rc != 0) atomic_fetch_add(&failures[SIGN_OUT], 1);
      hearth_user_release(w->user);
      w->user = NULL;
      w->cycles++;
      atomic_store(&w->idle, true); /* the main loop starts the next cycle */
      return;
    }
    }
    w->step = step;
    if (!future || hearth_future_add_callback(future, on_step, w) != 0) {
      fprintf(stderr, "soak: could not start %s\n", step_names[step]);
      exit(2);
    }
    return;
  }
}

static void on_step(hearth_future *future, void *user_data) {
  worker *w = user_data;
  int error = hearth_future_error(future);
  atomic_fetch_add(&operations, 1);
  enum step next = w->step + 1;
  if (error != 0) {
    if (atomic_fetch_add(&failures[w->step], 1) == 0)
      fprintf(stderr, "soak: %s failed: %s: %s\n", step_names[w->step], hearth_error_name(error),
              hearth_future_error_message(future));
    next = SIGN_OUT;
  } else if (w->step == SIGN_IN) {
    w->user = hearth_user_retain(hearth_future_user(future));
  }
  hearth_future_release(future); /* allowed inside its own callback */
  run_step(w, next);
}

static double warm_up = 60;

static int run_soak(double seconds) {
  static worker workers[APPS];
  for (int i = 0; i < APPS; i++) {
    char name[32];
    snprintf(name, sizeof name, "soak-%d", i);
    workers[i].index = i;
    workers[i].app = make_app(name);
    workers[i].auth = hearth_auth_get(workers[i].app);
    atomic_store(&workers[i].idle, true);
  }
  const double interval = 10;
  double t0 = now_s(), next_sample = t0 + interval;
  long samples[1024];
  int n = 0;
  long warm_rss = -1;
  printf("soak: %d apps, %s, %.0f s; RSS every %.0f s\n", APPS, host_mode ? "host loop" : "owned loops",
         seconds, interval);
  fflush(stdout);
  /* Cycles start at most every CYCLE_MS per app: a steady load that a shared machine can carry for
   * ten minutes, rather than as many as the emulator can take. */
  while (now_s() - t0 < seconds) {
    for (int i = 0; i < APPS; i++)
      if (atomic_exchange(&workers[i].idle, false)) run_step(&workers[i], SIGN_IN);
    pump(CYCLE_MS);
    if (now_s() >= next_sample && n < 1024) {
      samples[n] = rss_bytes();
      double at = next_sample - t0;
      if (at >= warm_up && warm_rss < 0) warm_rss = samples[n];
      printf("t=%4.0f s  rss %.2f MiB  ops %ld\n", at, (double)samples[n] / 1048576.0, atomic_load(&operations));
      fflush(stdout);
      n++;
      next_sample += interval;
    }
  }
  double stop_deadline = now_s() + 30;
  for (int i = 0; i < APPS; i++)
    while (!atomic_load(&workers[i].idle) && now_s() < stop_deadline) pump(5);
  long last = n ? samples[n - 1] : -1, max_after = warm_rss;
  for (int i = 0; i < n; i++)
    if (samples[i] > max_after && (double)(i + 1) * interval > warm_up) max_after = samples[i];
  long failed = 0;
  for (int s = 0; s < STEPS; s++) failed += atomic_load(&failures[s]);
  for (int i = 0; i < APPS; i++) hearth_app_destroy(workers[i].app);
  if (host_mode) pump(50);
  double elapsed = now_s() - t0;
  long growth = (warm_rss >= 0 && last >= 0) ? last - warm_rss : -1;
  bool ok = failed == 0 && growth >= 0 && growth < 1048576L;
  printf("{\"mode\": \"%s\", \"seconds\": %.0f, \"operations\": %ld, \"ops_per_second\": %.0f, \"failed\": %ld, "
         "\"rss_after_warm_up_mib\": %.2f, \"rss_last_mib\": %.2f, \"rss_max_after_warm_up_mib\": %.2f, "
         "\"growth_kib\": %ld, \"samples\": %d, \"ok\": %s}\n",
         host_mode ? "host-loop" : "owned-loop", elapsed, atomic_load(&operations),
         (double)atomic_load(&operations) / elapsed, failed, (double)warm_rss / 1048576.0, (double)last / 1048576.0,
         (double)max_after / 1048576.0, growth / 1024, n, ok ? "true" : "false");
  if (growth < 0) fprintf(stderr, "soak: the run is shorter than the warm-up: no growth figure\n");
  return ok ? 0 : 1;
}

int main(int argc, char **argv) {
  int sign_ins = 10000;
  double soak = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--host-loop")) host_mode = true;
    else if (!strcmp(argv[i], "--sign-ins") && i + 1 < argc) sign_ins = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--soak") && i + 1 < argc) soak = atof(argv[++i]);
    else if (!strcmp(argv[i], "--warm-up") && i + 1 < argc) warm_up = atof(argv[++i]);
    else {
      fprintf(stderr, "usage: load [--host-loop] [--sign-ins N | --soak SECONDS [--warm-up SECONDS]]\n");
      return 2;
    }
  }
  if (!getenv("FIREBASE_AUTH_EMULATOR_HOST")) {
    fprintf(stderr, "load: run under scripts/with-emulator\n");
    return 2;
  }
  if (host_mode && uv_loop_init(&host_loop) != 0) return 2;
  int rc = soak > 0 ? run_soak(soak) : run_load(sign_ins);
  if (host_mode) {
    pump(50);
    if (uv_loop_close(&host_loop) != 0) {
      fprintf(stderr, "load: uv_loop_close: handles left open\n");
      rc = rc ? rc : 1;
    }
  }
  return rc;
}
