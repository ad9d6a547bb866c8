/* test_email_link.c — email actions from C: sign-in links (sent with action code settings, recognised,
 * used to sign in, link and reauthenticate), the other out-of-band codes (verify an address, reset a
 * password, verify before changing an address, take a changed address back), the errors Firebase maps,
 * the desktop hand-off through hearth_auth_handle_url, and bad input. Links are read from the emulator's
 * oobCodes route as a test reads a mailbox, and followed through its action page as a browser would. */
#include "test.h"

#define APP_SCHEME_URL "com.example.hearth-links:/finishSignIn"

/* Settings for a sign-in link that comes back to the app at `url`. */
static hearth_action_code_settings in_app_settings(const char *url) {
  hearth_action_code_settings settings;
  hearth_action_code_settings_init(&settings);
  settings.url = url;
  settings.handle_code_in_app = 1;
  return settings;
}

/* The newest mailed code of `type` for `email`, as the emulator lists it (REQUIREd). */
static const json *mailed(const char *email, const char *type) {
  const json *code = emu_oob_code(email, type);
  if (!code) {
    t_fail(__FILE__, __LINE__, "the emulator lists no %s code for %s", type, email);
    t_abort_test();
  }
  return code;
}

static const char *mailed_link(const char *email, const char *type) {
  const char *link = json_get_string(mailed(email, type), "oobLink");
  REQUIRE(link != NULL);
  return t_strdup(link);
}

static const char *mailed_code(const char *email, const char *type) {
  const char *code = json_get_string(mailed(email, type), "oobCode");
  REQUIRE(code != NULL && *code);
  return t_strdup(code);
}

/* Mails a sign-in link that continues to `continue_url`; the link in the mail. */
static const char *send_sign_in_link(hearth_auth *auth, const char *email, const char *continue_url) {
  hearth_action_code_settings settings = in_app_settings(continue_url);
  t_await_ok(t_keep_future(hearth_auth_send_sign_in_link_to_email(auth, email, &settings)));
  return mailed_link(email, "EMAIL_SIGNIN");
}

/* What the app receives when the user follows `link`: the action page's redirect to the continue URL
 * (with the link's parameters), fetched as a browser does. */
static const char *handed_to_app(const char *link) {
  t_http_response page = t_http_get(link);
  CHECK_INT(page.status, 303);
  REQUIRE(page.location != NULL);
  return page.location;
}

static const hearth_auth_result *signed_in(hearth_future *f) {
  t_await_ok(f);
  const hearth_auth_result *result = hearth_future_auth_result(f);
  REQUIRE(result != NULL);
  REQUIRE(hearth_auth_result_user(result) != NULL);
  return result;
}

static bool has_provider(const hearth_user *user, const char *provider_id) {
  return t_provider_info(user, provider_id) != NULL;
}

/* ------------------------------------------------------------------------------------------------
 * Sending sign-in links
 * ---------------------------------------------------------------------------------------------- */
TEST(a_sign_in_link_is_mailed_with_its_continue_url, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *email = t_email("link-sent");
  const char *continue_url = "https://app.example.com/finish?from=mail";
  const char *link = send_sign_in_link(auth, email, continue_url);
  CHECK(hearth_auth_current_user(auth) == NULL); /* mailing a link signs nobody in */
  CHECK_STR(t_url_param(link, "mode"), "signIn");
  CHECK_STR(t_url_param(link, "continueUrl"), continue_url);
  CHECK_STR(t_url_param(link, "oobCode"), mailed_code(email, "EMAIL_SIGNIN"));
  CHECK(t_url_param(link, "apiKey") != NULL);
  hearth_future *last = t_keep_future(hearth_auth_last_result(auth, HEARTH_OP_AUTH_SEND_SIGN_IN_LINK_TO_EMAIL));
  REQUIRE(last != NULL);
  CHECK_CODE(hearth_future_error(last), HEARTH_ERROR_NONE);
}

TEST(every_action_code_setting_is_accepted_by_the_server, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *email = t_email("all-settings");
  hearth_action_code_settings settings = in_app_settings(APP_SCHEME_URL);
  settings.ios_bundle_id = "com.example.ios";
  settings.android_package_name = "com.example.android";
  settings.android_install_app = 1;
  settings.android_minimum_version = "12";
  settings.link_domain = "example.page.link";
  settings.dynamic_link_domain = "example.page.link";
  t_await_ok(t_keep_future(hearth_auth_send_sign_in_link_to_email(auth, email, &settings)));
  CHECK_STR(t_url_param(mailed_link(email, "EMAIL_SIGNIN"), "continueUrl"), APP_SCHEME_URL);
}

TEST(sign_in_links_are_refused_before_sending_as_firebase_refuses_them, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *email = t_email("refused-settings");
  hearth_action_code_settings settings = in_app_settings("https://app.example.com/finish");
  settings.handle_code_in_app = 0; /* Firebase: a sign-in link must be completed in the app */
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_send_sign_in_link_to_email(auth, email, &settings)),
                   HEARTH_ERROR_INVALID_ARGUMENT);
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_send_sign_in_link_to_email(auth, email, NULL)),
                   HEARTH_ERROR_INVALID_ARGUMENT);
  settings = in_app_settings(NULL);
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_send_sign_in_link_to_email(auth, email, &settings)),
                   HEARTH_ERROR_INVALID_CONTINUE_URI);
  settings = in_app_settings("");
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_send_sign_in_link_to_email(auth, email, &settings)),
                   HEARTH_ERROR_INVALID_CONTINUE_URI);
  settings = in_app_settings(APP_SCHEME_URL);
  settings.link_domain = "";
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_send_sign_in_link_to_email(auth, email, &settings)),
                   HEARTH_ERROR_INVALID_LINK_DOMAIN);
  settings = in_app_settings(APP_SCHEME_URL);
  settings.dynamic_link_domain = "";
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_send_sign_in_link_to_email(auth, email, &settings)),
                   HEARTH_ERROR_INVALID_LINK_DOMAIN);
  settings = in_app_settings(APP_SCHEME_URL);
  settings.ios_bundle_id = "";
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_send_sign_in_link_to_email(auth, email, &settings)),
                   HEARTH_ERROR_MISSING_IOS_BUNDLE_ID);
  settings = in_app_settings(APP_SCHEME_URL);
  settings.android_install_app = 1; /* Android settings without the app's package */
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_send_sign_in_link_to_email(auth, email, &settings)),
                   HEARTH_ERROR_INVALID_ARGUMENT);
  settings = in_app_settings(APP_SCHEME_URL);
  settings.android_minimum_version = "3";
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_send_sign_in_link_to_email(auth, email, &settings)),
                   HEARTH_ERROR_INVALID_ARGUMENT);
  settings = in_app_settings(APP_SCHEME_URL);
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_send_sign_in_link_to_email(auth, "", &settings)),
                   HEARTH_ERROR_MISSING_EMAIL);
  /* The server's own check of the continue URL. */
  settings = in_app_settings("not a url");
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_send_sign_in_link_to_email(auth, email, &settings)),
                   HEARTH_ERROR_INVALID_CONTINUE_URI);
  CHECK(emu_oob_code(email, "EMAIL_SIGNIN") == NULL); /* nothing refused was mailed */
}

