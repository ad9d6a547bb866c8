/* test_tenants.c — Identity Platform tenants: an Auth with a tenant id signs users in to that tenant, a
 * user belongs to one tenant, each tenant's settings hold, and a saved session keeps its tenant. The
 * emulator's tenant routes are the witness: accounts are looked up in the tenant's own scope. */
#include "test.h"

#include <sys/stat.h>

/* ------------------------------------------------------------------------------------------------
 * The emulator's tenants
 * ---------------------------------------------------------------------------------------------- */
#define ALL_ON                                                                                        \
  "\"allowPasswordSignup\":true,\"enableEmailLinkSignin\":true,\"enableAnonymousUser\":true,"         \
  "\"mfaConfig\":{\"state\":\"ENABLED\",\"enabledProviders\":[\"PHONE_SMS\"]}"

/* A new tenant with these settings (JSON members, may be ""); its id. */
static const char *new_tenant(const char *settings) {
  const char *path = t_printf("/identitytoolkit.googleapis.com/v2/projects/%s/tenants", t_project());
  int status = 0;
  char *body = emu_request("POST", path, t_printf("{%s}", settings), true, &status);
  t_own(body);
  REQUIRE_INT(status, 200);
  const char *tenant_id = json_get_string(t_json(body), "tenantId");
  REQUIRE(tenant_id != NULL && *tenant_id);
  return t_strdup(tenant_id);
}

/* POST `body` to an admin route of the project (tenant_id NULL) or of one tenant; the parsed answer. */
static const json *admin_post(const char *tenant_id, const char *method, const char *body, int expected_status) {
  const char *scope = tenant_id ? t_printf("/tenants/%s", tenant_id) : "";
  const char *path = t_printf("/identitytoolkit.googleapis.com/v1/projects/%s%s/accounts%s", t_project(), scope, method);
  int status = 0;
  char *answer = emu_request("POST", path, body, true, &status);
  t_own(answer);
  REQUIRE(answer != NULL);
  CHECK_INT(status, expected_status);
  return t_json(answer);
}

/* The account `uid` as the emulator keeps it in the tenant's scope (NULL: the project's), or NULL. */
static const json *account_in(const char *tenant_id, const char *uid) {
  return json_at(json_get(admin_post(tenant_id, ":lookup", t_printf("{\"localId\":[\"%s\"]}", uid), 200), "users"), 0);
}

/* The emulator's listing (oobCodes, verificationCodes) of one tenant. */
static const json *tenant_listing(const char *tenant_id, const char *what) {
  const char *path = t_printf("/emulator/v1/projects/%s/tenants/%s/%s", t_project(), tenant_id, what);
  int status = 0;
  char *answer = emu_request("GET", path, NULL, false, &status);
  t_own(answer);
  REQUIRE_INT(status, 200);
  return json_get(t_json(answer), what);
}

static hearth_auth *tenant_auth(const char *tenant_id) {
  hearth_auth *auth = hearth_auth_get(t_app());
  REQUIRE_CODE(hearth_auth_set_tenant_id(auth, tenant_id), 0);
  return auth;
}

/* The Auth's tenant id as a test-owned string; NULL when none. */
static const char *auth_tenant(hearth_auth *auth) {
  char *tenant = hearth_auth_tenant_id(auth);
  return tenant ? t_own(tenant) : NULL;
}

static const char *token_tenant(const hearth_user *user) {
  return json_get_string(json_get(t_token_claims(t_token(user, 0)), "firebase"), "tenant");
}

/* ------------------------------------------------------------------------------------------------
 * Signing in to a tenant
 * ---------------------------------------------------------------------------------------------- */
