/*
 * demo.c — Hearth from C, step by step, against a local hearth-emulator.
 *
 *   make demo      (starts the emulator on a free port, runs this, stops the emulator)
 *
 * The app runs on Hearth's own loop thread (options.loop = NULL), so this program simply blocks in
 * hearth_future_wait for each step. One step instead asks for a completion callback, which runs on
 * Hearth's loop thread. The session is kept in memory only (HEARTH_PERSISTENCE_NONE): the demo leaves
 * nothing behind.
 */
#define _POSIX_C_SOURCE 200809L

#include <hearth.h>

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ------------------------------------------------------------------------------------------------
 * Printing
 * ---------------------------------------------------------------------------------------------- */
static int step_number;

static void step(const char *title) { printf("\n%d. %s\n", ++step_number, title); }

static void show(const char *label, const char *value) {
  printf("   %-16s %s\n", label, value && *value ? value : "(none)");
}

static void fail(const char *what, int code, const char *message) {
  fprintf(stderr, "\nFAILED: %s: %s (%d)%s%s\n", what, hearth_error_name(code), code, message && *message ? ": " : "",
          message ? message : "");
  exit(1);
}

static const char *format_time(uint64_t ms, char *buffer, size_t size) {
  if (ms == 0) return "(unknown)";
  time_t seconds = (time_t)(ms / 1000);
  struct tm utc;
  gmtime_r(&seconds, &utc);
  strftime(buffer, size, "%Y-%m-%d %H:%M:%S UTC", &utc);
  return buffer;
}

static void show_user(const hearth_user *user) {
  char when[64];
  show("uid", hearth_user_uid(user));
  show("email", hearth_user_email(user));
  show("display name", hearth_user_display_name(user));
  show("photo URL", hearth_user_photo_url(user));
  show("anonymous", hearth_user_is_anonymous(user) ? "yes" : "no");
  show("email verified", hearth_user_is_email_verified(user) ? "yes" : "no");
  show("created", format_time(hearth_user_creation_timestamp(user), when, sizeof when));
  show("last sign-in", format_time(hearth_user_last_sign_in_timestamp(user), when, sizeof when));
  for (size_t i = 0; i < hearth_user_provider_data_count(user); i++) {
    const hearth_user_info *info = hearth_user_provider_data_at(user, i);
    printf("   %-16s %s (%s)\n", "provider", hearth_user_info_provider_id(info), hearth_user_info_uid(info));
  }
}

/* ------------------------------------------------------------------------------------------------
 * Futures
 * ---------------------------------------------------------------------------------------------- */

/* Blocks until the operation finishes; exits with its error if it failed. The caller releases it. */
static hearth_future *await(hearth_future *future, const char *what) {
  if (!future) fail(what, HEARTH_ERROR_INVALID_HANDLE, "no future");
  int rc = hearth_future_wait(future, 30000);
  if (rc != 0) fail(what, rc, "waiting for the result");
  if (hearth_future_error(future) != 0)
    fail(what, hearth_future_error(future), hearth_future_error_message(future));
  return future;
}

static void await_and_release(hearth_future *future, const char *what) { hearth_future_release(await(future, what)); }

/* The signed-in user's snapshot; the caller releases it. */
static hearth_user *current_user(hearth_auth *auth) {
  hearth_user *user = hearth_auth_current_user(auth);
  if (!user) fail("reading the current user", HEARTH_ERROR_NO_SIGNED_IN_USER, "nobody is signed in");
  return user;
}

/* ------------------------------------------------------------------------------------------------
 * JWT claims: the middle part of the token is base64url-encoded JSON.
 * ---------------------------------------------------------------------------------------------- */
static int base64url_digit(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '-') return 62;
  if (c == '_') return 63;
  return -1;
}

/* Decodes `length` base64url characters into a new NUL-terminated string, or NULL if malformed. */
static char *base64url_decode(const char *text, size_t length) {
  char *out = malloc(length * 3 / 4 + 4);
  if (!out) return NULL;
  size_t n = 0;
  unsigned bits = 0;
  int count = 0;
  for (size_t i = 0; i < length; i++) {
    int digit = base64url_digit(text[i]);
    if (digit < 0) {
      free(out);
      return NULL;
    }
    bits = (bits << 6) | (unsigned)digit;
    count += 6;
    if (count >= 8) {
      count -= 8;
      out[n++] = (char)((bits >> count) & 0xFF);
    }
  }
  out[n] = '\0';
  return out;
}

/* The claims JSON of a JWT (header.claims.signature), as a new string; NULL if malformed. */
static char *jwt_claims(const char *token) {
  const char *start = strchr(token, '.');
  const char *end = start ? strchr(start + 1, '.') : NULL;
  return end ? base64url_decode(start + 1, (size_t)(end - start - 1)) : NULL;
}

static void indent(int depth) {
  printf("\n   ");
  for (int i = 0; i < depth; i++) printf("  ");
}

/* Prints compact JSON one member per line. It only re-spaces the text, so it needs no parser: outside
 * strings, braces and brackets open and close levels, and commas end members. */
static void print_json(const char *json) {
  int depth = 0;
  int in_string = 0;
  printf("   ");
  for (const char *p = json; *p; p++) {
    char c = *p;
    if (in_string) {
      putchar(c);
      if (c == '\\' && p[1]) putchar(*++p);
      else if (c == '"') in_string = 0;
      continue;
    }
    switch (c) {
    case '"': in_string = 1; putchar(c); break;
    case '{':
    case '[':
      putchar(c);
      if (p[1] == '}' || p[1] == ']') putchar(*++p); /* empty */
      else indent(++depth);
      break;
    case '}':
    case ']': indent(--depth); putchar(c); break;
    case ',': putchar(c); indent(depth); break;
    case ':': printf(": "); break;
    case ' ': case '\t': case '\n': case '\r': break;
    default: putchar(c);
    }
  }
  putchar('\n');
}