TEST(settings_that_are_not_initialized_or_not_utf8_are_refused, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *email = t_email("bad-settings");
  hearth_action_code_settings zero;
  memset(&zero, 0, sizeof zero);
  zero.url = APP_SCHEME_URL;
  zero.handle_code_in_app = 1;
  hearth_future *f = t_keep_future(hearth_auth_send_sign_in_link_to_email(auth, email, &zero));
  CHECK_FAILS_WITH(f, HEARTH_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(hearth_future_error_message(f), "struct_size");
  const char *fields[] = {"url", "ios_bundle_id", "android_package_name", "android_minimum_version", "link_domain",
                          "dynamic_link_domain"};
  for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
    hearth_action_code_settings settings = in_app_settings(APP_SCHEME_URL);
    settings.android_package_name = "com.example.android";
    const char **field = i == 0 ? &settings.url : i == 1 ? &settings.ios_bundle_id
                       : i == 2 ? &settings.android_package_name : i == 3 ? &settings.android_minimum_version
                       : i == 4 ? &settings.link_domain : &settings.dynamic_link_domain;
    *field = "bad\xff\xfe";
    hearth_future *bad = t_keep_future(hearth_auth_send_sign_in_link_to_email(auth, email, &settings));
    CHECK_FAILS_WITH(bad, HEARTH_ERROR_INVALID_ARGUMENT);
    CHECK_CONTAINS(hearth_future_error_message(bad), fields[i]);
  }
  CHECK(emu_oob_code(email, "EMAIL_SIGNIN") == NULL);
  hearth_action_code_settings_init(NULL); /* harmless */
}

TEST(action_code_settings_start_with_defaults, MODE_NONE) {
  hearth_action_code_settings settings;
  memset(&settings, 0xAB, sizeof settings);
  hearth_action_code_settings_init(&settings);
  CHECK_INT(settings.struct_size, sizeof settings);
  CHECK(settings.url == NULL);
  CHECK_INT(settings.handle_code_in_app, 0);
  CHECK(settings.ios_bundle_id == NULL && settings.android_package_name == NULL);
  CHECK_INT(settings.android_install_app, 0);
  CHECK(settings.android_minimum_version == NULL && settings.link_domain == NULL && settings.dynamic_link_domain == NULL);
}

/* ------------------------------------------------------------------------------------------------
 * Recognising sign-in links
 * ---------------------------------------------------------------------------------------------- */
TEST(sign_in_links_are_recognised_as_mailed_handed_over_wrapped_or_pasted, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *email = t_email("recognised");
  const char *link = send_sign_in_link(auth, email, APP_SCHEME_URL);
  CHECK_INT(hearth_auth_is_sign_in_with_email_link(auth, link), 1);
  const char *handed = handed_to_app(link);
  CHECK(strncmp(handed, APP_SCHEME_URL "?", strlen(APP_SCHEME_URL) + 1) == 0);
  CHECK_INT(hearth_auth_is_sign_in_with_email_link(auth, handed), 1);
  /* Firebase Dynamic Links and Hosting links carry the action link in `link`, iOS hand-offs in
   * `deep_link_id`, and each may wrap the other. */
  const char *dynamic = t_printf("https://example.page.link/?link=%s&apn=com.example", t_url_encode(link));
  CHECK_INT(hearth_auth_is_sign_in_with_email_link(auth, dynamic), 1);
  const char *ios = t_printf("com.example.ios://google/link/?deep_link_id=%s", t_url_encode(link));
  CHECK_INT(hearth_auth_is_sign_in_with_email_link(auth, ios), 1);
  const char *doubled = t_printf("https://example.page.link/?link=%s",
                                 t_url_encode(t_printf("https://example.com/?deep_link_id=%s", t_url_encode(link))));
  CHECK_INT(hearth_auth_is_sign_in_with_email_link(auth, doubled), 1);
  /* A paste brings whitespace along. */
  CHECK_INT(hearth_auth_is_sign_in_with_email_link(auth, t_printf("  \t%s\r\n", link)), 1);
  CHECK_INT(hearth_auth_is_sign_in_with_email_link(auth, t_printf("\xc2\xa0%s\n", handed)), 1); /* NBSP */
}

