/* test_credentials.c — identity-provider credentials: what each constructor accepts and carries, signing in
 * with every kind against the emulator's fake identity providers, what the auth result says about the
 * provider (profile, user name, the provider's own credential), and the nonce helpers. */
#include "test.h"

static hearth_credential *kept_credential(hearth_credential *credential) {
  REQUIRE(credential != NULL);
  return credential;
}

/* Signs in with the credential (sign_in_and_retrieve_data), releases it, REQUIREs success, and returns the
 * kept future. */
static hearth_future *sign_in_with(hearth_auth *auth, hearth_credential *credential) {
  REQUIRE(credential != NULL);
  hearth_future *f = t_keep_future(hearth_auth_sign_in_and_retrieve_data_with_credential(auth, credential));
  hearth_credential_release(credential); /* the operation keeps what it needs */
  t_await_ok(f);
  REQUIRE(hearth_future_auth_result(f) != NULL);
  REQUIRE(hearth_auth_result_user(hearth_future_auth_result(f)) != NULL);
  return f;
}

static const char *result_uid(hearth_future *f) {
  return hearth_user_uid(hearth_auth_result_user(hearth_future_auth_result(f)));
}

/* Signing in with `credential` fails with `code` and signs nobody in. */
static void check_refused(hearth_auth *auth, hearth_credential *credential, int code) {
  REQUIRE(credential != NULL);
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_sign_in_and_retrieve_data_with_credential(auth, credential)), code);
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_sign_in_with_credential(auth, credential)), code);
  hearth_credential_release(credential);
  CHECK(hearth_auth_current_user(auth) == NULL);
}

static bool is_lower_hex(const char *text, size_t length) {
  if (strlen(text) != length) return false;
  for (size_t i = 0; i < length; i++) {
    if (!strchr("0123456789abcdef", text[i])) return false;
  }
  return true;
}

/* ------------------------------------------------------------------------------------------------
 * Constructors
 * ---------------------------------------------------------------------------------------------- */
typedef struct expected_credential {
  hearth_credential *credential;
  const char *provider, *id_token, *access_token, *secret;
} expected_credential;

TEST(each_identity_provider_credential_carries_its_provider_and_tokens, MODE_NONE) {
  const expected_credential cases[] = {
      {hearth_credential_create_google("g-id", NULL), "google.com", "g-id", "", ""},
      {hearth_credential_create_google(NULL, "g-access"), "google.com", "", "g-access", ""},
      {hearth_credential_create_google("g-id", "g-access"), "google.com", "g-id", "g-access", ""},
      {hearth_credential_create_facebook("fb-access"), "facebook.com", "", "fb-access", ""},
      {hearth_credential_create_facebook_limited_login("fb-id", "raw-nonce"), "facebook.com", "fb-id", "", ""},
      {hearth_credential_create_twitter("tw-token", "tw-secret"), "twitter.com", "", "tw-token", "tw-secret"},
      {hearth_credential_create_github("gh-token"), "github.com", "", "gh-token", ""},
      {hearth_credential_create_play_games("server-auth-code"), "playgames.google.com", "", "", ""},
      {hearth_credential_create_oauth("microsoft.com", "ms-id", "ms-access"), "microsoft.com", "ms-id", "ms-access", ""},
      {hearth_credential_create_oauth("yahoo.com", NULL, "y-access"), "yahoo.com", "", "y-access", ""},
      {hearth_credential_create_oauth_with_nonce("oidc.example", "oidc-id", "raw-nonce", NULL), "oidc.example", "oidc-id", "",
       ""},
      {hearth_credential_create_oauth_with_nonce("apple.com", "apple-id", "raw-nonce", "apple-code"), "apple.com", "apple-id",
       "apple-code", ""},
      {hearth_credential_create_apple("apple-id", "raw-nonce", "apple-code", "Ada", "Lovelace"), "apple.com", "apple-id",
       "apple-code", ""},
      {hearth_credential_create_apple("apple-id", "raw-nonce", NULL, NULL, NULL), "apple.com", "apple-id", "", ""},
      {hearth_credential_create_email("a@example.com", T_PASSWORD), "password", "", "", ""},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const expected_credential *c = &cases[i];
    if (!c->credential) {
      t_fail(__FILE__, __LINE__, "credential %zu (%s) was not created", i, c->provider);
      continue;
    }
    CHECK_INT(hearth_credential_is_valid(c->credential), 1);
    CHECK_STR(hearth_credential_provider(c->credential), c->provider);
    CHECK_STR(hearth_credential_id_token(c->credential), c->id_token);
    CHECK_STR(hearth_credential_access_token(c->credential), c->access_token);
    CHECK_STR(hearth_credential_secret(c->credential), c->secret);
    hearth_credential_release(c->credential);
  }
}

