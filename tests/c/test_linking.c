/* test_linking.c — one Firebase user reachable through several providers: linking, unlinking,
 * reauthenticating, the account-conflict flows with their updated credentials, recent-login
 * requirements, and Firebase's account-linking guide end to end. */
#include "test.h"

/* A Google identity of the emulator's fake provider. */
static hearth_credential *google(const char *sub, const char *email, bool verified) {
  hearth_credential *credential = hearth_credential_create_google(t_idp_claims(sub, email, verified, NULL, NULL), NULL);
  REQUIRE(credential != NULL);
  return credential;
}

static hearth_credential *facebook(const char *sub, const char *email, bool verified) {
  hearth_credential *credential = hearth_credential_create_facebook(t_idp_claims(sub, email, verified, NULL, NULL));
  REQUIRE(credential != NULL);
  return credential;
}

/* Runs an operation that takes a credential, then releases the credential; the future is kept. */
static hearth_future *link_to(const hearth_user *user, hearth_credential *credential) {
  hearth_future *f = t_keep_future(hearth_user_link_with_credential(user, credential));
  hearth_credential_release(credential);
  REQUIRE(f != NULL);
  return f;
}

static hearth_future *sign_in(hearth_auth *auth, hearth_credential *credential) {
  hearth_future *f = t_keep_future(hearth_auth_sign_in_and_retrieve_data_with_credential(auth, credential));
  hearth_credential_release(credential);
  REQUIRE(f != NULL);
  return f;
}

/* Signs in with the credential and returns the uid (test-owned). */
static const char *sign_in_uid(hearth_auth *auth, hearth_credential *credential) {
  hearth_future *f = sign_in(auth, credential);
  t_await_ok(f);
  return t_strdup(hearth_user_uid(hearth_future_user(f)));
}

static const hearth_user *result_user(hearth_future *f) {
  const hearth_auth_result *result = hearth_future_auth_result(f);
  REQUIRE(result != NULL);
  return hearth_auth_result_user(result);
}

/* ------------------------------------------------------------------------------------------------
 * Linking
 * ---------------------------------------------------------------------------------------------- */
TEST(linking_google_to_an_email_account_adds_the_provider_to_the_same_user, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *email = t_email("linkg");
  hearth_user *user = t_create_user(auth, email, T_PASSWORD);
  const char *sub = t_subject("linkg");
  hearth_future *f = link_to(user, google(sub, t_email("linkg-google"), true));
  t_await_ok(f);
  const hearth_auth_result *result = hearth_future_auth_result(f);
  REQUIRE(result != NULL);
  CHECK_STR(hearth_auth_result_provider_id(result), "google.com");
  CHECK_INT(hearth_auth_result_is_new_user(result), 0);
  REQUIRE(hearth_auth_result_credential(result) != NULL);
  CHECK_STR(hearth_credential_provider(hearth_auth_result_credential(result)), "google.com");
  const hearth_user *linked = hearth_auth_result_user(result);
  REQUIRE(linked != NULL);
  CHECK_STR(hearth_user_uid(linked), hearth_user_uid(user));
  CHECK_STR(hearth_user_email(linked), email); /* the account keeps its own email */
  CHECK_STR(t_provider_ids(linked), "google.com,password");
  CHECK_STR(hearth_user_info_uid(t_provider_info(linked, "google.com")), sub);
  CHECK_STR(t_provider_ids(t_current_user(auth)), "google.com,password");
  /* The server agrees. */
  const json *record = emu_lookup(hearth_user_uid(user));
  CHECK_INT(json_count(json_get(record, "providerUserInfo")), 2);
}