TEST(links_that_are_not_sign_in_links_are_not_recognised, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *email = t_email("not-sign-in");
  t_create_user(auth, email, T_PASSWORD);
  t_await_ok(t_keep_future(hearth_auth_send_password_reset_email(auth, email, NULL)));
  const char *reset = mailed_link(email, "PASSWORD_RESET");
  CHECK_INT(hearth_auth_is_sign_in_with_email_link(auth, reset), 0);
  const char *sign_in = send_sign_in_link(auth, email, APP_SCHEME_URL);
  const char *code = t_url_param(sign_in, "oobCode");
  const char *not_links[] = {
      "",
      "   ",
      "https://example.com/",
      t_printf("https://example.com/?mode=signIn&oobCode=%s", code),             /* no apiKey */
      "https://example.com/?mode=signIn&apiKey=key",                            /* no oobCode */
      t_printf("https://example.com/?mode=signIn&oobCode=&apiKey=key"),          /* an empty code */
      t_printf("https://example.com/?mode=signOut&oobCode=%s&apiKey=key", code), /* an unknown mode */
      t_printf("https://example.com/#mode=signIn&oobCode=%s&apiKey=key", code),  /* in the fragment */
      t_printf("mode=signIn&oobCode=%s&apiKey=key", code),                       /* no URL at all */
      "https://example.page.link/?link=https%3A%2F%2Fexample.com%2F",
  };
  for (size_t i = 0; i < sizeof not_links / sizeof not_links[0]; i++) {
    if (hearth_auth_is_sign_in_with_email_link(auth, not_links[i]) != 0)
      t_fail(__FILE__, __LINE__, "%s was taken for a sign-in link", not_links[i]);
  }
  CHECK_INT(hearth_auth_is_sign_in_with_email_link(auth, NULL), 0);
  CHECK_INT(hearth_auth_is_sign_in_with_email_link(auth, t_printf("%s\xff", sign_in)), 0);
  CHECK_INT(hearth_auth_is_sign_in_with_email_link(NULL, sign_in), 0);
  CHECK_INT(hearth_auth_is_sign_in_with_email_link((hearth_auth *)t_email("not-a-handle"), sign_in), 0);
}

/* ------------------------------------------------------------------------------------------------
 * Signing in
 * ---------------------------------------------------------------------------------------------- */
TEST(a_sign_in_link_creates_the_account_of_a_new_address, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *email = t_email("new-by-link");
  const char *url = handed_to_app(send_sign_in_link(auth, email, APP_SCHEME_URL));
  hearth_future *f = t_keep_future(hearth_auth_sign_in_with_email_link(auth, email, url));
  const hearth_auth_result *result = signed_in(f);
  const hearth_user *user = hearth_auth_result_user(result);
  CHECK_STR(hearth_user_email(user), email);
  CHECK_INT(hearth_user_is_email_verified(user), 1);
  CHECK_INT(hearth_user_is_anonymous(user), 0);
  CHECK_INT(hearth_auth_result_is_new_user(result), 1);
  CHECK_STR(hearth_auth_result_provider_id(result), "password");
  CHECK_STR(t_current_uid(auth), hearth_user_uid(user));
  /* Firebase writes "password" as the sign-in provider of an email link too. */
  const json *firebase = json_get(t_token_claims(t_token(t_current_user(auth), 0)), "firebase");
  CHECK_STR(json_get_string(firebase, "sign_in_provider"), "password");
  const json *account = emu_lookup(hearth_user_uid(user));
  REQUIRE(account != NULL);
  CHECK(json_bool(json_get(account, "emailLinkSignin")));
  hearth_future *last = t_keep_future(hearth_auth_last_result(auth, HEARTH_OP_AUTH_SIGN_IN_WITH_EMAIL_LINK));
  REQUIRE(last != NULL);
  CHECK_STR(hearth_user_uid(hearth_future_user(last)), hearth_user_uid(user));
}

TEST(a_sign_in_link_signs_in_to_an_existing_password_account, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *email = t_email("existing-by-link");
  const char *uid = t_strdup(hearth_user_uid(t_create_user(auth, email, T_PASSWORD)));
  CHECK_CODE(hearth_auth_sign_out(auth), 0);
  const char *link = send_sign_in_link(auth, email, "https://app.example.com/finish");
  /* The user pastes the link from the mail itself. */
  const hearth_auth_result *result =
      signed_in(t_keep_future(hearth_auth_sign_in_with_email_link(auth, email, t_printf(" %s\n", link))));
  CHECK_STR(hearth_user_uid(hearth_auth_result_user(result)), uid);
  CHECK_INT(hearth_auth_result_is_new_user(result), 0);
  CHECK_INT(hearth_user_is_email_verified(hearth_auth_result_user(result)), 1);
  /* The password still works. */
  CHECK_CODE(hearth_auth_sign_out(auth), 0);
  t_await_ok(t_keep_future(hearth_auth_sign_in_with_email_and_password(auth, email, T_PASSWORD)));
  CHECK_STR(t_current_uid(auth), uid);
}

TEST(a_link_credential_signs_in_like_the_link_itself, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *email = t_email("credential-sign-in");
  const char *url = handed_to_app(send_sign_in_link(auth, email, APP_SCHEME_URL));
  hearth_credential *credential = t_keep_credential(hearth_credential_create_email_link(email, url));
  REQUIRE(credential != NULL);
  CHECK_STR(hearth_credential_provider(credential), "password");
  CHECK_STR(hearth_credential_id_token(credential), ""); /* the code is never readable */
  CHECK_STR(hearth_credential_access_token(credential), "");
  hearth_future *f = t_keep_future(hearth_auth_sign_in_with_credential(auth, credential));
  t_await_ok(f);
  REQUIRE(hearth_future_user(f) != NULL);
  CHECK_STR(hearth_user_email(hearth_future_user(f)), email);
  /* The code is used up: the same credential does not sign in again. */
  CHECK_CODE(hearth_auth_sign_out(auth), 0);
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_sign_in_and_retrieve_data_with_credential(auth, credential)),
                   HEARTH_ERROR_INVALID_ACTION_CODE);
  CHECK(hearth_auth_current_user(auth) == NULL);
}