TEST(credential_text_is_copied_during_the_call, MODE_NONE) {
  char token[32], secret[32];
  snprintf(token, sizeof token, "%s", "original-token");
  snprintf(secret, sizeof secret, "%s", "original-secret");
  hearth_credential *credential = kept_credential(hearth_credential_create_twitter(token, secret));
  memset(token, 'x', sizeof token - 1);
  memset(secret, 'y', sizeof secret - 1);
  CHECK_STR(hearth_credential_access_token(credential), "original-token");
  CHECK_STR(hearth_credential_secret(credential), "original-secret");
  hearth_credential_release(credential);
}

TEST(a_retained_identity_provider_credential_outlives_the_original, MODE_NONE) {
  hearth_credential *credential = kept_credential(hearth_credential_create_oauth("microsoft.com", "ms-id", "ms-access"));
  hearth_credential *copy = hearth_credential_retain(credential);
  REQUIRE(copy != NULL);
  hearth_credential_release(credential);
  CHECK_INT(hearth_credential_is_valid(copy), 1);
  CHECK_STR(hearth_credential_provider(copy), "microsoft.com");
  CHECK_STR(hearth_credential_id_token(copy), "ms-id");
  CHECK_STR(hearth_credential_access_token(copy), "ms-access");
  hearth_credential_release(copy);
  CHECK_INT(hearth_credential_is_valid(copy), 0);
  CHECK(hearth_credential_provider(copy) == NULL);
  CHECK(hearth_credential_id_token(copy) == NULL);
  CHECK(hearth_credential_access_token(copy) == NULL);
  CHECK(hearth_credential_secret(copy) == NULL);
  CHECK(hearth_credential_retain(copy) == NULL);
  hearth_credential_release(copy); /* releasing again is harmless */
}

TEST(credential_constructors_return_null_for_a_missing_required_argument, MODE_NONE) {
  CHECK(hearth_credential_create_facebook(NULL) == NULL);
  CHECK(hearth_credential_create_facebook_limited_login(NULL, "raw-nonce") == NULL);
  CHECK(hearth_credential_create_facebook_limited_login("fb-id", NULL) == NULL);
  CHECK(hearth_credential_create_twitter(NULL, "secret") == NULL);
  CHECK(hearth_credential_create_twitter("token", NULL) == NULL);
  CHECK(hearth_credential_create_github(NULL) == NULL);
  CHECK(hearth_credential_create_play_games(NULL) == NULL);
  CHECK(hearth_credential_create_oauth(NULL, "id", "access") == NULL);
  CHECK(hearth_credential_create_oauth_with_nonce(NULL, "id", "raw-nonce", NULL) == NULL);
  CHECK(hearth_credential_create_oauth_with_nonce("apple.com", NULL, "raw-nonce", NULL) == NULL);
  CHECK(hearth_credential_create_oauth_with_nonce("apple.com", "id", NULL, NULL) == NULL);
  CHECK(hearth_credential_create_apple(NULL, "raw-nonce", NULL, NULL, NULL) == NULL);
  CHECK(hearth_credential_create_apple("id", NULL, NULL, NULL, NULL) == NULL);
}