TEST(an_anonymous_user_upgraded_by_linking_keeps_its_uid_and_stops_being_anonymous, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  hearth_user *anonymous = t_sign_in_anonymously(auth);
  const char *uid = t_strdup(hearth_user_uid(anonymous));
  const char *email = t_email("upgrade");
  hearth_future *f = link_to(anonymous, facebook(t_subject("upgrade"), email, true));
  t_await_ok(f);
  const hearth_user *upgraded = result_user(f);
  CHECK_STR(hearth_user_uid(upgraded), uid);
  CHECK_INT(hearth_user_is_anonymous(upgraded), 0);
  CHECK_STR(hearth_user_email(upgraded), email); /* the provider's email becomes the account's */
  CHECK_STR(t_provider_ids(upgraded), "facebook.com");
  hearth_user *current = t_current_user(auth);
  CHECK_STR(hearth_user_uid(current), uid);
  CHECK_INT(hearth_user_is_anonymous(current), 0);
  /* A refreshed token is no longer an anonymous one. */
  const json *claims = t_token_claims(t_token(current, 1));
  CHECK_STR(json_get_string(claims, "user_id"), uid);
  CHECK(!t_str_eq(json_get_string(json_get(claims, "firebase"), "sign_in_provider"), "anonymous"));
}

TEST(an_anonymous_user_linked_to_an_email_credential_signs_in_with_the_password_afterwards, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  hearth_user *anonymous = t_sign_in_anonymously(auth);
  const char *uid = t_strdup(hearth_user_uid(anonymous));
  const char *email = t_email("anon-email");
  hearth_future *f = link_to(anonymous, hearth_credential_create_email(email, T_PASSWORD));
  t_await_ok(f);
  CHECK_STR(hearth_user_uid(result_user(f)), uid);
  CHECK_INT(hearth_user_is_anonymous(result_user(f)), 0);
  CHECK_STR(hearth_user_email(result_user(f)), email);
  CHECK_STR(t_provider_ids(result_user(f)), "password");
  CHECK_STR(hearth_auth_result_provider_id(hearth_future_auth_result(f)), "password");
  CHECK_CODE(hearth_auth_sign_out(auth), 0);
  t_await_ok(t_keep_future(hearth_auth_sign_in_with_email_and_password(auth, email, T_PASSWORD)));
  CHECK_STR(t_current_uid(auth), uid);
}

TEST(provider_data_lists_every_linked_provider_with_its_raw_id, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *email = t_email("many");
  hearth_user *user = t_create_user(auth, email, T_PASSWORD);
  const char *google_sub = t_subject("many-g"), *facebook_sub = t_subject("many-fb"), *twitter_sub = t_subject("many-tw"),
             *github_sub = t_subject("many-gh"), *microsoft_sub = t_subject("many-ms");
  t_await_ok(link_to(user, hearth_credential_create_google(t_idp_claims(google_sub, NULL, false, "G Name", NULL), NULL)));
  t_await_ok(link_to(user, hearth_credential_create_facebook(t_idp_claims(facebook_sub, NULL, false, "F Name", NULL))));
  t_await_ok(link_to(user, hearth_credential_create_twitter(t_idp_claims(twitter_sub, NULL, false, "T Name", NULL), "secret")));
  t_await_ok(link_to(user, hearth_credential_create_github(t_idp_claims(github_sub, NULL, false, NULL, NULL))));
  hearth_future *last = link_to(user, hearth_credential_create_oauth("microsoft.com",
                                                           t_idp_claims(microsoft_sub, NULL, false, NULL, NULL), NULL));
  t_await_ok(last);

  hearth_future *reload = t_keep_future(hearth_user_reload(user));
  t_await_ok(reload);
  const hearth_user *snapshots[] = {result_user(last), t_current_user(auth), hearth_future_user(reload)};
  for (size_t s = 0; s < 3; s++) {
    const hearth_user *u = snapshots[s];
    REQUIRE(u != NULL);
    CHECK_STR(t_provider_ids(u), "facebook.com,github.com,google.com,microsoft.com,password,twitter.com");
    CHECK_STR(hearth_user_info_uid(t_provider_info(u, "password")), email);
    CHECK_STR(hearth_user_info_uid(t_provider_info(u, "google.com")), google_sub);
    CHECK_STR(hearth_user_info_display_name(t_provider_info(u, "google.com")), "G Name");
    CHECK_STR(hearth_user_info_uid(t_provider_info(u, "facebook.com")), facebook_sub);
    CHECK_STR(hearth_user_info_display_name(t_provider_info(u, "facebook.com")), "F Name");
    CHECK_STR(hearth_user_info_uid(t_provider_info(u, "twitter.com")), twitter_sub);
    CHECK_STR(hearth_user_info_uid(t_provider_info(u, "github.com")), github_sub);
    CHECK_STR(hearth_user_info_uid(t_provider_info(u, "microsoft.com")), microsoft_sub);
    CHECK_STR(hearth_user_uid(u), hearth_user_uid(user));
  }
  CHECK_STR(t_provider_ids(user), "password"); /* the old snapshot stays as it was */
}