TEST(a_user_created_in_a_tenant_belongs_to_it_and_to_no_other_scope, BOTH_LOOPS) {
  const char *tenant_id = new_tenant(ALL_ON);
  hearth_auth *auth = tenant_auth(tenant_id);
  CHECK_STR(auth_tenant(auth), tenant_id);
  const char *email = t_email("tenant-created");
  hearth_future *f = t_keep_future(hearth_auth_create_user_with_email_and_password(auth, email, T_PASSWORD));
  t_await_ok(f);
  const hearth_user *user = hearth_auth_result_user(hearth_future_auth_result(f));
  REQUIRE(user != NULL);
  const char *uid = t_strdup(hearth_user_uid(user));
  CHECK_STR(hearth_user_tenant_id(user), tenant_id);
  CHECK_STR(hearth_user_tenant_id(t_current_user(auth)), tenant_id);
  CHECK_STR(token_tenant(user), tenant_id);

  const json *record = account_in(tenant_id, uid);
  REQUIRE(record != NULL);
  CHECK_STR(json_get_string(record, "email"), email);
  CHECK_STR(json_get_string(record, "tenantId"), tenant_id);
  CHECK(account_in(NULL, uid) == NULL);                    /* not one of the project's own users */
  CHECK(account_in(new_tenant(ALL_ON), uid) == NULL);      /* nor of another tenant */

  /* Signing in again finds it in the tenant; the project has no such email. */
  CHECK_CODE(hearth_auth_sign_out(auth), 0);
  t_await_ok(t_keep_future(hearth_auth_sign_in_with_email_and_password(auth, email, T_PASSWORD)));
  CHECK_STR(t_current_uid(auth), uid);
  CHECK_CODE(hearth_auth_sign_out(auth), 0);
  CHECK_CODE(hearth_auth_set_tenant_id(auth, NULL), 0);
  CHECK(auth_tenant(auth) == NULL);
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_sign_in_with_email_and_password(auth, email, T_PASSWORD)),
                   HEARTH_ERROR_USER_NOT_FOUND);
}

TEST(the_same_email_makes_a_different_user_in_each_tenant_and_in_the_project, BOTH_LOOPS) {
  const char *email = t_email("tenant-same-email");
  const char *tenants[2] = {new_tenant(ALL_ON), new_tenant(ALL_ON)};
  const char *uids[3];
  for (int i = 0; i < 3; i++) {
    hearth_auth *auth = hearth_auth_get(t_app());
    if (i < 2) REQUIRE_CODE(hearth_auth_set_tenant_id(auth, tenants[i]), 0);
    hearth_user *user = t_create_user(auth, email, T_PASSWORD);
    uids[i] = t_strdup(hearth_user_uid(user));
    CHECK_STR(hearth_user_tenant_id(user), i < 2 ? tenants[i] : "");
    if (i == 2) CHECK(token_tenant(user) == NULL);
  }
  CHECK(strcmp(uids[0], uids[1]) != 0 && strcmp(uids[0], uids[2]) != 0 && strcmp(uids[1], uids[2]) != 0);
}