TEST(a_link_credential_turns_an_anonymous_user_into_an_email_account, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  hearth_user *anonymous = t_sign_in_anonymously(auth);
  const char *uid = t_strdup(hearth_user_uid(anonymous));
  const char *email = t_email("linked-by-link");
  const char *url = handed_to_app(send_sign_in_link(auth, email, APP_SCHEME_URL));
  hearth_credential *credential = t_keep_credential(hearth_credential_create_email_link(email, url));
  REQUIRE(credential != NULL);
  const hearth_auth_result *result = signed_in(t_keep_future(hearth_user_link_with_credential(anonymous, credential)));
  const hearth_user *linked = hearth_auth_result_user(result);
  CHECK_STR(hearth_user_uid(linked), uid);
  CHECK_STR(hearth_user_email(linked), email);
  CHECK_INT(hearth_user_is_anonymous(linked), 0);
  CHECK_INT(hearth_user_is_email_verified(linked), 1);
  CHECK(has_provider(linked, "password"));
  CHECK_STR(t_current_uid(auth), uid);
  /* A later link signs in to the same account. */
  CHECK_CODE(hearth_auth_sign_out(auth), 0);
  const char *again = handed_to_app(send_sign_in_link(auth, email, APP_SCHEME_URL));
  signed_in(t_keep_future(hearth_auth_sign_in_with_email_link(auth, email, again)));
  CHECK_STR(t_current_uid(auth), uid);
}

TEST(linking_an_address_of_another_account_or_a_second_email_provider_fails, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *taken = t_email("taken-address");
  t_create_user(auth, taken, T_PASSWORD);
  CHECK_CODE(hearth_auth_sign_out(auth), 0);
  hearth_user *anonymous = t_sign_in_anonymously(auth);
  const char *url = handed_to_app(send_sign_in_link(auth, taken, APP_SCHEME_URL));
  hearth_credential *credential = t_keep_credential(hearth_credential_create_email_link(taken, url));
  CHECK_FAILS_WITH(t_keep_future(hearth_user_link_with_credential(anonymous, credential)),
                   HEARTH_ERROR_EMAIL_ALREADY_IN_USE);
  CHECK_STR(t_current_uid(auth), hearth_user_uid(anonymous)); /* still the anonymous user */
  CHECK_INT(hearth_user_is_anonymous(t_current_user(auth)), 1);
  /* A user who has an email provider already gets PROVIDER_ALREADY_LINKED, as in Firebase. */
  const char *own = t_email("own-address");
  hearth_user *password_user = t_create_user(auth, own, T_PASSWORD);
  const char *own_url = handed_to_app(send_sign_in_link(auth, own, APP_SCHEME_URL));
  CHECK_FAILS_WITH(t_keep_future(hearth_user_link_with_credential(
                       password_user, t_keep_credential(hearth_credential_create_email_link(own, own_url)))),
                   HEARTH_ERROR_PROVIDER_ALREADY_LINKED);
}

TEST(a_link_credential_reauthenticates_its_own_user_and_refuses_another, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *email = t_email("reauth-by-link");
  hearth_user *user = t_create_user(auth, email, T_PASSWORD);
  const char *url = handed_to_app(send_sign_in_link(auth, email, APP_SCHEME_URL));
  hearth_future *f = t_keep_future(hearth_user_reauthenticate_and_retrieve_data(
      user, t_keep_credential(hearth_credential_create_email_link(email, url))));
  const hearth_auth_result *result = signed_in(f);
  CHECK_STR(hearth_user_uid(hearth_auth_result_user(result)), hearth_user_uid(user));
  CHECK_STR(hearth_auth_result_provider_id(result), "password");
  /* Without the auth result too. */
  const char *url2 = handed_to_app(send_sign_in_link(auth, email, APP_SCHEME_URL));
  t_await_ok(t_keep_future(hearth_user_reauthenticate(
      t_current_user(auth), t_keep_credential(hearth_credential_create_email_link(email, url2)))));
  /* The link of another address is another account's: mismatch, and this user stays signed in. */
  const char *other = t_email("other-reauth");
  const char *other_url = handed_to_app(send_sign_in_link(auth, other, APP_SCHEME_URL));
  CHECK_FAILS_WITH(t_keep_future(hearth_user_reauthenticate(
                       t_current_user(auth), t_keep_credential(hearth_credential_create_email_link(other, other_url)))),
                   HEARTH_ERROR_USER_MISMATCH);
  CHECK_STR(t_current_uid(auth), hearth_user_uid(user));
}

TEST(wrong_address_used_expired_and_made_up_codes_are_refused, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *email = t_email("refused-link");
  const char *url = handed_to_app(send_sign_in_link(auth, email, APP_SCHEME_URL));
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_sign_in_with_email_link(auth, t_email("someone-else"), url)),
                   HEARTH_ERROR_INVALID_EMAIL);
  CHECK(hearth_auth_current_user(auth) == NULL);
  /* A refused address leaves the code usable. */
  signed_in(t_keep_future(hearth_auth_sign_in_with_email_link(auth, email, url)));
  CHECK_CODE(hearth_auth_sign_out(auth), 0);
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_sign_in_with_email_link(auth, email, url)),
                   HEARTH_ERROR_INVALID_ACTION_CODE); /* used */
  const char *made_up = t_url_with_param(url, "oobCode", "made-up-code");
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_sign_in_with_email_link(auth, email, made_up)),
                   HEARTH_ERROR_INVALID_ACTION_CODE);
  /* A password reset link is an action link but no sign-in link: the server refuses its code. */
  const char *owner = t_email("reset-owner");
  t_create_user(auth, owner, T_PASSWORD);
  CHECK_CODE(hearth_auth_sign_out(auth), 0);
  t_await_ok(t_keep_future(hearth_auth_send_password_reset_email(auth, owner, NULL)));
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_sign_in_with_email_link(auth, owner, mailed_link(owner, "PASSWORD_RESET"))),
                   HEARTH_ERROR_INVALID_ACTION_CODE);
  CHECK(hearth_auth_current_user(auth) == NULL);
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_sign_in_with_email_link(auth, "x@example.com", "https://example.com/")),
                   HEARTH_ERROR_INVALID_ARGUMENT);
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_sign_in_with_email_link(auth, "", url)), HEARTH_ERROR_MISSING_EMAIL);
}

static void reset_code_lifetime(void *unused) {
  (void)unused;
  int status = 0;
  free(emu_request("PATCH", t_printf("/emulator/v1/projects/%s/config", t_project()), "{\"oobCodeTtlSeconds\":0}",
                   false, &status));
  CHECK_INT(status, 200);
}

