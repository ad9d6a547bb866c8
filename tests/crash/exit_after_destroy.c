/* exit_after_destroy.c — a process that leaves right after hearth_app_destroy on Hearth's own loop
 * thread exits cleanly. The loop thread still frees curl's state after destroy has returned, and
 * the process's exit handlers (OpenSSL's among them) must not run beside it.
 *
 *   exit_after_destroy idle       sign in (and out) 500 times, destroy, return from main
 *   exit_after_destroy in-flight  start 200 sign-ins, destroy at once, return from main
 *   exit_after_destroy in-callback  destroy and exit(0) from a completion callback (on the loop thread)
 *   exit_after_destroy fork       sign in, destroy, fork: the child exits at once (the parent's loop
 *                                 threads are not the child's to wait for), then the parent returns
 *
 * Needs FIREBASE_AUTH_EMULATOR_HOST. Exit status 0 and nothing on stderr is a pass. Right before it leaves
 * (returns from main or calls exit) it prints "leaving at SECONDS" (CLOCK_MONOTONIC), so the test can time
 * the exit itself apart from the work before it. */
#include <hearth.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static hearth_app *app;

static void leaving(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  printf("leaving at %.6f\n", (double)now.tv_sec + (double)now.tv_nsec / 1e9);
  fflush(stdout);
}

static void exit_from_callback(hearth_future *future, void *user_data) {
  (void)future;
  (void)user_data;
  hearth_app_destroy(app);
  leaving();
  exit(0);
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "";
  const char *env = getenv("FIREBASE_AUTH_EMULATOR_HOST");
  const char *colon = env ? strrchr(env, ':') : NULL;
  if (!colon || (strcmp(mode, "idle") && strcmp(mode, "in-flight") && strcmp(mode, "in-callback") &&
                 strcmp(mode, "fork"))) {
    fprintf(stderr, "usage: exit_after_destroy idle|in-flight|in-callback|fork (with FIREBASE_AUTH_EMULATOR_HOST)\n");
    return 2;
  }
  char host[256];
  snprintf(host, sizeof host, "%.*s", (int)(colon - env), env);

  hearth_app_options o;
  hearth_app_options_init(&o);
  o.api_key = "exit-after-destroy";
  o.app_name = "exit-after-destroy";
  o.persistence = HEARTH_PERSISTENCE_NONE;
  int rc = hearth_app_create(&o, &app);
  if (rc == 0) rc = hearth_auth_use_emulator(hearth_auth_get(app), host, (uint16_t)atoi(colon + 1));
  if (rc != 0) {
    fprintf(stderr, "setup: %s\n", hearth_error_name(rc));
    return 1;
  }
  hearth_auth *auth = hearth_auth_get(app);

  if (!strcmp(mode, "idle")) {
    for (int i = 0; i < 500; i++) {
      hearth_future *f = hearth_auth_sign_in_anonymously(auth);
      if (hearth_future_wait(f, 10000) != 0 || hearth_future_error(f) != 0) {
        fprintf(stderr, "sign-in %d: %s\n", i, hearth_future_error_message(f));
        return 1;
      }
      hearth_future_release(f);
      hearth_auth_sign_out(auth); /* else the next anonymous sign-in answers with this user */
    }
    hearth_app_destroy(app);
    leaving();
    return 0;
  }
  if (!strcmp(mode, "fork")) {
    hearth_future *f = hearth_auth_sign_in_anonymously(auth);
    if (hearth_future_wait(f, 10000) != 0 || hearth_future_error(f) != 0) {
      fprintf(stderr, "sign-in: %s\n", hearth_future_error_message(f));
      return 1;
    }
    hearth_future_release(f);
    hearth_app_destroy(app);
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    pid_t child = fork();
    if (child == 0) exit(0);
    int status = 0;
    if (child < 0 || waitpid(child, &status, 0) != child) {
      perror("fork");
      return 1;
    }
    clock_gettime(CLOCK_MONOTONIC, &end);
    double ms = (end.tv_sec - start.tv_sec) * 1e3 + (end.tv_nsec - start.tv_nsec) / 1e6;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || ms > 1000) {
      fprintf(stderr, "the forked child exited with status %d after %.0f ms\n", status, ms);
      return 1;
    }
    leaving();
    return 0;
  }
  if (!strcmp(mode, "in-flight")) {
    for (int i = 0; i < 200; i++) hearth_future_release(hearth_auth_sign_in_anonymously(auth));
    hearth_app_destroy(app);
    leaving();
    return 0;
  }
  hearth_future *f = hearth_auth_sign_in_anonymously(auth);
  hearth_future_add_callback(f, exit_from_callback, NULL);
  sleep(10); /* the callback exits the process first */
  fprintf(stderr, "the completion callback did not run\n");
  return 1;
}