/* ------------------------------------------------------------------------------------------------
 * Firebase's account-linking guide
 * ---------------------------------------------------------------------------------------------- */
TEST(the_account_linking_guide_end_to_end, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  /* Sign in with email, link Google and Facebook. */
  const char *email = t_email("guide");
  const char *uid = t_strdup(hearth_user_uid(t_create_user(auth, email, T_PASSWORD)));
  const char *google_sub = t_subject("guide-g"), *facebook_sub = t_subject("guide-fb");
  t_await_ok(link_to(t_current_user(auth), google(google_sub, t_email("guide-g"), true)));
  t_await_ok(link_to(t_current_user(auth), facebook(facebook_sub, NULL, false)));
  CHECK_STR(t_provider_ids(t_current_user(auth)), "facebook.com,google.com,password");

  /* Sign out, then each way in reaches the same user. */
  CHECK_CODE(hearth_auth_sign_out(auth), 0);
  CHECK_STR(sign_in_uid(auth, google(google_sub, t_email("guide-g"), true)), uid);
  CHECK_CODE(hearth_auth_sign_out(auth), 0);
  CHECK_STR(sign_in_uid(auth, facebook(facebook_sub, NULL, false)), uid);
  CHECK_CODE(hearth_auth_sign_out(auth), 0);
  CHECK_STR(sign_in_uid(auth, hearth_credential_create_email(email, T_PASSWORD)), uid);

  /* Unlink Facebook: that identity no longer reaches this user; signing in with it makes a new one. */
  hearth_future *unlinked = t_keep_future(hearth_user_unlink(t_current_user(auth), "facebook.com"));
  t_await_ok(unlinked);
  CHECK_STR(t_provider_ids(result_user(unlinked)), "google.com,password");
  CHECK_STR(t_provider_ids(t_current_user(auth)), "google.com,password");
  CHECK_CODE(hearth_auth_sign_out(auth), 0);
  hearth_future *after = sign_in(auth, facebook(facebook_sub, NULL, false));
  t_await_ok(after);
  CHECK(strcmp(hearth_user_uid(result_user(after)), uid) != 0);
  CHECK_INT(hearth_auth_result_is_new_user(hearth_future_auth_result(after)), 1);
  /* Google still does. */
  CHECK_CODE(hearth_auth_sign_out(auth), 0);
  CHECK_STR(sign_in_uid(auth, google(google_sub, t_email("guide-g"), true)), uid);
}

TEST(after_unlinking_an_identity_with_the_accounts_unverified_email_signing_in_with_it_is_refused, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *email = t_email("refused");
  const char *uid = t_strdup(hearth_user_uid(t_create_user(auth, email, T_PASSWORD)));
  const char *sub = t_subject("refused");
  t_await_ok(link_to(t_current_user(auth), google(sub, email, false)));
  CHECK_CODE(hearth_auth_sign_out(auth), 0);
  CHECK_STR(sign_in_uid(auth, google(sub, email, false)), uid);
  t_await_ok(t_keep_future(hearth_user_unlink(t_current_user(auth), "google.com")));
  CHECK_CODE(hearth_auth_sign_out(auth), 0);
  CHECK_FAILS_WITH(sign_in(auth, google(sub, email, false)), HEARTH_ERROR_ACCOUNT_EXISTS_WITH_DIFFERENT_CREDENTIALS);
  CHECK(hearth_auth_current_user(auth) == NULL);
}