TEST(anonymous_custom_token_and_identity_provider_sign_ins_land_in_the_tenant, BOTH_LOOPS) {
  const char *tenant_id = new_tenant(ALL_ON);
  hearth_auth *auth = tenant_auth(tenant_id);

  hearth_user *anonymous = t_sign_in_anonymously(auth);
  CHECK(hearth_user_is_anonymous(anonymous) == 1);
  CHECK_STR(hearth_user_tenant_id(anonymous), tenant_id);
  CHECK(account_in(tenant_id, hearth_user_uid(anonymous)) != NULL);
  CHECK_CODE(hearth_auth_sign_out(auth), 0);

  /* A custom token for a tenant names it (tenant_id), as the Admin SDKs' tenant-aware createCustomToken do. */
  const char *claims = t_printf("{\"aud\":\"https://identitytoolkit.googleapis.com/google.identity.identitytoolkit."
                                "v1.IdentityToolkit\",\"uid\":\"%s\",\"tenant_id\":\"%s\"}",
                                t_subject("custom-tenant"), tenant_id);
  hearth_future *custom = t_keep_future(hearth_auth_sign_in_with_custom_token(auth, t_unsigned_jwt(claims)));
  t_await_ok(custom);
  CHECK_STR(hearth_user_tenant_id(hearth_future_user(custom)), tenant_id);
  CHECK_CODE(hearth_auth_sign_out(auth), 0);
  /* One minted for the project is refused by the tenant. */
  const char *project_claims = t_printf("{\"aud\":\"https://identitytoolkit.googleapis.com/google.identity."
                                        "identitytoolkit.v1.IdentityToolkit\",\"uid\":\"%s\"}", t_subject("custom"));
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_sign_in_with_custom_token(auth, t_unsigned_jwt(project_claims))),
                   HEARTH_ERROR_TENANT_ID_MISMATCH);

  hearth_credential *google = t_keep_credential(hearth_credential_create_google(
      t_idp_claims(t_subject("google-tenant"), t_email("google-tenant"), true, "In Tenant", NULL), NULL));
  hearth_future *idp = t_keep_future(hearth_auth_sign_in_and_retrieve_data_with_credential(auth, google));
  t_await_ok(idp);
  const hearth_user *idp_user = hearth_auth_result_user(hearth_future_auth_result(idp));
  REQUIRE(idp_user != NULL);
  CHECK_STR(hearth_user_tenant_id(idp_user), tenant_id);
  CHECK(account_in(tenant_id, hearth_user_uid(idp_user)) != NULL);
  CHECK(account_in(NULL, hearth_user_uid(idp_user)) == NULL);
}

TEST(email_actions_and_provider_lookups_act_in_the_tenant, BOTH_LOOPS) {
  const char *tenant_id = new_tenant(ALL_ON);
  hearth_auth *auth = tenant_auth(tenant_id);
  const char *email = t_email("tenant-actions");
  t_create_user(auth, email, T_PASSWORD);
  CHECK_CODE(hearth_auth_sign_out(auth), 0);

  hearth_future *providers = t_keep_future(hearth_auth_fetch_providers_for_email(auth, email));
  t_await_ok(providers);
  REQUIRE_INT(hearth_future_string_count(providers), 1);
  CHECK_STR(hearth_future_string_at(providers, 0), "password");

  t_await_ok(t_keep_future(hearth_auth_send_password_reset_email(auth, email, NULL)));
  const json *codes = tenant_listing(tenant_id, "oobCodes");
  bool found = false;
  for (size_t i = 0; i < json_count(codes); i++) {
    const json *code = json_at(codes, i);
    if (t_str_eq(json_get_string(code, "email"), email) &&
        t_str_eq(json_get_string(code, "requestType"), "PASSWORD_RESET")) {
      found = true;
      CHECK_STR(t_url_param(json_get_string(code, "oobLink"), "tenantId"), tenant_id);
    }
  }
  CHECK(found);
  CHECK(emu_oob_code(email, "PASSWORD_RESET") == NULL); /* the project's own codes have none */

  /* Without the tenant the address is unknown: the project has no such user. */
  CHECK_CODE(hearth_auth_set_tenant_id(auth, NULL), 0);
  hearth_future *elsewhere = t_keep_future(hearth_auth_fetch_providers_for_email(auth, email));
  t_await_ok(elsewhere);
  CHECK_INT(hearth_future_string_count(elsewhere), 0);
}