/* ------------------------------------------------------------------------------------------------
 * A completion callback, and a way for the main thread to wait for it
 * ---------------------------------------------------------------------------------------------- */
typedef struct profile_update {
  pthread_mutex_t lock;
  pthread_cond_t done;
  int finished;
  int error;
  char message[256];
  char display_name[128];
} profile_update;

/* Runs on Hearth's loop thread once the update has finished. */
static void on_profile_updated(hearth_future *future, void *user_data) {
  profile_update *update = user_data;
  pthread_mutex_lock(&update->lock);
  update->error = hearth_future_error(future);
  snprintf(update->message, sizeof update->message, "%s", hearth_future_error_message(future));
  const hearth_user *user = hearth_future_user(future);
  snprintf(update->display_name, sizeof update->display_name, "%s", user ? hearth_user_display_name(user) : "");
  update->finished = 1;
  pthread_cond_signal(&update->done);
  pthread_mutex_unlock(&update->lock);
}

/* ------------------------------------------------------------------------------------------------ */
int main(void) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  const char *emulator = getenv("FIREBASE_AUTH_EMULATOR_HOST");
  if (!emulator || !*emulator) {
    fprintf(stderr, "FIREBASE_AUTH_EMULATOR_HOST is not set. Run `make demo`, which starts hearth-emulator for you.\n");
    return 1;
  }
  printf("Hearth %s demo, using the Auth emulator at %s\n", hearth_version(), emulator);

  hearth_app_options options;
  hearth_app_options_init(&options);
  options.api_key = "demo-api-key";
  options.project_id = "demo-hearth";
  options.persistence = HEARTH_PERSISTENCE_NONE;
  hearth_app *app = NULL;
  int rc = hearth_app_create(&options, &app); /* reads FIREBASE_AUTH_EMULATOR_HOST */
  if (rc != 0) fail("creating the app", rc, NULL);
  hearth_auth *auth = hearth_auth_get(app);

  char email[128];
  snprintf(email, sizeof email, "ada-%ld@example.com", (long)time(NULL));
  const char *password = "analytical-engine";

  step("Sign in anonymously");
  hearth_future *f = await(hearth_auth_sign_in_anonymously(auth), "anonymous sign-in");
  const hearth_user *anonymous = hearth_auth_result_user(hearth_future_auth_result(f));
  show("uid", hearth_user_uid(anonymous));
  show("anonymous", hearth_user_is_anonymous(anonymous) ? "yes" : "no");
  hearth_future_release(f);

  step("Create a user with email and password");
  f = await(hearth_auth_create_user_with_email_and_password(auth, email, password), "creating the user");
  const hearth_auth_result *created = hearth_future_auth_result(f);
  show("uid", hearth_user_uid(hearth_auth_result_user(created)));
  show("email", hearth_user_email(hearth_auth_result_user(created)));
  show("new user", hearth_auth_result_is_new_user(created) ? "yes" : "no");
  hearth_future_release(f);

  step("Sign out");
  rc = hearth_auth_sign_out(auth);
  if (rc != 0) fail("signing out", rc, NULL);
  hearth_user *nobody = hearth_auth_current_user(auth);
  show("current user", nobody ? hearth_user_uid(nobody) : NULL);
  hearth_user_release(nobody);

  step("Sign in with the password");
  f = await(hearth_auth_sign_in_with_email_and_password(auth, email, password), "password sign-in");
  const hearth_auth_result *signed_in = hearth_future_auth_result(f);
  show("uid", hearth_user_uid(hearth_auth_result_user(signed_in)));
  show("provider", hearth_auth_result_provider_id(signed_in));
  hearth_future_release(f);

  step("Get an ID token and decode its claims");
  hearth_user *user = current_user(auth);
  f = await(hearth_user_get_token(user, 0), "getting the ID token");
  const char *token = hearth_future_string(f);
  char length[32];
  snprintf(length, sizeof length, "%zu characters", strlen(token));
  show("ID token", length); /* a credential: shown decoded, never printed as is */
  char *claims = jwt_claims(token);
  if (!claims) fail("decoding the ID token", HEARTH_ERROR_FAILURE, "not a JWT");
  printf("   claims:\n");
  print_json(claims);
  free(claims);
  hearth_future_release(f);

  step("Update the profile (display name and photo), reported by a completion callback");
  profile_update update = {.finished = 0};
  pthread_mutex_init(&update.lock, NULL);
  pthread_cond_init(&update.done, NULL);
  f = hearth_user_update_user_profile(user, "Ada Lovelace", "https://example.com/ada.png");
  rc = hearth_future_add_callback(f, on_profile_updated, &update);
  if (rc != 0) fail("registering the completion callback", rc, NULL);
  pthread_mutex_lock(&update.lock);
  while (!update.finished) pthread_cond_wait(&update.done, &update.lock);
  pthread_mutex_unlock(&update.lock);
  hearth_future_release(f);
  pthread_cond_destroy(&update.done);
  pthread_mutex_destroy(&update.lock);
  if (update.error != 0) fail("updating the profile", update.error, update.message);
  show("callback saw", update.display_name);
  hearth_user_release(user);

  step("The updated snapshot");
  user = current_user(auth);
  show_user(user);

  step("Delete the user");
  await_and_release(hearth_user_delete(user), "deleting the user");
  hearth_user_release(user);
  nobody = hearth_auth_current_user(auth);
  show("current user", nobody ? hearth_user_uid(nobody) : NULL);
  hearth_user_release(nobody);

  hearth_app_destroy(app);
  printf("\nDone: every step succeeded.\n");
  return 0;
}
