/* test_provider_flow.c — provider sign-in on a desktop: the provider's page shown through the host's UI
 * delegate, the redirect back on the loopback receiver or through hearth_auth_handle_url, then sign-in,
 * link or reauthentication with what came back. The pages are the emulator's fake identity providers:
 * its own handler page, or (the production path) the consent page createAuthUri leads to. The person at
 * the browser is a t_browser on a thread of its own (browser.c). */
#include "test.h"

#include <errno.h>

enum { EMULATOR_PAGE = 0, CREATE_AUTH_URI_PAGE = 1 };

typedef struct provider_case {
  const char *id;
  const char *scopes[3];        /* NULL-terminated */
  const char *parameters[4][2]; /* custom parameters, up to a NULL key */
  bool nonce;                   /* Hearth binds the provider's ID token to a nonce of its own */
} provider_case;

static const provider_case twitter = {"twitter.com", {NULL}, {{"lang", "fr"}}, false};
static const provider_case microsoft = {"microsoft.com",
                                        {"mail.read", "calendars.read", NULL},
                                        {{"tenant", "hearth-tenant-id"}, {"prompt", "consent"}, {"login_hint", "user@example.com"}},
                                        false};
static const provider_case apple = {"apple.com", {"email", "name", NULL}, {{"locale", "fr_FR"}, {"language", "fr"}}, true};
static const provider_case oidc = {"oidc.hearth-example", {"openid", "profile", NULL}, {{"ui_locales", "fr"}}, true};

static void release_provider(void *provider) { hearth_oauth_provider_release(provider); }

/* A provider handle released after the test. */
static hearth_oauth_provider *provider_for(const provider_case *c) {
  hearth_oauth_provider *provider = hearth_oauth_provider_create(c->id);
  REQUIRE(provider != NULL);
  t_defer(release_provider, provider);
  for (int i = 0; c->scopes[i]; i++) REQUIRE_CODE(hearth_oauth_provider_add_scope(provider, c->scopes[i]), 0);
  for (int i = 0; i < 4 && c->parameters[i][0]; i++)
    REQUIRE_CODE(hearth_oauth_provider_set_custom_parameter(provider, c->parameters[i][0], c->parameters[i][1]), 0);
  CHECK_STR(hearth_oauth_provider_id(provider), c->id);
  return provider;
}

static hearth_oauth_provider *provider_named(const char *id) {
  provider_case c = {id, {NULL}, {{NULL, NULL}}, false};
  return provider_for(&c);
}

/* A fresh identity on the provider page, or the existing one of this provider with that email. */
static const char *identity(const char *email) {
  return t_printf("email=%s&displayName=%s&screenName=flow_user", t_url_encode(email), t_url_encode("Flow User"));
}

typedef struct flow_app {
  hearth_app *app;
  hearth_auth *auth;
  t_browser *browser;
} flow_app;

static flow_app flow_app_new(int page) {
  flow_app f;
  f.app = t_app();
  f.auth = hearth_auth_get(f.app);
  f.browser = t_browser_new(f.app);
  t_browser_attach(f.browser, page);
  return f;
}

static bool is_lower_hex(const char *text, size_t length) {
  if (!text || strlen(text) != length) return false;
  for (size_t i = 0; i < length; i++) {
    if (!strchr("0123456789abcdef", text[i])) return false;
  }
  return true;
}

static bool starts_with(const char *text, const char *prefix) {
  return text && strncmp(text, prefix, strlen(prefix)) == 0;
}

/* The redirect target the page will send the browser to. */
static const char *redirect_target(const char *page_url) {
  const char *target = t_url_param(page_url, "redirectUrl");
  return target ? target : t_url_param(page_url, "continueUri");
}

/* What the page Hearth opened asks the provider for, and where the answer goes (a loopback receiver unless
 * `target` says otherwise). Returns the nonce hash Hearth sent, or NULL. */
static const char *check_page_with_target(const char *url, const provider_case *c, int page, const char *auth_type,
                                          const char *target) {
  REQUIRE(url != NULL);
  if (page == EMULATOR_PAGE) {
    CHECK_STR(t_url_base(url), t_printf("http://%s/emulator/auth/handler", emu_host()));
    CHECK_STR(t_url_param(url, "apiKey"), TEST_API_KEY);
    CHECK_STR(t_url_param(url, "authType"), auth_type);
    CHECK(starts_with(t_url_param(url, "redirectUrl"), target));
  } else {
    CHECK_STR(t_url_base(url), t_printf("http://%s/emulator/auth/consent", emu_host()));
    CHECK(t_url_param(url, "sessionId") != NULL && *t_url_param(url, "sessionId"));
    CHECK(starts_with(t_url_param(url, "continueUri"), target));
  }
  CHECK_STR(t_url_param(url, "providerId"), c->id);
  /* OAuth 1.0a through createAuthUri (Twitter): the request token stands where the state would. */
  bool oauth1 = page != EMULATOR_PAGE && strcmp(c->id, "twitter.com") == 0;
  const char *state = t_url_param(url, oauth1 ? "oauth_token" : "state");
  CHECK(state != NULL && strlen(state) >= 16);
  if (oauth1) CHECK(t_url_param(url, "state") == NULL);

  const char *scopes = t_strdup("");
  for (int i = 0; c->scopes[i]; i++) scopes = t_printf("%s%s%s", scopes, i ? "," : "", c->scopes[i]);
  CHECK_STR(t_url_param(url, "scopes"), *scopes ? scopes : NULL);

  const char *parameters = t_url_param(url, "customParameters");
  const json *object = parameters ? t_json(parameters) : NULL;
  for (int i = 0; i < 4 && c->parameters[i][0]; i++)
    CHECK_STR(json_get_string(object, c->parameters[i][0]), c->parameters[i][1]);
  const char *nonce = json_get_string(object, "nonce");
  if (c->nonce) {
    CHECK(is_lower_hex(nonce, 64)); /* SHA-256 of the raw nonce Hearth keeps */
  } else {
    CHECK(nonce == NULL);
  }
  return nonce;
}

static const char *check_page(const char *url, const provider_case *c, int page, const char *auth_type) {
  return check_page_with_target(url, c, page, auth_type, "http://127.0.0.1:");
}

/* The user's browser went through the page and back to the app. */
static void check_returned(t_visit visit) {
  CHECK_INT(visit.page_status, 303);
  CHECK(starts_with(visit.location, redirect_target(visit.opened_url)));
  CHECK_INT(visit.redirect_status, 200);
  CHECK_CONTAINS(visit.redirect_body, "return to the app");
}

static const hearth_auth_result *result_of(hearth_future *f) {
  const hearth_auth_result *result = hearth_future_auth_result(f);
  REQUIRE(result != NULL);
  REQUIRE(hearth_auth_result_user(result) != NULL);
  return result;
}

static const char *uid_of(hearth_future *f) { return t_strdup(hearth_user_uid(hearth_auth_result_user(result_of(f)))); }

/* ------------------------------------------------------------------------------------------------
 * Sign-in, reauthentication and link through the page, per provider and per page
 * ---------------------------------------------------------------------------------------------- */
