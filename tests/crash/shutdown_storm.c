/* shutdown_storm.c — hearth_app_destroy with 1,000 operations in flight returns within 50 ms, completes
 * every future (CANCELLED, or its real result if it finished first) and calls every completion callback
 * exactly once (each owns a heap ticket it frees): with Hearth's own loop destroyed from another thread,
 * all of them before destroy returns; from a callback, right after it; with a host loop, during the
 * loop's next turns. In both loop modes, called from the loop thread inside a completion callback and
 * from another thread. With a host loop, uv_run returns and uv_loop_close returns 0.
 *
 *   shutdown_storm [REPETITIONS]   (default 5 per case; needs FIREBASE_AUTH_EMULATOR_HOST)
 *
 * Each repetition has two apps: one whose endpoint is a TCP listener that accepts and never answers
 * (1,000 sign-ins stall there), one on the emulator (100 sign-ins that race the destroy). */
#define _GNU_SOURCE
#include <hearth.h>
#include <uv.h>

#include "../common/time_scale.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define STALLED_OPS 1000
#define EMULATOR_OPS 100
/* The product promise, on the plain build; scaled under ASan, TSan and valgrind (time_scale.h). */
#define LIMIT_MS 50.0

static int failures;
#define CHECK(cond, ...)                                               \
  do {                                                                 \
    if (!(cond)) {                                                     \
      failures++;                                                      \
      fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);  \
      fprintf(stderr, __VA_ARGS__);                                    \
      fputc('\n', stderr);                                             \
    }                                                                  \
  } while (0)

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static double cpu_ms(clockid_t clock) {
  struct timespec ts;
  clock_gettime(clock, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}
static double thread_cpu_ms(void) { return cpu_ms(CLOCK_THREAD_CPUTIME_ID); }

static int current_tid(void) { return (int)syscall(SYS_gettid); }

/* A thread's time on a CPU and time runnable but waiting for one, from the scheduler's statistics
 * (/proc/.../schedstat, in ns). 0, or -1 where they cannot be read. */
static int read_schedstat(const char *path, long long *run_ns, long long *wait_ns) {
  FILE *file = fopen(path, "r");
  if (!file) return -1;
  int read = fscanf(file, "%lld %lld", run_ns, wait_ns);
  fclose(file);
  return read == 2 ? 0 : -1;
}

/* Times any thread of this process (including threads that have ended) was preempted. */
static long involuntary_switches(void) {
  struct rusage usage;
  return getrusage(RUSAGE_SELF, &usage) == 0 ? usage.ru_nivcsw : 0;
}

static void sleep_ms(int ms) {
  struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
  nanosleep(&ts, NULL);
}

/* Accepts connections and never answers; the accepted sockets stay open until the process ends. */
static int stalled_port;
static pthread_mutex_t accepted_lock = PTHREAD_MUTEX_INITIALIZER;
static int accepted[8192];
static int accepted_count;
static void *accept_forever(void *arg) {
  int fd = (int)(intptr_t)arg;
  for (;;) {
    int c = accept(fd, NULL, NULL);
    if (c < 0) {
      sleep_ms(1);
      continue;
    }
    pthread_mutex_lock(&accepted_lock);
    if (accepted_count < 8192) accepted[accepted_count++] = c;
    else close(c);
    pthread_mutex_unlock(&accepted_lock);
  }
  return NULL;
}

/* Between repetitions, so that stalled connections do not pile up against the descriptor limit. */
static void close_accepted(void) {
  pthread_mutex_lock(&accepted_lock);
  for (int i = 0; i < accepted_count; i++) close(accepted[i]);
  accepted_count = 0;
  pthread_mutex_unlock(&accepted_lock);
}

static void start_stalled_listener(void) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
  socklen_t len = sizeof a;
  if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof a) != 0 || listen(fd, 4096) != 0 ||
      getsockname(fd, (struct sockaddr *)&a, &len) != 0) {
    perror("stalled listener");
    exit(2);
  }
  stalled_port = ntohs(a.sin_port);
  pthread_t t;
  pthread_create(&t, NULL, accept_forever, (void *)(intptr_t)fd);
  pthread_detach(t);
}

