/* test_multi_factor.c — second factors: enrolling SMS and TOTP factors, sign-ins (password, Google ID
 * token, a provider's page) that stop at the second factor and finish through the resolver, unenrolling,
 * the errors Firebase maps, app verification for second-factor SMS, RFC 6238 codes, and bad input. */
#include "test.h"

#include <time.h>

static hearth_user *verified_user(hearth_auth *auth, const char *email) {
  hearth_user *user = t_create_user(auth, email, T_PASSWORD);
  REQUIRE_INT(emu_admin_update(hearth_user_uid(user), "\"emailVerified\":true"), 200);
  return user;
}

static hearth_credential *google(const char *sub, const char *email) {
  return t_keep_credential(hearth_credential_create_google(t_idp_claims(sub, email, true, "Second Factor", NULL), NULL));
}

static const hearth_multi_factor_session *enrollment_session(const hearth_user *user) {
  hearth_future *f = t_keep_future(hearth_user_multi_factor_get_session(user));
  t_await_ok(f);
  const hearth_multi_factor_session *session = hearth_future_multi_factor_session(f);
  REQUIRE(session != NULL);
  return session;
}

static hearth_phone_auth_options enrollment_options(const hearth_multi_factor_session *session, const char *number) {
  hearth_phone_auth_options options;
  hearth_phone_auth_options_init(&options);
  options.phone_number = number;
  options.multi_factor_session = session;
  return options;
}

static hearth_phone_auth_options sign_in_options(const hearth_multi_factor_resolver *resolver,
                                                 const hearth_multi_factor_info *hint) {
  hearth_phone_auth_options options;
  hearth_phone_auth_options_init(&options);
  options.multi_factor_session = hearth_multi_factor_resolver_session(resolver);
  options.multi_factor_hint = hint;
  return options;
}

static const char *verification_id_of(hearth_auth *auth, const hearth_phone_auth_options *options) {
  hearth_future *f = t_verify_phone(auth, options);
  t_await_ok(f);
  REQUIRE(hearth_future_string(f) != NULL);
  return t_strdup(hearth_future_string(f));
}

static hearth_multi_factor_assertion *sms_assertion(const char *verification_id) {
  hearth_multi_factor_assertion *assertion =
      t_keep_assertion(hearth_multi_factor_assertion_create_phone(t_sms_credential(verification_id)));
  REQUIRE(assertion != NULL);
  return assertion;
}

static const hearth_user *enroll(const hearth_user *user, const hearth_multi_factor_assertion *assertion,
                                 const char *display_name) {
  hearth_future *f = t_keep_future(hearth_user_multi_factor_enroll(user, assertion, display_name));
  t_await_ok(f);
  const hearth_user *enrolled = hearth_future_user(f);
  REQUIRE(enrolled != NULL);
  return enrolled;
}

static const hearth_multi_factor_info *factor_with_phone(const hearth_user *user, const char *number) {
  for (size_t i = 0; i < hearth_user_multi_factor_count(user); i++) {
    const hearth_multi_factor_info *info = hearth_user_multi_factor_at(user, i);
    if (t_str_eq(hearth_multi_factor_info_phone_number(info), number)) return info;
  }
  return NULL;
}

/* Enrolls the number as an SMS factor of the signed-in user; its enrollment id. */
static const char *enroll_phone(hearth_auth *auth, const hearth_user *user, const char *number, const char *name) {
  hearth_phone_auth_options options = enrollment_options(enrollment_session(user), number);
  const hearth_user *enrolled = enroll(user, sms_assertion(verification_id_of(auth, &options)), name);
  const hearth_multi_factor_info *factor = factor_with_phone(enrolled, number);
  REQUIRE(factor != NULL);
  return t_strdup(hearth_multi_factor_info_uid(factor));
}

/* What an authenticator app shows now, computed by Hearth's helper. */
static const char *totp_now(const char *secret) {
  char code[16];
  REQUIRE_CODE(hearth_totp_code_generate(secret, "SHA1", 6, 30, (int64_t)time(NULL), code, sizeof code), 0);
  return t_strdup(code);
}

/* A well-formed code no accepted time step (now, or one step either side) produces. */
static const char *wrong_totp(const char *secret) {
  int64_t now = (int64_t)time(NULL);
  for (int step = 10; step < 40; step++) {
    const char *candidate = t_totp_sha1(secret, 6, 30, now + step * 30);
    bool accepted = false;
    for (int near = -2; near <= 2; near++) accepted |= t_str_eq(candidate, t_totp_sha1(secret, 6, 30, now + near * 30));
    if (!accepted) return candidate;
  }
  t_fail(__FILE__, __LINE__, "no distinct TOTP code found");
  t_abort_test();
  return NULL;
}

/* Enrolls an authenticator app for the signed-in user; the shared secret it was given. */
static const char *enroll_totp(const hearth_user *user, const char *name) {
  hearth_future *f = t_keep_future(hearth_totp_secret_generate(enrollment_session(user)));
  t_await_ok(f);
  const hearth_totp_secret *secret = hearth_future_totp_secret(f);
  REQUIRE(secret != NULL);
  const char *key = t_strdup(hearth_totp_secret_shared_secret_key(secret));
  enroll(user, t_keep_assertion(hearth_multi_factor_assertion_create_totp_enrollment(secret, totp_now(key))), name);
  return key;
}

/* A sign-in that stops at the second factor: the (kept) failed future, which owns the resolver. */
static hearth_future *stops_at_second_factor(hearth_future *f) {
  REQUIRE(f != NULL);
  t_keep_future(f);
  CHECK_FAILS_WITH(f, HEARTH_ERROR_SECOND_FACTOR_REQUIRED);
  REQUIRE(hearth_future_multi_factor_resolver(f) != NULL);
  return f;
}

static hearth_future *resolve(const hearth_multi_factor_resolver *resolver,
                              const hearth_multi_factor_assertion *assertion) {
  hearth_future *f = t_keep_future(hearth_multi_factor_resolver_resolve_sign_in(resolver, assertion));
  REQUIRE(f != NULL);
  return f;
}

static const hearth_user *resolved_user(hearth_future *f) {
  t_await_ok(f);
  const hearth_auth_result *result = hearth_future_auth_result(f);
  REQUIRE(result != NULL);
  REQUIRE(hearth_auth_result_user(result) != NULL);
  return hearth_auth_result_user(result);
}

/* What a sign-in hint shows of a number: every digit but the last four masked. */
static const char *masked(const char *number) {
  char *text = t_strdup(number);
  int digits_seen = 0;
  for (size_t i = strlen(text); i-- > 0;) {
    if (text[i] >= '0' && text[i] <= '9' && ++digits_seen > 4) text[i] = '*';
  }
  return text;
}

static const json *firebase_claims(hearth_auth *auth) {
  return json_get(t_token_claims(t_token(t_current_user(auth), 0)), "firebase");
}

static void check_recent_ms(uint64_t ms) {
  uint64_t now = (uint64_t)time(NULL) * 1000;
  CHECK(ms + 120000 > now && ms < now + 120000);
}

static void release_provider(void *provider) { hearth_oauth_provider_release(provider); }

typedef struct state_calls {
  hearth_app *app;
  atomic_int calls;
} state_calls;

static void count_state(hearth_auth *auth, void *user_data) {
  (void)auth;
  state_calls *c = user_data;
  T_CB_ENTER(c->app);
  atomic_fetch_add(&c->calls, 1);
  T_CB_EXIT();
}

/* ------------------------------------------------------------------------------------------------
 * SMS second factors
 * ---------------------------------------------------------------------------------------------- */