static void sign_in_reauthenticate_and_link(const provider_case *c, int page) {
  flow_app f = flow_app_new(page);
  hearth_oauth_provider *provider = provider_for(c);
  int visits = 0;

  /* Another account with an identity of this provider, made through the page too. */
  const char *other_email = t_email("flow-other");
  t_browser_sign_in_as(f.browser, identity(other_email));
  hearth_future *other = t_keep_future(hearth_auth_sign_in_with_provider(f.auth, provider));
  t_await_ok(other);
  check_returned(t_browser_wait(f.browser, ++visits));
  const char *other_uid = uid_of(other);
  CHECK_CODE(hearth_auth_sign_out(f.auth), 0);

  /* Sign in: a new user. */
  const char *email = t_email("flow");
  t_browser_sign_in_as(f.browser, identity(email));
  hearth_future *signed_in = t_keep_future(hearth_auth_sign_in_with_provider(f.auth, provider));
  t_await_ok(signed_in);
  t_visit visit = t_browser_wait(f.browser, ++visits);
  const char *nonce = check_page(visit.opened_url, c, page, "signInViaRedirect");
  check_returned(visit);
  const hearth_auth_result *result = result_of(signed_in);
  const hearth_user *user = hearth_auth_result_user(result);
  const char *uid = t_strdup(hearth_user_uid(user));
  CHECK(strcmp(uid, other_uid) != 0);
  CHECK_STR(t_current_uid(f.auth), uid);
  CHECK_STR(hearth_auth_result_provider_id(result), c->id);
  CHECK_INT(hearth_auth_result_is_new_user(result), 1);
  CHECK_STR(hearth_user_email(user), email);
  CHECK_STR(hearth_user_display_name(user), "Flow User");
  CHECK_STR(t_provider_ids(user), c->id);
  const hearth_user_info *info = t_provider_info(user, c->id);
  REQUIRE(info != NULL);
  CHECK(*hearth_user_info_uid(info) != '\0');
  CHECK_STR(hearth_user_info_email(info), email);
  CHECK_STR(json_get_string(t_json(hearth_auth_result_profile_json(result)), "email"), email);
  if (strcmp(c->id, "twitter.com") == 0) CHECK_STR(hearth_auth_result_user_name(result), "flow_user");
  const hearth_credential *idp = hearth_auth_result_credential(result);
  REQUIRE(idp != NULL);
  CHECK_STR(hearth_credential_provider(idp), c->id);
  const json *claims = t_json(hearth_credential_id_token(idp));
  CHECK_STR(json_get_string(claims, "sub"), hearth_user_info_uid(info));
  if (c->nonce) CHECK_STR(json_get_string(claims, "nonce"), nonce); /* the provider bound its token to it */
  hearth_user *signed_in_user = t_current_user(f.auth);

  /* Reauthenticate as the same person. */
  hearth_future *reauthenticated = t_keep_future(hearth_user_reauthenticate_with_provider(signed_in_user, provider));
  t_await_ok(reauthenticated);
  visit = t_browser_wait(f.browser, ++visits);
  check_page(visit.opened_url, c, page, "reauthViaRedirect");
  check_returned(visit);
  CHECK_STR(uid_of(reauthenticated), uid);
  CHECK_STR(hearth_auth_result_provider_id(result_of(reauthenticated)), c->id);
  CHECK_STR(t_current_uid(f.auth), uid);

  /* Reauthenticate as someone else: refused, and the user stays signed in. */
  t_browser_sign_in_as(f.browser, identity(other_email));
  CHECK_FAILS_WITH(t_keep_future(hearth_user_reauthenticate_with_provider(signed_in_user, provider)),
                   HEARTH_ERROR_USER_MISMATCH);
  check_returned(t_browser_wait(f.browser, ++visits));
  CHECK_STR(t_current_uid(f.auth), uid);

  /* Link: an email account gains this provider. */
  CHECK_CODE(hearth_auth_sign_out(f.auth), 0);
  hearth_user *email_user = t_create_user(f.auth, t_email("flow-link"), T_PASSWORD);
  const char *linked_email = t_email("flow-linked");
  t_browser_sign_in_as(f.browser, identity(linked_email));
  hearth_future *linked = t_keep_future(hearth_user_link_with_provider(email_user, provider));
  t_await_ok(linked);
  visit = t_browser_wait(f.browser, ++visits);
  check_page(visit.opened_url, c, page, "linkViaRedirect");
  check_returned(visit);
  CHECK_STR(uid_of(linked), hearth_user_uid(email_user));
  CHECK_STR(t_provider_ids(hearth_auth_result_user(result_of(linked))),
            strcmp(c->id, "password") < 0 ? t_printf("%s,password", c->id) : t_printf("password,%s", c->id));
  CHECK_STR(hearth_user_info_email(t_provider_info(hearth_auth_result_user(result_of(linked)), c->id)), linked_email);
  CHECK(t_provider_info(t_current_user(f.auth), c->id) != NULL);
  CHECK_INT(t_browser_opened(f.browser), visits);
}

#define SCENARIO(name, provider_case_, page)                                                          \
  TEST(name, BOTH_LOOPS) { sign_in_reauthenticate_and_link(&provider_case_, page); }

SCENARIO(twitter_signs_in_reauthenticates_and_links_through_the_emulator_page, twitter, EMULATOR_PAGE)
SCENARIO(twitter_signs_in_reauthenticates_and_links_through_the_create_auth_uri_page, twitter, CREATE_AUTH_URI_PAGE)
SCENARIO(microsoft_with_a_tenant_signs_in_reauthenticates_and_links_through_the_emulator_page, microsoft,
         EMULATOR_PAGE)
SCENARIO(microsoft_with_a_tenant_signs_in_reauthenticates_and_links_through_the_create_auth_uri_page, microsoft,
         CREATE_AUTH_URI_PAGE)
SCENARIO(apple_with_a_nonce_signs_in_reauthenticates_and_links_through_the_emulator_page, apple, EMULATOR_PAGE)
SCENARIO(apple_with_a_nonce_signs_in_reauthenticates_and_links_through_the_create_auth_uri_page, apple,
         CREATE_AUTH_URI_PAGE)
SCENARIO(an_oidc_provider_signs_in_reauthenticates_and_links_through_the_emulator_page, oidc, EMULATOR_PAGE)
SCENARIO(an_oidc_provider_signs_in_reauthenticates_and_links_through_the_create_auth_uri_page, oidc,
         CREATE_AUTH_URI_PAGE)

/* ------------------------------------------------------------------------------------------------
 * Conflicts through the page
 * ---------------------------------------------------------------------------------------------- */
TEST(linking_an_identity_of_another_account_through_the_page_fails_with_credential_already_in_use, BOTH_LOOPS) {
  flow_app f = flow_app_new(EMULATOR_PAGE);
  hearth_oauth_provider *provider = provider_for(&microsoft);
  const char *email = t_email("page-owner");
  t_browser_sign_in_as(f.browser, identity(email));
  hearth_future *owner = t_keep_future(hearth_auth_sign_in_with_provider(f.auth, provider));
  t_await_ok(owner);
  const char *owner_uid = uid_of(owner);
  CHECK_CODE(hearth_auth_sign_out(f.auth), 0);

  hearth_user *user = t_create_user(f.auth, t_email("page-taker"), T_PASSWORD);
  hearth_future *conflict = t_keep_future(hearth_user_link_with_provider(user, provider));
  CHECK_FAILS_WITH(conflict, HEARTH_ERROR_CREDENTIAL_ALREADY_IN_USE);
  check_returned(t_browser_wait(f.browser, 2));
  const hearth_auth_result *details = hearth_future_auth_result(conflict);
  REQUIRE(details != NULL);
  CHECK(hearth_auth_result_user(details) == NULL);
  const hearth_credential *updated = hearth_auth_result_updated_credential(details);
  REQUIRE(updated != NULL);
  CHECK_STR(hearth_credential_provider(updated), "microsoft.com");
  CHECK_STR(t_current_uid(f.auth), hearth_user_uid(user));
  CHECK_STR(t_provider_ids(t_current_user(f.auth)), "password");

  hearth_future *recipe = t_keep_future(hearth_auth_sign_in_and_retrieve_data_with_credential(f.auth, updated));
  t_await_ok(recipe);
  CHECK_STR(uid_of(recipe), owner_uid);
}

TEST(an_unverified_page_identity_with_the_email_of_an_account_is_refused, BOTH_LOOPS) {
  flow_app f = flow_app_new(CREATE_AUTH_URI_PAGE);
  const char *email = t_email("page-confirm");
  t_create_user(f.auth, email, T_PASSWORD);
  CHECK_CODE(hearth_auth_sign_out(f.auth), 0);
  t_browser_sign_in_as(f.browser, t_printf("%s&emailVerified=false", identity(email)));
  hearth_future *refused = t_keep_future(hearth_auth_sign_in_with_provider(f.auth, provider_for(&twitter)));
  CHECK_FAILS_WITH(refused, HEARTH_ERROR_ACCOUNT_EXISTS_WITH_DIFFERENT_CREDENTIALS);
  const hearth_auth_result *details = hearth_future_auth_result(refused);
  REQUIRE(details != NULL);
  CHECK(hearth_auth_result_user(details) == NULL);
  CHECK_STR(hearth_auth_result_email(details), email);
  CHECK(hearth_auth_result_updated_credential(details) != NULL);
  CHECK(hearth_auth_current_user(f.auth) == NULL);
}

/* ------------------------------------------------------------------------------------------------
 * Custom URL schemes
 * ---------------------------------------------------------------------------------------------- */