/* ------------------------------------------------------------------------------------------------
 * Conflicts
 * ---------------------------------------------------------------------------------------------- */
TEST(linking_an_identity_of_another_account_fails_and_its_updated_credential_signs_in_there, BOTH_LOOPS) {
  /* The C++ recipe: on kAuthErrorCredentialAlreadyInUse, sign in with additional_user_info.updated_credential. */
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *sub = t_subject("in-use");
  const char *owner = sign_in_uid(auth, google(sub, t_email("in-use-owner"), true));
  CHECK_CODE(hearth_auth_sign_out(auth), 0);
  hearth_user *other = t_create_user(auth, t_email("in-use-other"), T_PASSWORD);
  const char *other_uid = t_strdup(hearth_user_uid(other));

  hearth_future *f = link_to(other, google(sub, t_email("in-use-owner"), true));
  CHECK_FAILS_WITH(f, HEARTH_ERROR_CREDENTIAL_ALREADY_IN_USE);
  const hearth_auth_result *conflict = hearth_future_auth_result(f);
  REQUIRE(conflict != NULL);
  CHECK(hearth_auth_result_user(conflict) == NULL);
  CHECK(hearth_future_user(f) == NULL);
  const hearth_credential *updated = hearth_auth_result_updated_credential(conflict);
  REQUIRE(updated != NULL);
  CHECK_INT(hearth_credential_is_valid(updated), 1);
  CHECK_STR(hearth_credential_provider(updated), "google.com");
  hearth_credential_release((hearth_credential *)updated); /* borrowed: releasing it is a no-op */
  CHECK_INT(hearth_credential_is_valid(updated), 1);
  CHECK(hearth_auth_result_updated_credential(conflict) == updated);

  /* Nothing changed for the signed-in user. */
  CHECK_STR(t_current_uid(auth), other_uid);
  CHECK_STR(t_provider_ids(t_current_user(auth)), "password");
  CHECK_INT(json_count(json_get(emu_lookup(other_uid), "providerUserInfo")), 1);

  hearth_future *recipe = t_keep_future(hearth_auth_sign_in_and_retrieve_data_with_credential(auth, updated));
  t_await_ok(recipe);
  CHECK_STR(hearth_user_uid(result_user(recipe)), owner);
  CHECK_STR(t_current_uid(auth), owner);
}

TEST(linking_an_identity_whose_email_belongs_to_another_account_fails_with_email_already_in_use, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *taken = t_email("taken");
  const char *owner = t_strdup(hearth_user_uid(t_create_user(auth, taken, T_PASSWORD)));
  CHECK_CODE(hearth_auth_sign_out(auth), 0);
  hearth_user *other = t_create_user(auth, t_email("taker"), T_PASSWORD);
  const char *other_uid = t_strdup(hearth_user_uid(other));

  hearth_future *f = link_to(other, google(t_subject("taken"), taken, true));
  CHECK_FAILS_WITH(f, HEARTH_ERROR_EMAIL_ALREADY_IN_USE);
  const hearth_auth_result *conflict = hearth_future_auth_result(f);
  REQUIRE(conflict != NULL);
  CHECK(hearth_auth_result_user(conflict) == NULL);
  CHECK_STR(hearth_auth_result_email(conflict), taken);
  const hearth_credential *updated = hearth_auth_result_updated_credential(conflict);
  REQUIRE(updated != NULL);
  CHECK_STR(hearth_credential_provider(updated), "google.com");
  CHECK_STR(t_current_uid(auth), other_uid);
  CHECK_STR(t_provider_ids(t_current_user(auth)), "password");

  /* The provider verified the email, so its credential signs in to the account that has it. */
  hearth_future *recipe = t_keep_future(hearth_auth_sign_in_and_retrieve_data_with_credential(auth, updated));
  t_await_ok(recipe);
  CHECK_STR(hearth_user_uid(result_user(recipe)), owner);
}