TEST(codes_past_their_lifetime_fail_with_expired_action_code, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  int status = 0;
  free(emu_request("PATCH", t_printf("/emulator/v1/projects/%s/config", t_project()), "{\"oobCodeTtlSeconds\":1}",
                   false, &status));
  REQUIRE_INT(status, 200);
  t_defer(reset_code_lifetime, NULL);
  const char *email = t_email("expiring");
  const char *url = handed_to_app(send_sign_in_link(auth, email, APP_SCHEME_URL));
  hearth_user *user = t_create_user(auth, t_email("expiring-verify"), T_PASSWORD);
  t_await_ok(t_keep_future(hearth_user_send_email_verification(user, NULL)));
  const char *verify = mailed_code(hearth_user_email(user), "VERIFY_EMAIL");
  t_await_ok(t_keep_future(hearth_auth_send_password_reset_email(auth, hearth_user_email(user), NULL)));
  const char *reset = mailed_code(hearth_user_email(user), "PASSWORD_RESET");
  CHECK_CODE(hearth_auth_sign_out(auth), 0);
  t_sleep_ms(2100);
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_sign_in_with_email_link(auth, email, url)),
                   HEARTH_ERROR_EXPIRED_ACTION_CODE);
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_apply_action_code(auth, verify)), HEARTH_ERROR_EXPIRED_ACTION_CODE);
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_check_action_code(auth, reset)), HEARTH_ERROR_EXPIRED_ACTION_CODE);
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_verify_password_reset_code(auth, reset)),
                   HEARTH_ERROR_EXPIRED_ACTION_CODE);
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_confirm_password_reset(auth, reset, "fresh-password-1")),
                   HEARTH_ERROR_EXPIRED_ACTION_CODE);
}

TEST(a_disabled_account_cannot_sign_in_with_a_link, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *email = t_email("disabled-link");
  const char *uid = t_strdup(hearth_user_uid(t_create_user(auth, email, T_PASSWORD)));
  CHECK_CODE(hearth_auth_sign_out(auth), 0);
  REQUIRE_INT(emu_admin_update(uid, "\"disableUser\":true"), 200);
  const char *url = handed_to_app(send_sign_in_link(auth, email, APP_SCHEME_URL));
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_sign_in_with_email_link(auth, email, url)), HEARTH_ERROR_USER_DISABLED);
  CHECK(hearth_auth_current_user(auth) == NULL);
}

/* ------------------------------------------------------------------------------------------------
 * The desktop hand-off
 * ---------------------------------------------------------------------------------------------- */
static int shows_nothing(void *user_data, const char *url) {
  (void)user_data;
  (void)url;
  return 0; /* the page is "shown"; nobody acts on it */
}

TEST(handle_url_never_takes_an_email_link_even_on_a_pending_flows_scheme_and_path, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *email = t_email("handed-over");
  const char *url = handed_to_app(send_sign_in_link(auth, email, APP_SCHEME_URL));
  CHECK_INT(hearth_auth_handle_url(auth, url), 0); /* no flow pending */

  hearth_provider_flow_options options;
  hearth_provider_flow_options_init(&options);
  options.open_url = shows_nothing;
  options.redirect_uri = APP_SCHEME_URL; /* the same place the link comes back to */
  REQUIRE_CODE(hearth_auth_set_provider_flow_options(auth, &options), 0);
  hearth_oauth_provider *provider = hearth_oauth_provider_create("github.com");
  hearth_future *flow = t_keep_future(hearth_auth_sign_in_with_provider(auth, provider));
  hearth_oauth_provider_release(provider);
  t_settle(200);
  REQUIRE_INT(hearth_future_status(flow), HEARTH_FUTURE_PENDING);
  CHECK_INT(hearth_auth_handle_url(auth, url), 0);
  CHECK_INT(hearth_auth_handle_url(auth, t_printf(" %s\n", url)), 0);
  t_settle(100);
  CHECK_INT(hearth_future_status(flow), HEARTH_FUTURE_PENDING); /* the flow is left alone */
  /* The app recognises the link and signs in with it. */
  REQUIRE_INT(hearth_auth_is_sign_in_with_email_link(auth, url), 1);
  signed_in(t_keep_future(hearth_auth_sign_in_with_email_link(auth, email, url)));
  CHECK_CODE(hearth_auth_cancel_provider_flow(auth), 0);
  CHECK_FAILS_WITH(flow, HEARTH_ERROR_WEB_CONTEXT_CANCELLED);
}

/* ------------------------------------------------------------------------------------------------
 * The other out-of-band codes
 * ---------------------------------------------------------------------------------------------- */
TEST(a_verification_code_is_checked_then_applied_and_verifies_the_address, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *email = t_email("verify-code");
  hearth_user *user = t_create_user(auth, email, T_PASSWORD);
  hearth_action_code_settings settings;
  hearth_action_code_settings_init(&settings);
  settings.url = "https://app.example.com/verified";
  t_await_ok(t_keep_future(hearth_user_send_email_verification(user, &settings)));
  CHECK_STR(t_url_param(mailed_link(email, "VERIFY_EMAIL"), "continueUrl"), "https://app.example.com/verified");
  const char *code = mailed_code(email, "VERIFY_EMAIL");
  CHECK_CODE(hearth_auth_sign_out(auth), 0); /* no user needs to be signed in */

  hearth_future *check = t_keep_future(hearth_auth_check_action_code(auth, code));
  t_await_ok(check);
  const hearth_action_code_info *info = hearth_future_action_code_info(check);
  REQUIRE(info != NULL);
  CHECK_INT(hearth_action_code_info_operation(info), HEARTH_ACTION_CODE_OPERATION_VERIFY_EMAIL);
  CHECK_STR(hearth_action_code_info_email(info), email);
  CHECK_STR(hearth_action_code_info_previous_email(info), "");
  CHECK(hearth_future_auth_result(check) == NULL && hearth_future_string(check) == NULL);
  CHECK_INT(json_bool(json_get(emu_lookup(hearth_user_uid(user)), "emailVerified")), 0); /* checking used nothing */

  hearth_future *apply = t_keep_future(hearth_auth_apply_action_code(auth, code));
  t_await_ok(apply);
  CHECK(hearth_future_action_code_info(apply) == NULL);
  CHECK_INT(json_bool(json_get(emu_lookup(hearth_user_uid(user)), "emailVerified")), 1);
  t_await_ok(t_keep_future(hearth_auth_sign_in_with_email_and_password(auth, email, T_PASSWORD)));
  CHECK_INT(hearth_user_is_email_verified(t_current_user(auth)), 1);
  /* Used up. */
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_apply_action_code(auth, code)), HEARTH_ERROR_INVALID_ACTION_CODE);
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_check_action_code(auth, code)), HEARTH_ERROR_INVALID_ACTION_CODE);
}