static void custom_scheme_sign_in(int page) {
  hearth_app *app = t_app();
  hearth_auth *auth = hearth_auth_get(app);
  t_browser *browser = t_browser_new(app);
  hearth_provider_flow_options options;
  t_browser_options(browser, &options);
  options.redirect_uri = "com.example.game:/oauth";
  options.use_create_auth_uri = page;
  REQUIRE_CODE(hearth_auth_set_provider_flow_options(auth, &options), 0);
  CHECK_INT(hearth_auth_handle_url(auth, "com.example.game:/oauth?state=nothing-pending"), 0);

  const char *email = t_email("scheme");
  t_browser_plan(browser, (t_plan){.action = T_USER_SIGNS_IN, .choice = identity(email), .forged_redirect_first = true});
  hearth_future *f = t_keep_future(hearth_auth_sign_in_with_provider(auth, provider_for(&apple)));
  t_await_ok(f);
  t_visit visit = t_browser_wait(browser, 1);
  check_page_with_target(visit.opened_url, &apple, page, "signInViaRedirect", "com.example.game:/oauth");
  CHECK_STR(redirect_target(visit.opened_url), "com.example.game:/oauth");
  CHECK_INT(visit.page_status, 303);
  CHECK(starts_with(visit.location, "com.example.game:/oauth?"));
  CHECK_INT(visit.foreign_handled, 0); /* another scheme: not Hearth's */
  CHECK_INT(visit.forged_handled, 0);  /* the right scheme with a wrong state: not this flow's answer */
  CHECK_INT(visit.handled, 1);
  CHECK_STR(hearth_user_email(hearth_auth_result_user(result_of(f))), email);
  CHECK_STR(t_current_uid(auth), uid_of(f));
  /* The flow is over: the same URL again is not Hearth's any more. */
  CHECK_INT(hearth_auth_handle_url(auth, visit.location), 0);
}

TEST(a_custom_scheme_redirect_through_the_emulator_page_is_consumed_by_handle_url, BOTH_LOOPS) {
  custom_scheme_sign_in(EMULATOR_PAGE);
}

TEST(a_custom_scheme_redirect_through_the_create_auth_uri_page_is_consumed_by_handle_url, BOTH_LOOPS) {
  custom_scheme_sign_in(CREATE_AUTH_URI_PAGE);
}

TEST(handle_url_refuses_what_is_not_a_pending_redirect, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  CHECK_INT(hearth_auth_handle_url(auth, "com.example.game:/oauth?state=x&id_token=%7B%7D"), 0);
  CHECK_INT(hearth_auth_handle_url(auth, "not a url at all"), 0);
  CHECK_INT(hearth_auth_handle_url(auth, ""), 0);
  CHECK_INT(hearth_auth_handle_url(auth, NULL), 0);
  CHECK_INT(hearth_auth_handle_url(auth, "com.example.game:/oauth?state=\xff\xfe"), 0);
  CHECK_INT(hearth_auth_handle_url(NULL, "com.example.game:/oauth?state=x"), 0);
}

/* ------------------------------------------------------------------------------------------------
 * The loopback receiver
 * ---------------------------------------------------------------------------------------------- */
TEST(a_redirect_with_a_wrong_state_is_refused_and_the_flow_keeps_waiting, BOTH_LOOPS) {
  for (int page = EMULATOR_PAGE; page <= CREATE_AUTH_URI_PAGE; page++) {
    flow_app f = flow_app_new(page);
    t_browser_plan(f.browser, (t_plan){.action = T_USER_SIGNS_IN, .choice = identity(t_email("forged")),
                                       .forged_redirect_first = true});
    hearth_future *signed_in = t_keep_future(hearth_auth_sign_in_with_provider(f.auth, provider_for(&twitter)));
    t_await_ok(signed_in);
    t_visit visit = t_browser_wait(f.browser, 1);
    CHECK_INT(visit.forged_status, 400);
    check_returned(visit);
    CHECK_STR(t_current_uid(f.auth), uid_of(signed_in));
  }
}

TEST(a_replayed_redirect_finds_nothing_listening, BOTH_LOOPS) {
  flow_app f = flow_app_new(EMULATOR_PAGE);
  t_browser_sign_in_as(f.browser, identity(t_email("replay")));
  hearth_future *signed_in = t_keep_future(hearth_auth_sign_in_with_provider(f.auth, provider_for(&oidc)));
  t_await_ok(signed_in);
  t_visit visit = t_browser_wait(f.browser, 1);
  check_returned(visit);
  t_http_response replay = t_http_get(visit.location);
  CHECK_INT(replay.status, 0);
  CHECK_INT(replay.transport_error, ECONNREFUSED);
  CHECK_STR(t_current_uid(f.auth), uid_of(signed_in));
}

TEST(a_chosen_free_loopback_port_receives_the_redirect, BOTH_LOOPS) {
  hearth_app *app = t_app();
  hearth_auth *auth = hearth_auth_get(app);
  t_browser *browser = t_browser_new(app);
  hearth_provider_flow_options options;
  t_browser_options(browser, &options);
  options.loopback_port = t_closed_port();
  REQUIRE_CODE(hearth_auth_set_provider_flow_options(auth, &options), 0);
  t_browser_sign_in_as(browser, identity(t_email("port")));
  t_await_ok(t_keep_future(hearth_auth_sign_in_with_provider(auth, provider_for(&twitter))));
  t_visit visit = t_browser_wait(browser, 1);
  check_returned(visit);
  CHECK(starts_with(redirect_target(visit.opened_url), t_printf("http://127.0.0.1:%u/", (unsigned)options.loopback_port)));
}

TEST(a_loopback_port_in_use_fails_the_flow_with_invalid_argument, BOTH_LOOPS) {
  hearth_app *app = t_app();
  hearth_auth *auth = hearth_auth_get(app);
  t_browser *browser = t_browser_new(app);
  hearth_provider_flow_options options;
  t_browser_options(browser, &options);
  options.loopback_port = t_blackhole_port(); /* someone else listens there */
  REQUIRE_CODE(hearth_auth_set_provider_flow_options(auth, &options), 0);
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_sign_in_with_provider(auth, provider_for(&twitter))),
                   HEARTH_ERROR_INVALID_ARGUMENT);
  t_settle(50);
  CHECK_INT(t_browser_opened(browser), 0);
  CHECK(hearth_auth_current_user(auth) == NULL);
}

/* ------------------------------------------------------------------------------------------------
 * Ends other than a sign-in
 * ---------------------------------------------------------------------------------------------- */
static t_visit wait_until_shown(t_browser *browser) {
  REQUIRE_EVENTUALLY(t_browser_finished(browser) >= 1);
  return t_browser_visit(browser, 0);
}

/* Nothing listens at the flow's redirect target any more. */
static void check_receiver_closed(const char *page_url) {
  const char *target = redirect_target(page_url);
  REQUIRE(target != NULL);
  t_http_response late = t_http_get(t_printf("%s?state=%s", target, t_url_encode(t_url_param(page_url, "state"))));
  CHECK_INT(late.status, 0);
  CHECK_INT(late.transport_error, ECONNREFUSED);
}

TEST(cancelling_a_pending_flow_completes_it_with_web_context_cancelled, BOTH_LOOPS) {
  flow_app f = flow_app_new(EMULATOR_PAGE);
  CHECK_CODE(hearth_auth_cancel_provider_flow(f.auth), 0); /* nothing pending: nothing happens */
  t_browser_plan(f.browser, (t_plan){.action = T_USER_WALKS_AWAY});
  hearth_future *pending = t_keep_future(hearth_auth_sign_in_with_provider(f.auth, provider_for(&microsoft)));
  t_visit shown = wait_until_shown(f.browser);
  CHECK_INT(hearth_future_status(pending), HEARTH_FUTURE_PENDING);
  CHECK_CODE(hearth_auth_cancel_provider_flow(f.auth), 0);
  CHECK_FAILS_WITH(pending, HEARTH_ERROR_WEB_CONTEXT_CANCELLED);
  CHECK(hearth_future_auth_result(pending) == NULL);
  CHECK(hearth_auth_current_user(f.auth) == NULL);
  check_receiver_closed(shown.opened_url);
  CHECK_CODE(hearth_auth_cancel_provider_flow(f.auth), 0);
}

