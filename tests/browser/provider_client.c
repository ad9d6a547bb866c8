/*
 * provider_client — a minimal desktop app that signs in through a provider's page, for the browser
 * suite (tests/browser). A real browser plays the user; this program plays the app.
 *
 *   provider_client [--create-auth-uri] [--link | --credential] [--scope SCOPE]... [--param KEY=VALUE]...
 *                   PROVIDER_ID
 *
 * It creates an app (Hearth's own loop thread, no persistence) against the emulator named by
 * FIREBASE_AUTH_EMULATOR_HOST, sets provider flow options whose UI delegate prints the URL to open,
 * starts the flow and waits for it. Lines on stdout (each flushed at once):
 *
 *   ANON <uid>                          --link: the anonymous user the provider is linked to
 *   OPEN <url>                          the page the browser must open
 *   CREDENTIAL <code> <provider id>     --credential: hearth_auth_get_credential_with_provider's
 *                                       outcome, then "USER none" (nobody is signed in by it), then
 *                                       (when code is 0) the RESULT of signing in with the credential
 *   RESULT <code> <uid> <provider id> <user name>
 *   MESSAGE <error message>             when code is not 0
 *   NEWUSER <0|1>                       when code is 0: whether this sign-in created the user
 *   USER anonymous=<0|1> providers=<id,id,...>   the signed-in user afterwards ("USER none": nobody)
 *
 * Empty fields print as "-". Exit status: 0 when a RESULT line was printed (whatever its code),
 * 2 for a usage or setup error.
 */
#include <hearth.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_OPTIONS = 16, WAIT_MS = 60000 };

static const char *or_dash(const char *text) { return (text && text[0]) ? text : "-"; }

/* The UI delegate runs on the loop thread, and the loopback receiver runs on that same loop: it
 * only announces the URL and returns, so the browser's redirect can be served. */
static int print_open_url(void *user_data, const char *url) {
  (void)user_data;
  printf("OPEN %s\n", url);
  fflush(stdout);
  return 0;
}

static int usage(void) {
  fprintf(stderr, "usage: provider_client [--create-auth-uri] [--link | --credential] [--scope SCOPE]... "
                  "[--param KEY=VALUE]... PROVIDER_ID\n");
  return 2;
}

static void print_user(hearth_auth *auth) {
  hearth_user *user = hearth_auth_current_user(auth);
  if (!user) {
    printf("USER none\n");
    fflush(stdout);
    return;
  }
  printf("USER anonymous=%d providers=", hearth_user_is_anonymous(user));
  size_t count = hearth_user_provider_data_count(user);
  for (size_t i = 0; i < count; i++) {
    const hearth_user_info *info = hearth_user_provider_data_at(user, i);
    printf("%s%s", i ? "," : "", or_dash(info ? hearth_user_info_provider_id(info) : NULL));
  }
  if (count == 0) printf("-");
  printf("\n");
  fflush(stdout);
  hearth_user_release(user);
}

/* Waits for the future and prints its RESULT (and MESSAGE) lines. Returns the future's error code. */
static int report(hearth_future *future) {
  int waited = hearth_future_wait(future, WAIT_MS);
  if (waited != 0) {
    printf("RESULT %d - - -\nMESSAGE hearth_future_wait gave up after %d ms\n", waited, WAIT_MS);
    fflush(stdout);
    return waited;
  }
  int code = hearth_future_error(future);
  const hearth_auth_result *result = hearth_future_auth_result(future);
  const hearth_user *user = result ? hearth_auth_result_user(result) : NULL;
  printf("RESULT %d %s %s %s\n", code, or_dash(user ? hearth_user_uid(user) : NULL),
         or_dash(result ? hearth_auth_result_provider_id(result) : NULL),
         or_dash(result ? hearth_auth_result_user_name(result) : NULL));
  if (code != 0) printf("MESSAGE %s\n", or_dash(hearth_future_error_message(future)));
  if (code == 0 && result) printf("NEWUSER %d\n", hearth_auth_result_is_new_user(result));
  fflush(stdout);
  return code;
}