TEST(a_password_is_reset_by_verifying_then_confirming_the_code, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *email = t_email("reset-code");
  hearth_user *user = t_create_user(auth, email, T_PASSWORD);
  CHECK_CODE(hearth_auth_sign_out(auth), 0);
  hearth_action_code_settings settings;
  hearth_action_code_settings_init(&settings);
  settings.url = APP_SCHEME_URL;
  settings.handle_code_in_app = 1;
  t_await_ok(t_keep_future(hearth_auth_send_password_reset_email(auth, email, &settings)));
  CHECK_STR(t_url_param(mailed_link(email, "PASSWORD_RESET"), "continueUrl"), APP_SCHEME_URL);
  const char *code = mailed_code(email, "PASSWORD_RESET");

  hearth_future *verify = t_keep_future(hearth_auth_verify_password_reset_code(auth, code));
  t_await_ok(verify);
  CHECK_STR(hearth_future_string(verify), email);
  hearth_future *check = t_keep_future(hearth_auth_check_action_code(auth, code));
  t_await_ok(check);
  CHECK_INT(hearth_action_code_info_operation(hearth_future_action_code_info(check)),
            HEARTH_ACTION_CODE_OPERATION_PASSWORD_RESET);
  CHECK_STR(hearth_action_code_info_email(hearth_future_action_code_info(check)), email);

  CHECK_FAILS_WITH(t_keep_future(hearth_auth_confirm_password_reset(auth, code, "")), HEARTH_ERROR_MISSING_PASSWORD);
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_confirm_password_reset(auth, code, "12")), HEARTH_ERROR_WEAK_PASSWORD);
  t_await_ok(t_keep_future(hearth_auth_confirm_password_reset(auth, code, "chosen-after-reset")));
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_sign_in_with_email_and_password(auth, email, T_PASSWORD)),
                   HEARTH_ERROR_WRONG_PASSWORD);
  t_await_ok(t_keep_future(hearth_auth_sign_in_with_email_and_password(auth, email, "chosen-after-reset")));
  CHECK_STR(t_current_uid(auth), hearth_user_uid(user));
  CHECK_INT(hearth_user_is_email_verified(t_current_user(auth)), 1);
  /* Used up. */
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_confirm_password_reset(auth, code, "another-password")),
                   HEARTH_ERROR_INVALID_ACTION_CODE);
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_verify_password_reset_code(auth, code)), HEARTH_ERROR_INVALID_ACTION_CODE);
  hearth_future *last = t_keep_future(hearth_auth_last_result(auth, HEARTH_OP_AUTH_VERIFY_PASSWORD_RESET_CODE));
  REQUIRE(last != NULL);
  CHECK_CODE(hearth_future_error(last), HEARTH_ERROR_INVALID_ACTION_CODE);
}

TEST(a_reset_can_only_use_a_password_reset_code, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *email = t_email("wrong-kind");
  hearth_user *user = t_create_user(auth, email, T_PASSWORD);
  t_await_ok(t_keep_future(hearth_user_send_email_verification(user, NULL)));
  const char *verify = mailed_code(email, "VERIFY_EMAIL");
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_confirm_password_reset(auth, verify, "some-new-password")),
                   HEARTH_ERROR_INVALID_ACTION_CODE);
  t_await_ok(t_keep_future(hearth_auth_apply_action_code(auth, verify))); /* still usable */
  t_await_ok(t_keep_future(hearth_auth_sign_in_with_email_and_password(auth, email, T_PASSWORD)));
}

TEST(verify_before_update_names_both_addresses_and_applying_it_changes_the_address, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *old_email = t_email("before-change");
  const char *new_email = t_email("after-change");
  hearth_user *user = t_create_user(auth, old_email, T_PASSWORD);
  hearth_action_code_settings settings;
  hearth_action_code_settings_init(&settings);
  settings.url = "https://app.example.com/changed";
  t_await_ok(t_keep_future(hearth_user_send_email_verification_before_updating_email(user, new_email, &settings)));
  const json *mail = mailed(old_email, "VERIFY_AND_CHANGE_EMAIL");
  CHECK_STR(json_get_string(mail, "newEmail"), new_email);
  CHECK_STR(t_url_param(json_get_string(mail, "oobLink"), "continueUrl"), "https://app.example.com/changed");
  const char *code = t_strdup(json_get_string(mail, "oobCode"));

  hearth_future *check = t_keep_future(hearth_auth_check_action_code(auth, code));
  t_await_ok(check);
  const hearth_action_code_info *info = hearth_future_action_code_info(check);
  REQUIRE(info != NULL);
  CHECK_INT(hearth_action_code_info_operation(info), HEARTH_ACTION_CODE_OPERATION_VERIFY_AND_CHANGE_EMAIL);
  CHECK_STR(hearth_action_code_info_email(info), new_email);
  CHECK_STR(hearth_action_code_info_previous_email(info), old_email);
  CHECK_STR(hearth_user_email(t_current_user(auth)), old_email); /* nothing changed yet */

  t_await_ok(t_keep_future(hearth_auth_apply_action_code(auth, code)));
  CHECK_STR(json_get_string(emu_lookup(hearth_user_uid(user)), "email"), new_email);
  CHECK_CODE(hearth_auth_sign_out(auth), 0);
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_sign_in_with_email_and_password(auth, old_email, T_PASSWORD)),
                   HEARTH_ERROR_USER_NOT_FOUND);
  t_await_ok(t_keep_future(hearth_auth_sign_in_with_email_and_password(auth, new_email, T_PASSWORD)));
  CHECK_STR(t_current_uid(auth), hearth_user_uid(user));
  CHECK_INT(hearth_user_is_email_verified(t_current_user(auth)), 1);
}