TEST(cancelling_from_another_thread_completes_the_flow, MODE_OWNED) {
  flow_app f = flow_app_new(CREATE_AUTH_URI_PAGE);
  t_browser_plan(f.browser, (t_plan){.action = T_USER_WALKS_AWAY});
  hearth_future *pending = t_keep_future(hearth_auth_sign_in_with_provider(f.auth, provider_for(&apple)));
  wait_until_shown(f.browser);
  CHECK_CODE(hearth_future_wait(pending, 200), HEARTH_ERROR_TIMED_OUT);
  CHECK_CODE(hearth_auth_cancel_provider_flow(f.auth), 0);
  CHECK_CODE(hearth_future_wait(pending, 5000), 0);
  CHECK_CODE(hearth_future_error(pending), HEARTH_ERROR_WEB_CONTEXT_CANCELLED);
}

TEST(a_flow_that_outlasts_its_timeout_ends_with_web_context_cancelled, BOTH_LOOPS) {
  hearth_app *app = t_app();
  hearth_auth *auth = hearth_auth_get(app);
  t_browser *browser = t_browser_new(app);
  hearth_provider_flow_options options;
  t_browser_options(browser, &options);
  options.timeout_ms = 300;
  REQUIRE_CODE(hearth_auth_set_provider_flow_options(auth, &options), 0);
  t_browser_plan(browser, (t_plan){.action = T_USER_WALKS_AWAY});
  double started = t_now();
  hearth_future *pending = t_keep_future(hearth_auth_sign_in_with_provider(auth, provider_for(&twitter)));
  CHECK_FAILS_WITH(pending, HEARTH_ERROR_WEB_CONTEXT_CANCELLED);
  double elapsed = t_now() - started;
  CHECK(elapsed >= 0.25);
  CHECK(elapsed < T_LIMIT(10.0));
  CHECK_CONTAINS(hearth_future_error_message(pending), "timed out");
  CHECK_INT(t_browser_opened(browser), 1);
  check_receiver_closed(wait_until_shown(browser).opened_url);
}

TEST(a_ui_delegate_that_cannot_show_the_page_fails_the_flow, BOTH_LOOPS) {
  flow_app f = flow_app_new(EMULATOR_PAGE);
  t_browser_plan(f.browser, (t_plan){.action = T_USER_REFUSED});
  hearth_future *refused = t_keep_future(hearth_auth_sign_in_with_provider(f.auth, provider_for(&twitter)));
  CHECK_FAILS_WITH(refused, HEARTH_ERROR_WEB_CONTEXT_CANCELLED);
  CHECK_INT(t_browser_opened(f.browser), 1);
  check_receiver_closed(wait_until_shown(f.browser).opened_url);
  /* The next flow starts afresh. */
  t_browser_sign_in_as(f.browser, identity(t_email("after-refusal")));
  t_await_ok(t_keep_future(hearth_auth_sign_in_with_provider(f.auth, provider_for(&twitter))));
}

TEST(cancel_on_the_provider_page_ends_the_flow_with_web_context_cancelled, BOTH_LOOPS) {
  for (int page = EMULATOR_PAGE; page <= CREATE_AUTH_URI_PAGE; page++) {
    flow_app f = flow_app_new(page);
    t_browser_plan(f.browser, (t_plan){.action = T_USER_CANCELS});
    hearth_future *cancelled = t_keep_future(hearth_auth_sign_in_with_provider(f.auth, provider_for(&apple)));
    CHECK_FAILS_WITH(cancelled, HEARTH_ERROR_WEB_CONTEXT_CANCELLED);
    t_visit visit = t_browser_wait(f.browser, 1);
    CHECK_INT(visit.page_status, 303);
    CHECK_INT(visit.redirect_status, 200);
    CHECK_CONTAINS(visit.redirect_body, "did not complete");
    CHECK(hearth_auth_current_user(f.auth) == NULL);
  }
}

TEST(a_second_flow_while_one_is_pending_fails_with_web_context_already_presented, BOTH_LOOPS) {
  flow_app f = flow_app_new(EMULATOR_PAGE);
  hearth_oauth_provider *provider = provider_for(&twitter);
  t_browser_plan(f.browser, (t_plan){.action = T_USER_WALKS_AWAY});
  hearth_future *first = t_keep_future(hearth_auth_sign_in_with_provider(f.auth, provider));
  wait_until_shown(f.browser);
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_sign_in_with_provider(f.auth, provider_for(&microsoft))),
                   HEARTH_ERROR_WEB_CONTEXT_ALREADY_PRESENTED);
  CHECK_INT(hearth_future_status(first), HEARTH_FUTURE_PENDING);
  CHECK_INT(t_browser_opened(f.browser), 1);
  /* Another app's Auth has its own flow. */
  flow_app g = flow_app_new(EMULATOR_PAGE);
  t_browser_sign_in_as(g.browser, identity(t_email("other-app")));
  t_await_ok(t_keep_future(hearth_auth_sign_in_with_provider(g.auth, provider)));

  CHECK_CODE(hearth_auth_cancel_provider_flow(f.auth), 0);
  CHECK_FAILS_WITH(first, HEARTH_ERROR_WEB_CONTEXT_CANCELLED);
  t_browser_sign_in_as(f.browser, identity(t_email("after-cancel")));
  t_await_ok(t_keep_future(hearth_auth_sign_in_with_provider(f.auth, provider)));
  CHECK_INT(t_browser_opened(f.browser), 2);
}

typedef struct destroyed_flow {
  hearth_app *app;
  atomic_int callbacks;
  atomic_int error;
} destroyed_flow;

static void flow_completed(hearth_future *future, void *user_data) {
  destroyed_flow *d = user_data;
  T_CB_ENTER(d->app);
  atomic_store(&d->error, hearth_future_error(future));
  atomic_fetch_add(&d->callbacks, 1);
  T_CB_EXIT();
}

TEST(destroying_the_app_during_a_flow_cancels_it, BOTH_LOOPS) {
  destroyed_flow *d = t_alloc(sizeof *d);
  flow_app f = flow_app_new(EMULATOR_PAGE);
  d->app = f.app;
  t_browser_plan(f.browser, (t_plan){.action = T_USER_WALKS_AWAY});
  hearth_future *pending = t_keep_future(hearth_auth_sign_in_with_provider(f.auth, provider_for(&apple)));
  CHECK_CODE(hearth_future_add_callback(pending, flow_completed, d), 0);
  t_visit shown = wait_until_shown(f.browser);
  double started = t_now();
  t_app_destroy(f.app);
  CHECK(t_now() - started < T_LIMIT(1.0));
  CHECK_INT(hearth_future_status(pending), HEARTH_FUTURE_COMPLETE);
  CHECK_CODE(hearth_future_error(pending), HEARTH_ERROR_CANCELLED);
  /* Its callback runs once, with the cancellation; the UI delegate is released once, after it. */
  if (!t_host()) CHECK_INT(atomic_load(&d->callbacks), 1);
  REQUIRE_EVENTUALLY(atomic_load(&d->callbacks) == 1);
  t_settle(100);
  CHECK_INT(atomic_load(&d->callbacks), 1);
  CHECK_CODE(atomic_load(&d->error), HEARTH_ERROR_CANCELLED);
  CHECK_INT(t_browser_releases(f.browser), 1);
  check_receiver_closed(shown.opened_url);
}