TEST(a_second_factor_sign_in_in_a_tenant_names_the_tenant_at_every_step, BOTH_LOOPS) {
  const char *tenant_id = new_tenant(ALL_ON);
  const char *email = t_email("tenant-mfa");
  const char *number = t_phone_number();
  const json *created = admin_post(
      tenant_id, "",
      t_printf("{\"email\":\"%s\",\"password\":\"%s\",\"emailVerified\":true,\"mfaInfo\":[{\"phoneInfo\":\"%s\"}]}",
               email, T_PASSWORD, number),
      200);
  const char *uid = t_strdup(json_get_string(created, "localId"));
  hearth_auth *auth = tenant_auth(tenant_id);

  hearth_future *first = t_keep_future(hearth_auth_sign_in_with_email_and_password(auth, email, T_PASSWORD));
  CHECK_FAILS_WITH(first, HEARTH_ERROR_SECOND_FACTOR_REQUIRED);
  const hearth_multi_factor_resolver *resolver = hearth_future_multi_factor_resolver(first);
  REQUIRE(resolver != NULL);
  REQUIRE_INT(hearth_multi_factor_resolver_hint_count(resolver), 1);
  hearth_phone_auth_options options;
  hearth_phone_auth_options_init(&options);
  options.multi_factor_session = hearth_multi_factor_resolver_session(resolver);
  options.multi_factor_hint = hearth_multi_factor_resolver_hint_at(resolver, 0);
  hearth_future *sent = t_verify_phone(auth, &options);
  t_await_ok(sent);
  const char *verification_id = t_strdup(hearth_future_string(sent));
  REQUIRE(verification_id != NULL);

  /* The code was sent in the tenant: it is listed there. */
  const char *code = NULL;
  const json *codes = tenant_listing(tenant_id, "verificationCodes");
  for (size_t i = 0; i < json_count(codes); i++) {
    if (t_str_eq(json_get_string(json_at(codes, i), "sessionInfo"), verification_id)) {
      code = json_get_string(json_at(codes, i), "code");
    }
  }
  REQUIRE(code != NULL);
  hearth_multi_factor_assertion *assertion = t_keep_assertion(hearth_multi_factor_assertion_create_phone(
      t_keep_credential(hearth_credential_create_phone(verification_id, code))));
  REQUIRE(assertion != NULL);
  hearth_future *resolved = t_keep_future(hearth_multi_factor_resolver_resolve_sign_in(resolver, assertion));
  t_await_ok(resolved);
  const hearth_user *user = hearth_auth_result_user(hearth_future_auth_result(resolved));
  REQUIRE(user != NULL);
  CHECK_STR(hearth_user_uid(user), uid);
  CHECK_STR(hearth_user_tenant_id(user), tenant_id);
  const json *firebase = json_get(t_token_claims(t_token(user, 0)), "firebase");
  CHECK_STR(json_get_string(firebase, "tenant"), tenant_id);
  CHECK_STR(json_get_string(firebase, "sign_in_second_factor"), "phone");
}

/* The newest code of `type` mailed to `email` in the tenant, as its oobCodes listing shows it. */
static const json *tenant_mail(const char *tenant_id, const char *email, const char *type) {
  const json *codes = tenant_listing(tenant_id, "oobCodes");
  const json *found = NULL;
  for (size_t i = 0; i < json_count(codes); i++) {
    const json *code = json_at(codes, i);
    if (t_str_eq(json_get_string(code, "email"), email) && t_str_eq(json_get_string(code, "requestType"), type))
      found = code;
  }
  REQUIRE(found != NULL);
  return found;
}