int main(int argc, char **argv) {
  int use_create_auth_uri = 0, link = 0, credential_only = 0;
  const char *scopes[MAX_OPTIONS];
  char *params[MAX_OPTIONS];
  int scope_count = 0, param_count = 0;
  const char *provider_id = NULL;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--create-auth-uri") == 0) {
      use_create_auth_uri = 1;
    } else if (strcmp(argv[i], "--link") == 0 && !credential_only) {
      link = 1;
    } else if (strcmp(argv[i], "--credential") == 0 && !link) {
      credential_only = 1;
    } else if (strcmp(argv[i], "--scope") == 0 && i + 1 < argc && scope_count < MAX_OPTIONS) {
      scopes[scope_count++] = argv[++i];
    } else if (strcmp(argv[i], "--param") == 0 && i + 1 < argc && param_count < MAX_OPTIONS &&
               strchr(argv[i + 1], '=')) {
      params[param_count++] = argv[++i];
    } else if (argv[i][0] != '-' && !provider_id) {
      provider_id = argv[i];
    } else {
      return usage();
    }
  }
  if (!provider_id) return usage();
  const char *emulator = getenv("FIREBASE_AUTH_EMULATOR_HOST");
  if (!emulator || !emulator[0]) {
    fprintf(stderr, "provider_client: FIREBASE_AUTH_EMULATOR_HOST is not set (run under scripts/with-emulator)\n");
    return 2;
  }

  hearth_app_options options;
  hearth_app_options_init(&options);
  options.api_key = "browser-test-api-key";
  options.project_id = getenv("HEARTH_PROJECT") ? getenv("HEARTH_PROJECT") : "demo-hearth";
  options.app_name = "provider-client";
  options.persistence = HEARTH_PERSISTENCE_NONE;
  hearth_app *app = NULL;
  int created = hearth_app_create(&options, &app);
  if (created != 0) {
    fprintf(stderr, "provider_client: hearth_app_create failed (%d)\n", created);
    return 2;
  }
  hearth_auth *auth = hearth_auth_get(app);

  hearth_provider_flow_options flow;
  hearth_provider_flow_options_init(&flow);
  flow.open_url = print_open_url;
  flow.use_create_auth_uri = use_create_auth_uri;
  int set = hearth_auth_set_provider_flow_options(auth, &flow);

  hearth_oauth_provider *provider = hearth_oauth_provider_create(provider_id);
  for (int i = 0; provider && set == 0 && i < scope_count; i++) {
    set = hearth_oauth_provider_add_scope(provider, scopes[i]);
  }
  for (int i = 0; provider && set == 0 && i < param_count; i++) {
    char *equals = strchr(params[i], '=');
    *equals = '\0';
    set = hearth_oauth_provider_set_custom_parameter(provider, params[i], equals + 1);
  }
  if (!provider || set != 0) {
    fprintf(stderr, "provider_client: setting up the provider failed (%d)\n", set);
    hearth_oauth_provider_release(provider);
    hearth_app_destroy(app);
    return 2;
  }

  hearth_future *future = NULL;
  if (link) {
    hearth_future *anonymous = hearth_auth_sign_in_anonymously(auth);
    int waited = hearth_future_wait(anonymous, WAIT_MS);
    const hearth_auth_result *signed_in = waited == 0 ? hearth_future_auth_result(anonymous) : NULL;
    const hearth_user *user = signed_in ? hearth_auth_result_user(signed_in) : NULL;
    if (waited != 0 || hearth_future_error(anonymous) != 0 || !user) {
      fprintf(stderr, "provider_client: anonymous sign-in failed (%d, %d)\n", waited, hearth_future_error(anonymous));
      hearth_future_release(anonymous);
      hearth_oauth_provider_release(provider);
      hearth_app_destroy(app);
      return 2;
    }
    printf("ANON %s\n", hearth_user_uid(user));
    fflush(stdout);
    future = hearth_user_link_with_provider(user, provider);
    hearth_future_release(anonymous);
  } else if (credential_only) {
    /* The provider's page for a credential only; the app then signs in with it itself. */
    hearth_future *getting = hearth_auth_get_credential_with_provider(auth, provider);
    int waited = hearth_future_wait(getting, WAIT_MS);
    int code = waited != 0 ? waited : hearth_future_error(getting);
    const hearth_credential *credential = code == 0 ? hearth_future_credential(getting) : NULL;
    printf("CREDENTIAL %d %s\n", code, or_dash(credential ? hearth_credential_provider(credential) : NULL));
    if (code != 0) printf("MESSAGE %s\n", or_dash(hearth_future_error_message(getting)));
    fflush(stdout);
    print_user(auth);
    if (credential) future = hearth_auth_sign_in_and_retrieve_data_with_credential(auth, credential);
    hearth_future_release(getting); /* the sign-in keeps what it needs of the credential */
    if (!future) {
      hearth_oauth_provider_release(provider);
      hearth_app_destroy(app);
      return 0;
    }
  } else {
    future = hearth_auth_sign_in_with_provider(auth, provider);
  }
  report(future);
  print_user(auth);

  hearth_future_release(future);
  hearth_oauth_provider_release(provider);
  hearth_app_destroy(app);
  return 0;
}