TEST(a_replaced_ui_delegate_is_released_once_no_flow_uses_it, BOTH_LOOPS) {
  flow_app f = flow_app_new(EMULATOR_PAGE);
  t_browser *second = t_browser_new(f.app);
  t_browser_plan(f.browser, (t_plan){.action = T_USER_WALKS_AWAY});
  hearth_future *pending = t_keep_future(hearth_auth_sign_in_with_provider(f.auth, provider_for(&twitter)));
  wait_until_shown(f.browser);
  /* Still the delegate of the app: not released. */
  t_settle(50);
  CHECK_INT(t_browser_releases(f.browser), 0);
  /* Replaced after its flow showed the page: nothing needs it any more, so it is released (once, on a
   * later loop turn), while that flow goes on. */
  hearth_provider_flow_options options;
  t_browser_options(second, &options);
  REQUIRE_CODE(hearth_auth_set_provider_flow_options(f.auth, &options), 0);
  if (t_host()) CHECK_INT(t_browser_releases(f.browser), 0);
  REQUIRE_EVENTUALLY(t_browser_releases(f.browser) == 1);
  CHECK_INT(hearth_future_status(pending), HEARTH_FUTURE_PENDING);
  CHECK_CODE(hearth_auth_cancel_provider_flow(f.auth), 0);
  CHECK_FAILS_WITH(pending, HEARTH_ERROR_WEB_CONTEXT_CANCELLED);
  t_settle(50);
  CHECK_INT(t_browser_releases(f.browser), 1);
  /* The second one serves the next flow, and is released when the app goes. */
  t_browser_sign_in_as(second, identity(t_email("second-delegate")));
  t_await_ok(t_keep_future(hearth_auth_sign_in_with_provider(f.auth, provider_for(&twitter))));
  CHECK_INT(t_browser_opened(second), 1);
  CHECK_INT(t_browser_releases(second), 0);
  /* Options refused by Hearth take nothing: their release never runs. */
  hearth_provider_flow_options refused;
  t_browser_options(second, &refused);
  refused.timeout_ms = -1;
  CHECK_CODE(hearth_auth_set_provider_flow_options(f.auth, &refused), HEARTH_ERROR_INVALID_ARGUMENT);
  t_app_destroy(f.app);
  REQUIRE_EVENTUALLY(t_browser_releases(second) == 1);
  t_settle(100);
  CHECK_INT(t_browser_releases(f.browser), 1);
  CHECK_INT(t_browser_releases(second), 1);
}

/* ------------------------------------------------------------------------------------------------
 * Refused before any page is shown
 * ---------------------------------------------------------------------------------------------- */
TEST(an_unknown_provider_fails_with_invalid_provider_id, BOTH_LOOPS) {
  flow_app f = flow_app_new(EMULATOR_PAGE);
  const char *unknown[] = {"MadeUpProvider", "", "oidc.", "password", "phone", "google"};
  hearth_user *user = t_sign_in_anonymously(f.auth);
  for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
    hearth_oauth_provider *provider = provider_named(unknown[i]);
    CHECK_STR(hearth_oauth_provider_id(provider), unknown[i]);
    CHECK_FAILS_WITH(t_keep_future(hearth_auth_sign_in_with_provider(f.auth, provider)), HEARTH_ERROR_INVALID_PROVIDER_ID);
    CHECK_FAILS_WITH(t_keep_future(hearth_user_link_with_provider(user, provider)), HEARTH_ERROR_INVALID_PROVIDER_ID);
    CHECK_FAILS_WITH(t_keep_future(hearth_user_reauthenticate_with_provider(user, provider)),
                     HEARTH_ERROR_INVALID_PROVIDER_ID);
  }
  t_settle(50);
  CHECK_INT(t_browser_opened(f.browser), 0);
  CHECK_STR(t_current_uid(f.auth), hearth_user_uid(user));
}

TEST(every_provider_with_a_sign_in_page_is_accepted, BOTH_LOOPS) {
  flow_app f = flow_app_new(EMULATOR_PAGE);
  const char *known[] = {"google.com", "facebook.com", "twitter.com", "github.com", "apple.com",
                         "microsoft.com", "yahoo.com", "oidc.x"};
  for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
    t_browser_sign_in_as(f.browser, identity(t_email("known")));
    hearth_future *signed_in = t_keep_future(hearth_auth_sign_in_with_provider(f.auth, provider_named(known[i])));
    t_await_ok(signed_in);
    CHECK_STR(hearth_auth_result_provider_id(result_of(signed_in)), known[i]);
    CHECK(t_provider_info(hearth_auth_result_user(result_of(signed_in)), known[i]) != NULL);
    CHECK_CODE(hearth_auth_sign_out(f.auth), 0);
  }
}

static const char *const reserved_parameters[] = {"client_id", "redirect_uri", "response_type", "scope", "state",
                                                  "response_mode", "STATE", "Client_Id"};

TEST(custom_parameters_the_flow_sets_itself_are_refused, MODE_NONE) {
  hearth_oauth_provider *provider = hearth_oauth_provider_create("microsoft.com");
  REQUIRE(provider != NULL);
  for (size_t i = 0; i < sizeof reserved_parameters / sizeof reserved_parameters[0]; i++) {
    if (hearth_oauth_provider_set_custom_parameter(provider, reserved_parameters[i], "x") != HEARTH_ERROR_INVALID_ARGUMENT)
      t_fail(__FILE__, __LINE__, "the reserved parameter %s was accepted", reserved_parameters[i]);
  }
  CHECK_CODE(hearth_oauth_provider_set_custom_parameter(provider, "", "x"), HEARTH_ERROR_INVALID_ARGUMENT);
  CHECK_CODE(hearth_oauth_provider_set_custom_parameter(provider, "tenant", "contoso"), 0);
  CHECK_CODE(hearth_oauth_provider_set_custom_parameter(provider, "tenant", "fabrikam"), 0); /* replaced */
  CHECK_CODE(hearth_oauth_provider_set_custom_parameter(provider, "prompt", "consent"), 0);
  CHECK_CODE(hearth_oauth_provider_set_custom_parameter(provider, "login_hint", "a@example.com"), 0);
  CHECK_CODE(hearth_oauth_provider_set_custom_parameter(provider, "locale", ""), 0);
  CHECK_CODE(hearth_oauth_provider_add_scope(provider, "mail.read"), 0);
  CHECK_CODE(hearth_oauth_provider_add_scope(provider, "mail.read"), 0);
  hearth_oauth_provider_release(provider);
}

TEST(the_last_custom_parameter_value_and_each_scope_once_reach_the_page, BOTH_LOOPS) {
  flow_app f = flow_app_new(EMULATOR_PAGE);
  hearth_oauth_provider *provider = provider_named("microsoft.com");
  CHECK_CODE(hearth_oauth_provider_set_custom_parameter(provider, "tenant", "contoso"), 0);
  CHECK_CODE(hearth_oauth_provider_set_custom_parameter(provider, "tenant", "fabrikam"), 0);
  CHECK_CODE(hearth_oauth_provider_set_custom_parameter(provider, "state", "mine"), HEARTH_ERROR_INVALID_ARGUMENT);
  CHECK_CODE(hearth_oauth_provider_add_scope(provider, "mail.read"), 0);
  CHECK_CODE(hearth_oauth_provider_add_scope(provider, "mail.read"), 0);
  CHECK_CODE(hearth_oauth_provider_add_scope(provider, "calendars.read"), 0);
  t_browser_sign_in_as(f.browser, identity(t_email("params")));
  t_await_ok(t_keep_future(hearth_auth_sign_in_with_provider(f.auth, provider)));
  const char *url = t_browser_wait(f.browser, 1).opened_url;
  CHECK_STR(t_url_param(url, "scopes"), "mail.read,calendars.read");
  const json *parameters = t_json(t_url_param(url, "customParameters"));
  CHECK_STR(json_get_string(parameters, "tenant"), "fabrikam");
  CHECK(json_get(parameters, "state") == NULL);
  CHECK(!t_str_eq(t_url_param(url, "state"), "mine"));
}

TEST(a_provider_flow_needs_flow_options_first, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_sign_in_with_provider(auth, provider_for(&twitter))),
                   HEARTH_ERROR_INVALID_ARGUMENT);
  hearth_user *user = t_sign_in_anonymously(auth);
  CHECK_FAILS_WITH(t_keep_future(hearth_user_link_with_provider(user, provider_for(&twitter))),
                   HEARTH_ERROR_INVALID_ARGUMENT);
  CHECK_FAILS_WITH(t_keep_future(hearth_user_reauthenticate_with_provider(user, provider_for(&twitter))),
                   HEARTH_ERROR_INVALID_ARGUMENT);
  CHECK_STR(t_current_uid(auth), hearth_user_uid(user));
}

static int never_opens(void *user_data, const char *url) {
  (void)user_data;
  (void)url;
  t_fail(__FILE__, __LINE__, "a UI delegate of rejected flow options was called");
  return 1;
}