TEST(a_sign_in_link_of_a_tenant_signs_in_to_it_and_another_tenants_auth_refuses_it, BOTH_LOOPS) {
  const char *tenant_id = new_tenant(ALL_ON);
  hearth_auth *auth = tenant_auth(tenant_id);
  const char *email = t_email("tenant-link");
  hearth_action_code_settings settings;
  hearth_action_code_settings_init(&settings);
  settings.url = "com.example.hearth-tenants:/finishSignIn";
  settings.handle_code_in_app = 1;
  t_await_ok(t_keep_future(hearth_auth_send_sign_in_link_to_email(auth, email, &settings)));
  const char *link = t_strdup(json_get_string(tenant_mail(tenant_id, email, "EMAIL_SIGNIN"), "oobLink"));
  CHECK_STR(t_url_param(link, "tenantId"), tenant_id); /* the link names its tenant */
  CHECK(emu_oob_code(email, "EMAIL_SIGNIN") == NULL);  /* nothing was mailed in the project */

  /* An Auth of another tenant (or of none) refuses the link before any request: it stays unused. */
  hearth_auth *other = tenant_auth(new_tenant(ALL_ON));
  hearth_future *refused = t_keep_future(hearth_auth_sign_in_with_email_link(other, email, link));
  CHECK_FAILS_WITH(refused, HEARTH_ERROR_TENANT_ID_MISMATCH);
  CHECK_CONTAINS(hearth_future_error_message(refused), tenant_id);
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_sign_in_with_email_link(hearth_auth_get(t_app()), email, link)),
                   HEARTH_ERROR_TENANT_ID_MISMATCH);

  hearth_future *f = t_keep_future(hearth_auth_sign_in_with_email_link(auth, email, link));
  t_await_ok(f);
  const hearth_user *user = hearth_auth_result_user(hearth_future_auth_result(f));
  REQUIRE(user != NULL);
  CHECK_STR(hearth_user_tenant_id(user), tenant_id);
  CHECK_STR(hearth_user_email(user), email);
  CHECK(account_in(tenant_id, hearth_user_uid(user)) != NULL);
}

TEST(password_reset_and_email_verification_codes_of_a_tenant_are_used_in_it, BOTH_LOOPS) {
  const char *tenant_id = new_tenant(ALL_ON);
  hearth_auth *auth = tenant_auth(tenant_id);
  const char *email = t_email("tenant-codes");
  hearth_user *user = t_create_user(auth, email, T_PASSWORD);
  const char *uid = t_strdup(hearth_user_uid(user));

  t_await_ok(t_keep_future(hearth_user_send_email_verification(user, NULL)));
  const char *verify = t_strdup(json_get_string(tenant_mail(tenant_id, email, "VERIFY_EMAIL"), "oobCode"));
  t_await_ok(t_keep_future(hearth_auth_apply_action_code(auth, verify)));
  CHECK(json_bool(json_get(account_in(tenant_id, uid), "emailVerified")));

  CHECK_CODE(hearth_auth_sign_out(auth), 0);
  t_await_ok(t_keep_future(hearth_auth_send_password_reset_email(auth, email, NULL)));
  const char *reset = t_strdup(json_get_string(tenant_mail(tenant_id, email, "PASSWORD_RESET"), "oobCode"));
  hearth_future *checked = t_keep_future(hearth_auth_verify_password_reset_code(auth, reset));
  t_await_ok(checked);
  CHECK_STR(hearth_future_string(checked), email);
  t_await_ok(t_keep_future(hearth_auth_confirm_password_reset(auth, reset, "new-tenant-password-2")));
  t_await_ok(t_keep_future(hearth_auth_sign_in_with_email_and_password(auth, email, "new-tenant-password-2")));
  CHECK_STR(t_current_uid(auth), uid);
}

/* ------------------------------------------------------------------------------------------------
 * One user, one tenant
 * ---------------------------------------------------------------------------------------------- */
TEST(after_the_tenant_changes_the_users_requests_naming_the_new_tenant_fail_with_tenant_id_mismatch, BOTH_LOOPS) {
  const char *tenant_a = new_tenant(ALL_ON);
  hearth_auth *auth = tenant_auth(tenant_a);
  hearth_user *user = t_create_user(auth, t_email("tenant-a-user"), T_PASSWORD);
  const char *uid = t_strdup(hearth_user_uid(user));
  REQUIRE_CODE(hearth_auth_set_tenant_id(auth, new_tenant(ALL_ON)), 0);
  CHECK_STR(t_current_uid(auth), uid); /* changing the tenant signs nobody out */

  hearth_credential *google = t_keep_credential(
      hearth_credential_create_google(t_idp_claims(t_subject("tenant-b-link"), NULL, false, NULL, NULL), NULL));
  CHECK_FAILS_WITH(t_keep_future(hearth_user_link_with_credential(user, google)), HEARTH_ERROR_TENANT_ID_MISMATCH);
  CHECK_FAILS_WITH(t_keep_future(hearth_user_send_email_verification(user, NULL)), HEARTH_ERROR_TENANT_ID_MISMATCH);
  CHECK_STR(t_current_uid(auth), uid);
  CHECK_STR(hearth_user_tenant_id(t_current_user(auth)), tenant_a);
  /* Requests that name no tenant act in the user's own (its ID token says which), as Firebase's clients
   * send them. */
  hearth_future *renamed = t_keep_future(hearth_user_update_user_profile(user, "Still In A", NULL));
  t_await_ok(renamed);
  CHECK_STR(json_get_string(account_in(tenant_a, uid), "displayName"), "Still In A");
  /* Back on its tenant, the same link works. */
  REQUIRE_CODE(hearth_auth_set_tenant_id(auth, tenant_a), 0);
  t_await_ok(t_keep_future(hearth_user_link_with_credential(user, google)));
  CHECK_STR(t_provider_ids(t_current_user(auth)), "google.com,password");
}

