/* One operation through a network fault on a HOST loop (hearth_app_options.loop), the mode only C
 * hosts can use: Hearth creates no thread and everything runs inside the host's uv_run.
 *
 *   host_loop_faults PORT OP EMAIL PASSWORD TIMEOUT_MS
 *
 * OP is sign-in, get-token (forced) or reload. The program signs EMAIL in through the proxy on PORT
 * (get-token and reload need a user), prints "ready", and waits for a line on stdin: the driver
 * (test_host_loop.py) installs the fault then. It starts OP on the loop thread and runs
 * uv_run(UV_RUN_DEFAULT), which must return by itself once the failed request is done (Hearth's
 * handles do not keep an idle loop alive); lets the loop run 300 ms more to catch a late second
 * callback; destroys the app and checks that uv_loop_close succeeds after one more uv_run.
 * It prints one JSON line of facts; the driver asserts on them. Exit status 0 unless the program
 * itself could not run (then 2).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <uv.h>

#include "hearth.h"

typedef struct {
  hearth_app *app;
  int callbacks;
  int callback_on_loop_thread;
  int status_in_callback;
  double callback_at_ms;
} observation;

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static double cpu_ms(void) {
  struct rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  return (double)usage.ru_utime.tv_sec * 1e3 + (double)usage.ru_utime.tv_usec / 1e3 +
         (double)usage.ru_stime.tv_sec * 1e3 + (double)usage.ru_stime.tv_usec / 1e3;
}

static void on_complete(hearth_future *future, void *user_data) {
  observation *seen = user_data;
  seen->callbacks += 1;
  seen->callback_on_loop_thread = hearth_app_is_loop_thread(seen->app);
  seen->status_in_callback = hearth_future_status(future);
  seen->callback_at_ms = now_ms();
}

static void on_linger(uv_timer_t *timer) { (void)timer; }

/* JSON string escaping for the error message (ASCII control characters and quotes). */
static void print_json_string(const char *text) {
  putchar('"');
  for (const unsigned char *p = (const unsigned char *)(text ? text : ""); *p; p++) {
    if (*p == '"' || *p == '\\') printf("\\%c", *p);
    else if (*p < 0x20) printf("\\u%04x", *p);
    else putchar(*p);
  }
  putchar('"');
}

static int fail(const char *what) {
  fprintf(stderr, "host_loop_faults: %s\n", what);
  return 2;
}

int main(int argc, char **argv) {
  if (argc != 6) return fail("usage: host_loop_faults PORT OP EMAIL PASSWORD TIMEOUT_MS");
  const uint16_t port = (uint16_t)atoi(argv[1]);
  const char *op = argv[2], *email = argv[3], *password = argv[4];
  const int64_t timeout_ms = atoll(argv[5]);

  uv_loop_t loop;
  if (uv_loop_init(&loop) != 0) return fail("uv_loop_init");

  hearth_app_options options;
  hearth_app_options_init(&options);
  options.api_key = "fake-api-key";
  options.project_id = "demo-hearth";
  options.app_name = "host-loop-faults";
  options.loop = &loop;
  options.persistence = HEARTH_PERSISTENCE_NONE;
  options.request_timeout_ms = timeout_ms;
  hearth_app *app = NULL;
  if (hearth_app_create(&options, &app) != 0) return fail("hearth_app_create");
  hearth_auth *auth = hearth_auth_get(app);
  if (hearth_auth_use_emulator(auth, "127.0.0.1", port) != 0) return fail("hearth_auth_use_emulator");

  hearth_future *sign_in = hearth_auth_sign_in_with_email_and_password(auth, email, password);
  uv_run(&loop, UV_RUN_DEFAULT);
  if (hearth_future_status(sign_in) != HEARTH_FUTURE_COMPLETE || hearth_future_error(sign_in) != 0) {
    fprintf(stderr, "host_loop_faults: setup sign-in failed: %s\n", hearth_future_error_message(sign_in));
    return 2;
  }
  hearth_future_release(sign_in);
  hearth_user *user = hearth_auth_current_user(auth);
  if (!user) return fail("no user after sign-in");

  printf("ready\n");
  fflush(stdout);
  char line[64];
  if (!fgets(line, sizeof line, stdin)) return fail("no go-ahead on stdin");

  observation seen = {.app = app};
  hearth_future *future = NULL;
  const double cpu_before = cpu_ms(), started = now_ms();
  if (strcmp(op, "sign-in") == 0) future = hearth_auth_sign_in_with_email_and_password(auth, email, password);
  else if (strcmp(op, "get-token") == 0) future = hearth_user_get_token(user, 1);
  else if (strcmp(op, "reload") == 0) future = hearth_user_reload(user);
  else return fail("OP must be sign-in, get-token or reload");
  if (!future) return fail("the operation returned no future");
  if (hearth_future_add_callback(future, on_complete, &seen) != 0) return fail("hearth_future_add_callback");
  const int callbacks_inside_call = seen.callbacks;

  /* Returns when nothing ref'd is left: the request done, Hearth idle. */
  uv_run(&loop, UV_RUN_DEFAULT);
  const double returned = now_ms(), cpu_after = cpu_ms();
  const int status_after_run = hearth_future_status(future);

  uv_timer_t linger;
  uv_timer_init(&loop, &linger);
  uv_timer_start(&linger, on_linger, 300, 0);
  uv_run(&loop, UV_RUN_DEFAULT);
  uv_close((uv_handle_t *)&linger, NULL);
  uv_run(&loop, UV_RUN_DEFAULT);

  hearth_user *after = hearth_auth_current_user(auth);
  printf("{\"code\":%d,\"message\":", hearth_future_error(future));
  print_json_string(hearth_future_error_message(future));
  printf(",\"callbacks\":%d,\"callbacks_inside_call\":%d,\"callback_on_loop_thread\":%d,"
         "\"status_in_callback\":%d,\"status_after_run\":%d,\"callback_ms\":%.1f,\"uv_run_ms\":%.1f,"
         "\"cpu_ms\":%.1f,\"signed_in_after\":%d",
         seen.callbacks, callbacks_inside_call, seen.callback_on_loop_thread, seen.status_in_callback,
         status_after_run, seen.callbacks ? seen.callback_at_ms - started : -1.0, returned - started,
         cpu_after - cpu_before, after != NULL);
  hearth_user_release(after);
  hearth_user_release(user);
  hearth_future_release(future);

  hearth_app_destroy(app);
  uv_run(&loop, UV_RUN_DEFAULT);
  printf(",\"loop_close\":%d}\n", uv_loop_close(&loop));
  fflush(stdout);
  return 0;
}