TEST(flow_options_are_checked_when_set, BOTH_LOOPS) {
  hearth_app *app = t_app();
  hearth_auth *auth = hearth_auth_get(app);
  hearth_provider_flow_options options;
  hearth_provider_flow_options_init(&options);
  CHECK_INT(options.struct_size, sizeof options);
  CHECK(options.open_url == NULL);
  CHECK(options.redirect_uri == NULL);
  CHECK_INT(options.loopback_port, 0);
  CHECK_INT(options.timeout_ms, 0);
  CHECK_INT(options.use_create_auth_uri, 0);
  CHECK_CODE(hearth_auth_set_provider_flow_options(auth, &options), HEARTH_ERROR_INVALID_ARGUMENT); /* no open_url */
  CHECK_CODE(hearth_auth_set_provider_flow_options(auth, NULL), HEARTH_ERROR_INVALID_ARGUMENT);
  options.open_url = never_opens;
  CHECK_CODE(hearth_auth_set_provider_flow_options(NULL, &options), HEARTH_ERROR_INVALID_HANDLE);
  options.timeout_ms = -1;
  CHECK_CODE(hearth_auth_set_provider_flow_options(auth, &options), HEARTH_ERROR_INVALID_ARGUMENT);
  options.timeout_ms = 0;
  options.redirect_uri = "";
  CHECK_CODE(hearth_auth_set_provider_flow_options(auth, &options), HEARTH_ERROR_INVALID_ARGUMENT);
  options.redirect_uri = "com.example.game:/\xff\xfe";
  CHECK_CODE(hearth_auth_set_provider_flow_options(auth, &options), HEARTH_ERROR_INVALID_ARGUMENT);
  /* None of the rejected options took effect. */
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_sign_in_with_provider(auth, provider_for(&twitter))),
                   HEARTH_ERROR_INVALID_ARGUMENT);
  hearth_provider_flow_options_init(NULL); /* harmless */
}

TEST(flow_options_from_an_older_header_are_read_up_to_their_size, BOTH_LOOPS) {
  hearth_app *app = t_app();
  hearth_auth *auth = hearth_auth_get(app);
  t_browser *browser = t_browser_new(app);
  hearth_provider_flow_options options;
  t_browser_options(browser, &options);
  /* A host built before use_create_auth_uri existed: whatever lies past its struct is not read. */
  options.struct_size = (uint32_t)offsetof(hearth_provider_flow_options, use_create_auth_uri);
  options.use_create_auth_uri = 1;
  REQUIRE_CODE(hearth_auth_set_provider_flow_options(auth, &options), 0);
  t_browser_sign_in_as(browser, identity(t_email("old-header")));
  t_await_ok(t_keep_future(hearth_auth_sign_in_with_provider(auth, provider_for(&twitter))));
  CHECK_STR(t_url_base(t_browser_wait(browser, 1).opened_url), t_printf("http://%s/emulator/auth/handler", emu_host()));
}

TEST(provider_flows_for_a_signed_out_user_fail_with_no_signed_in_user, BOTH_LOOPS) {
  flow_app f = flow_app_new(EMULATOR_PAGE);
  hearth_user *user = t_sign_in_anonymously(f.auth);
  CHECK_CODE(hearth_auth_sign_out(f.auth), 0);
  CHECK_FAILS_WITH(t_keep_future(hearth_user_link_with_provider(user, provider_for(&twitter))),
                   HEARTH_ERROR_NO_SIGNED_IN_USER);
  CHECK_FAILS_WITH(t_keep_future(hearth_user_reauthenticate_with_provider(user, provider_for(&twitter))),
                   HEARTH_ERROR_NO_SIGNED_IN_USER);
  t_settle(50);
  CHECK_INT(t_browser_opened(f.browser), 0);
}

/* ------------------------------------------------------------------------------------------------
 * Last results
 * ---------------------------------------------------------------------------------------------- */
TEST(provider_flows_record_their_last_results, BOTH_LOOPS) {
  flow_app f = flow_app_new(EMULATOR_PAGE);
  const hearth_operation lasts[] = {HEARTH_OP_AUTH_SIGN_IN_WITH_PROVIDER,
                                  HEARTH_OP_USER_LINK_WITH_PROVIDER,
                                  HEARTH_OP_USER_REAUTHENTICATE_WITH_PROVIDER};
  for (size_t i = 0; i < 3; i++) CHECK(hearth_auth_last_result(f.auth, lasts[i]) == NULL);
  hearth_oauth_provider *provider = provider_for(&twitter);
  const char *email = t_email("last-flow");
  t_browser_sign_in_as(f.browser, identity(email));
  hearth_future *ops[3];
  ops[0] = t_keep_future(hearth_auth_sign_in_with_provider(f.auth, provider));
  t_await_ok(ops[0]);
  ops[2] = t_keep_future(hearth_user_reauthenticate_with_provider(t_current_user(f.auth), provider));
  t_await_ok(ops[2]);
  ops[1] = t_keep_future(hearth_user_link_with_provider(t_current_user(f.auth), provider));
  CHECK_FAILS_WITH(ops[1], HEARTH_ERROR_PROVIDER_ALREADY_LINKED);
  for (size_t i = 0; i < 3; i++) {
    hearth_future *last = t_keep_future(hearth_auth_last_result(f.auth, lasts[i]));
    if (!last) {
      t_fail(__FILE__, __LINE__, "last result %zu is NULL after its operation ran", i);
      continue;
    }
    CHECK_INT(hearth_future_status(last), HEARTH_FUTURE_COMPLETE);
    CHECK_CODE(hearth_future_error(last), hearth_future_error(ops[i]));
    CHECK((hearth_future_auth_result(last) != NULL) == (hearth_future_auth_result(ops[i]) != NULL));
  }
  hearth_auth *other = hearth_auth_get(t_app());
  for (size_t i = 0; i < 3; i++) CHECK(hearth_auth_last_result(other, lasts[i]) == NULL);
}

/* ------------------------------------------------------------------------------------------------
 * What else reaches the loopback receiver
 * ---------------------------------------------------------------------------------------------- */
typedef struct receiver_probe {
  const char *page_url;
  const char *email;
  int other_path, no_state, empty_state, error_without_state, garbage, foreign_host, wrong_method, wrong_media;
  int choose, redirect;
  const char *redirect_body;
  atomic_int done;
} receiver_probe;

/* Plays a browser (and a nosy local process) against the receiver while the flow waits, then signs in. */
static void probe_receiver(void *arg) {
  receiver_probe *p = arg;
  const char *target = redirect_target(p->page_url);
  const char *root = t_printf("%.*s", (int)(strstr(target + strlen("http://"), "/") - target), target);
  p->other_path = t_http_get(t_printf("%s/favicon.ico", root)).status;
  p->no_state = t_http_get(t_printf("%s?id_token=%%7B%%7D", target)).status;
  p->empty_state = t_http_get(t_printf("%s?state=&id_token=%%7B%%7D", target)).status;
  /* A forged "the user cancelled" without the flow's state must not end the sign-in. */
  p->error_without_state = t_http_get(t_printf("%s?error=access_denied", target)).status;
  const char *state = t_url_encode(t_url_param(p->page_url, "state"));
  const char *path = t_printf("%s?state=%s", target + strlen(root), state);
  p->garbage = t_http_raw(root, "NOT HTTP AT ALL\r\n\r\n").status;
  /* A page of another site that resolves its own name to 127.0.0.1 (DNS rebinding). */
  p->foreign_host =
      t_http_raw(root, t_printf("GET %s HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n", path)).status;
  p->wrong_method = t_http_raw(root, t_printf("PUT %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n"
                                              "Content-Length: 0\r\n\r\n",
                                              path, root + strlen("http://")))
                        .status;
  p->wrong_media = t_http_raw(root, t_printf("POST %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n"
                                             "Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}",
                                             target + strlen(root), root + strlen("http://")))
                       .status;
  const char *handler = strstr(p->page_url, "/emulator/auth/handler?");
  t_http_response chosen = t_http_get(t_printf("%.*s/emulator/auth/handler/choose?%s&email=%s",
                                               (int)(handler - p->page_url), p->page_url,
                                               handler + strlen("/emulator/auth/handler?"), t_url_encode(p->email)));
  p->choose = chosen.status;
  if (chosen.location) {
    t_http_response answer = t_http_get(chosen.location);
    p->redirect = answer.status;
    p->redirect_body = answer.body;
  }
  atomic_store(&p->done, 1);
}