typedef struct side {
  hearth_app *app;
  hearth_future *ops[STALLED_OPS];
  int count;
  atomic_int calls[STALLED_OPS]; /* completion callbacks per operation: exactly 1 each */
  atomic_int frees;              /* tickets freed by their callback */
  atomic_int frees_when_destroy_returned;
  atomic_int destroy_returned;
  double destroy_ms;
  /* Where a destroy's time went, so that a slow one explains itself: when the callbacks it caused
   * began and ended (µs after the destroy began; -1: none ran after it began), the CPU time of the
   * thread that ran them over that stretch, and of the thread that called destroy during the call. */
  atomic_llong destroy_began_us;
  atomic_llong first_callback_us, last_callback_us;
  atomic_llong callback_cpu_first_us, callback_cpu_last_us;
  double destroyer_cpu_ms;
  /* All threads of this process during the call: CPU time, and how often the scheduler preempted one.
   * Far less CPU than wall time with preemptions points at the scheduler, not at a wait in Hearth. */
  double process_cpu_ms;
  long preemptions;
  /* The app's loop thread (its id noted by a posted function) between the start of the call and its
   * first callback after it: time on a CPU and time waiting for one. The kernel adds a wait to the
   * count when the wait ends, so one under way at the start counts whole. */
  atomic_int loop_tid;
  int loop_sched_known;
  long long loop_run0_ns, loop_wait0_ns;
  atomic_int loop_sched_first_known;
  atomic_llong loop_run_first_ns, loop_wait_first_ns;
} side;

/* The heap user_data of one completion callback, freed in its one call. */
typedef struct ticket {
  side *side;
  int index;
} ticket;

typedef struct scenario {
  side stalled, emulator;
  int from_callback;
  atomic_int destroyed;
  atomic_int destroyer_on_loop_thread;
  hearth_future *trigger;
} scenario;

static long long now_us(void) { return (long long)(now_ms() * 1e3); }

static void destroy_side(side *s) {
  atomic_store(&s->first_callback_us, -1);
  atomic_store(&s->last_callback_us, -1);
  long switches0 = involuntary_switches();
  atomic_store(&s->loop_sched_first_known, 0);
  int tid = atomic_load(&s->loop_tid);
  char path[64];
  snprintf(path, sizeof path, "/proc/self/task/%d/schedstat", tid);
  s->loop_sched_known = tid > 0 && read_schedstat(path, &s->loop_run0_ns, &s->loop_wait0_ns) == 0;
  double t0 = now_ms(), cpu0 = thread_cpu_ms(), process0 = cpu_ms(CLOCK_PROCESS_CPUTIME_ID);
  atomic_store(&s->destroy_began_us, (long long)(t0 * 1e3));
  hearth_app_destroy(s->app);
  s->destroy_ms = now_ms() - t0;
  s->destroyer_cpu_ms = thread_cpu_ms() - cpu0;
  s->process_cpu_ms = cpu_ms(CLOCK_PROCESS_CPUTIME_ID) - process0;
  s->preemptions = involuntary_switches() - switches0;
  atomic_store(&s->frees_when_destroy_returned, atomic_load(&s->frees));
  atomic_store(&s->destroy_returned, 1);
}

static void op_done(hearth_future *f, void *user_data) {
  (void)f;
  ticket *k = user_data;
  side *s = k->side;
  long long began = atomic_load(&s->destroy_began_us);
  if (began) {
    long long at = now_us() - began, cpu = (long long)(thread_cpu_ms() * 1e3);
    long long none = -1;
    if (atomic_compare_exchange_strong(&s->first_callback_us, &none, at)) {
      atomic_store(&s->callback_cpu_first_us, cpu);
      long long run_ns, wait_ns;
      if (current_tid() == atomic_load(&s->loop_tid) &&
          read_schedstat("/proc/thread-self/schedstat", &run_ns, &wait_ns) == 0) {
        atomic_store(&s->loop_run_first_ns, run_ns);
        atomic_store(&s->loop_wait_first_ns, wait_ns);
        atomic_store(&s->loop_sched_first_known, 1);
      }
    }
    atomic_store(&s->last_callback_us, at);
    atomic_store(&s->callback_cpu_last_us, cpu);
  }
  atomic_fetch_add(&s->calls[k->index], 1);
  free(k);
  atomic_fetch_add(&s->frees, 1);
}

/* The completion callback that destroys both apps (on the stalled app's loop thread). */
static void trigger_done(hearth_future *f, void *user_data) {
  (void)f;
  scenario *sc = user_data;
  if (atomic_exchange(&sc->destroyed, 1)) return;
  atomic_store(&sc->destroyer_on_loop_thread, hearth_app_is_loop_thread(sc->stalled.app));
  destroy_side(&sc->emulator);
  destroy_side(&sc->stalled);
}

static void note_loop_thread(void *user_data, hearth_error status) {
  if (status == HEARTH_ERROR_NONE) atomic_store(&((side *)user_data)->loop_tid, current_tid());
}

static hearth_app *make_app(uv_loop_t *loop, const char *name, const char *host, int port) {
  hearth_app_options o;
  hearth_app_options_init(&o);
  o.api_key = "shutdown-storm-key";
  o.app_name = name;
  o.loop = loop;
  o.persistence = HEARTH_PERSISTENCE_NONE;
  hearth_app *app = NULL;
  if (hearth_app_create(&o, &app) != 0 || hearth_auth_use_emulator(hearth_auth_get(app), host, (uint16_t)port) != 0) {
    fprintf(stderr, "cannot create app %s\n", name);
    exit(2);
  }
  return app;
}

