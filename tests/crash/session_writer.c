/* session_writer.c — the process that tests/crash/test_crash_sessions.py kills with SIGKILL.
 *
 *   session_writer write DIR   signs in (unless a session is already stored in DIR), prints "saving",
 *                              then forces token refreshes back to back; each one persists the rotated
 *                              session to DIR. Runs until killed.
 *   session_writer load DIR    creates a fresh app on DIR and prints "user UID" or "no-user"; exit 0.
 *
 * Talks to the emulator named by FIREBASE_AUTH_EMULATOR_HOST (127.0.0.1:PORT). */
#include <hearth.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const API_KEY = "crash-test-api-key";
static const char *const APP_NAME = "crash-sessions";

static hearth_app *create_app(const char *dir) {
  hearth_app_options options;
  hearth_app_options_init(&options);
  options.api_key = API_KEY;
  options.app_name = APP_NAME;
  options.persistence = HEARTH_PERSISTENCE_FILE;
  options.persistence_dir = dir;
  hearth_app *app = NULL;
  int rc = hearth_app_create(&options, &app);
  if (rc != 0) {
    fprintf(stderr, "hearth_app_create: %s\n", hearth_error_name(rc));
    exit(2);
  }
  return app;
}

static void use_emulator(hearth_app *app) {
  const char *host = getenv("FIREBASE_AUTH_EMULATOR_HOST");
  const char *colon = host ? strrchr(host, ':') : NULL;
  if (!colon) {
    fprintf(stderr, "FIREBASE_AUTH_EMULATOR_HOST is not set\n");
    exit(2);
  }
  char name[256];
  snprintf(name, sizeof name, "%.*s", (int)(colon - host), host);
  int rc = hearth_auth_use_emulator(hearth_auth_get(app), name, (uint16_t)atoi(colon + 1));
  if (rc != 0) {
    fprintf(stderr, "hearth_auth_use_emulator: %s\n", hearth_error_name(rc));
    exit(2);
  }
}

/* Waits for `future` and fails the process unless it succeeded. */
static void finish(hearth_future *future, const char *what) {
  if (!future || hearth_future_wait(future, 10000) != 0 || hearth_future_error(future) != 0) {
    fprintf(stderr, "%s failed: %s\n", what, future ? hearth_future_error_message(future) : "no future");
    exit(3);
  }
  hearth_future_release(future);
}

static int write_forever(const char *dir) {
  hearth_app *app = create_app(dir);
  use_emulator(app);
  hearth_auth *auth = hearth_auth_get(app);
  hearth_user *user = hearth_auth_current_user(auth);
  if (!user) {
    finish(hearth_auth_sign_in_anonymously(auth), "sign-in");
    user = hearth_auth_current_user(auth);
    if (!user) {
      fprintf(stderr, "signed in but no current user\n");
      return 3;
    }
  }
  printf("saving\n");
  fflush(stdout);
  for (;;) finish(hearth_user_get_token(user, 1), "token refresh");
}

static int load(const char *dir) {
  hearth_app *app = create_app(dir);
  hearth_user *user = hearth_auth_current_user(hearth_auth_get(app));
  if (user) {
    printf("user %s\n", hearth_user_uid(user));
    hearth_user_release(user);
  } else {
    printf("no-user\n");
  }
  hearth_app_destroy(app);
  return 0;
}

int main(int argc, char **argv) {
  if (argc == 3 && strcmp(argv[1], "write") == 0) return write_forever(argv[2]);
  if (argc == 3 && strcmp(argv[1], "load") == 0) return load(argv[2]);
  fprintf(stderr, "usage: %s write|load DIR\n", argv[0]);
  return 2;
}