TEST(update_current_user_takes_over_a_user_of_its_own_tenant_only, BOTH_LOOPS) {
  const char *tenant_a = new_tenant(ALL_ON);
  hearth_auth *source = tenant_auth(tenant_a);
  hearth_user *user = t_create_user(source, t_email("tenant-taken-over"), T_PASSWORD);
  const char *uid = t_strdup(hearth_user_uid(user));

  /* An Auth of another tenant, and one of the project's own users, refuse it and keep their user. */
  hearth_auth *other = tenant_auth(new_tenant(ALL_ON));
  hearth_user *kept = t_sign_in_anonymously(other);
  hearth_future *refused = t_keep_future(hearth_auth_update_current_user(other, user));
  CHECK_FAILS_WITH(refused, HEARTH_ERROR_TENANT_ID_MISMATCH);
  CHECK_CONTAINS(hearth_future_error_message(refused), tenant_a);
  CHECK_STR(t_current_uid(other), hearth_user_uid(kept));
  hearth_auth *project = hearth_auth_get(t_app());
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_update_current_user(project, user)), HEARTH_ERROR_TENANT_ID_MISMATCH);
  CHECK(hearth_auth_current_user(project) == NULL);

  /* The same tenant takes it: the user, its tenant and a working session. */
  hearth_auth *same = tenant_auth(tenant_a);
  hearth_future *taken = t_keep_future(hearth_auth_update_current_user(same, user));
  t_await_ok(taken);
  hearth_future *last = t_keep_future(hearth_auth_last_result(same, HEARTH_OP_AUTH_UPDATE_CURRENT_USER));
  CHECK(last != NULL && hearth_future_status(last) == HEARTH_FUTURE_COMPLETE);
  hearth_user *current = t_current_user(same);
  CHECK_STR(hearth_user_uid(current), uid);
  CHECK_STR(hearth_user_tenant_id(current), tenant_a);
  CHECK_STR(json_get_string(t_token_claims(t_token(current, 1)), "user_id"), uid);
  CHECK_STR(t_current_uid(source), uid); /* the first Auth keeps it */
  /* Its own current user again: nothing changes. */
  t_await_ok(t_keep_future(hearth_auth_update_current_user(same, current)));
  CHECK_STR(t_current_uid(same), uid);
}

TEST(update_current_user_refuses_another_api_key_a_signed_out_user_and_bad_handles, BOTH_LOOPS) {
  hearth_auth *source = hearth_auth_get(t_app());
  hearth_user *user = t_sign_in_anonymously(source);

  hearth_app_options options;
  t_options(&options);
  options.api_key = "another-api-key";
  hearth_auth *foreign = hearth_auth_get(t_app_create(&options));
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_update_current_user(foreign, user)), HEARTH_ERROR_INVALID_USER_TOKEN);
  CHECK(hearth_auth_current_user(foreign) == NULL);

  hearth_auth *target = hearth_auth_get(t_app());
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_update_current_user(target, NULL)), HEARTH_ERROR_INVALID_ARGUMENT);
  hearth_user *released = hearth_user_retain(user);
  hearth_user_release(released);
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_update_current_user(target, released)), HEARTH_ERROR_INVALID_HANDLE);
  CHECK_CODE(hearth_auth_sign_out(source), 0);
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_update_current_user(target, user)), HEARTH_ERROR_NO_SIGNED_IN_USER);
  CHECK(hearth_auth_current_user(target) == NULL);
  CHECK(hearth_auth_update_current_user(NULL, user) == NULL);
  CHECK_CODE(hearth_last_error_code(), HEARTH_ERROR_INVALID_HANDLE);
}