TEST(enrolling_an_sms_second_factor_lists_it_on_the_user, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  hearth_user *user = verified_user(auth, t_email("mfa-enroll"));
  const char *uid = t_strdup(hearth_user_uid(user));
  hearth_future *session_future = t_keep_future(hearth_user_multi_factor_get_session(user));
  t_await_ok(session_future);
  const hearth_multi_factor_session *session = hearth_future_multi_factor_session(session_future);
  REQUIRE(session != NULL);
  CHECK(hearth_future_multi_factor_session(session_future) == session);

  const char *number = t_phone_number();
  hearth_phone_auth_options options = enrollment_options(session, number);
  const char *verification_id = verification_id_of(auth, &options);
  CHECK_STR(json_get_string(emu_verification_code(verification_id), "phoneNumber"), number);
  const char *code = emu_sms_code(verification_id);
  const char *line = t_printf("To enroll MFA with %s, use the code %s.", number, code);
  CHECK_CONTAINS(emu_log_until(line), line);

  hearth_credential *credential = t_keep_credential(hearth_credential_create_phone(verification_id, code));
  hearth_multi_factor_assertion *assertion = t_keep_assertion(hearth_multi_factor_assertion_create_phone(credential));
  REQUIRE(assertion != NULL);
  const hearth_user *enrolled = enroll(user, assertion, "Work phone");
  CHECK_STR(hearth_user_uid(enrolled), uid);
  REQUIRE_INT(hearth_user_multi_factor_count(enrolled), 1);
  const hearth_multi_factor_info *factor = hearth_user_multi_factor_at(enrolled, 0);
  CHECK(hearth_user_multi_factor_at(enrolled, 1) == NULL);
  CHECK_STR(hearth_multi_factor_info_factor_id(factor), "phone");
  CHECK_INT(strlen(hearth_multi_factor_info_uid(factor)), 28);
  CHECK_STR(hearth_multi_factor_info_display_name(factor), "Work phone");
  CHECK_STR(hearth_multi_factor_info_phone_number(factor), number);
  check_recent_ms(hearth_multi_factor_info_enrollment_timestamp(factor));

  hearth_user *current = t_current_user(auth);
  REQUIRE_INT(hearth_user_multi_factor_count(current), 1);
  CHECK_STR(hearth_multi_factor_info_uid(hearth_user_multi_factor_at(current, 0)), hearth_multi_factor_info_uid(factor));
  CHECK_INT(hearth_user_multi_factor_count(user), 0); /* the old snapshot stays as it was */
  const json *mfa = json_get(emu_lookup(uid), "mfaInfo");
  REQUIRE_INT(json_count(mfa), 1);
  CHECK_STR(json_get_string(json_at(mfa, 0), "mfaEnrollmentId"), hearth_multi_factor_info_uid(factor));
  CHECK_STR(t_current_uid(auth), uid);
}

TEST(a_password_sign_in_needing_an_sms_second_factor_finishes_through_the_resolver, BOTH_LOOPS) {
  hearth_app *app = t_app();
  hearth_auth *auth = hearth_auth_get(app);
  const char *email = t_email("mfa-password-sms");
  hearth_user *user = verified_user(auth, email);
  const char *uid = t_strdup(hearth_user_uid(user));
  const char *number = t_phone_number();
  const char *enrollment_id = enroll_phone(auth, user, number, "Work phone");
  const hearth_multi_factor_info *enrolled = hearth_user_multi_factor_at(t_current_user(auth), 0);
  uint64_t enrolled_at = hearth_multi_factor_info_enrollment_timestamp(enrolled);
  CHECK_CODE(hearth_auth_sign_out(auth), 0);
  state_calls *state = t_alloc(sizeof *state);
  state->app = app;
  uint64_t listener = hearth_auth_add_auth_state_listener(auth, count_state, NULL, state);
  REQUIRE(listener != 0);
  REQUIRE_EVENTUALLY(atomic_load(&state->calls) == 1); /* told the current state: signed out */

  hearth_future *f = stops_at_second_factor(hearth_auth_sign_in_with_email_and_password(auth, email, T_PASSWORD));
  CHECK(hearth_future_auth_result(f) == NULL);
  CHECK(hearth_future_user(f) == NULL);
  CHECK(hearth_auth_current_user(auth) == NULL);
  const hearth_multi_factor_resolver *resolver = hearth_future_multi_factor_resolver(f);
  CHECK(hearth_future_multi_factor_resolver(f) == resolver); /* borrowed: the same each time */
  REQUIRE_INT(hearth_multi_factor_resolver_hint_count(resolver), 1);
  const hearth_multi_factor_info *hint = hearth_multi_factor_resolver_hint_at(resolver, 0);
  CHECK(hearth_multi_factor_resolver_hint_at(resolver, 1) == NULL);
  CHECK_STR(hearth_multi_factor_info_factor_id(hint), "phone");
  CHECK_STR(hearth_multi_factor_info_uid(hint), enrollment_id);
  CHECK_STR(hearth_multi_factor_info_display_name(hint), "Work phone");
  CHECK_STR(hearth_multi_factor_info_phone_number(hint), masked(number));
  CHECK_INT(hearth_multi_factor_info_enrollment_timestamp(hint), enrolled_at);
  const hearth_multi_factor_session *session = hearth_multi_factor_resolver_session(resolver);
  REQUIRE(session != NULL);
  CHECK(hearth_multi_factor_resolver_session(resolver) == session);
  t_settle(50);
  CHECK_INT(atomic_load(&state->calls), 1); /* a sign-in waiting for its second factor changes nothing */

  hearth_phone_auth_options options = sign_in_options(resolver, hint);
  const char *verification_id = verification_id_of(auth, &options);
  CHECK_STR(json_get_string(emu_verification_code(verification_id), "phoneNumber"), number);
  const char *code = emu_sms_code(verification_id);
  const char *line = t_printf("To sign in with MFA using %s, use the code %s.", number, code);
  CHECK_CONTAINS(emu_log_until(line), line);
  const hearth_user *signed_in = resolved_user(resolve(resolver, sms_assertion(verification_id)));
  CHECK_STR(hearth_user_uid(signed_in), uid);
  CHECK_INT(hearth_user_multi_factor_count(signed_in), 1);
  CHECK_STR(t_current_uid(auth), uid);
  REQUIRE_EVENTUALLY(atomic_load(&state->calls) == 2);
  t_settle(100);
  CHECK_INT(atomic_load(&state->calls), 2); /* told once */
  const json *firebase = firebase_claims(auth);
  CHECK_STR(json_get_string(firebase, "sign_in_provider"), "password");
  CHECK_STR(json_get_string(firebase, "sign_in_second_factor"), "phone");
  CHECK_STR(json_get_string(firebase, "second_factor_identifier"), enrollment_id);
  CHECK_CODE(hearth_auth_remove_auth_state_listener(auth, listener), 0);
}

TEST(a_google_sign_in_needing_an_sms_second_factor_finishes_through_the_resolver, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *sub = t_subject("mfa-google"), *email = t_email("mfa-google");
  hearth_future *first = t_keep_future(hearth_auth_sign_in_and_retrieve_data_with_credential(auth, google(sub, email)));
  t_await_ok(first);
  hearth_user *user = t_current_user(auth);
  CHECK_INT(hearth_user_is_email_verified(user), 1); /* Google vouches for the email */
  const char *uid = t_strdup(hearth_user_uid(user));
  const char *number = t_phone_number();
  const char *enrollment_id = enroll_phone(auth, user, number, NULL);
  CHECK_CODE(hearth_auth_sign_out(auth), 0);

  hearth_future *f = stops_at_second_factor(hearth_auth_sign_in_with_credential(auth, google(sub, email)));
  CHECK(hearth_future_user(f) == NULL);
  const hearth_multi_factor_resolver *resolver = hearth_future_multi_factor_resolver(f);
  REQUIRE_INT(hearth_multi_factor_resolver_hint_count(resolver), 1);
  const hearth_multi_factor_info *hint = hearth_multi_factor_resolver_hint_at(resolver, 0);
  CHECK_STR(hearth_multi_factor_info_uid(hint), enrollment_id);
  CHECK_STR(hearth_multi_factor_info_display_name(hint), ""); /* enrolled without a name */
  hearth_phone_auth_options options = sign_in_options(resolver, hint);
  hearth_future *resolved = resolve(resolver, sms_assertion(verification_id_of(auth, &options)));
  CHECK_STR(hearth_user_uid(resolved_user(resolved)), uid);
  CHECK_STR(hearth_auth_result_provider_id(hearth_future_auth_result(resolved)), "google.com");
  const json *firebase = firebase_claims(auth);
  CHECK_STR(json_get_string(firebase, "sign_in_provider"), "google.com");
  CHECK_STR(json_get_string(firebase, "sign_in_second_factor"), "phone");
}

/* ------------------------------------------------------------------------------------------------
 * TOTP second factors
 * ---------------------------------------------------------------------------------------------- */