TEST(the_loopback_receiver_answers_only_the_flows_redirect, BOTH_LOOPS) {
  flow_app f = flow_app_new(EMULATOR_PAGE);
  t_browser_plan(f.browser, (t_plan){.action = T_USER_WALKS_AWAY});
  hearth_future *pending = t_keep_future(hearth_auth_sign_in_with_provider(f.auth, provider_for(&microsoft)));
  receiver_probe *p = t_alloc(sizeof *p);
  p->page_url = wait_until_shown(f.browser).opened_url;
  p->email = t_email("probe");
  t_thread *prober = t_spawn(probe_receiver, p);
  WAIT_UNTIL(atomic_load(&p->done) == 1); /* a host loop must keep running for the receiver to answer */
  t_join(prober);
  CHECK_INT(p->other_path, 404);
  CHECK_INT(p->no_state, 400);
  CHECK_INT(p->empty_state, 400);
  CHECK_INT(p->error_without_state, 400);
  CHECK_INT(p->garbage, 400);
  CHECK_INT(p->foreign_host, 400);
  CHECK_INT(p->wrong_method, 405);
  CHECK_INT(p->wrong_media, 415);
  CHECK_INT(p->choose, 303);
  CHECK_INT(p->redirect, 200);
  CHECK_CONTAINS(p->redirect_body, "return to the app");
  t_await_ok(pending);
  CHECK_STR(hearth_user_email(hearth_auth_result_user(result_of(pending))), p->email);
}

TEST(a_provider_answer_posted_as_a_form_is_received_too, BOTH_LOOPS) {
  for (int page = EMULATOR_PAGE; page <= CREATE_AUTH_URI_PAGE; page++) {
    flow_app f = flow_app_new(page);
    const char *email = t_email("form-post");
    t_browser_plan(f.browser, (t_plan){.action = T_USER_SIGNS_IN, .choice = identity(email), .form_post = true});
    hearth_future *signed_in = t_keep_future(hearth_auth_sign_in_with_provider(f.auth, provider_for(&apple)));
    t_await_ok(signed_in);
    check_returned(t_browser_wait(f.browser, 1));
    CHECK_STR(hearth_user_email(hearth_auth_result_user(result_of(signed_in))), email);
  }
}

TEST(a_provider_token_bound_to_another_nonce_is_refused, BOTH_LOOPS) {
  /* Hearth keeps the raw nonce of each flow and proves it to Firebase: a token the provider issued for
   * another sign-in (another nonce) does not sign in. */
  char raw[HEARTH_NONCE_SIZE], hex[HEARTH_SHA256_HEX_SIZE];
  REQUIRE_CODE(hearth_nonce_generate(raw, hex), 0);
  for (int page = EMULATOR_PAGE; page <= CREATE_AUTH_URI_PAGE; page++) {
    flow_app f = flow_app_new(page);
    const char *stolen = t_idp_claims(t_subject("stolen"), t_email("stolen"), true, NULL, t_printf(",\"nonce\":\"%s\"", hex));
    t_browser_plan(f.browser, (t_plan){.action = T_USER_SIGNS_IN, .choice = identity(t_email("stolen")),
                                       .swapped_id_token = stolen});
    CHECK_FAILS_WITH(t_keep_future(hearth_auth_sign_in_with_provider(f.auth, provider_for(&oidc))),
                     HEARTH_ERROR_INVALID_CREDENTIAL);
    CHECK_INT(t_browser_wait(f.browser, 1).redirect_status, 200);
    CHECK(hearth_auth_current_user(f.auth) == NULL);
  }
}

/* ------------------------------------------------------------------------------------------------
 * The credential only (the Apple SDK's getCredentialWith): the provider's page, then a credential the
 * app signs in, links or reauthenticates with itself. Nobody is signed in by getting it.
 * ---------------------------------------------------------------------------------------------- */

/* Runs the page for `email` and returns a credential of our own (kept). */
static hearth_credential *credential_from_page(flow_app *f, hearth_oauth_provider *provider, const provider_case *c,
                                               int page, const char *email, int *visits, const char **nonce) {
  t_browser_sign_in_as(f->browser, identity(email));
  hearth_future *future = t_keep_future(hearth_auth_get_credential_with_provider(f->auth, provider));
  REQUIRE(future != NULL);
  t_await_ok(future);
  t_visit visit = t_browser_wait(f->browser, ++*visits);
  /* The Apple SDK's page for getCredentialWith is a redirect sign-in page. */
  const char *sent_nonce = check_page(visit.opened_url, c, page, "signInWithRedirect");
  if (nonce) *nonce = sent_nonce;
  check_returned(visit);
  /* A credential, and nothing of a sign-in. */
  const hearth_credential *borrowed = hearth_future_credential(future);
  REQUIRE(borrowed != NULL);
  CHECK_STR(hearth_credential_provider(borrowed), c->id);
  CHECK(hearth_future_auth_result(future) == NULL);
  CHECK(hearth_future_user(future) == NULL);
  CHECK(hearth_future_credential(future) == borrowed); /* borrowed: the same while the future lives */
  hearth_credential *own = t_keep_credential(hearth_credential_retain(borrowed));
  REQUIRE(own != NULL);
  return own;
}

typedef struct state_calls {
  hearth_app *app;
  atomic_int calls;
} state_calls;

static void count_state_call(hearth_auth *auth, void *user_data) {
  (void)auth;
  state_calls *s = user_data;
  T_CB_ENTER(s->app);
  atomic_fetch_add(&s->calls, 1);
  T_CB_EXIT();
}

static void credential_then_sign_in_reauthenticate_and_link(const provider_case *c, int page) {
  flow_app f = flow_app_new(page);
  hearth_oauth_provider *provider = provider_for(c);
  int visits = 0;
  state_calls *states = t_alloc(sizeof *states);
  states->app = f.app;
  REQUIRE(hearth_auth_add_auth_state_listener(f.auth, count_state_call, NULL, states) > 0);
  REQUIRE_EVENTUALLY(atomic_load(&states->calls) == 1); /* the first call, signed out */

  /* Getting the credential signs nobody in and tells no listener. */
  const char *email = t_email("credential");
  const char *nonce = NULL;
  hearth_credential *credential = credential_from_page(&f, provider, c, page, email, &visits, &nonce);
  CHECK_STR(t_current_uid(f.auth), "");
  t_settle(50);
  CHECK_INT(atomic_load(&states->calls), 1);

  /* The app signs in with it. */
  hearth_future *signed_in = t_keep_future(hearth_auth_sign_in_and_retrieve_data_with_credential(f.auth, credential));
  t_await_ok(signed_in);
  const hearth_auth_result *result = result_of(signed_in);
  const hearth_user *user = hearth_auth_result_user(result);
  const char *uid = t_strdup(hearth_user_uid(user));
  CHECK_STR(t_current_uid(f.auth), uid);
  CHECK_STR(hearth_auth_result_provider_id(result), c->id);
  CHECK_INT(hearth_auth_result_is_new_user(result), 1);
  CHECK_STR(hearth_user_email(user), email);
  CHECK_STR(t_provider_ids(user), c->id);
  const hearth_credential *idp = hearth_auth_result_credential(result);
  REQUIRE(idp != NULL);
  if (c->nonce) CHECK_STR(json_get_string(t_json(hearth_credential_id_token(idp)), "nonce"), nonce);
  hearth_user *signed_in_user = t_current_user(f.auth);

  /* Reauthenticates with a fresh one of the same person; one of someone else is refused. */
  hearth_credential *again = credential_from_page(&f, provider, c, page, email, &visits, NULL);
  hearth_future *reauthenticated = t_keep_future(hearth_user_reauthenticate_and_retrieve_data(signed_in_user, again));
  t_await_ok(reauthenticated);
  CHECK_STR(uid_of(reauthenticated), uid);
  hearth_credential *stranger = credential_from_page(&f, provider, c, page, t_email("credential-other"), &visits, NULL);
  CHECK_FAILS_WITH(t_keep_future(hearth_user_reauthenticate(signed_in_user, stranger)), HEARTH_ERROR_USER_MISMATCH);
  CHECK_STR(t_current_uid(f.auth), uid);

  /* Links one to an email account. */
  CHECK_CODE(hearth_auth_sign_out(f.auth), 0);
  hearth_user *email_user = t_create_user(f.auth, t_email("credential-link"), T_PASSWORD);
  const char *linked_email = t_email("credential-linked");
  hearth_credential *to_link = credential_from_page(&f, provider, c, page, linked_email, &visits, NULL);
  CHECK_STR(t_current_uid(f.auth), hearth_user_uid(email_user)); /* still the email user */
  hearth_future *linked = t_keep_future(hearth_user_link_with_credential(email_user, to_link));
  t_await_ok(linked);
  CHECK_STR(uid_of(linked), hearth_user_uid(email_user));
  CHECK_STR(hearth_user_info_email(t_provider_info(hearth_auth_result_user(result_of(linked)), c->id)), linked_email);
  CHECK_INT(t_browser_opened(f.browser), visits);
}