TEST(credential_constructors_return_null_for_invalid_utf8, MODE_NONE) {
  const char *bad = "tok\xff\xfe";
  CHECK(hearth_credential_create_google(bad, NULL) == NULL);
  CHECK(hearth_credential_create_google(NULL, bad) == NULL);
  CHECK(hearth_credential_create_google("id", bad) == NULL);
  CHECK(hearth_credential_create_facebook(bad) == NULL);
  CHECK(hearth_credential_create_facebook_limited_login(bad, "raw-nonce") == NULL);
  CHECK(hearth_credential_create_facebook_limited_login("fb-id", bad) == NULL);
  CHECK(hearth_credential_create_twitter(bad, "secret") == NULL);
  CHECK(hearth_credential_create_twitter("token", bad) == NULL);
  CHECK(hearth_credential_create_github(bad) == NULL);
  CHECK(hearth_credential_create_play_games(bad) == NULL);
  CHECK(hearth_credential_create_oauth(bad, "id", NULL) == NULL);
  CHECK(hearth_credential_create_oauth("microsoft.com", bad, NULL) == NULL);
  CHECK(hearth_credential_create_oauth("microsoft.com", NULL, bad) == NULL);
  CHECK(hearth_credential_create_oauth_with_nonce(bad, "id", "raw-nonce", NULL) == NULL);
  CHECK(hearth_credential_create_oauth_with_nonce("oidc.example", bad, "raw-nonce", NULL) == NULL);
  CHECK(hearth_credential_create_oauth_with_nonce("oidc.example", "id", bad, NULL) == NULL);
  CHECK(hearth_credential_create_oauth_with_nonce("oidc.example", "id", "raw-nonce", bad) == NULL);
  CHECK(hearth_credential_create_apple(bad, "raw-nonce", NULL, NULL, NULL) == NULL);
  CHECK(hearth_credential_create_apple("id", bad, NULL, NULL, NULL) == NULL);
  CHECK(hearth_credential_create_apple("id", "raw-nonce", bad, NULL, NULL) == NULL);
  CHECK(hearth_credential_create_apple("id", "raw-nonce", NULL, bad, NULL) == NULL);
  CHECK(hearth_credential_create_apple("id", "raw-nonce", NULL, NULL, bad) == NULL);
}

/* ------------------------------------------------------------------------------------------------
 * Nonces
 * ---------------------------------------------------------------------------------------------- */