TEST(a_changed_address_is_taken_back_with_the_recover_code_mailed_to_the_old_one, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *old_email = t_email("recover-old");
  const char *new_email = t_email("recover-new");
  hearth_user *user = t_create_user(auth, old_email, T_PASSWORD);
  const char *uid = t_strdup(hearth_user_uid(user));
  t_await_ok(t_keep_future(hearth_user_update_email(user, new_email))); /* without verifying it first */
  const char *code = mailed_code(old_email, "RECOVER_EMAIL");
  CHECK_CODE(hearth_auth_sign_out(auth), 0);

  hearth_future *check = t_keep_future(hearth_auth_check_action_code(auth, code));
  t_await_ok(check);
  CHECK_INT(hearth_action_code_info_operation(hearth_future_action_code_info(check)),
            HEARTH_ACTION_CODE_OPERATION_RECOVER_EMAIL);
  CHECK_STR(hearth_action_code_info_email(hearth_future_action_code_info(check)), old_email);

  t_await_ok(t_keep_future(hearth_auth_apply_action_code(auth, code)));
  CHECK_STR(json_get_string(emu_lookup(uid), "email"), old_email);
  t_await_ok(t_keep_future(hearth_auth_sign_in_with_email_and_password(auth, old_email, T_PASSWORD)));
  CHECK_STR(t_current_uid(auth), uid);
}

TEST(checking_the_code_of_a_sign_in_link_tells_its_operation, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *email = t_email("check-sign-in");
  send_sign_in_link(auth, email, APP_SCHEME_URL);
  hearth_future *check = t_keep_future(hearth_auth_check_action_code(auth, mailed_code(email, "EMAIL_SIGNIN")));
  t_await_ok(check);
  CHECK_INT(hearth_action_code_info_operation(hearth_future_action_code_info(check)),
            HEARTH_ACTION_CODE_OPERATION_EMAIL_SIGN_IN);
  /* A sign-in code does not reveal its address. */
  CHECK_STR(hearth_action_code_info_email(hearth_future_action_code_info(check)), "");
  hearth_future *last = t_keep_future(hearth_auth_last_result(auth, HEARTH_OP_AUTH_CHECK_ACTION_CODE));
  REQUIRE(last != NULL);
  CHECK_INT(hearth_action_code_info_operation(hearth_future_action_code_info(last)),
            HEARTH_ACTION_CODE_OPERATION_EMAIL_SIGN_IN);
}

TEST(made_up_and_empty_codes_are_invalid_action_codes, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *codes[] = {"made-up-code", ""};
  for (size_t i = 0; i < 2; i++) {
    CHECK_FAILS_WITH(t_keep_future(hearth_auth_apply_action_code(auth, codes[i])), HEARTH_ERROR_INVALID_ACTION_CODE);
    CHECK_FAILS_WITH(t_keep_future(hearth_auth_check_action_code(auth, codes[i])), HEARTH_ERROR_INVALID_ACTION_CODE);
    CHECK_FAILS_WITH(t_keep_future(hearth_auth_verify_password_reset_code(auth, codes[i])),
                     HEARTH_ERROR_INVALID_ACTION_CODE);
    CHECK_FAILS_WITH(t_keep_future(hearth_auth_confirm_password_reset(auth, codes[i], "made-up-password")),
                     HEARTH_ERROR_INVALID_ACTION_CODE);
  }
  const hearth_operation ops[] = {HEARTH_OP_AUTH_APPLY_ACTION_CODE, HEARTH_OP_AUTH_CHECK_ACTION_CODE,
                                  HEARTH_OP_AUTH_VERIFY_PASSWORD_RESET_CODE, HEARTH_OP_AUTH_CONFIRM_PASSWORD_RESET};
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
    hearth_future *last = t_keep_future(hearth_auth_last_result(auth, ops[i]));
    REQUIRE(last != NULL);
    CHECK_CODE(hearth_future_error(last), HEARTH_ERROR_INVALID_ACTION_CODE);
  }
}

/* ------------------------------------------------------------------------------------------------
 * Wrong state and bad input
 * ---------------------------------------------------------------------------------------------- */
TEST(operations_of_a_signed_out_user_fail_with_no_signed_in_user, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *email = t_email("gone");
  hearth_user *user = t_create_user(auth, email, T_PASSWORD);
  const char *url = handed_to_app(send_sign_in_link(auth, email, APP_SCHEME_URL));
  hearth_credential *credential = t_keep_credential(hearth_credential_create_email_link(email, url));
  CHECK_CODE(hearth_auth_sign_out(auth), 0);
  hearth_action_code_settings settings;
  hearth_action_code_settings_init(&settings);
  settings.url = "https://app.example.com/";
  CHECK_FAILS_WITH(t_keep_future(hearth_user_link_with_credential(user, credential)), HEARTH_ERROR_NO_SIGNED_IN_USER);
  CHECK_FAILS_WITH(t_keep_future(hearth_user_reauthenticate(user, credential)), HEARTH_ERROR_NO_SIGNED_IN_USER);
  CHECK_FAILS_WITH(t_keep_future(hearth_user_send_email_verification(user, &settings)), HEARTH_ERROR_NO_SIGNED_IN_USER);
  CHECK_FAILS_WITH(t_keep_future(hearth_user_send_email_verification_before_updating_email(user, t_email("n"), &settings)),
                   HEARTH_ERROR_NO_SIGNED_IN_USER);
  /* The credential was not spent: it still signs in. */
  t_await_ok(t_keep_future(hearth_auth_sign_in_with_credential(auth, credential)));
}

