/* test_routing.c — where requests go (FIREBASE_AUTH_EMULATOR_HOST, hearth_auth_use_emulator), what a
 * network failure looks like, and the request timeout. */
#include "test.h"

static void restore_emulator_variable(void *saved) {
  if (saved) setenv("FIREBASE_AUTH_EMULATOR_HOST", saved, 1);
  else unsetenv("FIREBASE_AUTH_EMULATOR_HOST");
}

/* Sets (or, with NULL, unsets) FIREBASE_AUTH_EMULATOR_HOST until the end of the test. */
static void override_emulator_variable(const char *value) {
  t_defer(restore_emulator_variable, t_strdup(getenv("FIREBASE_AUTH_EMULATOR_HOST")));
  if (value) setenv("FIREBASE_AUTH_EMULATOR_HOST", value, 1);
  else unsetenv("FIREBASE_AUTH_EMULATOR_HOST");
}

TEST(the_emulator_variable_routes_every_endpoint_to_the_emulator, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  hearth_user *user = t_sign_in_anonymously(auth);                         /* accounts:signUp */
  const char *uid = hearth_user_uid(user);
  CHECK(emu_lookup(uid) != NULL);
  t_token(user, 1);                                                        /* securetoken */
  t_await_ok(t_keep_future(hearth_user_reload(user)));                     /* accounts:lookup */
  t_await_ok(t_keep_future(hearth_user_update_user_profile(user, "Routed", NULL))); /* accounts:update */
  CHECK_STR(json_get_string(emu_lookup(uid), "displayName"), "Routed");
  t_await_ok(t_keep_future(hearth_auth_fetch_providers_for_email(auth, t_email("route")))); /* createAuthUri */
  t_await_ok(t_keep_future(hearth_user_delete(user)));                     /* accounts:delete */
  CHECK(emu_lookup(uid) == NULL);
}

TEST(the_emulator_variable_is_read_when_the_app_is_created, BOTH_LOOPS) {
  override_emulator_variable(t_printf("127.0.0.1:%u", (unsigned)t_closed_port()));
  hearth_app *misrouted = t_app();
  setenv("FIREBASE_AUTH_EMULATOR_HOST", emu_host(), 1);
  hearth_app *routed = t_app();
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_sign_in_anonymously(hearth_auth_get(misrouted))),
                   HEARTH_ERROR_NETWORK_REQUEST_FAILED);
  t_sign_in_anonymously(hearth_auth_get(routed));
}

TEST(use_emulator_routes_an_app_created_without_the_variable, BOTH_LOOPS) {
  override_emulator_variable(NULL);
  hearth_app *app = t_app();
  hearth_auth *auth = hearth_auth_get(app);
  CHECK_CODE(hearth_auth_use_emulator(auth, "127.0.0.1", emu_port()), 0);
  hearth_user *user = t_sign_in_anonymously(auth);
  CHECK(emu_lookup(hearth_user_uid(user)) != NULL);
  t_token(user, 1);
}

TEST(use_emulator_reroutes_at_any_time, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  hearth_user *user = t_sign_in_anonymously(auth);
  CHECK_CODE(hearth_auth_use_emulator(auth, "127.0.0.1", t_closed_port()), 0);
  CHECK_FAILS_WITH(t_keep_future(hearth_user_get_token(user, 1)), HEARTH_ERROR_NETWORK_REQUEST_FAILED);
  CHECK_STR(t_current_uid(auth), hearth_user_uid(user)); /* a network failure never signs out */
  CHECK_CODE(hearth_auth_use_emulator(auth, "127.0.0.1", emu_port()), 0);
  t_token(user, 1);
}

TEST(use_emulator_rejects_bad_hosts_and_ports, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  CHECK_CODE(hearth_auth_use_emulator(auth, NULL, 9099), HEARTH_ERROR_INVALID_ARGUMENT);
  CHECK_CODE(hearth_auth_use_emulator(auth, "", 9099), HEARTH_ERROR_INVALID_ARGUMENT);
  CHECK_CODE(hearth_auth_use_emulator(auth, "127.0.0.1", 0), HEARTH_ERROR_INVALID_ARGUMENT);
  CHECK_CODE(hearth_auth_use_emulator(auth, "\xff\xfe", 9099), HEARTH_ERROR_INVALID_ARGUMENT);
  CHECK_CODE(hearth_auth_use_emulator(NULL, "127.0.0.1", 9099), HEARTH_ERROR_INVALID_HANDLE);
  /* The rejected calls changed nothing. */
  t_sign_in_anonymously(auth);
}

TEST(every_operation_reports_a_refused_connection_as_network_request_failed, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  CHECK_CODE(hearth_auth_use_emulator(auth, "127.0.0.1", t_closed_port()), 0);
  const char *email = t_email("offline");
  hearth_credential *credential = hearth_credential_create_email(email, T_PASSWORD);
  hearth_future *ops[] = {
      hearth_auth_sign_in_anonymously(auth),
      hearth_auth_create_user_with_email_and_password(auth, email, T_PASSWORD),
      hearth_auth_sign_in_with_email_and_password(auth, email, T_PASSWORD),
      hearth_auth_sign_in_with_custom_token(auth, "{\"uid\":\"offline\"}"),
      hearth_auth_sign_in_with_credential(auth, credential),
      hearth_auth_sign_in_and_retrieve_data_with_credential(auth, credential),
      hearth_auth_send_password_reset_email(auth, email, NULL),
      hearth_auth_fetch_providers_for_email(auth, email),
  };
  hearth_credential_release(credential);
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
    CHECK_FAILS_WITH(t_keep_future(ops[i]), HEARTH_ERROR_NETWORK_REQUEST_FAILED);
  }
  CHECK(hearth_auth_current_user(auth) == NULL);
}

TEST(a_request_that_gets_no_answer_times_out_after_the_configured_time, BOTH_LOOPS) {
  hearth_app_options options;
  t_options(&options);
  options.request_timeout_ms = 300;
  hearth_auth *auth = hearth_auth_get(t_app_create(&options));
  CHECK_CODE(hearth_auth_use_emulator(auth, "127.0.0.1", t_blackhole_port()), 0);
  double start = t_now();
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_sign_in_anonymously(auth)), HEARTH_ERROR_NETWORK_REQUEST_FAILED);
  double elapsed = t_now() - start;
  CHECK(elapsed >= 0.25);
  CHECK(elapsed < T_LIMIT(5.0));
}

TEST(every_optional_app_option_is_accepted, BOTH_LOOPS) {
  hearth_app_options options;
  t_options(&options);
  options.app_id = "1:1234567890:web:abcdef";
  options.auth_domain = "demo-hearth.firebaseapp.com";
  options.request_timeout_ms = 10000;
  options.ca_bundle_path = "/etc/ssl/certs/ca-certificates.crt";
  hearth_app *app = t_app_create(&options);
  t_sign_in_anonymously(hearth_auth_get(app));
}