TEST(enrolling_an_authenticator_app_shows_the_secret_and_a_code_from_it_finishes_the_enrollment, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *email = t_email("mfa-totp");
  hearth_user *user = verified_user(auth, email);
  hearth_future *f = t_keep_future(hearth_totp_secret_generate(enrollment_session(user)));
  t_await_ok(f);
  const hearth_totp_secret *secret = hearth_future_totp_secret(f);
  REQUIRE(secret != NULL);
  CHECK(hearth_future_totp_secret(f) == secret);
  const char *key = hearth_totp_secret_shared_secret_key(secret);
  REQUIRE(key != NULL);
  CHECK_INT(strlen(key), 32); /* 160 bits */
  CHECK_INT(strspn(key, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"), strlen(key));
  CHECK_INT(hearth_totp_secret_code_length(secret), 6);
  CHECK_INT(hearth_totp_secret_period_seconds(secret), 30);
  CHECK_STR(hearth_totp_secret_algorithm(secret), "SHA1");

  char *url = hearth_totp_secret_qr_code_url(secret, email, "Hearth Game");
  CHECK_STR(url, t_printf("otpauth://totp/Hearth%%20Game:%s?secret=%s&issuer=Hearth%%20Game&algorithm=SHA1&digits=6"
                          "&period=30",
                          t_url_encode(email), key));
  hearth_free(url);
  url = hearth_totp_secret_qr_code_url(secret, email, "");
  CHECK_STR(url, t_printf("otpauth://totp/%s?secret=%s&algorithm=SHA1&digits=6&period=30", t_url_encode(email), key));
  hearth_free(url);

  /* What the authenticator shows: Hearth's helper agrees with the suite's own RFC 6238. */
  int64_t now = (int64_t)time(NULL);
  char code[16];
  REQUIRE_CODE(hearth_totp_code_generate(key, hearth_totp_secret_algorithm(secret),
                                         hearth_totp_secret_code_length(secret),
                                         hearth_totp_secret_period_seconds(secret), now, code, sizeof code),
               0);
  CHECK_STR(code, t_totp_sha1(key, 6, 30, now));
  hearth_multi_factor_assertion *assertion =
      t_keep_assertion(hearth_multi_factor_assertion_create_totp_enrollment(secret, code));
  REQUIRE(assertion != NULL);
  const hearth_user *enrolled = enroll(user, assertion, "Authenticator");
  REQUIRE_INT(hearth_user_multi_factor_count(enrolled), 1);
  const hearth_multi_factor_info *factor = hearth_user_multi_factor_at(enrolled, 0);
  CHECK_STR(hearth_multi_factor_info_factor_id(factor), "totp");
  CHECK_STR(hearth_multi_factor_info_display_name(factor), "Authenticator");
  CHECK_STR(hearth_multi_factor_info_phone_number(factor), "");
  CHECK_INT(strlen(hearth_multi_factor_info_uid(factor)), 28);
  check_recent_ms(hearth_multi_factor_info_enrollment_timestamp(factor));
  const json *mfa = json_get(emu_lookup(hearth_user_uid(user)), "mfaInfo");
  REQUIRE_INT(json_count(mfa), 1);
  CHECK(json_get(json_at(mfa, 0), "totpInfo") != NULL);
}

TEST(a_password_sign_in_needing_a_totp_code_refuses_a_wrong_code_and_takes_the_right_one, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *email = t_email("mfa-password-totp");
  hearth_user *user = verified_user(auth, email);
  const char *uid = t_strdup(hearth_user_uid(user));
  const char *secret = enroll_totp(user, "Authenticator");
  const hearth_multi_factor_info *enrolled = hearth_user_multi_factor_at(t_current_user(auth), 0);
  const char *enrollment_id = t_strdup(hearth_multi_factor_info_uid(enrolled));
  CHECK_CODE(hearth_auth_sign_out(auth), 0);

  hearth_future *f = stops_at_second_factor(hearth_auth_sign_in_with_email_and_password(auth, email, T_PASSWORD));
  const hearth_multi_factor_resolver *resolver = hearth_future_multi_factor_resolver(f);
  REQUIRE_INT(hearth_multi_factor_resolver_hint_count(resolver), 1);
  const hearth_multi_factor_info *hint = hearth_multi_factor_resolver_hint_at(resolver, 0);
  CHECK_STR(hearth_multi_factor_info_factor_id(hint), "totp");
  CHECK_STR(hearth_multi_factor_info_uid(hint), enrollment_id);
  CHECK_STR(hearth_multi_factor_info_display_name(hint), "Authenticator");
  CHECK_STR(hearth_multi_factor_info_phone_number(hint), "");

  hearth_multi_factor_assertion *wrong = t_keep_assertion(
      hearth_multi_factor_assertion_create_totp_sign_in(hearth_multi_factor_info_uid(hint), wrong_totp(secret)));
  REQUIRE(wrong != NULL);
  CHECK_FAILS_WITH(resolve(resolver, wrong), HEARTH_ERROR_INVALID_VERIFICATION_CODE);
  CHECK(hearth_auth_current_user(auth) == NULL);

  /* The code the suite computes itself from the shared secret. */
  const char *code = t_totp_sha1(secret, 6, 30, (int64_t)time(NULL));
  hearth_multi_factor_assertion *right =
      t_keep_assertion(hearth_multi_factor_assertion_create_totp_sign_in(hearth_multi_factor_info_uid(hint), code));
  CHECK_STR(hearth_user_uid(resolved_user(resolve(resolver, right))), uid);
  const json *firebase = firebase_claims(auth);
  CHECK_STR(json_get_string(firebase, "sign_in_provider"), "password");
  CHECK_STR(json_get_string(firebase, "sign_in_second_factor"), "totp");
  CHECK_STR(json_get_string(firebase, "second_factor_identifier"), enrollment_id);
}

TEST(a_google_sign_in_needing_a_totp_code_finishes_through_the_resolver, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *sub = t_subject("mfa-google-totp"), *email = t_email("mfa-google-totp");
  t_await_ok(t_keep_future(hearth_auth_sign_in_and_retrieve_data_with_credential(auth, google(sub, email))));
  hearth_user *user = t_current_user(auth);
  const char *uid = t_strdup(hearth_user_uid(user));
  const char *secret = enroll_totp(user, "Phone app");
  CHECK_CODE(hearth_auth_sign_out(auth), 0);

  hearth_future *f =
      stops_at_second_factor(hearth_auth_sign_in_and_retrieve_data_with_credential(auth, google(sub, email)));
  const hearth_multi_factor_resolver *resolver = hearth_future_multi_factor_resolver(f);
  const hearth_multi_factor_info *hint = hearth_multi_factor_resolver_hint_at(resolver, 0);
  REQUIRE(hint != NULL);
  hearth_future *resolved = resolve(
      resolver, t_keep_assertion(hearth_multi_factor_assertion_create_totp_sign_in(hearth_multi_factor_info_uid(hint),
                                                                                totp_now(secret))));
  CHECK_STR(hearth_user_uid(resolved_user(resolved)), uid);
  CHECK_STR(json_get_string(firebase_claims(auth), "sign_in_provider"), "google.com");
  CHECK_STR(json_get_string(firebase_claims(auth), "sign_in_second_factor"), "totp");
}

TEST(an_email_link_sign_in_needing_a_totp_code_finishes_through_the_resolver, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *email = t_email("mfa-link");
  hearth_user *user = verified_user(auth, email);
  const char *key = enroll_totp(user, "Authenticator");
  CHECK_CODE(hearth_auth_sign_out(auth), 0);
  hearth_action_code_settings settings;
  hearth_action_code_settings_init(&settings);
  settings.url = "com.example.mfa:/finish";
  settings.handle_code_in_app = 1;
  t_await_ok(t_keep_future(hearth_auth_send_sign_in_link_to_email(auth, email, &settings)));
  const json *mail = emu_oob_code(email, "EMAIL_SIGNIN");
  REQUIRE(mail != NULL);
  hearth_future *f = stops_at_second_factor(
      hearth_auth_sign_in_with_email_link(auth, email, json_get_string(mail, "oobLink")));
  CHECK(hearth_auth_current_user(auth) == NULL);
  const hearth_multi_factor_resolver *resolver = hearth_future_multi_factor_resolver(f);
  REQUIRE_INT(hearth_multi_factor_resolver_hint_count(resolver), 1);
  const hearth_multi_factor_info *hint = hearth_multi_factor_resolver_hint_at(resolver, 0);
  CHECK_STR(hearth_multi_factor_info_factor_id(hint), "totp");
  const hearth_user *signed_in = resolved_user(resolve(
      resolver, t_keep_assertion(hearth_multi_factor_assertion_create_totp_sign_in(
                    hearth_multi_factor_info_uid(hint), totp_now(key)))));
  CHECK_STR(hearth_user_uid(signed_in), hearth_user_uid(user));
  CHECK_STR(t_current_uid(auth), hearth_user_uid(user));
}

TEST(a_sign_in_through_a_providers_page_needing_a_second_factor_finishes_through_the_resolver, BOTH_LOOPS) {
  hearth_app *app = t_app();
  hearth_auth *auth = hearth_auth_get(app);
  t_browser *browser = t_browser_new(app);
  t_browser_attach(browser, 0);
  const char *email = t_email("mfa-page");
  t_browser_sign_in_as(browser, t_printf("email=%s&emailVerified=true", t_url_encode(email)));
  hearth_oauth_provider *provider = hearth_oauth_provider_create("google.com");
  REQUIRE(provider != NULL);
  t_defer(release_provider, provider);
  hearth_future *first = t_keep_future(hearth_auth_sign_in_with_provider(auth, provider));
  t_await_ok(first);
  hearth_user *user = t_current_user(auth);
  const char *uid = t_strdup(hearth_user_uid(user));
  const char *secret = enroll_totp(user, NULL);
  CHECK_CODE(hearth_auth_sign_out(auth), 0);

  hearth_future *f = stops_at_second_factor(hearth_auth_sign_in_with_provider(auth, provider));
  CHECK_INT(t_browser_wait(browser, 2).redirect_status, 200);
  const hearth_multi_factor_resolver *resolver = hearth_future_multi_factor_resolver(f);
  const hearth_multi_factor_info *hint = hearth_multi_factor_resolver_hint_at(resolver, 0);
  REQUIRE(hint != NULL);
  CHECK_STR(hearth_multi_factor_info_factor_id(hint), "totp");
  CHECK_STR(hearth_multi_factor_info_display_name(hint), "");
  hearth_future *resolved = resolve(
      resolver, t_keep_assertion(hearth_multi_factor_assertion_create_totp_sign_in(hearth_multi_factor_info_uid(hint),
                                                                                totp_now(secret))));
  CHECK_STR(hearth_user_uid(resolved_user(resolved)), uid);
  CHECK_STR(hearth_auth_result_provider_id(hearth_future_auth_result(resolved)), "google.com");
}

TEST(an_account_with_both_factors_offers_both_hints_in_enrollment_order, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *email = t_email("mfa-both");
  hearth_user *user = verified_user(auth, email);
  const char *number = t_phone_number();
  const char *phone_id = enroll_phone(auth, user, number, "Phone");
  const char *secret = enroll_totp(t_current_user(auth), "App");
  hearth_user *current = t_current_user(auth);
  REQUIRE_INT(hearth_user_multi_factor_count(current), 2);
  CHECK_STR(hearth_multi_factor_info_factor_id(hearth_user_multi_factor_at(current, 0)), "phone");
  CHECK_STR(hearth_multi_factor_info_factor_id(hearth_user_multi_factor_at(current, 1)), "totp");
  CHECK_CODE(hearth_auth_sign_out(auth), 0);

  hearth_future *f = stops_at_second_factor(hearth_auth_sign_in_with_email_and_password(auth, email, T_PASSWORD));
  const hearth_multi_factor_resolver *resolver = hearth_future_multi_factor_resolver(f);
  REQUIRE_INT(hearth_multi_factor_resolver_hint_count(resolver), 2);
  const hearth_multi_factor_info *phone = hearth_multi_factor_resolver_hint_at(resolver, 0);
  const hearth_multi_factor_info *totp = hearth_multi_factor_resolver_hint_at(resolver, 1);
  CHECK_STR(hearth_multi_factor_info_uid(phone), phone_id);
  CHECK_STR(hearth_multi_factor_info_display_name(phone), "Phone");
  CHECK_STR(hearth_multi_factor_info_factor_id(totp), "totp");
  CHECK_STR(hearth_multi_factor_info_display_name(totp), "App");
  /* A TOTP hint cannot be texted. */
  hearth_phone_auth_options options = sign_in_options(resolver, totp);
  CHECK_FAILS_WITH(t_verify_phone(auth, &options), HEARTH_ERROR_MISSING_MULTI_FACTOR_INFO);
  hearth_future *resolved = resolve(resolver, t_keep_assertion(hearth_multi_factor_assertion_create_totp_sign_in(
                                                  hearth_multi_factor_info_uid(totp), totp_now(secret))));
  resolved_user(resolved);
  CHECK_STR(json_get_string(firebase_claims(auth), "sign_in_second_factor"), "totp");
}

/* ------------------------------------------------------------------------------------------------
 * Unenrolling
 * ---------------------------------------------------------------------------------------------- */
TEST(unenrolling_a_factor_removes_it_and_the_next_sign_in_needs_no_second_factor, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *email = t_email("mfa-unenroll");
  hearth_user *user = verified_user(auth, email);
  const char *uid = t_strdup(hearth_user_uid(user));
  const char *enrollment_id = enroll_phone(auth, user, t_phone_number(), "Old phone");
  hearth_future *f = t_keep_future(hearth_user_multi_factor_unenroll(t_current_user(auth), enrollment_id));
  t_await_ok(f);
  REQUIRE(hearth_future_user(f) != NULL);
  CHECK_INT(hearth_user_multi_factor_count(hearth_future_user(f)), 0);
  CHECK_INT(hearth_user_multi_factor_count(t_current_user(auth)), 0);
  CHECK_STR(t_current_uid(auth), uid);
  CHECK_INT(json_count(json_get(emu_lookup(uid), "mfaInfo")), 0);

  CHECK_FAILS_WITH(t_keep_future(hearth_user_multi_factor_unenroll(t_current_user(auth), enrollment_id)),
                   HEARTH_ERROR_MULTI_FACTOR_INFO_NOT_FOUND);
  CHECK_FAILS_WITH(t_keep_future(hearth_user_multi_factor_unenroll(t_current_user(auth), "")),
                   HEARTH_ERROR_MISSING_MULTI_FACTOR_INFO);
  CHECK_CODE(hearth_auth_sign_out(auth), 0);
  t_await_ok(t_keep_future(hearth_auth_sign_in_with_email_and_password(auth, email, T_PASSWORD)));
  CHECK_STR(t_current_uid(auth), uid);
}

/* ------------------------------------------------------------------------------------------------
 * Errors Firebase maps
 * ---------------------------------------------------------------------------------------------- */
TEST(enrolling_without_a_verified_email_fails_with_unverified_email, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  hearth_user *user = t_create_user(auth, t_email("mfa-unverified"), T_PASSWORD);
  const hearth_multi_factor_session *session = enrollment_session(user);
  const char *number = t_phone_number();
  hearth_phone_auth_options options = enrollment_options(session, number);
  CHECK_FAILS_WITH(t_verify_phone(auth, &options), HEARTH_ERROR_UNVERIFIED_EMAIL);
  CHECK_FAILS_WITH(t_keep_future(hearth_totp_secret_generate(session)), HEARTH_ERROR_UNVERIFIED_EMAIL);
  CHECK_INT(emu_verification_code_count(number), 0);
}

TEST(anonymous_and_phone_users_cannot_enroll_a_second_factor, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  hearth_user *anonymous = t_sign_in_anonymously(auth);
  const hearth_multi_factor_session *session = enrollment_session(anonymous);
  hearth_phone_auth_options options = enrollment_options(session, t_phone_number());
  CHECK_FAILS_WITH(t_verify_phone(auth, &options), HEARTH_ERROR_UNSUPPORTED_FIRST_FACTOR);
  CHECK_FAILS_WITH(t_keep_future(hearth_totp_secret_generate(session)), HEARTH_ERROR_UNSUPPORTED_FIRST_FACTOR);
  CHECK_CODE(hearth_auth_sign_out(auth), 0);

  hearth_user *phone_user = t_sign_in_with_phone(auth, t_phone_number());
  CHECK_FAILS_WITH(t_keep_future(hearth_totp_secret_generate(enrollment_session(phone_user))),
                   HEARTH_ERROR_UNSUPPORTED_FIRST_FACTOR);
}

TEST(enrolling_a_factor_twice_fails_with_second_factor_already_enrolled, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  hearth_user *user = verified_user(auth, t_email("mfa-twice"));
  const char *number = t_phone_number();
  enroll_phone(auth, user, number, "Phone");
  hearth_phone_auth_options options = enrollment_options(enrollment_session(t_current_user(auth)), number);
  options.timeout_ms = 1; /* not the first code again: a new request */
  t_sleep_ms(2);
  CHECK_FAILS_WITH(t_verify_phone(auth, &options), HEARTH_ERROR_SECOND_FACTOR_ALREADY_ENROLLED);
  enroll_totp(t_current_user(auth), "App");
  CHECK_FAILS_WITH(t_keep_future(hearth_totp_secret_generate(enrollment_session(t_current_user(auth)))),
                   HEARTH_ERROR_SECOND_FACTOR_ALREADY_ENROLLED);
  CHECK_INT(hearth_user_multi_factor_count(t_current_user(auth)), 2);
}

TEST(a_sixth_second_factor_fails_with_maximum_second_factor_count_exceeded, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *email = t_email("mfa-many");
  hearth_user *user = verified_user(auth, email);
  const char *enrollments = t_strdup("");
  for (int i = 0; i < 5; i++)
    enrollments = t_printf("%s%s{\"mfaEnrollmentId\":\"factor%d\",\"phoneInfo\":\"%s\",\"displayName\":\"Phone %d\"}",
                           enrollments, i ? "," : "", i, t_phone_number(), i);
  REQUIRE_INT(emu_admin_update(hearth_user_uid(user), t_printf("\"mfa\":{\"enrollments\":[%s]}", enrollments)), 200);
  hearth_future *reload = t_keep_future(hearth_user_reload(user));
  t_await_ok(reload);
  CHECK_INT(hearth_user_multi_factor_count(hearth_future_user(reload)), 5);

  const char *number = t_phone_number();
  hearth_phone_auth_options options = enrollment_options(enrollment_session(t_current_user(auth)), number);
  CHECK_FAILS_WITH(t_verify_phone(auth, &options), HEARTH_ERROR_MAXIMUM_SECOND_FACTOR_COUNT_EXCEEDED);
  CHECK_FAILS_WITH(t_keep_future(hearth_totp_secret_generate(enrollment_session(t_current_user(auth)))),
                   HEARTH_ERROR_MAXIMUM_SECOND_FACTOR_COUNT_EXCEEDED);
  CHECK_INT(emu_verification_code_count(number), 0);

  CHECK_CODE(hearth_auth_sign_out(auth), 0);
  hearth_future *f = stops_at_second_factor(hearth_auth_sign_in_with_email_and_password(auth, email, T_PASSWORD));
  const hearth_multi_factor_resolver *resolver = hearth_future_multi_factor_resolver(f);
  REQUIRE_INT(hearth_multi_factor_resolver_hint_count(resolver), 5);
  for (size_t i = 0; i < 5; i++) {
    const hearth_multi_factor_info *hint = hearth_multi_factor_resolver_hint_at(resolver, i);
    CHECK_STR(hearth_multi_factor_info_uid(hint), t_printf("factor%zu", i));
    CHECK_STR(hearth_multi_factor_info_display_name(hint), t_printf("Phone %zu", i));
  }
}

TEST(a_wrong_sms_code_at_enrollment_fails_and_the_right_code_then_enrolls, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  hearth_user *user = verified_user(auth, t_email("mfa-wrong-enroll"));
  hearth_phone_auth_options options = enrollment_options(enrollment_session(user), t_phone_number());
  const char *verification_id = verification_id_of(auth, &options);
  const char *code = emu_sms_code(verification_id);
  char *wrong = t_strdup(code);
  wrong[0] = wrong[0] == '9' ? '0' : (char)(wrong[0] + 1);
  hearth_credential *mistyped = t_keep_credential(hearth_credential_create_phone(verification_id, wrong));
  hearth_multi_factor_assertion *bad = t_keep_assertion(hearth_multi_factor_assertion_create_phone(mistyped));
  CHECK_FAILS_WITH(t_keep_future(hearth_user_multi_factor_enroll(user, bad, "Phone")),
                   HEARTH_ERROR_INVALID_VERIFICATION_CODE);
  CHECK_INT(hearth_user_multi_factor_count(t_current_user(auth)), 0);
  const hearth_user *enrolled = enroll(user, sms_assertion(verification_id), "Phone");
  CHECK_INT(hearth_user_multi_factor_count(enrolled), 1);

  /* A wrong authenticator code at enrollment too. */
  hearth_future *f = t_keep_future(hearth_totp_secret_generate(enrollment_session(t_current_user(auth))));
  t_await_ok(f);
  const hearth_totp_secret *secret = hearth_future_totp_secret(f);
  hearth_multi_factor_assertion *bad_totp = t_keep_assertion(hearth_multi_factor_assertion_create_totp_enrollment(
      secret, wrong_totp(hearth_totp_secret_shared_secret_key(secret))));
  CHECK_FAILS_WITH(t_keep_future(hearth_user_multi_factor_enroll(t_current_user(auth), bad_totp, "App")),
                   HEARTH_ERROR_INVALID_VERIFICATION_CODE);
  CHECK_INT(hearth_user_multi_factor_count(t_current_user(auth)), 1);
}

TEST(a_wrong_sms_code_at_sign_in_fails_and_the_right_code_then_signs_in, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *email = t_email("mfa-wrong-sign-in");
  hearth_user *user = verified_user(auth, email);
  enroll_phone(auth, user, t_phone_number(), "Phone");
  CHECK_CODE(hearth_auth_sign_out(auth), 0);
  hearth_future *f = stops_at_second_factor(hearth_auth_sign_in_with_email_and_password(auth, email, T_PASSWORD));
  const hearth_multi_factor_resolver *resolver = hearth_future_multi_factor_resolver(f);
  hearth_phone_auth_options options = sign_in_options(resolver, hearth_multi_factor_resolver_hint_at(resolver, 0));
  const char *verification_id = verification_id_of(auth, &options);
  const char *code = emu_sms_code(verification_id);
  char *wrong = t_strdup(code);
  wrong[5] = wrong[5] == '9' ? '0' : (char)(wrong[5] + 1);
  hearth_credential *mistyped = t_keep_credential(hearth_credential_create_phone(verification_id, wrong));
  hearth_multi_factor_assertion *bad = t_keep_assertion(hearth_multi_factor_assertion_create_phone(mistyped));
  CHECK_FAILS_WITH(resolve(resolver, bad), HEARTH_ERROR_INVALID_VERIFICATION_CODE);
  CHECK(hearth_auth_current_user(auth) == NULL);
  resolved_user(resolve(resolver, sms_assertion(verification_id)));
  CHECK_STR(t_current_uid(auth), hearth_user_uid(user));
}

TEST(a_second_factor_code_used_after_its_session_expired_fails_with_session_expired, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *email = t_email("mfa-expired");
  hearth_user *user = verified_user(auth, email);
  enroll_phone(auth, user, t_phone_number(), "Phone");
  CHECK_CODE(hearth_auth_sign_out(auth), 0);
  emu_configure("\"smsCodeTtlSeconds\":1");
  hearth_future *f = stops_at_second_factor(hearth_auth_sign_in_with_email_and_password(auth, email, T_PASSWORD));
  const hearth_multi_factor_resolver *resolver = hearth_future_multi_factor_resolver(f);
  hearth_phone_auth_options options = sign_in_options(resolver, hearth_multi_factor_resolver_hint_at(resolver, 0));
  hearth_multi_factor_assertion *assertion = sms_assertion(verification_id_of(auth, &options));
  t_settle(1300);
  CHECK_FAILS_WITH(resolve(resolver, assertion), HEARTH_ERROR_SESSION_EXPIRED);
  CHECK(hearth_auth_current_user(auth) == NULL);
}

TEST(sessions_and_assertions_of_the_wrong_kind_are_refused, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *email = t_email("mfa-kinds");
  hearth_user *user = verified_user(auth, email);
  enroll_phone(auth, user, t_phone_number(), "Phone");
  hearth_future *pending_secret = t_keep_future(hearth_totp_secret_generate(enrollment_session(t_current_user(auth))));
  t_await_ok(pending_secret);
  const hearth_totp_secret *secret = hearth_future_totp_secret(pending_secret);
  CHECK_CODE(hearth_auth_sign_out(auth), 0);
  hearth_future *f = stops_at_second_factor(hearth_auth_sign_in_with_email_and_password(auth, email, T_PASSWORD));
  const hearth_multi_factor_resolver *resolver = hearth_future_multi_factor_resolver(f);

  /* A TOTP secret comes from an enrollment session only. */
  CHECK_FAILS_WITH(t_keep_future(hearth_totp_secret_generate(hearth_multi_factor_resolver_session(resolver))),
                   HEARTH_ERROR_INVALID_MULTI_FACTOR_SESSION);
  /* Texting a second factor needs the hint. */
  hearth_phone_auth_options options = sign_in_options(resolver, NULL);
  CHECK_FAILS_WITH(t_verify_phone(auth, &options), HEARTH_ERROR_MISSING_MULTI_FACTOR_INFO);
  /* An enrollment assertion does not sign in, a sign-in assertion does not enroll. */
  hearth_multi_factor_assertion *enrolling = t_keep_assertion(
      hearth_multi_factor_assertion_create_totp_enrollment(secret, totp_now(hearth_totp_secret_shared_secret_key(secret))));
  CHECK_FAILS_WITH(resolve(resolver, enrolling), HEARTH_ERROR_INVALID_ARGUMENT);
  /* An enrollment id the account does not have. */
  hearth_multi_factor_assertion *unknown =
      t_keep_assertion(hearth_multi_factor_assertion_create_totp_sign_in("no-such-enrollment", "123456"));
  CHECK_FAILS_WITH(resolve(resolver, unknown), HEARTH_ERROR_MULTI_FACTOR_INFO_NOT_FOUND);
  CHECK(hearth_auth_current_user(auth) == NULL);

  hearth_user *other = verified_user(auth, t_email("mfa-kinds-other"));
  CHECK_FAILS_WITH(t_keep_future(hearth_user_multi_factor_enroll(other, unknown, "App")), HEARTH_ERROR_INVALID_ARGUMENT);
  CHECK_INT(hearth_user_multi_factor_count(t_current_user(auth)), 0);
}

TEST(a_signed_out_user_has_no_enrollment_session, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  hearth_user *user = verified_user(auth, t_email("mfa-signed-out"));
  /* An enrollment assertion (a phone credential's): the signed-in user is what is missing. */
  hearth_multi_factor_assertion *assertion = t_keep_assertion(
      hearth_multi_factor_assertion_create_phone(t_keep_credential(hearth_credential_create_phone("verification-id", "123456"))));
  REQUIRE(assertion != NULL);
  CHECK_CODE(hearth_auth_sign_out(auth), 0);
  hearth_future *session = t_keep_future(hearth_user_multi_factor_get_session(user));
  CHECK_FAILS_WITH(session, HEARTH_ERROR_NO_SIGNED_IN_USER);
  CHECK(hearth_future_multi_factor_session(session) == NULL);
  CHECK_FAILS_WITH(t_keep_future(hearth_user_multi_factor_unenroll(user, "enrollment")), HEARTH_ERROR_NO_SIGNED_IN_USER);
  CHECK_FAILS_WITH(t_keep_future(hearth_user_multi_factor_enroll(user, assertion, "App")),
                   HEARTH_ERROR_NO_SIGNED_IN_USER);
}

/* ------------------------------------------------------------------------------------------------
 * App verification for second-factor SMS
 * ---------------------------------------------------------------------------------------------- */
TEST(with_app_verification_second_factor_sms_go_through_the_recaptcha_page_too, BOTH_LOOPS) {
  emu_configure("\"appVerificationRequired\":true");
  hearth_app *app = t_app();
  hearth_auth *auth = hearth_auth_get(app);
  REQUIRE_CODE(hearth_auth_set_app_verification_disabled_for_testing(auth, 0), 0);
  t_browser *browser = t_browser_new(app);
  t_browser_attach(browser, 0);
  const char *email = t_email("mfa-recaptcha");
  hearth_user *user = verified_user(auth, email);
  enroll_phone(auth, user, t_phone_number(), "Phone");
  CHECK_INT(t_browser_opened(browser), 1);
  CHECK_STR(t_url_param(t_browser_wait(browser, 1).opened_url, "authType"), "verifyApp");
  CHECK_CODE(hearth_auth_sign_out(auth), 0);

  hearth_future *f = stops_at_second_factor(hearth_auth_sign_in_with_email_and_password(auth, email, T_PASSWORD));
  const hearth_multi_factor_resolver *resolver = hearth_future_multi_factor_resolver(f);
  hearth_phone_auth_options options = sign_in_options(resolver, hearth_multi_factor_resolver_hint_at(resolver, 0));
  const char *verification_id = verification_id_of(auth, &options);
  CHECK_INT(t_browser_wait(browser, 2).redirect_status, 200);
  resolved_user(resolve(resolver, sms_assertion(verification_id)));
  CHECK_STR(t_current_uid(auth), hearth_user_uid(user));
}

/* ------------------------------------------------------------------------------------------------
 * RFC 6238 codes
 * ---------------------------------------------------------------------------------------------- */
TEST(the_suites_own_sha1_and_hmac_match_their_rfcs, MODE_NONE) {
  /* The reference Hearth's helper is checked against must itself be right (RFC 3174, RFC 2202). */
  uint8_t digest[20];
  t_sha1((const uint8_t *)"abc", 3, digest);
  CHECK_STR(t_base32(digest, 20), t_base32((const uint8_t *)"\xa9\x99\x3e\x36\x47\x06\x81\x6a\xba\x3e\x25\x71\x78\x50"
                                                            "\xc2\x6c\x9c\xd0\xd8\x9d",
                                           20));
  uint8_t key[20];
  memset(key, 0x0b, sizeof key);
  uint8_t mac[20];
  t_hmac_sha1(key, sizeof key, (const uint8_t *)"Hi There", 8, mac);
  CHECK_STR(t_base32(mac, 20), t_base32((const uint8_t *)"\xb6\x17\x31\x86\x55\x05\x72\x64\xe2\x8b\xc0\xb6\xfb\x37\x8c"
                                                         "\x8e\xf1\x46\xbe\x00",
                                        20));
  uint8_t long_key[80];
  memset(long_key, 0xaa, sizeof long_key);
  const char *message = "Test Using Larger Than Block-Size Key - Hash Key First";
  t_hmac_sha1(long_key, sizeof long_key, (const uint8_t *)message, strlen(message), mac);
  CHECK_STR(t_base32(mac, 20), t_base32((const uint8_t *)"\xaa\x4a\xe5\xe1\x52\x72\xd0\x0e\x95\x70\x56\x37\xce\x8a\x3b"
                                                         "\x55\xed\x40\x21\x12",
                                        20));
  CHECK_STR(t_totp_sha1(t_base32((const uint8_t *)"12345678901234567890", 20), 8, 30, 59), "94287082");
}

TEST(totp_codes_match_the_rfc_6238_test_vectors_for_sha1_sha256_and_sha512, MODE_NONE) {
  /* RFC 6238 Appendix B: the seeds are ASCII digits repeated to the hash's size. */
  const char *seeds[3] = {"12345678901234567890", "12345678901234567890123456789012",
                          "1234567890123456789012345678901234567890123456789012345678901234"};
  const char *algorithms[3] = {"SHA1", "SHA256", "SHA512"};
  const int64_t times[6] = {59, 1111111109, 1111111111, 1234567890, 2000000000, 20000000000};
  const char *expected[3][6] = {{"94287082", "07081804", "14050471", "89005924", "69279037", "65353130"},
                                {"46119246", "68084774", "67062674", "91819424", "90698825", "77737706"},
                                {"90693936", "25091201", "99943326", "93441116", "38618901", "47863826"}};
  for (int a = 0; a < 3; a++) {
    const char *secret = t_base32((const uint8_t *)seeds[a], strlen(seeds[a]));
    for (int i = 0; i < 6; i++) {
      char code[9];
      memset(code, 'x', sizeof code);
      CHECK_CODE(hearth_totp_code_generate(secret, algorithms[a], 8, 30, times[i], code, sizeof code), 0);
      if (!t_str_eq(code, expected[a][i]))
        t_fail(__FILE__, __LINE__, "%s at %lld: %.9s, expected %s", algorithms[a], (long long)times[i], code,
               expected[a][i]);
    }
  }
}

TEST(hearths_totp_codes_agree_with_the_suites_own_rfc_6238, MODE_NONE) {
  uint8_t seed[20];
  for (int i = 0; i < 20; i++) seed[i] = (uint8_t)(i * 37 + 11);
  const char *secret = t_base32(seed, sizeof seed);
  const int digits[] = {6, 7, 8, 9};
  const int periods[] = {30, 60, 1};
  for (int d = 0; d < 4; d++) {
    for (int p = 0; p < 3; p++) {
      for (int64_t t = 0; t < 4000000000LL; t += 123456789) {
        char code[16];
        REQUIRE_CODE(hearth_totp_code_generate(secret, "SHA1", digits[d], periods[p], t, code, sizeof code), 0);
        if (!t_str_eq(code, t_totp_sha1(secret, digits[d], periods[p], t)))
          t_fail(__FILE__, __LINE__, "%d digits, %d s at %lld: %s, expected %s", digits[d], periods[p], (long long)t,
                 code, t_totp_sha1(secret, digits[d], periods[p], t));
      }
    }
  }
  /* Padding and lower case are how people paste secrets. */
  char upper[16], lower[16];
  const char *padded = t_printf("%s===", t_base32(seed, 18)); /* 18 bytes: 29 characters, padded to 32 */
  REQUIRE_CODE(hearth_totp_code_generate(padded, "SHA1", 6, 30, 1700000000, upper, sizeof upper), 0);
  CHECK_STR(upper, t_totp_sha1(padded, 6, 30, 1700000000));
  char *lowered = t_strdup(secret);
  for (char *c = lowered; *c; c++) *c = (char)(*c >= 'A' && *c <= 'Z' ? *c - 'A' + 'a' : *c);
  REQUIRE_CODE(hearth_totp_code_generate(lowered, "SHA1", 6, 30, 1700000000, lower, sizeof lower), 0);
  CHECK_STR(lower, t_totp_sha1(secret, 6, 30, 1700000000));
}

TEST(the_totp_helper_refuses_bad_arguments, MODE_NONE) {
  const char *secret = t_base32((const uint8_t *)"12345678901234567890", 20);
  char out[16];
  CHECK_CODE(hearth_totp_code_generate(NULL, "SHA1", 6, 30, 59, out, sizeof out), HEARTH_ERROR_INVALID_ARGUMENT);
  CHECK_CODE(hearth_totp_code_generate("", "SHA1", 6, 30, 59, out, sizeof out), HEARTH_ERROR_INVALID_ARGUMENT);
  CHECK_CODE(hearth_totp_code_generate("NOT BASE32!", "SHA1", 6, 30, 59, out, sizeof out),
             HEARTH_ERROR_INVALID_ARGUMENT);
  CHECK_CODE(hearth_totp_code_generate("GEZDG\xff", "SHA1", 6, 30, 59, out, sizeof out), HEARTH_ERROR_INVALID_ARGUMENT);
  CHECK_CODE(hearth_totp_code_generate(secret, "MD5", 6, 30, 59, out, sizeof out), HEARTH_ERROR_INVALID_ARGUMENT);
  CHECK_CODE(hearth_totp_code_generate(secret, "SHA\xff", 6, 30, 59, out, sizeof out), HEARTH_ERROR_INVALID_ARGUMENT);
  CHECK_CODE(hearth_totp_code_generate(secret, "SHA1", 0, 30, 59, out, sizeof out), HEARTH_ERROR_INVALID_ARGUMENT);
  CHECK_CODE(hearth_totp_code_generate(secret, "SHA1", 5, 30, 59, out, sizeof out), HEARTH_ERROR_INVALID_ARGUMENT);
  CHECK_CODE(hearth_totp_code_generate(secret, "SHA1", 11, 30, 59, out, sizeof out), HEARTH_ERROR_INVALID_ARGUMENT);
  CHECK_CODE(hearth_totp_code_generate(secret, "SHA1", -6, 30, 59, out, sizeof out), HEARTH_ERROR_INVALID_ARGUMENT);
  CHECK_CODE(hearth_totp_code_generate(secret, "SHA1", 6, 0, 59, out, sizeof out), HEARTH_ERROR_INVALID_ARGUMENT);
  CHECK_CODE(hearth_totp_code_generate(secret, "SHA1", 6, -30, 59, out, sizeof out), HEARTH_ERROR_INVALID_ARGUMENT);
  CHECK_CODE(hearth_totp_code_generate(secret, "SHA1", 6, 30, -1, out, sizeof out), HEARTH_ERROR_INVALID_ARGUMENT);
  CHECK_CODE(hearth_totp_code_generate(secret, "SHA1", 6, 30, 59, NULL, sizeof out), HEARTH_ERROR_INVALID_ARGUMENT);
  /* Room for the digits and the NUL, no less. */
  memset(out, 'x', sizeof out);
  CHECK_CODE(hearth_totp_code_generate(secret, "SHA1", 6, 30, 59, out, 6), HEARTH_ERROR_INVALID_ARGUMENT);
  CHECK_INT(out[0], 'x'); /* nothing written */
  CHECK_CODE(hearth_totp_code_generate(secret, "SHA1", 6, 30, 59, out, 7), 0);
  CHECK_STR(out, "287082");
  CHECK_CODE(hearth_totp_code_generate(secret, "SHA1", 10, 30, 59, out, 11), 0);
  CHECK_INT(strlen(out), 10);
}

/* ------------------------------------------------------------------------------------------------
 * Bad input
 * ---------------------------------------------------------------------------------------------- */
TEST(null_multi_factor_handles_are_rejected, MODE_NONE) {
  CHECK(hearth_future_multi_factor_resolver(NULL) == NULL);
  CHECK_INT(hearth_multi_factor_resolver_hint_count(NULL), 0);
  CHECK(hearth_multi_factor_resolver_hint_at(NULL, 0) == NULL);
  CHECK(hearth_multi_factor_resolver_session(NULL) == NULL);
  CHECK(hearth_multi_factor_resolver_resolve_sign_in(NULL, NULL) == NULL);
  CHECK(hearth_multi_factor_info_factor_id(NULL) == NULL);
  CHECK(hearth_multi_factor_info_uid(NULL) == NULL);
  CHECK(hearth_multi_factor_info_display_name(NULL) == NULL);
  CHECK(hearth_multi_factor_info_phone_number(NULL) == NULL);
  CHECK_INT(hearth_multi_factor_info_enrollment_timestamp(NULL), 0);
  CHECK_INT(hearth_user_multi_factor_count(NULL), 0);
  CHECK(hearth_user_multi_factor_at(NULL, 0) == NULL);
  CHECK(hearth_user_multi_factor_get_session(NULL) == NULL);
  CHECK(hearth_future_multi_factor_session(NULL) == NULL);
  CHECK(hearth_user_multi_factor_enroll(NULL, NULL, "name") == NULL);
  CHECK(hearth_user_multi_factor_unenroll(NULL, "enrollment") == NULL);
  CHECK(hearth_multi_factor_assertion_create_phone(NULL) == NULL);
  CHECK(hearth_multi_factor_assertion_create_totp_enrollment(NULL, "123456") == NULL);
  CHECK(hearth_multi_factor_assertion_create_totp_sign_in(NULL, "123456") == NULL);
  CHECK(hearth_multi_factor_assertion_create_totp_sign_in("enrollment", NULL) == NULL);
  CHECK(hearth_multi_factor_assertion_create_totp_sign_in("enroll\xff", "123456") == NULL);
  CHECK(hearth_multi_factor_assertion_create_totp_sign_in("enrollment", "12\xc3") == NULL);
  hearth_multi_factor_assertion_release(NULL);
  CHECK(hearth_totp_secret_generate(NULL) == NULL);
  CHECK(hearth_future_totp_secret(NULL) == NULL);
  CHECK(hearth_totp_secret_shared_secret_key(NULL) == NULL);
  CHECK_INT(hearth_totp_secret_code_length(NULL), 0);
  CHECK_INT(hearth_totp_secret_period_seconds(NULL), 0);
  CHECK(hearth_totp_secret_algorithm(NULL) == NULL);
  CHECK(hearth_totp_secret_qr_code_url(NULL, "a@example.com", "Game") == NULL);

  /* An assertion of another kind than a phone credential's. */
  hearth_credential *email = hearth_credential_create_email("a@example.com", T_PASSWORD);
  CHECK(hearth_multi_factor_assertion_create_phone(email) == NULL);
  hearth_credential_release(email);
  hearth_credential *phone = hearth_credential_create_phone("verification-id", "123456");
  hearth_multi_factor_assertion *assertion = hearth_multi_factor_assertion_create_phone(phone);
  CHECK(assertion != NULL);
  hearth_credential_release(phone);
  CHECK(hearth_multi_factor_assertion_create_phone(phone) == NULL); /* released */
  hearth_multi_factor_assertion_release(assertion);
  hearth_multi_factor_assertion_release(assertion); /* twice: a released handle, ignored */
}

TEST(multi_factor_operations_refuse_null_invalid_utf8_and_released_arguments, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *email = t_email("mfa-bad");
  hearth_user *user = verified_user(auth, email);
  const char *secret_key = enroll_totp(user, "App");
  hearth_user *current = t_current_user(auth);
  hearth_multi_factor_assertion *assertion =
      t_keep_assertion(hearth_multi_factor_assertion_create_totp_sign_in("enrollment", "123456"));

  CHECK_FAILS_WITH(t_keep_future(hearth_user_multi_factor_enroll(current, NULL, "name")), HEARTH_ERROR_INVALID_ARGUMENT);
  CHECK_FAILS_WITH(t_keep_future(hearth_user_multi_factor_enroll(current, assertion, "bad \xff name")),
                   HEARTH_ERROR_INVALID_ARGUMENT);
  hearth_multi_factor_assertion *released = hearth_multi_factor_assertion_create_totp_sign_in("enrollment", "123456");
  hearth_multi_factor_assertion_release(released);
  CHECK_FAILS_WITH(t_keep_future(hearth_user_multi_factor_enroll(current, released, "name")),
                   HEARTH_ERROR_INVALID_HANDLE);
  CHECK_FAILS_WITH(t_keep_future(hearth_user_multi_factor_unenroll(current, NULL)), HEARTH_ERROR_INVALID_ARGUMENT);
  CHECK_FAILS_WITH(t_keep_future(hearth_user_multi_factor_unenroll(current, "\xc3\x28")), HEARTH_ERROR_INVALID_ARGUMENT);
  hearth_user *gone = hearth_user_retain(current);
  hearth_user_release(gone);
  CHECK(hearth_user_multi_factor_get_session(gone) == NULL);
  CHECK(hearth_user_multi_factor_enroll(gone, assertion, "name") == NULL);
  CHECK(hearth_user_multi_factor_unenroll(gone, "enrollment") == NULL);
  CHECK_INT(hearth_user_multi_factor_count(current), 1);

  CHECK_CODE(hearth_auth_sign_out(auth), 0);
  hearth_future *f = stops_at_second_factor(hearth_auth_sign_in_with_email_and_password(auth, email, T_PASSWORD));
  const hearth_multi_factor_resolver *resolver = hearth_future_multi_factor_resolver(f);
  CHECK_FAILS_WITH(resolve(resolver, NULL), HEARTH_ERROR_INVALID_ARGUMENT);
  CHECK_FAILS_WITH(resolve(resolver, released), HEARTH_ERROR_INVALID_HANDLE);
  CHECK(hearth_auth_current_user(auth) == NULL);
  /* The resolver still works with a proper assertion. */
  hearth_multi_factor_assertion *right = t_keep_assertion(hearth_multi_factor_assertion_create_totp_sign_in(
      hearth_multi_factor_info_uid(hearth_multi_factor_resolver_hint_at(resolver, 0)), totp_now(secret_key)));
  resolved_user(resolve(resolver, right));
}

TEST(a_resolver_its_hints_and_its_session_live_as_long_as_their_future, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *email = t_email("mfa-lifetime");
  hearth_user *user = verified_user(auth, email);
  const char *secret = enroll_totp(user, "App");
  CHECK_CODE(hearth_auth_sign_out(auth), 0);
  hearth_future *f = hearth_auth_sign_in_with_email_and_password(auth, email, T_PASSWORD);
  REQUIRE(f != NULL);
  CHECK_CODE(t_await(f), HEARTH_ERROR_SECOND_FACTOR_REQUIRED);
  /* Another reference to the same operation has a resolver of its own, alive after this one is released. */
  hearth_future *copy = t_keep_future(hearth_future_retain(f));
  const hearth_multi_factor_resolver *resolver = hearth_future_multi_factor_resolver(f);
  REQUIRE(resolver != NULL);
  const hearth_multi_factor_info *hint = hearth_multi_factor_resolver_hint_at(resolver, 0);
  const hearth_multi_factor_session *session = hearth_multi_factor_resolver_session(resolver);
  REQUIRE(hint != NULL);
  REQUIRE(session != NULL);
  const char *enrollment_id = t_strdup(hearth_multi_factor_info_uid(hint));
  hearth_multi_factor_assertion *assertion =
      t_keep_assertion(hearth_multi_factor_assertion_create_totp_sign_in(enrollment_id, totp_now(secret)));
  hearth_future_release(f);

  CHECK_INT(hearth_multi_factor_resolver_hint_count(resolver), 0);
  CHECK(hearth_multi_factor_resolver_hint_at(resolver, 0) == NULL);
  CHECK(hearth_multi_factor_resolver_session(resolver) == NULL);
  CHECK(hearth_multi_factor_resolver_resolve_sign_in(resolver, assertion) == NULL);
  CHECK(hearth_multi_factor_info_uid(hint) == NULL);
  CHECK(hearth_multi_factor_info_factor_id(hint) == NULL);
  CHECK_INT(hearth_multi_factor_info_enrollment_timestamp(hint), 0);
  hearth_phone_auth_options options;
  hearth_phone_auth_options_init(&options);
  options.multi_factor_session = session;
  options.multi_factor_hint = hint;
  CHECK_FAILS_WITH(t_verify_phone(auth, &options), HEARTH_ERROR_INVALID_HANDLE);
  CHECK(hearth_totp_secret_generate(session) == NULL);

  const hearth_multi_factor_resolver *kept = hearth_future_multi_factor_resolver(copy);
  REQUIRE(kept != NULL);
  CHECK_STR(hearth_multi_factor_info_uid(hearth_multi_factor_resolver_hint_at(kept, 0)), enrollment_id);
  resolved_user(resolve(kept, assertion));
}

TEST(a_users_factors_live_as_long_as_its_snapshot_and_a_totp_secret_as_long_as_its_future, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  hearth_user *user = verified_user(auth, t_email("mfa-snapshot"));
  enroll_phone(auth, user, t_phone_number(), "Phone");
  hearth_user *snapshot = hearth_auth_current_user(auth);
  REQUIRE(snapshot != NULL);
  const hearth_multi_factor_info *factor = hearth_user_multi_factor_at(snapshot, 0);
  REQUIRE(factor != NULL);
  CHECK_STR(hearth_multi_factor_info_factor_id(factor), "phone");
  CHECK(hearth_user_multi_factor_at(snapshot, (size_t)-1) == NULL);
  hearth_user_release(snapshot);
  CHECK(hearth_multi_factor_info_factor_id(factor) == NULL);
  CHECK(hearth_multi_factor_info_phone_number(factor) == NULL);
  CHECK_INT(hearth_user_multi_factor_count(snapshot), 0);
  CHECK(hearth_user_multi_factor_at(snapshot, 0) == NULL);

  hearth_future *session_future = hearth_user_multi_factor_get_session(t_current_user(auth));
  REQUIRE(session_future != NULL);
  t_await_ok(session_future);
  const hearth_multi_factor_session *session = hearth_future_multi_factor_session(session_future);
  REQUIRE(session != NULL);
  hearth_future *f = hearth_totp_secret_generate(session);
  REQUIRE(f != NULL);
  hearth_future_release(session_future);
  CHECK(hearth_totp_secret_generate(session) == NULL); /* the session went with its future */
  t_await_ok(f);
  const hearth_totp_secret *secret = hearth_future_totp_secret(f);
  REQUIRE(secret != NULL);
  CHECK(hearth_future_multi_factor_session(f) == NULL);   /* another kind of result */
  CHECK(hearth_future_multi_factor_resolver(f) == NULL);
  CHECK(hearth_future_string(f) == NULL);
  hearth_future_release(f);
  CHECK(hearth_totp_secret_shared_secret_key(secret) == NULL);
  CHECK_INT(hearth_totp_secret_code_length(secret), 0);
  CHECK_INT(hearth_totp_secret_period_seconds(secret), 0);
  CHECK(hearth_totp_secret_algorithm(secret) == NULL);
  CHECK(hearth_totp_secret_qr_code_url(secret, "a@example.com", "Game") == NULL);
  CHECK(hearth_multi_factor_assertion_create_totp_enrollment(secret, "123456") == NULL);
}

TEST(futures_of_other_operations_have_no_resolver_session_or_secret, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *email = t_email("mfa-none");
  hearth_user *user = verified_user(auth, email);
  hearth_future *session_future = t_keep_future(hearth_user_multi_factor_get_session(user));
  t_await_ok(session_future);
  const hearth_multi_factor_session *session = hearth_future_multi_factor_session(session_future);
  CHECK(hearth_future_multi_factor_resolver(session_future) == NULL);
  CHECK(hearth_future_totp_secret(session_future) == NULL);
  CHECK(hearth_future_user(session_future) == NULL);
  hearth_future *secret_future = t_keep_future(hearth_totp_secret_generate(session));
  t_await_ok(secret_future);
  const hearth_totp_secret *secret = hearth_future_totp_secret(secret_future);
  REQUIRE(secret != NULL);

  CHECK_CODE(hearth_auth_sign_out(auth), 0);
  hearth_future *wrong = t_keep_future(hearth_auth_sign_in_with_email_and_password(auth, email, "wrong-password"));
  CHECK_CODE(t_await(wrong), HEARTH_ERROR_WRONG_PASSWORD);
  CHECK(hearth_future_multi_factor_resolver(wrong) == NULL);
  hearth_future *fine = t_keep_future(hearth_auth_sign_in_with_email_and_password(auth, email, T_PASSWORD));
  t_await_ok(fine);
  CHECK(hearth_future_multi_factor_resolver(fine) == NULL);
  CHECK(hearth_future_multi_factor_session(fine) == NULL);
  CHECK(hearth_future_totp_secret(fine) == NULL);

  /* Handles of one kind are not another. */
  hearth_user *current = t_current_user(auth);
  CHECK_INT(hearth_multi_factor_resolver_hint_count((const hearth_multi_factor_resolver *)current), 0);
  CHECK(hearth_multi_factor_resolver_session((const hearth_multi_factor_resolver *)session) == NULL);
  CHECK(hearth_multi_factor_info_uid((const hearth_multi_factor_info *)current) == NULL);
  CHECK(hearth_totp_secret_shared_secret_key((const hearth_totp_secret *)session) == NULL);
  CHECK(hearth_totp_secret_generate((const hearth_multi_factor_session *)secret) == NULL);
  CHECK(hearth_user_multi_factor_get_session((const hearth_user *)session) == NULL);
  CHECK(hearth_multi_factor_assertion_create_phone((const hearth_credential *)current) == NULL);
  static char not_a_handle[64];
  CHECK_INT(hearth_multi_factor_resolver_hint_count((const hearth_multi_factor_resolver *)not_a_handle), 0);
  CHECK(hearth_totp_secret_algorithm((const hearth_totp_secret *)not_a_handle) == NULL);
  CHECK(hearth_multi_factor_assertion_create_totp_enrollment((const hearth_totp_secret *)not_a_handle, "123456") == NULL);
  CHECK(hearth_multi_factor_resolver_resolve_sign_in((const hearth_multi_factor_resolver *)not_a_handle, NULL) == NULL);
  hearth_multi_factor_assertion_release((hearth_multi_factor_assertion *)not_a_handle); /* ignored */

  /* The QR URL needs an account name and an issuer as valid UTF-8. */
  CHECK(hearth_totp_secret_qr_code_url(secret, NULL, "Game") == NULL);
  CHECK(hearth_totp_secret_qr_code_url(secret, email, NULL) == NULL);
  CHECK(hearth_totp_secret_qr_code_url(secret, "a\xff@example.com", "Game") == NULL);
  CHECK(hearth_totp_secret_qr_code_url(secret, email, "Ga\xc3me") == NULL);
  CHECK(hearth_multi_factor_assertion_create_totp_enrollment(secret, NULL) == NULL);
  CHECK(hearth_multi_factor_assertion_create_totp_enrollment(secret, "12\xff") == NULL);
}