TEST(email_action_calls_refuse_null_invalid_utf8_and_dead_handles, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *bad = "bad\xc3\x28";
  hearth_action_code_settings settings = in_app_settings(APP_SCHEME_URL);
  const char *link = "https://example.com/?mode=signIn&oobCode=abc&apiKey=key";

  /* An invalid auth gives no future and says why. */
  CHECK(hearth_auth_send_sign_in_link_to_email(NULL, "a@example.com", &settings) == NULL);
  CHECK_CODE(hearth_last_error_code(), HEARTH_ERROR_INVALID_HANDLE);
  CHECK(hearth_auth_sign_in_with_email_link(NULL, "a@example.com", link) == NULL);
  CHECK(hearth_auth_apply_action_code(NULL, "code") == NULL);
  CHECK(hearth_auth_check_action_code(NULL, "code") == NULL);
  CHECK(hearth_auth_verify_password_reset_code(NULL, "code") == NULL);
  CHECK(hearth_auth_confirm_password_reset(NULL, "code", "password") == NULL);
  CHECK_CODE(hearth_last_error_code(), HEARTH_ERROR_INVALID_HANDLE);
  CHECK_CONTAINS(hearth_last_error_message(), "hearth_auth_confirm_password_reset");

  /* Bad strings give a failed future naming the argument. */
  struct {
    hearth_future *future;
    const char *argument;
  } refused[] = {
      {hearth_auth_send_sign_in_link_to_email(auth, NULL, &settings), "email"},
      {hearth_auth_send_sign_in_link_to_email(auth, bad, &settings), "email"},
      {hearth_auth_sign_in_with_email_link(auth, NULL, link), "email"},
      {hearth_auth_sign_in_with_email_link(auth, bad, link), "email"},
      {hearth_auth_sign_in_with_email_link(auth, "a@example.com", NULL), "link"},
      {hearth_auth_sign_in_with_email_link(auth, "a@example.com", bad), "link"},
      {hearth_auth_apply_action_code(auth, NULL), "code"},
      {hearth_auth_apply_action_code(auth, bad), "code"},
      {hearth_auth_check_action_code(auth, NULL), "code"},
      {hearth_auth_check_action_code(auth, bad), "code"},
      {hearth_auth_verify_password_reset_code(auth, NULL), "code"},
      {hearth_auth_verify_password_reset_code(auth, bad), "code"},
      {hearth_auth_confirm_password_reset(auth, NULL, "password"), "code"},
      {hearth_auth_confirm_password_reset(auth, "code", NULL), "new_password"},
      {hearth_auth_confirm_password_reset(auth, "code", bad), "new_password"},
      {hearth_auth_send_password_reset_email(auth, "a@example.com", &(hearth_action_code_settings){0}), "struct_size"},
  };
  for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
    hearth_future *f = t_keep_future(refused[i].future);
    REQUIRE(f != NULL);
    CHECK_FAILS_WITH(f, HEARTH_ERROR_INVALID_ARGUMENT);
    CHECK_CONTAINS(hearth_future_error_message(f), refused[i].argument);
  }

  /* Credentials: NULL and a reason for every refusal. */
  CHECK(hearth_credential_create_email_link(NULL, link) == NULL);
  CHECK_CODE(hearth_last_error_code(), HEARTH_ERROR_INVALID_ARGUMENT);
  CHECK(hearth_credential_create_email_link("a@example.com", NULL) == NULL);
  CHECK(hearth_credential_create_email_link(bad, link) == NULL);
  CHECK(hearth_credential_create_email_link("a@example.com", bad) == NULL);
  CHECK(hearth_credential_create_email_link("a@example.com", "https://example.com/?oobCode=abc") == NULL);
  CHECK_CODE(hearth_last_error_code(), HEARTH_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(hearth_last_error_message(), "not an email action link");
  /* An empty address is refused when used. */
  hearth_credential *no_address = t_keep_credential(hearth_credential_create_email_link("", link));
  REQUIRE(no_address != NULL);
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_sign_in_with_credential(auth, no_address)), HEARTH_ERROR_MISSING_EMAIL);

  /* Action code info accessors answer invalid handles with their documented values. */
  CHECK(hearth_future_action_code_info(NULL) == NULL);
  CHECK_INT(hearth_action_code_info_operation(NULL), HEARTH_ACTION_CODE_OPERATION_UNKNOWN);
  CHECK(hearth_action_code_info_email(NULL) == NULL);
  CHECK(hearth_action_code_info_previous_email(NULL) == NULL);
  CHECK_INT(hearth_action_code_info_operation((const hearth_action_code_info *)auth), HEARTH_ACTION_CODE_OPERATION_UNKNOWN);
}

TEST(an_action_code_info_lives_as_long_as_its_future_handle, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *email = t_email("info-lifetime");
  t_create_user(auth, email, T_PASSWORD);
  t_await_ok(t_keep_future(hearth_auth_send_password_reset_email(auth, email, NULL)));
  hearth_future *check = hearth_auth_check_action_code(auth, mailed_code(email, "PASSWORD_RESET"));
  t_await_ok(check);
  hearth_future *copy = hearth_future_retain(check);
  const hearth_action_code_info *info = hearth_future_action_code_info(check);
  REQUIRE(info != NULL);
  CHECK(hearth_future_action_code_info(check) == info); /* the same view each time */
  const hearth_action_code_info *copy_info = hearth_future_action_code_info(copy);
  REQUIRE(copy_info != NULL);
  hearth_future_release(check);
  /* The released handle's view is gone; the other reference's is not. */
  CHECK_INT(hearth_action_code_info_operation(info), HEARTH_ACTION_CODE_OPERATION_UNKNOWN);
  CHECK(hearth_action_code_info_email(info) == NULL);
  CHECK_STR(hearth_action_code_info_email(copy_info), email);
  hearth_future_release(copy);
  CHECK(hearth_action_code_info_email(copy_info) == NULL);
}