#define CREDENTIAL_SCENARIO(name, provider_case_, page)                                               \
  TEST(name, BOTH_LOOPS) { credential_then_sign_in_reauthenticate_and_link(&provider_case_, page); }

CREDENTIAL_SCENARIO(a_microsoft_credential_from_the_emulator_page_signs_in_reauthenticates_and_links, microsoft,
                    EMULATOR_PAGE)
CREDENTIAL_SCENARIO(a_twitter_credential_from_the_create_auth_uri_page_signs_in_reauthenticates_and_links, twitter,
                    CREATE_AUTH_URI_PAGE)
CREDENTIAL_SCENARIO(an_apple_credential_keeps_its_nonce_through_the_emulator_page, apple, EMULATOR_PAGE)
CREDENTIAL_SCENARIO(an_oidc_credential_keeps_its_nonce_through_the_create_auth_uri_page, oidc, CREATE_AUTH_URI_PAGE)

TEST(getting_a_credential_ends_with_web_context_cancelled_when_cancelled_timed_out_refused_or_cancelled_on_the_page,
     BOTH_LOOPS) {
  flow_app f = flow_app_new(EMULATOR_PAGE);
  /* hearth_auth_cancel_provider_flow */
  t_browser_plan(f.browser, (t_plan){.action = T_USER_WALKS_AWAY});
  hearth_future *pending = t_keep_future(hearth_auth_get_credential_with_provider(f.auth, provider_for(&microsoft)));
  t_visit shown = wait_until_shown(f.browser);
  CHECK_INT(hearth_future_status(pending), HEARTH_FUTURE_PENDING);
  CHECK_CODE(hearth_auth_cancel_provider_flow(f.auth), 0);
  CHECK_FAILS_WITH(pending, HEARTH_ERROR_WEB_CONTEXT_CANCELLED);
  CHECK(hearth_future_credential(pending) == NULL);
  check_receiver_closed(shown.opened_url);
  /* Cancel on the provider's page */
  t_browser_plan(f.browser, (t_plan){.action = T_USER_CANCELS});
  hearth_future *cancelled = t_keep_future(hearth_auth_get_credential_with_provider(f.auth, provider_for(&apple)));
  CHECK_FAILS_WITH(cancelled, HEARTH_ERROR_WEB_CONTEXT_CANCELLED);
  CHECK_CONTAINS(t_browser_wait(f.browser, 2).redirect_body, "did not complete");
  /* The UI delegate cannot show the page */
  t_browser_plan(f.browser, (t_plan){.action = T_USER_REFUSED});
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_get_credential_with_provider(f.auth, provider_for(&twitter))),
                   HEARTH_ERROR_WEB_CONTEXT_CANCELLED);
  /* The timeout */
  hearth_provider_flow_options options;
  t_browser_options(f.browser, &options);
  options.timeout_ms = 300;
  REQUIRE_CODE(hearth_auth_set_provider_flow_options(f.auth, &options), 0);
  t_browser_plan(f.browser, (t_plan){.action = T_USER_WALKS_AWAY});
  double started = t_now();
  hearth_future *slow = t_keep_future(hearth_auth_get_credential_with_provider(f.auth, provider_for(&twitter)));
  CHECK_FAILS_WITH(slow, HEARTH_ERROR_WEB_CONTEXT_CANCELLED);
  CHECK(t_now() - started >= 0.25);
  CHECK_CONTAINS(hearth_future_error_message(slow), "timed out");
  CHECK(hearth_auth_current_user(f.auth) == NULL);
}

TEST(getting_a_credential_refuses_bad_input, BOTH_LOOPS) {
  hearth_app *app = t_app();
  hearth_auth *auth = hearth_auth_get(app);
  hearth_oauth_provider *twitter_provider = provider_for(&twitter);
  /* No UI delegate yet. */
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_get_credential_with_provider(auth, twitter_provider)),
                   HEARTH_ERROR_INVALID_ARGUMENT);
  t_browser *browser = t_browser_new(app);
  t_browser_attach(browser, EMULATOR_PAGE);
  CHECK(hearth_auth_get_credential_with_provider(NULL, twitter_provider) == NULL);
  CHECK_CODE(hearth_last_error_code(), HEARTH_ERROR_INVALID_HANDLE);
  CHECK_CONTAINS(hearth_last_error_message(), "hearth_auth_get_credential_with_provider: ");
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_get_credential_with_provider(auth, NULL)), HEARTH_ERROR_INVALID_ARGUMENT);
  hearth_oauth_provider *released = hearth_oauth_provider_create("twitter.com");
  hearth_oauth_provider_release(released);
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_get_credential_with_provider(auth, released)), HEARTH_ERROR_INVALID_HANDLE);
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_get_credential_with_provider(auth, provider_named("made-up.example"))),
                   HEARTH_ERROR_INVALID_PROVIDER_ID);
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_get_credential_with_provider(auth, provider_named("password"))),
                   HEARTH_ERROR_INVALID_PROVIDER_ID);
  /* One provider flow at a time, whatever it is for. */
  t_browser_plan(browser, (t_plan){.action = T_USER_WALKS_AWAY});
  hearth_future *first = t_keep_future(hearth_auth_get_credential_with_provider(auth, twitter_provider));
  wait_until_shown(browser);
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_get_credential_with_provider(auth, twitter_provider)),
                   HEARTH_ERROR_WEB_CONTEXT_ALREADY_PRESENTED);
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_sign_in_with_provider(auth, twitter_provider)),
                   HEARTH_ERROR_WEB_CONTEXT_ALREADY_PRESENTED);
  CHECK_INT(hearth_future_status(first), HEARTH_FUTURE_PENDING);
  CHECK_CODE(hearth_auth_cancel_provider_flow(auth), 0);
  CHECK_FAILS_WITH(first, HEARTH_ERROR_WEB_CONTEXT_CANCELLED);
  /* The credential accessor answers NULL for anything but a finished credential flow. */
  CHECK(hearth_future_credential(NULL) == NULL);
  hearth_future *anonymous = t_keep_future(hearth_auth_sign_in_anonymously(auth));
  t_await_ok(anonymous);
  CHECK(hearth_future_credential(anonymous) == NULL);
}

TEST(getting_a_credential_records_its_last_result_and_is_cancelled_by_the_destroy, BOTH_LOOPS) {
  flow_app f = flow_app_new(EMULATOR_PAGE);
  CHECK(hearth_auth_last_result(f.auth, HEARTH_OP_AUTH_GET_CREDENTIAL_WITH_PROVIDER) == NULL);
  int visits = 0;
  credential_from_page(&f, provider_for(&microsoft), &microsoft, EMULATOR_PAGE, t_email("credential-last"), &visits,
                       NULL);
  hearth_future *last = t_keep_future(hearth_auth_last_result(f.auth, HEARTH_OP_AUTH_GET_CREDENTIAL_WITH_PROVIDER));
  REQUIRE(last != NULL);
  CHECK_CODE(hearth_future_error(last), 0);
  CHECK_STR(hearth_credential_provider(hearth_future_credential(last)), "microsoft.com");

  destroyed_flow *d = t_alloc(sizeof *d);
  d->app = f.app;
  t_browser_plan(f.browser, (t_plan){.action = T_USER_WALKS_AWAY});
  hearth_future *pending = t_keep_future(hearth_auth_get_credential_with_provider(f.auth, provider_for(&microsoft)));
  CHECK_CODE(hearth_future_add_callback(pending, flow_completed, d), 0);
  t_browser_wait(f.browser, 2);
  t_app_destroy(f.app);
  CHECK_CODE(hearth_future_error(pending), HEARTH_ERROR_CANCELLED);
  REQUIRE_EVENTUALLY(atomic_load(&d->callbacks) == 1);
  t_settle(50);
  CHECK_INT(atomic_load(&d->callbacks), 1);
  CHECK_CODE(atomic_load(&d->error), HEARTH_ERROR_CANCELLED);
  /* The credential of the earlier flow outlives the app. */
  CHECK_STR(hearth_credential_provider(hearth_future_credential(last)), "microsoft.com");
}