static void start_ops(side *s, int n) {
  hearth_auth *auth = hearth_auth_get(s->app);
  for (int i = 0; i < n; i++) {
    s->ops[i] = hearth_auth_sign_in_anonymously(auth);
    ticket *k = malloc(sizeof *k);
    if (!k) exit(2);
    k->side = s;
    k->index = i;
    if (!s->ops[i] || hearth_future_add_callback(s->ops[i], op_done, k) != 0) {
      fprintf(stderr, "cannot start operation %d\n", i);
      exit(2);
    }
  }
  s->count = n;
}

static void check_side(side *s, const char *what, int real_results_allowed, int finals_before_return,
                       double *max_ms) {
  int cancelled = 0, succeeded = 0;
  for (int i = 0; i < s->count; i++) {
    int status = hearth_future_status(s->ops[i]), error = hearth_future_error(s->ops[i]);
    CHECK(status == HEARTH_FUTURE_COMPLETE, "%s op %d status %d", what, i, status);
    if (error == HEARTH_ERROR_CANCELLED) cancelled++;
    else if (error == 0 && real_results_allowed) succeeded++;
    else CHECK(0, "%s op %d error %s", what, i, hearth_error_name(error));
    hearth_future_release(s->ops[i]);
  }
  double limit_ms = LIMIT_MS * hearth_test_time_scale(); /* the load now, as the destroy ran */
  long long first = atomic_load(&s->first_callback_us), last = atomic_load(&s->last_callback_us);
  char callbacks[160], loop_thread[160] = "", phases[640];
  if (s->loop_sched_known && atomic_load(&s->loop_sched_first_known))
    snprintf(loop_thread, sizeof loop_thread, "; until then the app's loop thread ran %.2f ms and waited %.2f ms for "
             "a CPU (a wait under way when the call began counts whole)", (atomic_load(&s->loop_run_first_ns) - s->loop_run0_ns) / 1e6,
             (atomic_load(&s->loop_wait_first_ns) - s->loop_wait0_ns) / 1e6);
  if (first < 0)
    snprintf(callbacks, sizeof callbacks, "no callback ran after it began");
  else
    snprintf(callbacks, sizeof callbacks, "its callbacks ran from %.2f to %.2f ms on a thread that used %.2f ms of CPU "
             "for them", first / 1e3, last / 1e3,
             (atomic_load(&s->callback_cpu_last_us) - atomic_load(&s->callback_cpu_first_us)) / 1e3);
  snprintf(phases, sizeof phases, "%s%s; during the call the destroying thread used %.2f ms of CPU, the whole "
           "process %.2f ms, and its threads were preempted %ld times", callbacks, loop_thread, s->destroyer_cpu_ms,
           s->process_cpu_ms, s->preemptions);
  CHECK(s->destroy_ms < limit_ms, "%s destroy took %.2f ms (limit %.0f ms, load per core %.2f): %s", what,
        s->destroy_ms, limit_ms, hearth_test_load_scale(), phases);
  if (s->destroy_ms > *max_ms) *max_ms = s->destroy_ms;
  for (int i = 0; i < s->count; i++) {
    int calls = atomic_load(&s->calls[i]);
    CHECK(calls == 1, "%s op %d: %d completion callbacks", what, i, calls);
  }
  CHECK(atomic_load(&s->frees) == s->count, "%s: %d of %d tickets freed", what, atomic_load(&s->frees), s->count);
  if (finals_before_return) {
    CHECK(atomic_load(&s->frees_when_destroy_returned) == s->count, "%s: %d of %d callbacks had run when destroy returned",
          what, atomic_load(&s->frees_when_destroy_returned), s->count);
  }
  CHECK(cancelled + succeeded == s->count, "%s: %d cancelled + %d succeeded of %d", what, cancelled, succeeded,
        s->count);
  if (!real_results_allowed) CHECK(cancelled == s->count, "%s: %d of %d cancelled", what, cancelled, s->count);
}

typedef struct loop_runner {
  uv_loop_t *loop;
  pthread_t thread;
  atomic_int done;
} loop_runner;

static void *run_loop(void *arg) {
  loop_runner *r = arg;
  uv_run(r->loop, UV_RUN_DEFAULT);
  atomic_store(&r->done, 1);
  return NULL;
}