TEST(an_identity_whose_unverified_email_has_an_account_needs_that_account_to_link_it, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *email = t_email("confirm");
  const char *uid = t_strdup(hearth_user_uid(t_create_user(auth, email, T_PASSWORD)));
  CHECK_CODE(hearth_auth_sign_out(auth), 0);

  const char *sub = t_subject("confirm");
  hearth_future *f = sign_in(auth, google(sub, email, false));
  CHECK_FAILS_WITH(f, HEARTH_ERROR_ACCOUNT_EXISTS_WITH_DIFFERENT_CREDENTIALS);
  CHECK(hearth_auth_current_user(auth) == NULL);
  const hearth_auth_result *conflict = hearth_future_auth_result(f);
  REQUIRE(conflict != NULL);
  CHECK(hearth_auth_result_user(conflict) == NULL);
  CHECK_STR(hearth_auth_result_email(conflict), email);
  const hearth_credential *pending = hearth_auth_result_updated_credential(conflict);
  REQUIRE(pending != NULL);
  CHECK_STR(hearth_credential_provider(pending), "google.com");

  /* Firebase's recipe: find how that account signs in, sign in that way, link the pending credential. */
  hearth_future *methods = t_keep_future(hearth_auth_fetch_providers_for_email(auth, email));
  t_await_ok(methods);
  REQUIRE_INT(hearth_future_string_count(methods), 1);
  CHECK_STR(hearth_future_string_at(methods, 0), "password");
  t_await_ok(t_keep_future(hearth_auth_sign_in_with_email_and_password(auth, email, T_PASSWORD)));
  hearth_future *linked = t_keep_future(hearth_user_link_with_credential(t_current_user(auth), pending));
  t_await_ok(linked);
  CHECK_STR(hearth_user_uid(result_user(linked)), uid);
  CHECK_STR(t_provider_ids(result_user(linked)), "google.com,password");
  CHECK_CODE(hearth_auth_sign_out(auth), 0);
  CHECK_STR(sign_in_uid(auth, google(sub, email, false)), uid);
}

TEST(an_identity_with_the_verified_email_of_an_account_signs_in_to_it, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *email = t_email("verified");
  const char *uid = t_strdup(hearth_user_uid(t_create_user(auth, email, T_PASSWORD)));
  CHECK_CODE(hearth_auth_sign_out(auth), 0);
  hearth_future *f = sign_in(auth, google(t_subject("verified"), email, true));
  t_await_ok(f);
  CHECK_STR(hearth_user_uid(result_user(f)), uid);
  CHECK_INT(hearth_auth_result_is_new_user(hearth_future_auth_result(f)), 0);
  CHECK(t_provider_info(result_user(f), "google.com") != NULL);
  CHECK_INT(hearth_user_is_email_verified(result_user(f)), 1);
}

TEST(linking_a_provider_the_user_already_has_fails_with_provider_already_linked, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  hearth_user *user = t_create_user(auth, t_email("twice"), T_PASSWORD);
  const char *sub = t_subject("twice");
  t_await_ok(link_to(user, google(sub, NULL, false)));
  CHECK_FAILS_WITH(link_to(t_current_user(auth), google(t_subject("twice-other"), NULL, false)),
                   HEARTH_ERROR_PROVIDER_ALREADY_LINKED);
  CHECK_FAILS_WITH(link_to(t_current_user(auth), google(sub, NULL, false)), HEARTH_ERROR_PROVIDER_ALREADY_LINKED);
  CHECK_FAILS_WITH(link_to(t_current_user(auth), hearth_credential_create_email(t_email("twice-2"), T_PASSWORD)),
                   HEARTH_ERROR_PROVIDER_ALREADY_LINKED);
  CHECK_STR(t_provider_ids(t_current_user(auth)), "google.com,password");
  CHECK_STR(t_current_uid(auth), hearth_user_uid(user));
}