/* ------------------------------------------------------------------------------------------------
 * Each tenant's settings
 * ---------------------------------------------------------------------------------------------- */
TEST(sign_in_methods_a_tenant_turned_off_fail_with_the_servers_error, BOTH_LOOPS) {
  hearth_auth *no_anonymous = tenant_auth(new_tenant("\"allowPasswordSignup\":true"));
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_sign_in_anonymously(no_anonymous)),
                   HEARTH_ERROR_ADMIN_RESTRICTED_OPERATION);
  t_create_user(no_anonymous, t_email("tenant-password-on"), T_PASSWORD); /* what it allows works */

  const char *no_password_tenant = new_tenant("\"enableAnonymousUser\":true");
  hearth_auth *no_password = tenant_auth(no_password_tenant);
  const char *email = t_email("tenant-password-off");
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_create_user_with_email_and_password(no_password, email, T_PASSWORD)),
                   HEARTH_ERROR_OPERATION_NOT_ALLOWED);
  admin_post(no_password_tenant, "", t_printf("{\"email\":\"%s\",\"password\":\"%s\"}", email, T_PASSWORD), 200);
  CHECK_FAILS_WITH(t_keep_future(hearth_auth_sign_in_with_email_and_password(no_password, email, T_PASSWORD)),
                   HEARTH_ERROR_OPERATION_NOT_ALLOWED);
  CHECK(hearth_auth_current_user(no_password) == NULL);
  t_sign_in_anonymously(no_password);

  /* Tenants offer no phone-number sign-in. */
  hearth_phone_auth_options options;
  hearth_phone_auth_options_init(&options);
  options.phone_number = t_phone_number();
  CHECK_FAILS_WITH(t_verify_phone(tenant_auth(new_tenant(ALL_ON)), &options),
                   HEARTH_ERROR_UNSUPPORTED_TENANT_OPERATION);
}

/* ------------------------------------------------------------------------------------------------
 * Saved sessions
 * ---------------------------------------------------------------------------------------------- */
static hearth_app *saved_app(const char *dir) {
  hearth_app_options options;
  t_options(&options);
  options.persistence = HEARTH_PERSISTENCE_FILE;
  options.persistence_dir = dir;
  options.app_name = "tenant-game";
  return t_app_create(&options);
}