TEST(sha256_hex_matches_the_standard_test_vectors, MODE_NONE) {
  char hex[HEARTH_SHA256_HEX_SIZE];
  CHECK_CODE(hearth_nonce_hash("", hex), 0);
  CHECK_STR(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK_CODE(hearth_nonce_hash("abc", hex), 0);
  CHECK_STR(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK_CODE(hearth_nonce_hash("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", hex), 0);
  CHECK_STR(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  /* 1,000 bytes: several blocks and a padding block of its own. */
  char *long_input = t_alloc(1001);
  memset(long_input, 'a', 1000);
  CHECK_CODE(hearth_nonce_hash(long_input, hex), 0);
  CHECK_STR(hex, "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3");
  /* UTF-8 text is hashed as its bytes. */
  CHECK_CODE(hearth_nonce_hash("\xc3\xa9", hex), 0);
  CHECK_STR(hex, "4a99557e4033c3539de2eb65472017cad5f9557f7a0625a09f1c3f6e2ba69c4c");
}

TEST(sha256_hex_refuses_null_and_invalid_utf8, MODE_NONE) {
  char hex[HEARTH_SHA256_HEX_SIZE];
  CHECK_CODE(hearth_nonce_hash(NULL, hex), HEARTH_ERROR_INVALID_ARGUMENT);
  CHECK_CODE(hearth_nonce_hash("abc", NULL), HEARTH_ERROR_INVALID_ARGUMENT);
  CHECK_CODE(hearth_nonce_hash("abc\xff", hex), HEARTH_ERROR_INVALID_ARGUMENT);
}

TEST(the_nonce_helper_makes_a_fresh_raw_nonce_and_its_sha256, MODE_NONE) {
  char raw[HEARTH_NONCE_SIZE], hex[HEARTH_SHA256_HEX_SIZE], again[HEARTH_SHA256_HEX_SIZE];
  char previous[HEARTH_NONCE_SIZE] = "";
  for (int round = 0; round < 20; round++) {
    memset(raw, '#', sizeof raw);
    memset(hex, '#', sizeof hex);
    REQUIRE_CODE(hearth_nonce_generate(raw, hex), 0);
    REQUIRE(memchr(raw, '\0', sizeof raw) != NULL);
    CHECK_INT(strlen(raw), HEARTH_NONCE_SIZE - 1);
    for (size_t i = 0; i < strlen(raw); i++) {
      if (!strchr("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-._", raw[i]))
        t_fail(__FILE__, __LINE__, "raw nonce character 0x%02x is outside [0-9A-Za-z-._]", (unsigned char)raw[i]);
    }
    CHECK(is_lower_hex(hex, HEARTH_SHA256_HEX_SIZE - 1));
    CHECK_CODE(hearth_nonce_hash(raw, again), 0);
    CHECK_STR(hex, again);
    CHECK(strcmp(raw, previous) != 0);
    snprintf(previous, sizeof previous, "%s", raw);
  }
  CHECK_CODE(hearth_nonce_generate(NULL, hex), HEARTH_ERROR_INVALID_ARGUMENT);
  CHECK_CODE(hearth_nonce_generate(raw, NULL), HEARTH_ERROR_INVALID_ARGUMENT);
}

/* ------------------------------------------------------------------------------------------------
 * Signing in with each provider's credential
 * ---------------------------------------------------------------------------------------------- */
TEST(a_google_id_token_creates_the_user_and_the_result_describes_the_provider, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *sub = t_subject("google");
  const char *email = t_email("google");
  const char *token = t_idp_claims(sub, email, true, "Grace Hopper", ",\"picture\":\"https://example.com/g.png\"");
  hearth_future *first = sign_in_with(auth, hearth_credential_create_google(token, NULL));
  const hearth_auth_result *result = hearth_future_auth_result(first);
  CHECK_INT(hearth_auth_result_is_new_user(result), 1);
  CHECK_STR(hearth_auth_result_provider_id(result), "google.com");
  CHECK(hearth_auth_result_updated_credential(result) == NULL);
  CHECK_STR(hearth_auth_result_email(result), "");
  const json *profile = t_json(hearth_auth_result_profile_json(result));
  CHECK_STR(json_get_string(profile, "id"), sub);
  CHECK_STR(json_get_string(profile, "email"), email);
  CHECK_STR(json_get_string(profile, "name"), "Grace Hopper");

  const hearth_user *user = hearth_auth_result_user(result);
  CHECK_STR(hearth_user_email(user), email);
  CHECK_STR(hearth_user_display_name(user), "Grace Hopper");
  CHECK_STR(hearth_user_photo_url(user), "https://example.com/g.png");
  CHECK_INT(hearth_user_is_email_verified(user), 1);
  CHECK_INT(hearth_user_is_anonymous(user), 0);
  const hearth_user_info *info = t_provider_info(user, "google.com");
  REQUIRE(info != NULL);
  CHECK_STR(hearth_user_info_uid(info), sub);
  CHECK_STR(hearth_user_info_email(info), email);
  CHECK_STR(hearth_user_info_display_name(info), "Grace Hopper");
  CHECK_STR(t_current_uid(auth), hearth_user_uid(user));

  /* The provider's own credential, as the server returned it. */
  const hearth_credential *idp = hearth_auth_result_credential(result);
  REQUIRE(idp != NULL);
  CHECK_INT(hearth_credential_is_valid(idp), 1);
  CHECK_STR(hearth_credential_provider(idp), "google.com");
  CHECK_STR(hearth_credential_id_token(idp), token);

  /* Firebase's view: the ID token says how the user signed in. */
  const json *claims = t_token_claims(t_token(user, 0));
  CHECK_STR(json_get_string(json_get(claims, "firebase"), "sign_in_provider"), "google.com");
  CHECK_STR(json_string(json_at(json_get(json_get(json_get(claims, "firebase"), "identities"), "google.com"), 0)), sub);

  /* The same identity again is the same account, no longer new. */
  const char *uid = t_strdup(hearth_user_uid(user));
  CHECK_CODE(hearth_auth_sign_out(auth), 0);
  hearth_future *again = sign_in_with(auth, hearth_credential_create_google(token, NULL));
  CHECK_STR(result_uid(again), uid);
  CHECK_INT(hearth_auth_result_is_new_user(hearth_future_auth_result(again)), 0);
}

TEST(signing_in_with_a_credential_gives_the_user_without_retrieving_data, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  hearth_credential *credential = hearth_credential_create_google(t_idp_claims(t_subject("plain"), NULL, false, NULL, NULL), NULL);
  hearth_future *f = t_keep_future(hearth_auth_sign_in_with_credential(auth, credential));
  hearth_credential_release(credential);
  t_await_ok(f);
  const hearth_user *user = hearth_future_user(f);
  REQUIRE(user != NULL);
  CHECK_STR(t_current_uid(auth), hearth_user_uid(user));
  CHECK(t_provider_info(user, "google.com") != NULL);
}

TEST(a_google_id_token_may_be_an_unsigned_jwt, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *sub = t_subject("jwt");
  const char *claims = t_idp_claims(sub, t_email("jwt"), true, "Jay Doubleu", NULL);
  hearth_future *json_sign_in = sign_in_with(auth, hearth_credential_create_google(claims, NULL));
  const char *uid = t_strdup(result_uid(json_sign_in));
  CHECK_CODE(hearth_auth_sign_out(auth), 0);
  hearth_future *jwt_sign_in = sign_in_with(auth, hearth_credential_create_google(t_unsigned_jwt(claims), NULL));
  CHECK_STR(result_uid(jwt_sign_in), uid); /* the same identity, however the token is written */
  CHECK_STR(hearth_user_display_name(hearth_auth_result_user(hearth_future_auth_result(jwt_sign_in))), "Jay Doubleu");
}

TEST(a_google_access_token_alone_reaches_the_server, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  /* The emulator reads claims from an access token made of JSON, as from an ID token. */
  const char *sub = t_subject("gat");
  hearth_future *f = sign_in_with(auth, hearth_credential_create_google(NULL, t_idp_claims(sub, NULL, false, NULL, NULL)));
  CHECK_STR(hearth_user_info_uid(t_provider_info(hearth_auth_result_user(hearth_future_auth_result(f)), "google.com")),
            sub);
  CHECK_CODE(hearth_auth_sign_out(auth), 0);
  /* An opaque one it cannot read: like Firebase's emulator it answers 501 and asks for an id_token. */
  hearth_credential *opaque = hearth_credential_create_google(NULL, "ya29.an-opaque-google-access-token");
  hearth_future *refused = t_keep_future(hearth_auth_sign_in_and_retrieve_data_with_credential(auth, opaque));
  hearth_credential_release(opaque);
  CHECK_CODE(t_await(refused), HEARTH_ERROR_FAILURE);
  CHECK_CONTAINS(hearth_future_error_message(refused), "using id_token");
  CHECK(hearth_auth_current_user(auth) == NULL);
}

TEST(a_facebook_access_token_signs_in, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *sub = t_subject("fb");
  const char *token = t_idp_claims(sub, t_email("fb"), true, "Fay Book", NULL);
  hearth_future *f = sign_in_with(auth, hearth_credential_create_facebook(token));
  const hearth_auth_result *result = hearth_future_auth_result(f);
  CHECK_STR(hearth_auth_result_provider_id(result), "facebook.com");
  CHECK_INT(hearth_auth_result_is_new_user(result), 1);
  CHECK_STR(json_get_string(t_json(hearth_auth_result_profile_json(result)), "sub"), sub);
  CHECK_STR(hearth_user_info_uid(t_provider_info(hearth_auth_result_user(result), "facebook.com")), sub);
  const hearth_credential *idp = hearth_auth_result_credential(result);
  REQUIRE(idp != NULL);
  CHECK_STR(hearth_credential_provider(idp), "facebook.com");
  CHECK_STR(hearth_credential_access_token(idp), token);
}

TEST(facebook_limited_login_needs_the_raw_nonce_of_its_token, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  char raw[HEARTH_NONCE_SIZE], hex[HEARTH_SHA256_HEX_SIZE], other_raw[HEARTH_NONCE_SIZE], other_hex[HEARTH_SHA256_HEX_SIZE];
  REQUIRE_CODE(hearth_nonce_generate(raw, hex), 0);
  REQUIRE_CODE(hearth_nonce_generate(other_raw, other_hex), 0);
  const char *sub = t_subject("fbll");
  const char *token = t_idp_claims(sub, t_email("fbll"), true, NULL, t_printf(",\"nonce\":\"%s\"", hex));
  check_refused(auth, hearth_credential_create_facebook_limited_login(token, other_raw), HEARTH_ERROR_INVALID_CREDENTIAL);
  hearth_future *f = sign_in_with(auth, hearth_credential_create_facebook_limited_login(token, raw));
  CHECK_STR(hearth_auth_result_provider_id(hearth_future_auth_result(f)), "facebook.com");
  CHECK_STR(hearth_user_info_uid(t_provider_info(hearth_auth_result_user(hearth_future_auth_result(f)), "facebook.com")),
            sub);
}

TEST(a_twitter_token_and_secret_sign_in_with_the_screen_name, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *sub = t_subject("tw");
  const char *token = t_idp_claims(sub, NULL, false, "Tweety", ",\"screen_name\":\"tweety_bird\"");
  hearth_future *f = sign_in_with(auth, hearth_credential_create_twitter(token, "tw-secret-1"));
  const hearth_auth_result *result = hearth_future_auth_result(f);
  CHECK_STR(hearth_auth_result_provider_id(result), "twitter.com");
  CHECK_STR(hearth_auth_result_user_name(result), "tweety_bird");
  CHECK_STR(hearth_user_display_name(hearth_auth_result_user(result)), "Tweety");
  const hearth_credential *idp = hearth_auth_result_credential(result);
  REQUIRE(idp != NULL);
  CHECK_STR(hearth_credential_provider(idp), "twitter.com");
  CHECK_STR(hearth_credential_access_token(idp), token);
  CHECK_STR(hearth_credential_secret(idp), "tw-secret-1"); /* OAuth 1.0a: the secret comes back with the token */
}

TEST(a_github_token_signs_in_with_the_login_as_user_name, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *sub = t_subject("gh");
  const char *token = t_idp_claims(sub, t_email("gh"), true, "Octo Cat", ",\"screen_name\":\"octocat\"");
  hearth_future *f = sign_in_with(auth, hearth_credential_create_github(token));
  const hearth_auth_result *result = hearth_future_auth_result(f);
  CHECK_STR(hearth_auth_result_provider_id(result), "github.com");
  CHECK_STR(hearth_auth_result_user_name(result), "octocat");
  CHECK_STR(hearth_user_info_uid(t_provider_info(hearth_auth_result_user(result), "github.com")), sub);
  CHECK_STR(hearth_credential_access_token(hearth_auth_result_credential(result)), token);
}

TEST(a_play_games_server_auth_code_reaches_the_server, BOTH_LOOPS) {
  /* The emulator, like Firebase's, has no fake Play Games: the code is sent, and the server's refusal
   * (501, "id_token required") comes back as a failure with its message. */
  hearth_auth *auth = hearth_auth_get(t_app());
  hearth_credential *credential = hearth_credential_create_play_games("4/fake-server-auth-code");
  hearth_future *f = t_keep_future(hearth_auth_sign_in_and_retrieve_data_with_credential(auth, credential));
  hearth_credential_release(credential);
  CHECK_CODE(t_await(f), HEARTH_ERROR_FAILURE);
  CHECK_CONTAINS(hearth_future_error_message(f), "id_token required");
  CHECK(hearth_auth_current_user(auth) == NULL);
}

TEST(a_generic_oauth_credential_signs_in_with_its_provider_id, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *ms_sub = t_subject("ms");
  hearth_future *microsoft = sign_in_with(
      auth, hearth_credential_create_oauth("microsoft.com", t_idp_claims(ms_sub, t_email("ms"), true, "Em Es", NULL), NULL));
  CHECK_STR(hearth_auth_result_provider_id(hearth_future_auth_result(microsoft)), "microsoft.com");
  CHECK_STR(hearth_user_info_uid(t_provider_info(hearth_auth_result_user(hearth_future_auth_result(microsoft)),
                                                 "microsoft.com")),
            ms_sub);
  CHECK_CODE(hearth_auth_sign_out(auth), 0);
  /* Providers other than Google and Apple sign in with an access token alone. */
  const char *yahoo_sub = t_subject("yahoo");
  hearth_future *yahoo =
      sign_in_with(auth, hearth_credential_create_oauth("yahoo.com", NULL, t_idp_claims(yahoo_sub, NULL, false, NULL, NULL)));
  CHECK_STR(hearth_auth_result_provider_id(hearth_future_auth_result(yahoo)), "yahoo.com");
  CHECK_STR(hearth_user_info_uid(t_provider_info(hearth_auth_result_user(hearth_future_auth_result(yahoo)), "yahoo.com")),
            yahoo_sub);
  CHECK(strcmp(result_uid(yahoo), result_uid(microsoft)) != 0);
}

TEST(an_oidc_id_token_with_a_nonce_needs_its_raw_nonce, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  char raw[HEARTH_NONCE_SIZE], hex[HEARTH_SHA256_HEX_SIZE], other_raw[HEARTH_NONCE_SIZE], other_hex[HEARTH_SHA256_HEX_SIZE];
  REQUIRE_CODE(hearth_nonce_generate(raw, hex), 0);
  REQUIRE_CODE(hearth_nonce_generate(other_raw, other_hex), 0);
  const char *sub = t_subject("oidc");
  const char *token = t_idp_claims(sub, t_email("oidc"), true, NULL, t_printf(",\"nonce\":\"%s\"", hex));
  check_refused(auth, hearth_credential_create_oauth_with_nonce("oidc.example-corp", token, other_raw, NULL),
                HEARTH_ERROR_INVALID_CREDENTIAL);
  check_refused(auth, hearth_credential_create_oauth("oidc.example-corp", token, NULL), HEARTH_ERROR_INVALID_CREDENTIAL);
  hearth_future *f = sign_in_with(auth, hearth_credential_create_oauth_with_nonce("oidc.example-corp", token, raw, NULL));
  CHECK_STR(hearth_auth_result_provider_id(hearth_future_auth_result(f)), "oidc.example-corp");
  CHECK_STR(hearth_user_info_uid(t_provider_info(hearth_auth_result_user(hearth_future_auth_result(f)),
                                                 "oidc.example-corp")),
            sub);
}

TEST(sign_in_with_apple_needs_the_raw_nonce_of_its_token, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  char raw[HEARTH_NONCE_SIZE], hex[HEARTH_SHA256_HEX_SIZE], other_raw[HEARTH_NONCE_SIZE], other_hex[HEARTH_SHA256_HEX_SIZE];
  REQUIRE_CODE(hearth_nonce_generate(raw, hex), 0);
  REQUIRE_CODE(hearth_nonce_generate(other_raw, other_hex), 0);
  const char *sub = t_subject("apple");
  const char *email = t_email("apple");
  const char *token = t_idp_claims(sub, email, true, NULL, t_printf(",\"nonce\":\"%s\"", hex));
  check_refused(auth, hearth_credential_create_apple(token, other_raw, NULL, NULL, NULL), HEARTH_ERROR_INVALID_CREDENTIAL);
  /* Apple always binds its token to a nonce: a token without one is refused too. */
  check_refused(auth, hearth_credential_create_apple(t_idp_claims(t_subject("apple"), NULL, false, NULL, NULL), raw, NULL, NULL,
                                              NULL),
                HEARTH_ERROR_INVALID_CREDENTIAL);

  hearth_future *f = sign_in_with(auth, hearth_credential_create_apple(token, raw, "apple-authorization-code", "Ada", "Lovelace"));
  const hearth_auth_result *result = hearth_future_auth_result(f);
  CHECK_STR(hearth_auth_result_provider_id(result), "apple.com");
  CHECK_INT(hearth_auth_result_is_new_user(result), 1);
  CHECK_STR(hearth_user_email(hearth_auth_result_user(result)), email);
  CHECK_STR(hearth_user_info_uid(t_provider_info(hearth_auth_result_user(result), "apple.com")), sub);
  CHECK_STR(hearth_credential_id_token(hearth_auth_result_credential(result)), token);

  /* The C++ SDK's OAuthProvider::GetCredential("apple.com", id_token, raw_nonce, nullptr) is the same. */
  const char *uid = t_strdup(result_uid(f));
  CHECK_CODE(hearth_auth_sign_out(auth), 0);
  hearth_future *again = sign_in_with(auth, hearth_credential_create_oauth_with_nonce("apple.com", token, raw, NULL));
  CHECK_STR(result_uid(again), uid);
  CHECK_INT(hearth_auth_result_is_new_user(hearth_future_auth_result(again)), 0);
}

TEST(empty_tokens_are_refused_with_invalid_credential, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *token = t_idp_claims(t_subject("empty"), NULL, false, NULL, NULL);
  check_refused(auth, hearth_credential_create_google("", ""), HEARTH_ERROR_INVALID_CREDENTIAL);
  check_refused(auth, hearth_credential_create_google(NULL, NULL), HEARTH_ERROR_INVALID_CREDENTIAL);
  check_refused(auth, hearth_credential_create_facebook(""), HEARTH_ERROR_INVALID_CREDENTIAL);
  check_refused(auth, hearth_credential_create_facebook_limited_login("", "raw-nonce"), HEARTH_ERROR_INVALID_CREDENTIAL);
  check_refused(auth, hearth_credential_create_facebook_limited_login(token, ""), HEARTH_ERROR_INVALID_CREDENTIAL);
  check_refused(auth, hearth_credential_create_twitter("", "secret"), HEARTH_ERROR_INVALID_CREDENTIAL);
  check_refused(auth, hearth_credential_create_twitter(token, ""), HEARTH_ERROR_INVALID_CREDENTIAL);
  check_refused(auth, hearth_credential_create_github(""), HEARTH_ERROR_INVALID_CREDENTIAL);
  check_refused(auth, hearth_credential_create_play_games(""), HEARTH_ERROR_INVALID_CREDENTIAL);
  check_refused(auth, hearth_credential_create_oauth("microsoft.com", NULL, NULL), HEARTH_ERROR_INVALID_CREDENTIAL);
  check_refused(auth, hearth_credential_create_apple("", "raw-nonce", NULL, NULL, NULL), HEARTH_ERROR_INVALID_CREDENTIAL);
  check_refused(auth, hearth_credential_create_apple(token, "", NULL, NULL, NULL), HEARTH_ERROR_INVALID_CREDENTIAL);
}

TEST(a_generic_credential_for_a_sign_in_method_that_is_no_identity_provider_is_refused, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *token = t_idp_claims(t_subject("nonidp"), NULL, false, NULL, NULL);
  check_refused(auth, hearth_credential_create_oauth("password", token, NULL), HEARTH_ERROR_INVALID_PROVIDER_ID);
  check_refused(auth, hearth_credential_create_oauth("phone", token, NULL), HEARTH_ERROR_INVALID_PROVIDER_ID);
  check_refused(auth, hearth_credential_create_oauth("", token, NULL), HEARTH_ERROR_INVALID_PROVIDER_ID);
  check_refused(auth, hearth_credential_create_oauth("has space.com", token, NULL), HEARTH_ERROR_INVALID_PROVIDER_ID);
}

TEST(a_token_the_provider_never_issued_is_refused_with_invalid_credential, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  check_refused(auth, hearth_credential_create_google("{not json", NULL), HEARTH_ERROR_INVALID_CREDENTIAL);
  check_refused(auth, hearth_credential_create_google("{\"email\":\"no-subject@example.com\"}", NULL),
                HEARTH_ERROR_INVALID_CREDENTIAL);
  check_refused(auth, hearth_credential_create_facebook("{\"sub\":"), HEARTH_ERROR_INVALID_CREDENTIAL);
}

TEST(tokens_with_form_characters_reach_the_provider_intact, BOTH_LOOPS) {
  /* '&', '=', '+', '%' and spaces in a token must not change the signInWithIdp postBody's meaning. */
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *sub = t_subject("a&b=c+d%20e f");
  hearth_future *f =
      sign_in_with(auth, hearth_credential_create_twitter(t_idp_claims(sub, NULL, false, "R&D = 100%", NULL), "s&e=c+r%t"));
  const hearth_auth_result *result = hearth_future_auth_result(f);
  CHECK_STR(hearth_user_info_uid(t_provider_info(hearth_auth_result_user(result), "twitter.com")), sub);
  CHECK_STR(hearth_user_display_name(hearth_auth_result_user(result)), "R&D = 100%");
  CHECK_STR(hearth_credential_secret(hearth_auth_result_credential(result)), "s&e=c+r%t");
}

/* ------------------------------------------------------------------------------------------------
 * The provider's credential in an auth result is borrowed
 * ---------------------------------------------------------------------------------------------- */
TEST(the_credential_in_an_auth_result_is_borrowed_and_releasing_it_changes_nothing, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *token = t_idp_claims(t_subject("borrowed"), t_email("borrowed"), true, NULL, NULL);
  hearth_credential *credential = hearth_credential_create_google(token, NULL);
  hearth_future *f = hearth_auth_sign_in_and_retrieve_data_with_credential(auth, credential);
  hearth_credential_release(credential);
  t_await_ok(f);
  const char *uid = t_strdup(hearth_user_uid(hearth_future_user(f)));
  const hearth_credential *borrowed = hearth_auth_result_credential(hearth_future_auth_result(f));
  REQUIRE(borrowed != NULL);

  hearth_credential_release((hearth_credential *)borrowed); /* a no-op: the result owns it */
  hearth_credential_release((hearth_credential *)borrowed);
  CHECK_INT(hearth_credential_is_valid(borrowed), 1);
  CHECK_STR(hearth_credential_provider(borrowed), "google.com");
  CHECK_STR(hearth_credential_id_token(borrowed), token);
  CHECK(hearth_auth_result_credential(hearth_future_auth_result(f)) == borrowed);

  /* A retained copy is the caller's, and outlives the future. */
  hearth_credential *own = hearth_credential_retain(borrowed);
  REQUIRE(own != NULL);
  hearth_future_release(f);
  CHECK_INT(hearth_credential_is_valid(borrowed), 0); /* gone with the future that lent it */
  CHECK(hearth_credential_provider(borrowed) == NULL);
  CHECK_INT(hearth_credential_is_valid(own), 1);
  CHECK_STR(hearth_credential_id_token(own), token);

  /* The server's credential signs in to the same account. */
  CHECK_CODE(hearth_auth_sign_out(auth), 0);
  hearth_future *again = sign_in_with(auth, own);
  CHECK_STR(result_uid(again), uid);
}