/* ------------------------------------------------------------------------------------------------
 * Unlinking
 * ---------------------------------------------------------------------------------------------- */
TEST(unlinking_a_provider_that_is_not_linked_fails_with_no_such_provider, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  hearth_user *user = t_create_user(auth, t_email("nosuch"), T_PASSWORD);
  CHECK_FAILS_WITH(t_keep_future(hearth_user_unlink(user, "google.com")), HEARTH_ERROR_NO_SUCH_PROVIDER);
  CHECK_FAILS_WITH(t_keep_future(hearth_user_unlink(user, "phone")), HEARTH_ERROR_NO_SUCH_PROVIDER);
  CHECK_FAILS_WITH(t_keep_future(hearth_user_unlink(user, "made-up.example")), HEARTH_ERROR_NO_SUCH_PROVIDER);
  CHECK_STR(t_provider_ids(t_current_user(auth)), "password");
  /* Unlinking the same provider twice: the second time it is gone. */
  t_await_ok(link_to(user, facebook(t_subject("nosuch"), NULL, false)));
  t_await_ok(t_keep_future(hearth_user_unlink(t_current_user(auth), "facebook.com")));
  CHECK_FAILS_WITH(t_keep_future(hearth_user_unlink(t_current_user(auth), "facebook.com")),
                   HEARTH_ERROR_NO_SUCH_PROVIDER);
}

TEST(unlinking_the_password_provider_removes_the_email_login, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *email = t_email("unlinkpw");
  hearth_user *user = t_create_user(auth, email, T_PASSWORD);
  const char *uid = t_strdup(hearth_user_uid(user));
  const char *sub = t_subject("unlinkpw");
  t_await_ok(link_to(user, google(sub, NULL, false)));
  hearth_future *f = t_keep_future(hearth_user_unlink(t_current_user(auth), "password"));
  t_await_ok(f);
  const hearth_user *after = result_user(f);
  REQUIRE(after != NULL);
  CHECK_STR(hearth_user_uid(after), uid);
  CHECK_STR(t_provider_ids(after), "google.com");
  CHECK_STR(hearth_user_email(after), "");
  CHECK_STR(hearth_user_email(t_current_user(auth)), "");
  CHECK_CODE(hearth_auth_sign_out(auth), 0);
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_sign_in_with_email_and_password(auth, email, T_PASSWORD)),
                   HEARTH_ERROR_USER_NOT_FOUND);
  CHECK_STR(sign_in_uid(auth, google(sub, NULL, false)), uid);
}

/* ------------------------------------------------------------------------------------------------
 * Reauthentication
 * ---------------------------------------------------------------------------------------------- */
TEST(reauthenticating_with_the_users_own_credential_succeeds, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *email = t_email("reauth");
  hearth_user *user = t_create_user(auth, email, T_PASSWORD);
  const char *sub = t_subject("reauth");
  t_await_ok(link_to(user, google(sub, NULL, false)));

  hearth_credential *password = hearth_credential_create_email(email, T_PASSWORD);
  hearth_future *plain = t_keep_future(hearth_user_reauthenticate(user, password));
  hearth_credential_release(password);
  t_await_ok(plain);
  CHECK(hearth_future_auth_result(plain) == NULL); /* result: none */
  CHECK_STR(t_current_uid(auth), hearth_user_uid(user));

  hearth_credential *own_google = google(sub, NULL, false);
  hearth_future *with_data = t_keep_future(hearth_user_reauthenticate_and_retrieve_data(user, own_google));
  hearth_credential_release(own_google);
  t_await_ok(with_data);
  const hearth_auth_result *result = hearth_future_auth_result(with_data);
  REQUIRE(result != NULL);
  CHECK_STR(hearth_user_uid(hearth_auth_result_user(result)), hearth_user_uid(user));
  CHECK_STR(hearth_auth_result_provider_id(result), "google.com");
  CHECK_INT(hearth_auth_result_is_new_user(result), 0);
  REQUIRE(hearth_auth_result_credential(result) != NULL);
  CHECK_STR(hearth_credential_provider(hearth_auth_result_credential(result)), "google.com");
  CHECK_STR(t_current_uid(auth), hearth_user_uid(user));
  t_token(t_current_user(auth), 1);
}