TEST(a_saved_session_restores_its_user_with_its_tenant, BOTH_LOOPS) {
  const char *dir = t_temp_dir();
  const char *tenant_id = new_tenant(ALL_ON);
  hearth_app *first = saved_app(dir);
  REQUIRE_CODE(hearth_auth_set_tenant_id(hearth_auth_get(first), tenant_id), 0);
  const char *uid = t_strdup(hearth_user_uid(t_create_user(hearth_auth_get(first), t_email("tenant-saved"), T_PASSWORD)));
  const char **files = t_files_in(dir);
  REQUIRE_EVENTUALLY((files = t_files_in(dir))[0] != NULL);
  struct stat st;
  REQUIRE(stat(files[0], &st) == 0);
  CHECK_INT(st.st_mode & 0777, 0600);
  const char *saved = t_read_file(files[0], NULL);
  REQUIRE(saved != NULL);
  const json *document = t_json(saved);
  CHECK_INT(json_number(json_get(document, "format")), 2); /* a tenant's session: the format that has tenants */
  CHECK_STR(json_get_string(json_get(document, "user"), "tenantId"), tenant_id);
  t_app_destroy(first);

  /* The next run, before any loop turn: the user, its tenant, and the Auth's tenant. */
  hearth_app *second = saved_app(dir);
  hearth_auth *auth = hearth_auth_get(second);
  hearth_user *restored = t_current_user(auth);
  CHECK_STR(hearth_user_uid(restored), uid);
  CHECK_STR(hearth_user_tenant_id(restored), tenant_id);
  CHECK_STR(auth_tenant(auth), tenant_id);
  /* Its refresh token works in the tenant, and new sign-ins go there too. */
  CHECK_STR(json_get_string(json_get(t_token_claims(t_token(restored, 1)), "firebase"), "tenant"), tenant_id);
  t_await_ok(t_keep_future(hearth_user_reload(restored)));
  CHECK_CODE(hearth_auth_sign_out(auth), 0);
  CHECK_STR(auth_tenant(auth), tenant_id); /* signing out keeps the tenant */
  CHECK(account_in(tenant_id, hearth_user_uid(t_sign_in_anonymously(auth))) != NULL);
}

TEST(a_saved_session_of_the_projects_own_user_keeps_the_first_format_and_no_tenant, BOTH_LOOPS) {
  const char *dir = t_temp_dir();
  hearth_app *first = saved_app(dir);
  const char *uid = t_strdup(hearth_user_uid(t_sign_in_anonymously(hearth_auth_get(first))));
  const char **files = t_files_in(dir);
  REQUIRE_EVENTUALLY((files = t_files_in(dir))[0] != NULL);
  const json *document = t_json(t_read_file(files[0], NULL));
  CHECK_INT(json_number(json_get(document, "format")), 1); /* what builds before tenants read */
  CHECK(json_get(json_get(document, "user"), "tenantId") == NULL);
  t_app_destroy(first);
  hearth_auth *auth = hearth_auth_get(saved_app(dir));
  CHECK_STR(t_current_uid(auth), uid);
  CHECK_STR(hearth_user_tenant_id(t_current_user(auth)), "");
  CHECK(auth_tenant(auth) == NULL);
}

/* ------------------------------------------------------------------------------------------------
 * Arguments
 * ---------------------------------------------------------------------------------------------- */
TEST(the_tenant_id_is_copied_and_empty_invalid_utf8_and_bad_handles_are_refused, MODE_NONE) {
  hearth_auth *auth = hearth_auth_get(t_app());
  CHECK(hearth_auth_tenant_id(auth) == NULL); /* the default: the project's own users */
  char tenant[] = "tenant-copied";
  REQUIRE_CODE(hearth_auth_set_tenant_id(auth, tenant), 0);
  tenant[0] = 'X';
  CHECK_STR(auth_tenant(auth), "tenant-copied");

  CHECK_CODE(hearth_auth_set_tenant_id(auth, ""), HEARTH_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(hearth_last_error_message(), "hearth_auth_set_tenant_id");
  CHECK_CONTAINS(hearth_last_error_message(), "empty");
  CHECK_CODE(hearth_auth_set_tenant_id(auth, "bad-\xff\xfe"), HEARTH_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(hearth_last_error_message(), "UTF-8");
  CHECK_STR(auth_tenant(auth), "tenant-copied"); /* a refused value changes nothing */

  CHECK_CODE(hearth_auth_set_tenant_id(auth, NULL), 0);
  CHECK(hearth_auth_tenant_id(auth) == NULL);
  CHECK_CODE(hearth_auth_set_tenant_id(NULL, "t"), HEARTH_ERROR_INVALID_HANDLE);
  CHECK_CODE(hearth_last_error_code(), HEARTH_ERROR_INVALID_HANDLE);
  CHECK(hearth_auth_tenant_id(NULL) == NULL);
  CHECK(hearth_user_tenant_id(NULL) == NULL);
}
