/*
 * email_link_client — a minimal desktop app that signs in with an email link, for the browser suite
 * (tests/browser). A real browser plays the user; the test plays the operating system, which hands the
 * app every URL of its custom scheme (or the user's paste) on standard input, one per line.
 *
 *   email_link_client [--link-anonymous] EMAIL CONTINUE_URL
 *
 * It creates an app (Hearth's own loop thread, no persistence) against the emulator named by
 * FIREBASE_AUTH_EMULATOR_HOST and mails EMAIL a sign-in link whose continue URL is CONTINUE_URL, handled
 * in the app. It keeps EMAIL, as Firebase asks apps to, to finish the sign-in when the link comes back.
 * Then, for each line it reads, it does what the header's "Email actions" recipe says: offer the URL to
 * hearth_auth_handle_url (provider flows take theirs), ask hearth_auth_is_sign_in_with_email_link, and
 * sign in with the kept email (or, with --link-anonymous, link the link's credential to the anonymous
 * user it signed in first). Lines on stdout (each flushed at once):
 *
 *   ANON <uid>                          --link-anonymous: the anonymous user the email is linked to
 *   SENT <code>                         hearth_auth_send_sign_in_link_to_email's outcome
 *   HANDLED <0|1>                       hearth_auth_handle_url of the line
 *   LINK <0|1>                          hearth_auth_is_sign_in_with_email_link of the line
 *   RESULT <code> <uid> <email> <new user 0|1> <email verified 0|1> <anonymous 0|1>
 *   MESSAGE <error message>             when a code is not 0
 *   USER <uid> <email>                  at the end of input: the signed-in user ("USER none": nobody)
 *
 * Empty fields print as "-". Exit status: 0 after the USER line, 2 for a usage or setup error.
 */
#include <hearth.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { WAIT_MS = 60000, MAX_LINE = 8192 };

static const char *or_dash(const char *text) { return (text && text[0]) ? text : "-"; }

static int usage(void) {
  fprintf(stderr, "usage: email_link_client [--link-anonymous] EMAIL CONTINUE_URL\n");
  return 2;
}

/* The future's error once it completes (hearth_future_wait's code when it does not). */
static int finished(hearth_future *future) {
  int waited = hearth_future_wait(future, WAIT_MS);
  return waited != 0 ? waited : hearth_future_error(future);
}

static void print_message(int code, hearth_future *future) {
  if (code != 0) printf("MESSAGE %s\n", or_dash(future ? hearth_future_error_message(future) : NULL));
}

/* Completes a sign-in link: signs in with the kept email, or links its credential to `anonymous`. */
static void complete(hearth_auth *auth, const char *email, const char *link, const hearth_user *anonymous) {
  hearth_future *future = NULL;
  if (anonymous) {
    hearth_credential *credential = hearth_credential_create_email_link(email, link);
    if (!credential) {
      printf("RESULT %d - - 0 0 0\nMESSAGE %s\n", (int)hearth_last_error_code(), hearth_last_error_message());
      fflush(stdout);
      return;
    }
    future = hearth_user_link_with_credential(anonymous, credential);
    hearth_credential_release(credential); /* the operation keeps what it needs */
  } else {
    future = hearth_auth_sign_in_with_email_link(auth, email, link);
  }
  int code = finished(future);
  const hearth_auth_result *result = code == 0 ? hearth_future_auth_result(future) : NULL;
  const hearth_user *user = result ? hearth_auth_result_user(result) : NULL;
  printf("RESULT %d %s %s %d %d %d\n", code, or_dash(user ? hearth_user_uid(user) : NULL),
         or_dash(user ? hearth_user_email(user) : NULL), result ? hearth_auth_result_is_new_user(result) : 0,
         user ? hearth_user_is_email_verified(user) : 0, user ? hearth_user_is_anonymous(user) : 0);
  print_message(code, future);
  fflush(stdout);
  hearth_future_release(future);
}

int main(int argc, char **argv) {
  int link_anonymous = 0;
  const char *email = NULL, *continue_url = NULL;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--link-anonymous") == 0) {
      link_anonymous = 1;
    } else if (argv[i][0] != '-' && !email) {
      email = argv[i];
    } else if (argv[i][0] != '-' && !continue_url) {
      continue_url = argv[i];
    } else {
      return usage();
    }
  }
  if (!email || !continue_url) return usage();
  const char *emulator = getenv("FIREBASE_AUTH_EMULATOR_HOST");
  if (!emulator || !emulator[0]) {
    fprintf(stderr, "email_link_client: FIREBASE_AUTH_EMULATOR_HOST is not set (run under scripts/with-emulator)\n");
    return 2;
  }

  hearth_app_options options;
  hearth_app_options_init(&options);
  options.api_key = "browser-test-api-key";
  options.project_id = getenv("HEARTH_PROJECT") ? getenv("HEARTH_PROJECT") : "demo-hearth";
  options.app_name = "email-link-client";
  options.persistence = HEARTH_PERSISTENCE_NONE;
  hearth_app *app = NULL;
  int created = hearth_app_create(&options, &app);
  if (created != 0) {
    fprintf(stderr, "email_link_client: hearth_app_create failed (%d): %s\n", created, hearth_last_error_message());
    return 2;
  }
  hearth_auth *auth = hearth_auth_get(app);

  hearth_user *anonymous = NULL;
  if (link_anonymous) {
    hearth_future *signed_in = hearth_auth_sign_in_anonymously(auth);
    if (finished(signed_in) != 0) {
      fprintf(stderr, "email_link_client: anonymous sign-in failed: %s\n", hearth_future_error_message(signed_in));
      hearth_future_release(signed_in);
      hearth_app_destroy(app);
      return 2;
    }
    anonymous = hearth_user_retain(hearth_future_user(signed_in));
    hearth_future_release(signed_in);
    printf("ANON %s\n", hearth_user_uid(anonymous));
    fflush(stdout);
  }

  hearth_action_code_settings settings;
  hearth_action_code_settings_init(&settings);
  settings.url = continue_url;
  settings.handle_code_in_app = 1;
  hearth_future *sent = hearth_auth_send_sign_in_link_to_email(auth, email, &settings);
  int code = finished(sent);
  printf("SENT %d\n", code);
  print_message(code, sent);
  fflush(stdout);
  hearth_future_release(sent);

  /* What the OS hands the app (a custom-scheme URL it was opened with) or what the user pastes. */
  char line[MAX_LINE];
  while (code == 0 && fgets(line, sizeof line, stdin)) {
    line[strcspn(line, "\n")] = '\0';
    int handled = hearth_auth_handle_url(auth, line);
    printf("HANDLED %d\n", handled);
    int is_link = handled ? 0 : hearth_auth_is_sign_in_with_email_link(auth, line);
    printf("LINK %d\n", is_link);
    fflush(stdout);
    if (is_link) complete(auth, email, line, anonymous);
  }

  hearth_user *user = hearth_auth_current_user(auth);
  if (user) {
    printf("USER %s %s\n", or_dash(hearth_user_uid(user)), or_dash(hearth_user_email(user)));
  } else {
    printf("USER none\n");
  }
  fflush(stdout);
  hearth_user_release(user);
  hearth_user_release(anonymous);
  hearth_app_destroy(app);
  return 0;
}