TEST(reauthenticating_as_another_user_fails_with_user_mismatch_and_the_user_stays_signed_in, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *other_email = t_email("mismatch-other");
  const char *other_sub = t_subject("mismatch-other");
  t_create_user(auth, other_email, T_PASSWORD);
  t_await_ok(link_to(t_current_user(auth), google(other_sub, NULL, false)));
  CHECK_CODE(hearth_auth_sign_out(auth), 0);

  hearth_user *user = t_create_user(auth, t_email("mismatch"), T_PASSWORD);
  const char *uid = t_strdup(hearth_user_uid(user));
  hearth_credential *others[] = {hearth_credential_create_email(other_email, T_PASSWORD), google(other_sub, NULL, false)};
  for (size_t i = 0; i < 2; i++) {
    CHECK_FAILS_WITH(t_keep_future(hearth_user_reauthenticate(user, others[i])), HEARTH_ERROR_USER_MISMATCH);
    CHECK_STR(t_current_uid(auth), uid);
    CHECK_FAILS_WITH(t_keep_future(hearth_user_reauthenticate_and_retrieve_data(user, others[i])),
                     HEARTH_ERROR_USER_MISMATCH);
    CHECK_STR(t_current_uid(auth), uid);
    hearth_credential_release(others[i]);
  }
  /* Still signed in for real: its tokens refresh. */
  const json *claims = t_token_claims(t_token(t_current_user(auth), 1));
  CHECK_STR(json_get_string(claims, "user_id"), uid);
}

TEST(reauthenticating_with_a_wrong_password_fails_and_keeps_the_user, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *email = t_email("reauth-wrong");
  hearth_user *user = t_create_user(auth, email, T_PASSWORD);
  hearth_credential *wrong = hearth_credential_create_email(email, "wrong-password");
  CHECK_FAILS_WITH(t_keep_future(hearth_user_reauthenticate(user, wrong)), HEARTH_ERROR_WRONG_PASSWORD);
  hearth_credential_release(wrong);
  CHECK_STR(t_current_uid(auth), hearth_user_uid(user));
}

static void reset_recent_login(void *unused) {
  (void)unused;
  if (emu_set_recent_login_max_age(0) != 200) t_fail(__FILE__, __LINE__, "could not reset the recent-login age");
}

TEST(sensitive_changes_to_an_old_sign_in_require_recent_login_until_reauthenticated, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *email = t_email("recent");
  hearth_user *user = t_create_user(auth, email, T_PASSWORD);
  t_defer(reset_recent_login, NULL);
  REQUIRE_INT(emu_set_recent_login_max_age(1), 200);
  t_sleep_ms(2200); /* sign-in ages are whole seconds */

  CHECK_FAILS_WITH(t_keep_future(hearth_user_update_password(user, "new-password-1")),
                   HEARTH_ERROR_REQUIRES_RECENT_LOGIN);
  CHECK_FAILS_WITH(t_keep_future(hearth_user_delete(user)), HEARTH_ERROR_REQUIRES_RECENT_LOGIN);
  CHECK_STR(t_current_uid(auth), hearth_user_uid(user)); /* neither signs the user out */
  CHECK(emu_lookup(hearth_user_uid(user)) != NULL);

  hearth_credential *credential = hearth_credential_create_email(email, T_PASSWORD);
  t_await_ok(t_keep_future(hearth_user_reauthenticate(user, credential)));
  hearth_credential_release(credential);
  t_await_ok(t_keep_future(hearth_user_update_password(user, "new-password-1")));
  CHECK_CODE(hearth_auth_sign_out(auth), 0);
  t_await_ok(t_keep_future(hearth_auth_sign_in_with_email_and_password(auth, email, "new-password-1")));
  t_await_ok(t_keep_future(hearth_user_delete(t_current_user(auth))));
  CHECK(hearth_auth_current_user(auth) == NULL);
}