static void run_case(int host_loop, int from_callback, const char *emu_host, int emu_port, double *max_ms,
                     int *emulator_results) {
  scenario *sc = calloc(1, sizeof *sc);
  uv_loop_t loop;
  loop_runner runner = {.loop = &loop};
  if (host_loop) uv_loop_init(&loop);
  sc->from_callback = from_callback;
  sc->stalled.app = make_app(host_loop ? &loop : NULL, "stalled", "127.0.0.1", stalled_port);
  sc->emulator.app = make_app(host_loop ? &loop : NULL, "emulator", emu_host, emu_port);
  hearth_app_post(sc->stalled.app, note_loop_thread, &sc->stalled);
  hearth_app_post(sc->emulator.app, note_loop_thread, &sc->emulator);
  start_ops(&sc->stalled, STALLED_OPS);
  if (host_loop) pthread_create(&runner.thread, NULL, run_loop, &runner);
  sleep_ms(300); /* the stalled requests reach the listener and wait there */
  start_ops(&sc->emulator, EMULATOR_OPS);
  sleep_ms(5); /* some emulator sign-ins finish, most are still in flight */
  if (from_callback) {
    /* A sign-in that fails at once (no such email) completes on the loop thread and destroys there. */
    sc->trigger = hearth_auth_sign_in_with_email_and_password(hearth_auth_get(sc->stalled.app), "", "x");
    hearth_future_add_callback(sc->trigger, trigger_done, sc);
    for (int i = 0; i < 2000 && !atomic_load(&sc->stalled.destroy_returned); i++) sleep_ms(1);
    CHECK(atomic_load(&sc->stalled.destroy_returned), "the trigger callback never destroyed the apps");
    CHECK(atomic_load(&sc->destroyer_on_loop_thread), "the trigger callback did not run on the loop thread");
  } else {
    destroy_side(&sc->emulator);
    destroy_side(&sc->stalled);
  }
  sleep_ms(100); /* room for a callback that would run twice */
  if (host_loop) {
    for (int i = 0; i < 2000 && !atomic_load(&runner.done); i++) sleep_ms(1);
    CHECK(atomic_load(&runner.done), "uv_run did not return after destroy");
    pthread_join(runner.thread, NULL);
    uv_run(&loop, UV_RUN_NOWAIT);
    int rc = uv_loop_close(&loop);
    CHECK(rc == 0, "uv_loop_close: %s", uv_strerror(rc));
  }
  /* Hearth's own loop, destroyed from another thread: every final call ran before destroy returned. */
  int finals_before_return = !host_loop && !from_callback;
  check_side(&sc->stalled, "stalled", 0, finals_before_return, max_ms);
  for (int i = 0; i < sc->emulator.count; i++) *emulator_results += hearth_future_error(sc->emulator.ops[i]) == 0;
  check_side(&sc->emulator, "emulator", 1, finals_before_return, max_ms);
  if (sc->trigger) hearth_future_release(sc->trigger);
  free(sc);
  close_accepted();
}

int main(int argc, char **argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 5;
  const char *tool = hearth_test_instrumentation();
  if (tool)
    printf("destroy limit %.0f ms (%s: correctness, limit scaled)\n", LIMIT_MS * hearth_test_time_scale(), tool);
  else
    printf("destroy limit %.0f ms (times the load average per core above 1, now %.2f)\n", (double)LIMIT_MS,
           hearth_test_load_scale());
  const char *env = getenv("FIREBASE_AUTH_EMULATOR_HOST");
  const char *colon = env ? strrchr(env, ':') : NULL;
  if (!colon) {
    fprintf(stderr, "FIREBASE_AUTH_EMULATOR_HOST is not set (run under scripts/with-emulator)\n");
    return 2;
  }
  char host[256];
  snprintf(host, sizeof host, "%.*s", (int)(colon - env), env);
  int port = atoi(colon + 1);
  /* 1,100 client sockets plus the listener's 1,000 accepted ones exceed the usual soft limit of 1,024. */
  struct rlimit limit;
  if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max) {
    limit.rlim_cur = limit.rlim_max;
    setrlimit(RLIMIT_NOFILE, &limit);
  }
  start_stalled_listener();
  for (int host_loop = 0; host_loop < 2; host_loop++) {
    for (int from_callback = 0; from_callback < 2; from_callback++) {
      double max_ms = 0;
      int emulator_results = 0;
      int before = failures;
      for (int r = 0; r < reps; r++) run_case(host_loop, from_callback, host, port, &max_ms, &emulator_results);
      printf("%s loop, destroy from %s: %d repetitions x (%d stalled + %d emulator) in flight: max destroy %.2f ms, "
             "%d emulator sign-ins finished first, %s\n",
             host_loop ? "host" : "owned", from_callback ? "a completion callback on the loop thread" : "another thread",
             reps, STALLED_OPS, EMULATOR_OPS, max_ms, emulator_results, failures == before ? "ok" : "FAILED");
      fflush(stdout);
    }
  }
  printf(failures ? "shutdown storm: %d failures\n" : "shutdown storm: all passed\n", failures);
  return failures ? 1 : 0;
}