/* ------------------------------------------------------------------------------------------------
 * Last results, and users who are gone
 * ---------------------------------------------------------------------------------------------- */
TEST(link_unlink_and_reauthenticate_record_their_last_result, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const hearth_operation lasts[] = {HEARTH_OP_USER_LINK_WITH_CREDENTIAL, HEARTH_OP_USER_UNLINK,
                                  HEARTH_OP_USER_REAUTHENTICATE,
                                  HEARTH_OP_USER_REAUTHENTICATE_AND_RETRIEVE_DATA};
  for (size_t i = 0; i < 4; i++) CHECK(hearth_auth_last_result(auth, lasts[i]) == NULL);

  const char *email = t_email("lasts");
  hearth_user *user = t_create_user(auth, email, T_PASSWORD);
  const char *sub = t_subject("lasts");
  hearth_future *ops[4];
  ops[0] = link_to(user, google(sub, NULL, false));
  t_await_ok(ops[0]);
  hearth_credential *own = hearth_credential_create_email(email, T_PASSWORD);
  ops[2] = t_keep_future(hearth_user_reauthenticate(user, own));
  t_await_ok(ops[2]);
  ops[3] = t_keep_future(hearth_user_reauthenticate_and_retrieve_data(user, own));
  t_await_ok(ops[3]);
  hearth_credential_release(own);
  ops[1] = t_keep_future(hearth_user_unlink(user, "made-up.example"));
  CHECK_FAILS_WITH(ops[1], HEARTH_ERROR_NO_SUCH_PROVIDER);

  for (size_t i = 0; i < 4; i++) {
    hearth_future *last = t_keep_future(hearth_auth_last_result(auth, lasts[i]));
    if (!last) {
      t_fail(__FILE__, __LINE__, "last result %zu is NULL after its operation ran", i);
      continue;
    }
    CHECK_INT(hearth_future_status(last), HEARTH_FUTURE_COMPLETE);
    CHECK_CODE(hearth_future_error(last), hearth_future_error(ops[i]));
    CHECK((hearth_future_auth_result(last) != NULL) == (hearth_future_auth_result(ops[i]) != NULL));
  }
  hearth_auth *other = hearth_auth_get(t_app());
  for (size_t i = 0; i < 4; i++) CHECK(hearth_auth_last_result(other, lasts[i]) == NULL);
}

TEST(linking_operations_on_a_signed_out_user_fail_with_no_signed_in_user, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *email = t_email("gone");
  hearth_user *user = t_create_user(auth, email, T_PASSWORD);
  CHECK_CODE(hearth_auth_sign_out(auth), 0);
  hearth_credential *credential = google(t_subject("gone"), NULL, false);
  CHECK_FAILS_WITH(t_keep_future(hearth_user_link_with_credential(user, credential)), HEARTH_ERROR_NO_SIGNED_IN_USER);
  CHECK_FAILS_WITH(t_keep_future(hearth_user_unlink(user, "password")), HEARTH_ERROR_NO_SIGNED_IN_USER);
  CHECK_FAILS_WITH(t_keep_future(hearth_user_reauthenticate(user, credential)), HEARTH_ERROR_NO_SIGNED_IN_USER);
  CHECK_FAILS_WITH(t_keep_future(hearth_user_reauthenticate_and_retrieve_data(user, credential)),
                   HEARTH_ERROR_NO_SIGNED_IN_USER);
  hearth_credential_release(credential);
  CHECK(hearth_auth_current_user(auth) == NULL);
  CHECK_STR(t_provider_ids(t_keep_user(hearth_user_retain(user))), "password");
}
