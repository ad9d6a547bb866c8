/* test_phone.c — phone number sign-in: sending codes (the future and the listener form), Firebase's
 * re-entrancy rule and resending, credentials from codes, sign-in, linking, the phone conflict recipe,
 * updating the number, reauthentication, localized SMS, app verification through the reCAPTCHA page,
 * and bad input. The codes are the ones the emulator "texted" (its verificationCodes listing). */
#include "test.h"

static hearth_phone_auth_options options_for(const char *phone_number) {
  hearth_phone_auth_options options;
  hearth_phone_auth_options_init(&options);
  options.phone_number = phone_number;
  return options;
}

/* A new SMS even when a code sent to the number is still fresh: a freshness window of 1 ms has passed. */
static const char *send_new_code(hearth_auth *auth, const char *phone_number) {
  hearth_phone_auth_options options = options_for(phone_number);
  options.timeout_ms = 1;
  t_sleep_ms(2);
  hearth_future *f = t_verify_phone(auth, &options);
  t_await_ok(f);
  REQUIRE(hearth_future_string(f) != NULL);
  return t_strdup(hearth_future_string(f));
}

static hearth_future *sign_in(hearth_auth *auth, const hearth_credential *credential) {
  hearth_future *f = t_keep_future(hearth_auth_sign_in_and_retrieve_data_with_credential(auth, credential));
  REQUIRE(f != NULL);
  return f;
}

static const hearth_auth_result *result_of(hearth_future *f) {
  const hearth_auth_result *result = hearth_future_auth_result(f);
  REQUIRE(result != NULL);
  REQUIRE(hearth_auth_result_user(result) != NULL);
  return result;
}

static const char *uid_of(hearth_future *f) { return t_strdup(hearth_user_uid(hearth_auth_result_user(result_of(f)))); }

/* The code with its last digit changed. */
static const char *wrong_code(const char *code) {
  char *wrong = t_strdup(code);
  size_t last = strlen(wrong) - 1;
  wrong[last] = (char)('0' + (wrong[last] - '0' + 1) % 10);
  return wrong;
}

static bool starts_with(const char *text, const char *prefix) {
  return text && strncmp(text, prefix, strlen(prefix)) == 0;
}

/* ------------------------------------------------------------------------------------------------
 * Sending codes and signing in
 * ---------------------------------------------------------------------------------------------- */
TEST(phone_options_init_sets_the_struct_size_and_leaves_every_option_unset, MODE_NONE) {
  hearth_phone_auth_options options;
  memset(&options, 0xA5, sizeof options);
  hearth_phone_auth_options_init(&options);
  CHECK_INT(options.struct_size, sizeof options);
  CHECK(options.phone_number == NULL);
  CHECK_INT(options.timeout_ms, 0);
  CHECK(options.force_resending_token == NULL);
  CHECK(options.multi_factor_session == NULL);
  CHECK(options.multi_factor_hint == NULL);
  hearth_phone_auth_options_init(NULL); /* harmless */
}

TEST(firebases_test_number_signs_in_with_its_fixed_code_while_app_verification_is_disabled_for_testing, BOTH_LOOPS) {
  /* Firebase's phone-auth guide: a fictional number with a fixed code, app verification disabled for testing. */
  emu_configure("\"testPhoneNumbers\":{\"" T_FICTIONAL_NUMBER "\":\"" T_FICTIONAL_CODE "\"}");
  hearth_auth *auth = hearth_auth_get(t_app());
  REQUIRE_CODE(hearth_auth_set_app_verification_disabled_for_testing(auth, 1), 0);
  hearth_phone_auth_options options = options_for("+1 650-555-4567"); /* as the console shows it */
  hearth_future *verify = t_verify_phone(auth, &options);
  t_await_ok(verify);
  const char *verification_id = hearth_future_string(verify);
  REQUIRE(verification_id != NULL && *verification_id);
  const char *resend_token = hearth_future_phone_resend_token(verify);
  CHECK(resend_token != NULL && *resend_token);
  CHECK(strcmp(resend_token, verification_id) != 0);
  CHECK_STR(json_get_string(emu_verification_code(verification_id), "phoneNumber"), T_FICTIONAL_NUMBER);

  hearth_credential *credential = t_keep_credential(hearth_credential_create_phone(verification_id, T_FICTIONAL_CODE));
  REQUIRE(credential != NULL);
  CHECK_STR(hearth_credential_provider(credential), "phone");
  hearth_future *f = sign_in(auth, credential);
  t_await_ok(f);
  const hearth_auth_result *result = result_of(f);
  CHECK_STR(hearth_auth_result_provider_id(result), "phone");
  CHECK_INT(hearth_auth_result_is_new_user(result), 1);
  const hearth_user *user = hearth_auth_result_user(result);
  CHECK_STR(hearth_user_phone_number(user), T_FICTIONAL_NUMBER);
  CHECK_STR(hearth_user_email(user), "");
  CHECK_INT(hearth_user_is_anonymous(user), 0);
  CHECK_STR(t_provider_ids(user), "phone");
  CHECK_STR(hearth_user_info_phone_number(t_provider_info(user, "phone")), T_FICTIONAL_NUMBER);
  CHECK_STR(t_current_uid(auth), hearth_user_uid(user));
  const json *claims = t_token_claims(t_token(t_current_user(auth), 0));
  CHECK_STR(json_get_string(claims, "phone_number"), T_FICTIONAL_NUMBER);
  CHECK_STR(json_get_string(json_get(claims, "firebase"), "sign_in_provider"), "phone");
}

TEST(a_code_read_from_the_emulators_listing_signs_in_and_a_resent_code_signs_in_to_the_same_user, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *number = t_phone_number();
  hearth_phone_auth_options options = options_for(number);
  hearth_future *verify = t_verify_phone(auth, &options);
  t_await_ok(verify);
  const char *verification_id = t_strdup(hearth_future_string(verify));
  const json *entry = emu_verification_code(verification_id);
  REQUIRE(entry != NULL);
  CHECK_STR(json_get_string(entry, "phoneNumber"), number);

  hearth_future *f = t_keep_future(hearth_auth_sign_in_with_credential(auth, t_sms_credential(verification_id)));
  t_await_ok(f);
  const hearth_user *user = hearth_future_user(f);
  REQUIRE(user != NULL);
  CHECK_STR(hearth_user_phone_number(user), number);
  const char *uid = t_strdup(hearth_user_uid(user));
  CHECK(emu_verification_code(verification_id) == NULL); /* used up */
  CHECK_STR(json_get_string(emu_lookup(uid), "phoneNumber"), number);

  /* Signed out, the person asks for a new SMS (the first code is used up): the resending token sends it. */
  CHECK_CODE(hearth_auth_sign_out(auth), 0);
  options.force_resending_token = hearth_future_phone_resend_token(verify);
  hearth_future *again = t_verify_phone(auth, &options);
  t_await_ok(again);
  CHECK(strcmp(hearth_future_string(again), verification_id) != 0);
  hearth_future *second = sign_in(auth, t_sms_credential(hearth_future_string(again)));
  t_await_ok(second);
  CHECK_STR(uid_of(second), uid);
  CHECK_INT(hearth_auth_result_is_new_user(result_of(second)), 0);
}

TEST(a_wrong_code_fails_with_invalid_verification_code_and_the_right_code_still_signs_in, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *number = t_phone_number();
  const char *verification_id = t_send_code(auth, number);
  const char *code = emu_sms_code(verification_id);
  hearth_credential *wrong = t_keep_credential(hearth_credential_create_phone(verification_id, wrong_code(code)));
  CHECK_FAILS_WITH(sign_in(auth, wrong), HEARTH_ERROR_INVALID_VERIFICATION_CODE);
  CHECK(hearth_auth_current_user(auth) == NULL);
  hearth_future *f = sign_in(auth, t_keep_credential(hearth_credential_create_phone(verification_id, code)));
  t_await_ok(f);
  CHECK_STR(hearth_user_phone_number(hearth_auth_result_user(result_of(f))), number);
}

TEST(verification_ids_the_server_never_issued_and_empty_parts_are_refused, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  CHECK_FAILS_WITH(sign_in(auth, t_keep_credential(hearth_credential_create_phone("not-a-verification-id", "123456"))),
                   HEARTH_ERROR_INVALID_VERIFICATION_ID);
  const char *verification_id = t_send_code(auth, t_phone_number());
  CHECK_FAILS_WITH(sign_in(auth, t_keep_credential(hearth_credential_create_phone("", "123456"))),
                   HEARTH_ERROR_MISSING_VERIFICATION_ID);
  CHECK_FAILS_WITH(sign_in(auth, t_keep_credential(hearth_credential_create_phone(verification_id, ""))),
                   HEARTH_ERROR_MISSING_VERIFICATION_CODE);
  CHECK(hearth_auth_current_user(auth) == NULL);
}

TEST(a_code_used_after_its_session_expired_fails_with_session_expired, BOTH_LOOPS) {
  emu_configure("\"smsCodeTtlSeconds\":1");
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *verification_id = t_send_code(auth, t_phone_number());
  hearth_credential *credential = t_sms_credential(verification_id);
  t_settle(1300);
  CHECK_FAILS_WITH(sign_in(auth, credential), HEARTH_ERROR_SESSION_EXPIRED);
  CHECK(hearth_auth_current_user(auth) == NULL);
}

/* ------------------------------------------------------------------------------------------------
 * Re-entrancy and resending
 * ---------------------------------------------------------------------------------------------- */
TEST(verifying_a_number_again_while_its_code_is_fresh_sends_no_second_sms_and_yields_the_same_id, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *number = t_phone_number();
  hearth_phone_auth_options options = options_for(number);
  hearth_future *first = t_verify_phone(auth, &options);
  hearth_future *second = t_verify_phone(auth, &options); /* while the first is on its way */
  t_await_ok(first);
  t_await_ok(second);
  const char *verification_id = t_strdup(hearth_future_string(first));
  CHECK_STR(hearth_future_string(second), verification_id);
  CHECK_STR(hearth_future_phone_resend_token(second), hearth_future_phone_resend_token(first));
  /* After it arrived, and spelled as people type it. */
  hearth_phone_auth_options spelled = options_for(t_printf("+1 (%.3s) %.3s-%s", number + 2, number + 5, number + 8));
  hearth_future *third = t_verify_phone(auth, &spelled);
  t_await_ok(third);
  CHECK_STR(hearth_future_string(third), verification_id);
  CHECK_INT(emu_verification_code_count(number), 1);

  /* Another number is another verification; the last result follows. */
  const char *other = t_send_code(auth, t_phone_number());
  CHECK(strcmp(other, verification_id) != 0);
  hearth_future *last = t_keep_future(hearth_auth_last_result(auth, HEARTH_OP_AUTH_VERIFY_PHONE_NUMBER));
  REQUIRE(last != NULL);
  CHECK_STR(hearth_future_string(last), other);
  CHECK(hearth_future_phone_resend_token(last) != NULL);

  /* The one code signs in. */
  t_await_ok(sign_in(auth, t_sms_credential(verification_id)));
  CHECK_STR(hearth_user_phone_number(t_current_user(auth)), number);
}

TEST(the_force_resending_token_sends_a_new_code_that_signs_in, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *number = t_phone_number();
  hearth_phone_auth_options options = options_for(number);
  hearth_future *first = t_verify_phone(auth, &options);
  t_await_ok(first);
  const char *first_id = t_strdup(hearth_future_string(first));
  options.force_resending_token = hearth_future_phone_resend_token(first);
  REQUIRE(options.force_resending_token != NULL);
  hearth_future *resent = t_verify_phone(auth, &options);
  t_await_ok(resent);
  const char *resent_id = t_strdup(hearth_future_string(resent));
  CHECK(strcmp(resent_id, first_id) != 0);
  CHECK_INT(emu_verification_code_count(number), 2);
  CHECK(hearth_future_phone_resend_token(resent) != NULL);
  /* Without the token, the resent code is now the fresh one. */
  hearth_phone_auth_options plain = options_for(number);
  hearth_future *repeat = t_verify_phone(auth, &plain);
  t_await_ok(repeat);
  CHECK_STR(hearth_future_string(repeat), resent_id);
  CHECK_INT(emu_verification_code_count(number), 2);
  hearth_future *f = sign_in(auth, t_sms_credential(resent_id));
  t_await_ok(f);
  CHECK_STR(hearth_user_phone_number(hearth_auth_result_user(result_of(f))), number);
}

TEST(a_verification_id_is_spent_once_its_code_signed_in_and_verifying_again_sends_a_new_code, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *number = t_phone_number();
  const char *verification_id = t_send_code(auth, number);
  const char *code = emu_sms_code(verification_id);
  /* A mistyped code spends nothing: asking again still answers the same id, and the person retypes. */
  CHECK_FAILS_WITH(sign_in(auth, t_keep_credential(hearth_credential_create_phone(verification_id, wrong_code(code)))),
                   HEARTH_ERROR_INVALID_VERIFICATION_CODE);
  CHECK_STR(t_send_code(auth, number), verification_id);
  t_await_ok(sign_in(auth, t_keep_credential(hearth_credential_create_phone(verification_id, code))));
  CHECK_CODE(hearth_auth_sign_out(auth), 0);
  const char *again = t_send_code(auth, number);
  CHECK(strcmp(again, verification_id) != 0);
  CHECK_INT(emu_verification_code_count(number), 1); /* the new code; the first is used up */
  t_await_ok(sign_in(auth, t_sms_credential(again)));
  CHECK_STR(hearth_user_phone_number(t_current_user(auth)), number);
}

TEST(once_the_timeout_has_passed_verifying_again_sends_a_new_code, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *number = t_phone_number();
  hearth_phone_auth_options options = options_for(number);
  options.timeout_ms = 100;
  hearth_future *first = t_verify_phone(auth, &options);
  t_await_ok(first);
  t_settle(150);
  hearth_future *second = t_verify_phone(auth, &options);
  t_await_ok(second);
  CHECK(strcmp(hearth_future_string(first), hearth_future_string(second)) != 0);
  CHECK_INT(emu_verification_code_count(number), 2);
}

TEST(a_verification_id_stored_by_the_host_signs_in_after_the_app_was_destroyed_and_created_again, BOTH_LOOPS) {
  /* Firebase's advice for apps killed while the user reads the SMS: keep the verification id. */
  const char *number = t_phone_number();
  hearth_app *before = t_app();
  const char *stored = t_send_code(hearth_auth_get(before), number);
  t_app_destroy(before);
  hearth_auth *auth = hearth_auth_get(t_app());
  hearth_future *f = sign_in(auth, t_sms_credential(stored));
  t_await_ok(f);
  CHECK_STR(hearth_user_phone_number(hearth_auth_result_user(result_of(f))), number);
  CHECK_INT(hearth_auth_result_is_new_user(result_of(f)), 1);
}

TEST(the_language_code_makes_the_sms_french, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  REQUIRE_CODE(hearth_auth_set_language_code(auth, "fr"), 0);
  const char *number = t_phone_number();
  const char *verification_id = t_send_code(auth, number);
  const json *entry = emu_verification_code(verification_id);
  CHECK_STR(json_get_string(entry, "locale"), "fr");
  const char *code = emu_sms_code(verification_id);
  const char *log = emu_log_until(t_printf("Votre code de validation est %s.", code));
  CHECK_CONTAINS(log, t_printf("To verify the phone number %s, use the code %s. SMS text in locale fr "
                               "(X-Firebase-Locale fr): \"Votre code de validation est %s.\"",
                               number, code, code));

  /* Without a language code the SMS is English. */
  REQUIRE_CODE(hearth_auth_set_language_code(auth, NULL), 0);
  const char *english_number = t_phone_number();
  const char *english_id = t_send_code(auth, english_number);
  CHECK_STR(json_get_string(emu_verification_code(english_id), "locale"), "en");
  const char *english_code = emu_sms_code(english_id);
  CHECK_CONTAINS(emu_log_until(t_printf("Your verification code is %s.", english_code)),
                 t_printf("To verify the phone number %s, use the code %s. SMS text in locale en (no X-Firebase-Locale)",
                          english_number, english_code));
}

/* ------------------------------------------------------------------------------------------------
 * Linking, the conflict recipe, updating the number, reauthentication
 * ---------------------------------------------------------------------------------------------- */
TEST(linking_a_phone_to_an_email_user_adds_the_phone_provider_and_unlinking_removes_it, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *email = t_email("phone-link");
  hearth_user *user = t_create_user(auth, email, T_PASSWORD);
  const char *uid = t_strdup(hearth_user_uid(user));
  const char *number = t_phone_number();
  hearth_future *f = t_keep_future(hearth_user_link_with_credential(user, t_sms_credential(t_send_code(auth, number))));
  t_await_ok(f);
  const hearth_auth_result *result = result_of(f);
  CHECK_STR(hearth_auth_result_provider_id(result), "phone");
  const hearth_user *linked = hearth_auth_result_user(result);
  CHECK_STR(hearth_user_uid(linked), uid);
  CHECK_STR(hearth_user_email(linked), email);
  CHECK_STR(hearth_user_phone_number(linked), number);
  CHECK_STR(t_provider_ids(linked), "password,phone");
  CHECK_STR(hearth_user_phone_number(t_current_user(auth)), number);
  CHECK_STR(json_get_string(emu_lookup(uid), "phoneNumber"), number);

  /* The number now reaches the same account, from another installation too. */
  hearth_auth *elsewhere = hearth_auth_get(t_app());
  CHECK_STR(hearth_user_uid(t_sign_in_with_phone(elsewhere, number)), uid);

  hearth_future *unlinked = t_keep_future(hearth_user_unlink(t_current_user(auth), "phone"));
  t_await_ok(unlinked);
  CHECK_STR(hearth_user_phone_number(hearth_auth_result_user(result_of(unlinked))), "");
  CHECK_STR(t_provider_ids(t_current_user(auth)), "password");
  CHECK(json_get_string(emu_lookup(uid), "phoneNumber") == NULL);
}

TEST(linking_a_number_another_account_owns_fails_and_its_updated_credential_signs_in_there, BOTH_LOOPS) {
  /* The conflict recipe: CREDENTIAL_ALREADY_IN_USE carries a credential (a temporary proof) for the owner. */
  const char *number = t_phone_number();
  const char *owner = t_strdup(hearth_user_uid(t_sign_in_with_phone(hearth_auth_get(t_app()), number)));
  hearth_auth *auth = hearth_auth_get(t_app());
  hearth_user *user = t_create_user(auth, t_email("phone-conflict"), T_PASSWORD);
  const char *uid = t_strdup(hearth_user_uid(user));

  hearth_future *f = t_keep_future(hearth_user_link_with_credential(user, t_sms_credential(t_send_code(auth, number))));
  CHECK_FAILS_WITH(f, HEARTH_ERROR_CREDENTIAL_ALREADY_IN_USE);
  const hearth_auth_result *conflict = hearth_future_auth_result(f);
  REQUIRE(conflict != NULL);
  CHECK(hearth_auth_result_user(conflict) == NULL);
  const hearth_credential *updated = hearth_auth_result_updated_credential(conflict);
  REQUIRE(updated != NULL);
  CHECK_INT(hearth_credential_is_valid(updated), 1);
  CHECK_STR(hearth_credential_provider(updated), "phone");
  /* Nothing changed for the signed-in user. */
  CHECK_STR(t_current_uid(auth), uid);
  CHECK_STR(t_provider_ids(t_current_user(auth)), "password");
  CHECK(json_get_string(emu_lookup(uid), "phoneNumber") == NULL);

  hearth_future *recipe = sign_in(auth, updated);
  t_await_ok(recipe);
  CHECK_STR(uid_of(recipe), owner);
  CHECK_INT(hearth_auth_result_is_new_user(result_of(recipe)), 0);
  CHECK_STR(hearth_user_phone_number(hearth_auth_result_user(result_of(recipe))), number);
  CHECK_STR(t_current_uid(auth), owner);
}

TEST(updating_the_phone_number_replaces_it_with_the_one_the_credential_proves, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *first = t_phone_number(), *second = t_phone_number();
  hearth_user *user = t_sign_in_with_phone(auth, first);
  const char *uid = t_strdup(hearth_user_uid(user));
  hearth_future *f =
      t_keep_future(hearth_user_update_phone_number_credential(user, t_sms_credential(t_send_code(auth, second))));
  t_await_ok(f);
  const hearth_user *updated = hearth_future_user(f);
  REQUIRE(updated != NULL);
  CHECK_STR(hearth_user_uid(updated), uid);
  CHECK_STR(hearth_user_phone_number(updated), second);
  CHECK_STR(hearth_user_info_phone_number(t_provider_info(updated, "phone")), second);
  CHECK_STR(hearth_user_phone_number(t_current_user(auth)), second);
  CHECK_STR(json_get_string(emu_lookup(uid), "phoneNumber"), second);
  hearth_future *last = t_keep_future(hearth_auth_last_result(auth, HEARTH_OP_USER_UPDATE_PHONE_NUMBER_CREDENTIAL));
  REQUIRE(last != NULL);
  CHECK_STR(hearth_user_phone_number(hearth_future_user(last)), second);

  /* The old number belongs to nobody now: it makes a new account. */
  hearth_auth *elsewhere = hearth_auth_get(t_app());
  CHECK(strcmp(hearth_user_uid(t_sign_in_with_phone(elsewhere, first)), uid) != 0);
}

TEST(updating_the_phone_number_of_an_email_user_adds_the_phone, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  hearth_user *user = t_create_user(auth, t_email("phone-update"), T_PASSWORD);
  const char *number = t_phone_number();
  hearth_future *f =
      t_keep_future(hearth_user_update_phone_number_credential(user, t_sms_credential(t_send_code(auth, number))));
  t_await_ok(f);
  CHECK_STR(hearth_user_phone_number(hearth_future_user(f)), number);
  CHECK_STR(t_provider_ids(t_current_user(auth)), "password,phone");
}

TEST(updating_to_a_number_another_account_owns_fails_with_credential_already_in_use, BOTH_LOOPS) {
  const char *taken = t_phone_number();
  const char *owner = t_strdup(hearth_user_uid(t_sign_in_with_phone(hearth_auth_get(t_app()), taken)));
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *mine = t_phone_number();
  hearth_user *user = t_sign_in_with_phone(auth, mine);
  const char *uid = t_strdup(hearth_user_uid(user));
  hearth_future *f =
      t_keep_future(hearth_user_update_phone_number_credential(user, t_sms_credential(t_send_code(auth, taken))));
  CHECK_FAILS_WITH(f, HEARTH_ERROR_CREDENTIAL_ALREADY_IN_USE);
  CHECK(hearth_future_user(f) == NULL);
  CHECK_STR(hearth_user_phone_number(t_current_user(auth)), mine);
  CHECK_STR(json_get_string(emu_lookup(uid), "phoneNumber"), mine);
  const hearth_auth_result *conflict = hearth_future_auth_result(f);
  REQUIRE(conflict != NULL);
  const hearth_credential *updated = hearth_auth_result_updated_credential(conflict);
  REQUIRE(updated != NULL);
  hearth_future *recipe = sign_in(auth, updated);
  t_await_ok(recipe);
  CHECK_STR(uid_of(recipe), owner);
}

TEST(reauthenticating_with_a_phone_credential_keeps_the_user_and_another_users_number_is_a_mismatch, BOTH_LOOPS) {
  const char *other_number = t_phone_number();
  const char *other = t_strdup(hearth_user_uid(t_sign_in_with_phone(hearth_auth_get(t_app()), other_number)));
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *number = t_phone_number();
  hearth_user *user = t_sign_in_with_phone(auth, number);
  const char *uid = t_strdup(hearth_user_uid(user));
  CHECK(strcmp(uid, other) != 0);

  t_await_ok(t_keep_future(hearth_user_reauthenticate(user, t_sms_credential(send_new_code(auth, number)))));
  CHECK_STR(t_current_uid(auth), uid);
  hearth_future *with_data =
      t_keep_future(hearth_user_reauthenticate_and_retrieve_data(user, t_sms_credential(send_new_code(auth, number))));
  t_await_ok(with_data);
  CHECK_STR(uid_of(with_data), uid);
  CHECK_STR(hearth_auth_result_provider_id(result_of(with_data)), "phone");
  CHECK_INT(hearth_auth_result_is_new_user(result_of(with_data)), 0);

  CHECK_FAILS_WITH(t_keep_future(hearth_user_reauthenticate(user, t_sms_credential(t_send_code(auth, other_number)))),
                   HEARTH_ERROR_USER_MISMATCH);
  CHECK_FAILS_WITH(t_keep_future(hearth_user_reauthenticate_and_retrieve_data(
                       user, t_sms_credential(send_new_code(auth, other_number)))),
                   HEARTH_ERROR_USER_MISMATCH);
  CHECK_STR(t_current_uid(auth), uid);
}

TEST(linking_a_phone_to_a_user_who_has_one_fails_with_provider_already_linked, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  hearth_user *user = t_sign_in_with_phone(auth, t_phone_number());
  const char *number = t_phone_number();
  hearth_future *f = t_keep_future(hearth_user_link_with_credential(user, t_sms_credential(t_send_code(auth, number))));
  CHECK_FAILS_WITH(f, HEARTH_ERROR_PROVIDER_ALREADY_LINKED);
}

/* ------------------------------------------------------------------------------------------------
 * The listener form
 * ---------------------------------------------------------------------------------------------- */
typedef struct phone_events {
  hearth_app *app;
  hearth_auth *auth;
  t_seq *seq;
  const char *verification_id;
  const char *resend_token;
  const char *timed_out_id;
  int error;
  const char *message;
  double sent_at, timed_out_at;
  /* Verifying again from inside on_code_sent. */
  bool again_from_callback;
  int again_rc;
  hearth_phone_auth_options again_options;
  hearth_phone_listener again_listener;
  /* The listener's final call: how many times, and what had happened by then. */
  atomic_int releases;
  const char *seq_at_release;
} phone_events;

static void on_code_sent(void *user_data, const char *verification_id, const char *resend_token) {
  phone_events *e = user_data;
  T_CB_ENTER(e->app);
  e->verification_id = t_strdup(verification_id);
  e->resend_token = t_strdup(resend_token);
  e->sent_at = t_now();
  if (e->again_from_callback) {
    e->again_from_callback = false;
    e->again_rc = hearth_auth_verify_phone_number_with_listener(e->auth, &e->again_options, &e->again_listener);
    t_seq_add(e->seq, "verified_again");
  }
  t_seq_add(e->seq, "code_sent");
  T_CB_EXIT();
}

static void on_verification_failed(void *user_data, hearth_error error, const char *message) {
  phone_events *e = user_data;
  T_CB_ENTER(e->app);
  e->error = error;
  e->message = t_strdup(message);
  t_seq_add(e->seq, "failed");
  T_CB_EXIT();
}

static void on_code_auto_retrieval_timeout(void *user_data, const char *verification_id) {
  phone_events *e = user_data;
  T_CB_ENTER(e->app);
  e->timed_out_id = t_strdup(verification_id);
  e->timed_out_at = t_now();
  t_seq_add(e->seq, "timeout");
  T_CB_EXIT();
}

static void on_phone_listener_release(void *user_data) {
  phone_events *e = user_data;
  T_CB_ENTER(e->app);
  e->seq_at_release = t_seq_text(e->seq);
  atomic_fetch_add(&e->releases, 1);
  T_CB_EXIT();
}

static phone_events *phone_events_new(hearth_app *app) {
  phone_events *e = t_alloc(sizeof *e);
  e->app = app;
  e->auth = hearth_auth_get(app);
  e->seq = t_seq_new();
  e->error = -1;
  return e;
}

static hearth_phone_listener listener_for(phone_events *e) {
  hearth_phone_listener listener = {sizeof(hearth_phone_listener), on_code_sent, on_verification_failed,
                                    on_code_auto_retrieval_timeout, e, on_phone_listener_release};
  return listener;
}

TEST(the_listener_hears_code_sent_then_the_auto_retrieval_timeout, BOTH_LOOPS) {
  hearth_app *app = t_app();
  phone_events *e = phone_events_new(app);
  const char *number = t_phone_number();
  hearth_phone_auth_options options = options_for(number);
  options.timeout_ms = 300;
  hearth_phone_listener listener = listener_for(e);
  double started = t_now();
  REQUIRE_CODE(hearth_auth_verify_phone_number_with_listener(e->auth, &options, &listener), 0);
  CHECK_INT(t_seq_count(e->seq), 0); /* never inside the call */
  REQUIRE_EVENTUALLY(t_seq_count(e->seq) >= 2);
  t_settle(100);
  CHECK_STR(t_seq_text(e->seq), "code_sent,timeout");
  /* The release is the listener's final call, after the timeout. */
  CHECK_INT(atomic_load(&e->releases), 1);
  CHECK_STR(e->seq_at_release, "code_sent,timeout");
  CHECK_STR(e->timed_out_id, e->verification_id);
  CHECK(e->resend_token != NULL && *e->resend_token);
  CHECK(e->timed_out_at - e->sent_at >= 0.25);
  CHECK(e->timed_out_at - started >= 0.3);
  /* The id signs in like one from the future form. */
  hearth_future *f = sign_in(e->auth, t_sms_credential(e->verification_id));
  t_await_ok(f);
  CHECK_STR(hearth_user_phone_number(hearth_auth_result_user(result_of(f))), number);
}

TEST(the_listener_hears_verification_failed_for_a_bad_number_and_for_a_refusing_server, BOTH_LOOPS) {
  hearth_app *app = t_app();
  phone_events *bad = phone_events_new(app);
  hearth_phone_auth_options options = options_for("+1650abc4567");
  hearth_phone_listener listener = listener_for(bad);
  REQUIRE_CODE(hearth_auth_verify_phone_number_with_listener(bad->auth, &options, &listener), 0);
  REQUIRE_EVENTUALLY(t_seq_count(bad->seq) >= 1);
  CHECK_CODE(bad->error, HEARTH_ERROR_INVALID_PHONE_NUMBER);
  CHECK(bad->message != NULL && *bad->message);

  /* One SMS per number per minute: the second, forced, is refused by the server. */
  emu_configure("\"smsRateLimit\":{\"maxSends\":1,\"windowSeconds\":60}");
  const char *number = t_phone_number();
  hearth_phone_auth_options first_options = options_for(number);
  hearth_future *first = t_verify_phone(bad->auth, &first_options);
  t_await_ok(first);
  phone_events *refused = phone_events_new(app);
  hearth_phone_auth_options again = options_for(number);
  again.force_resending_token = hearth_future_phone_resend_token(first);
  listener = listener_for(refused);
  REQUIRE_CODE(hearth_auth_verify_phone_number_with_listener(refused->auth, &again, &listener), 0);
  REQUIRE_EVENTUALLY(t_seq_count(refused->seq) >= 1);
  CHECK_CODE(refused->error, HEARTH_ERROR_TOO_MANY_REQUESTS);
  CHECK(refused->message != NULL && *refused->message);
  t_settle(100);
  CHECK_STR(t_seq_text(bad->seq), "failed");
  CHECK_STR(t_seq_text(refused->seq), "failed");
  CHECK_INT(emu_verification_code_count(number), 1);
  /* Released once, after the failure. */
  CHECK_INT(atomic_load(&bad->releases), 1);
  CHECK_STR(bad->seq_at_release, "failed");
  CHECK_INT(atomic_load(&refused->releases), 1);
  CHECK_STR(refused->seq_at_release, "failed");
}

TEST(verifying_from_inside_on_code_sent_calls_the_second_listener_later_never_nested, BOTH_LOOPS) {
  hearth_app *app = t_app();
  phone_events *outer = phone_events_new(app);
  phone_events *inner = phone_events_new(app);
  const char *number = t_phone_number();
  hearth_phone_auth_options options = options_for(number);
  outer->again_from_callback = true;
  outer->again_options = options_for(number); /* still fresh: answered without a request */
  outer->again_listener = listener_for(inner);
  outer->again_rc = -1;
  hearth_phone_listener listener = listener_for(outer);
  REQUIRE_CODE(hearth_auth_verify_phone_number_with_listener(outer->auth, &options, &listener), 0);
  REQUIRE_EVENTUALLY(t_seq_count(inner->seq) >= 1);
  CHECK_INT(outer->again_rc, 0);
  CHECK_STR(t_seq_text(outer->seq), "verified_again,code_sent");
  CHECK_STR(t_seq_text(inner->seq), "code_sent");
  CHECK_STR(inner->verification_id, outer->verification_id);
  CHECK_INT(emu_verification_code_count(number), 1);
}

TEST(destroying_the_app_after_the_code_was_sent_drops_the_timeout_and_releases_the_listener, BOTH_LOOPS) {
  hearth_app *app = t_app();
  phone_events *e = phone_events_new(app);
  hearth_phone_auth_options options = options_for(t_phone_number());
  options.timeout_ms = 200;
  hearth_phone_listener listener = listener_for(e);
  REQUIRE_CODE(hearth_auth_verify_phone_number_with_listener(e->auth, &options, &listener), 0);
  REQUIRE_EVENTUALLY(t_seq_count(e->seq) >= 1);
  t_app_destroy(app);
  if (!t_host()) CHECK_INT(atomic_load(&e->releases), 1); /* before the destroy returned */
  t_settle(400); /* the probe fails the test if a callback of the destroyed app runs after its final calls */
  CHECK_STR(t_seq_text(e->seq), "code_sent");
  CHECK_INT(atomic_load(&e->releases), 1);
  CHECK_STR(e->seq_at_release, "code_sent");
}

TEST(destroying_the_app_while_the_code_is_being_sent_fails_the_verification_as_cancelled_then_releases, BOTH_LOOPS) {
  hearth_app *app = t_unanswered_app(0);
  phone_events *e = phone_events_new(app);
  hearth_phone_auth_options options = options_for(t_phone_number());
  hearth_phone_listener listener = listener_for(e);
  REQUIRE_CODE(hearth_auth_verify_phone_number_with_listener(e->auth, &options, &listener), 0);
  t_settle(50); /* the request waits at a server that never answers */
  CHECK_INT(t_seq_count(e->seq), 0);
  t_app_destroy(app);
  REQUIRE_EVENTUALLY(atomic_load(&e->releases) == 1);
  t_settle(100);
  CHECK_STR(t_seq_text(e->seq), "failed");
  CHECK_CODE(e->error, HEARTH_ERROR_CANCELLED);
  CHECK_STR(e->seq_at_release, "failed");
  CHECK_INT(atomic_load(&e->releases), 1);
}

TEST(a_listener_with_only_some_callbacks_is_fine, BOTH_LOOPS) {
  hearth_app *app = t_app();
  phone_events *e = phone_events_new(app);
  hearth_phone_auth_options options = options_for(t_phone_number());
  options.timeout_ms = 50;
  hearth_phone_listener listener = {sizeof listener, on_code_sent, NULL, NULL, e, NULL};
  REQUIRE_CODE(hearth_auth_verify_phone_number_with_listener(e->auth, &options, &listener), 0);
  REQUIRE_EVENTUALLY(t_seq_count(e->seq) >= 1);
  t_settle(150); /* the timeout passes with nobody to tell */
  CHECK_STR(t_seq_text(e->seq), "code_sent");
  hearth_phone_auth_options bad = options_for("12345");
  hearth_phone_listener silent = {sizeof silent, NULL, NULL, NULL, NULL, NULL};
  CHECK_CODE(hearth_auth_verify_phone_number_with_listener(e->auth, &bad, &silent), 0);
  t_settle(50);
}

TEST(the_listener_form_refuses_bad_arguments_without_calling_back, BOTH_LOOPS) {
  hearth_app *app = t_app();
  phone_events *e = phone_events_new(app);
  hearth_auth *auth = e->auth;
  hearth_phone_auth_options options = options_for(t_phone_number());
  hearth_phone_listener listener = listener_for(e);
  CHECK_CODE(hearth_auth_verify_phone_number_with_listener(NULL, &options, &listener), HEARTH_ERROR_INVALID_HANDLE);
  CHECK_CODE(hearth_auth_verify_phone_number_with_listener(auth, &options, NULL), HEARTH_ERROR_INVALID_ARGUMENT);
  CHECK_CODE(hearth_auth_verify_phone_number_with_listener(auth, NULL, &listener), HEARTH_ERROR_INVALID_ARGUMENT);
  hearth_phone_listener old = listener;
  old.struct_size = 0;
  CHECK_CODE(hearth_auth_verify_phone_number_with_listener(auth, &options, &old), HEARTH_ERROR_INVALID_ARGUMENT);
  hearth_phone_auth_options bad = options_for("+1555\xff\xfe");
  CHECK_CODE(hearth_auth_verify_phone_number_with_listener(auth, &bad, &listener), HEARTH_ERROR_INVALID_ARGUMENT);
  bad = options_for(t_phone_number());
  bad.timeout_ms = -5;
  CHECK_CODE(hearth_auth_verify_phone_number_with_listener(auth, &bad, &listener), HEARTH_ERROR_INVALID_ARGUMENT);
  t_settle(100);
  CHECK_INT(t_seq_count(e->seq), 0);
  /* A refused call keeps nothing: not even the release runs. */
  CHECK_INT(atomic_load(&e->releases), 0);
  t_app_destroy(app);
  t_settle(50);
  CHECK_INT(atomic_load(&e->releases), 0);
}

/* ------------------------------------------------------------------------------------------------
 * App verification (reCAPTCHA through the provider-flow UI delegate)
 * ---------------------------------------------------------------------------------------------- */
TEST(with_app_verification_the_recaptcha_page_opens_and_the_sms_is_sent_once_the_user_passes_it, BOTH_LOOPS) {
  emu_configure("\"appVerificationRequired\":true");
  hearth_app *app = t_app();
  hearth_auth *auth = hearth_auth_get(app);
  REQUIRE_CODE(hearth_auth_set_app_verification_disabled_for_testing(auth, 0), 0);
  REQUIRE_CODE(hearth_auth_set_language_code(auth, "fr"), 0);
  t_browser *browser = t_browser_new(app);
  t_browser_attach(browser, 0);
  const char *number = t_phone_number();
  hearth_phone_auth_options options = options_for(number);
  hearth_future *verify = t_verify_phone(auth, &options);
  t_await_ok(verify);

  t_visit visit = t_browser_wait(browser, 1);
  const char *page = visit.opened_url;
  REQUIRE(page != NULL);
  CHECK_STR(t_url_base(page), t_printf("http://%s/emulator/auth/handler", emu_host()));
  CHECK_STR(t_url_param(page, "authType"), "verifyApp");
  CHECK_STR(t_url_param(page, "apiKey"), TEST_API_KEY);
  CHECK_STR(t_url_param(page, "hl"), "fr");
  const char *redirect = t_url_param(page, "redirectUrl");
  CHECK(starts_with(redirect, "http://127.0.0.1:"));
  CHECK(t_url_param(page, "state") != NULL && strlen(t_url_param(page, "state")) >= 16);
  CHECK_INT(visit.page_status, 303);
  CHECK(redirect && starts_with(visit.location, t_url_base(redirect)));
  CHECK(t_url_param(visit.location, "recaptchaToken") != NULL);
  CHECK_INT(visit.redirect_status, 200);

  const char *verification_id = hearth_future_string(verify);
  REQUIRE(verification_id != NULL);
  CHECK_STR(json_get_string(emu_verification_code(verification_id), "phoneNumber"), number);
  t_await_ok(sign_in(auth, t_sms_credential(verification_id)));
  CHECK_STR(hearth_user_phone_number(t_current_user(auth)), number);

  /* A token proves one request: the next SMS shows the page again. */
  options.force_resending_token = hearth_future_phone_resend_token(verify);
  t_await_ok(t_verify_phone(auth, &options));
  CHECK_INT(t_browser_wait(browser, 2).redirect_status, 200);
  CHECK_INT(emu_verification_code_count(number), 1); /* the first was used */
}

TEST(app_verification_without_a_ui_delegate_fails_with_missing_app_credential_before_any_sms, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  REQUIRE_CODE(hearth_auth_set_app_verification_disabled_for_testing(auth, 0), 0);
  const char *number = t_phone_number();
  hearth_phone_auth_options options = options_for(number);
  CHECK_FAILS_WITH(t_verify_phone(auth, &options), HEARTH_ERROR_MISSING_APP_CREDENTIAL);
  CHECK_INT(emu_verification_code_count(number), 0);
}

TEST(app_verification_is_disabled_for_testing_by_default_against_the_emulator_so_only_test_numbers_work, BOTH_LOOPS) {
  emu_configure("\"appVerificationRequired\":true,\"testPhoneNumbers\":{\"" T_FICTIONAL_NUMBER "\":\"" T_FICTIONAL_CODE
                "\"}");
  hearth_app *app = t_app();
  hearth_auth *auth = hearth_auth_get(app);
  t_browser *browser = t_browser_new(app);
  t_browser_attach(browser, 0);
  const char *number = t_phone_number();
  hearth_phone_auth_options real = options_for(number);
  CHECK_FAILS_WITH(t_verify_phone(auth, &real), HEARTH_ERROR_MISSING_APP_CREDENTIAL); /* the server's answer */
  hearth_phone_auth_options fictional = options_for(T_FICTIONAL_NUMBER);
  hearth_future *f = t_verify_phone(auth, &fictional);
  t_await_ok(f);
  t_await_ok(sign_in(auth, t_keep_credential(hearth_credential_create_phone(hearth_future_string(f), T_FICTIONAL_CODE))));
  CHECK_STR(hearth_user_phone_number(t_current_user(auth)), T_FICTIONAL_NUMBER);

  /* Disabled explicitly: the same. Enabled: the page opens and the real number gets its SMS. */
  REQUIRE_CODE(hearth_auth_set_app_verification_disabled_for_testing(auth, 1), 0);
  CHECK_FAILS_WITH(t_verify_phone(auth, &real), HEARTH_ERROR_MISSING_APP_CREDENTIAL);
  CHECK_INT(t_browser_opened(browser), 0);
  REQUIRE_CODE(hearth_auth_set_app_verification_disabled_for_testing(auth, 0), 0);
  t_await_ok(t_verify_phone(auth, &real));
  CHECK_INT(t_browser_opened(browser), 1);
  CHECK_INT(emu_verification_code_count(number), 1);
}

TEST(cancelling_the_recaptcha_page_fails_the_verification_and_sends_no_sms, BOTH_LOOPS) {
  emu_configure("\"appVerificationRequired\":true");
  hearth_app *app = t_app();
  hearth_auth *auth = hearth_auth_get(app);
  REQUIRE_CODE(hearth_auth_set_app_verification_disabled_for_testing(auth, 0), 0);
  t_browser *browser = t_browser_new(app);
  t_browser_attach(browser, 0);
  t_browser_plan(browser, (t_plan){.action = T_USER_CANCELS});
  const char *number = t_phone_number();
  hearth_phone_auth_options options = options_for(number);
  CHECK_FAILS_WITH(t_verify_phone(auth, &options), HEARTH_ERROR_WEB_CONTEXT_CANCELLED);
  CHECK_INT(t_browser_wait(browser, 1).page_status, 303);

  /* The UI delegate refusing to show the page: the same. */
  t_browser_plan(browser, (t_plan){.action = T_USER_REFUSED});
  CHECK_FAILS_WITH(t_verify_phone(auth, &options), HEARTH_ERROR_WEB_CONTEXT_CANCELLED);
  CHECK_INT(t_browser_opened(browser), 2);
  CHECK_INT(emu_verification_code_count(number), 0);

  /* Nothing is left pending: the user passes the page the next time. */
  t_browser_plan(browser, (t_plan){.action = T_USER_SIGNS_IN});
  t_await_ok(t_verify_phone(auth, &options));
  CHECK_INT(emu_verification_code_count(number), 1);
}

TEST(a_recaptcha_page_nobody_passes_ends_with_the_flow_timeout_a_cancel_or_the_app, BOTH_LOOPS) {
  emu_configure("\"appVerificationRequired\":true");
  hearth_app *app = t_app();
  hearth_auth *auth = hearth_auth_get(app);
  REQUIRE_CODE(hearth_auth_set_app_verification_disabled_for_testing(auth, 0), 0);
  t_browser *browser = t_browser_new(app);
  hearth_provider_flow_options flow;
  t_browser_options(browser, &flow);
  flow.timeout_ms = 300;
  REQUIRE_CODE(hearth_auth_set_provider_flow_options(auth, &flow), 0);
  t_browser_plan(browser, (t_plan){.action = T_USER_WALKS_AWAY});
  const char *number = t_phone_number();
  hearth_phone_auth_options options = options_for(number);
  double started = t_now();
  CHECK_FAILS_WITH(t_verify_phone(auth, &options), HEARTH_ERROR_WEB_CONTEXT_CANCELLED);
  CHECK(t_now() - started >= 0.25);
  CHECK_INT(t_browser_opened(browser), 1);

  /* The host cancels the page as it cancels any provider flow. */
  flow.timeout_ms = 0;
  REQUIRE_CODE(hearth_auth_set_provider_flow_options(auth, &flow), 0);
  hearth_future *cancelled = t_verify_phone(auth, &options);
  REQUIRE_EVENTUALLY(t_browser_opened(browser) == 2);
  CHECK_CODE(hearth_auth_cancel_provider_flow(auth), 0);
  CHECK_FAILS_WITH(cancelled, HEARTH_ERROR_WEB_CONTEXT_CANCELLED);

  /* Destroying the app cancels a verification waiting at the page, without a callback. */
  hearth_future *pending = t_verify_phone(auth, &options);
  REQUIRE_EVENTUALLY(t_browser_opened(browser) == 3);
  CHECK_INT(hearth_future_status(pending), HEARTH_FUTURE_PENDING);
  t_app_destroy(app);
  CHECK_INT(hearth_future_status(pending), HEARTH_FUTURE_COMPLETE);
  CHECK_CODE(hearth_future_error(pending), HEARTH_ERROR_CANCELLED);
  CHECK_INT(emu_verification_code_count(number), 0);
}

/* ------------------------------------------------------------------------------------------------
 * Bad input
 * ---------------------------------------------------------------------------------------------- */
TEST(bad_phone_numbers_fail_with_invalid_phone_number_before_any_request, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  /* Nothing listens there: a request would fail with NETWORK_REQUEST_FAILED. */
  REQUIRE_CODE(hearth_auth_use_emulator(auth, "127.0.0.1", t_closed_port()), 0);
  const char *bad[] = {"16505554567",       "+",
                       "+1650abc4567",      "+0165055545",
                       "+123456",           "+1234567890123456",
                       "0016505554567",     "++16505554567",
                       "+1 650 555 4567 x2", "+1\xef\xbc\x91" "6505554567" /* a full-width digit */};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    hearth_phone_auth_options options = options_for(bad[i]);
    hearth_future *f = t_verify_phone(auth, &options);
    int error = t_await(f);
    if (error != HEARTH_ERROR_INVALID_PHONE_NUMBER)
      t_fail(__FILE__, __LINE__, "\"%s\" failed with %s, expected HEARTH_ERROR_INVALID_PHONE_NUMBER", bad[i],
             hearth_error_name(error));
    const char *message = hearth_future_error_message(f);
    CHECK(message != NULL && *message);
    CHECK(message && !strstr(message, "4567")); /* the message never repeats the number */
  }
  const char *missing[] = {NULL, "", "   "};
  for (size_t i = 0; i < sizeof missing / sizeof missing[0]; i++) {
    hearth_phone_auth_options options = options_for(missing[i]);
    CHECK_FAILS_WITH(t_verify_phone(auth, &options), HEARTH_ERROR_MISSING_PHONE_NUMBER);
  }
  hearth_phone_auth_options good = options_for(t_phone_number());
  CHECK_FAILS_WITH(t_verify_phone(auth, &good), HEARTH_ERROR_NETWORK_REQUEST_FAILED);
}

static void never_called_code_sent(void *user_data, const char *verification_id, const char *token) {
  (void)user_data;
  (void)verification_id;
  (void)token;
  t_fail(__FILE__, __LINE__, "on_code_sent ran for a refused verification");
}

TEST(phone_verification_refuses_null_invalid_utf8_and_foreign_arguments, BOTH_LOOPS) {
  hearth_app *app = t_app();
  hearth_auth *auth = hearth_auth_get(app);
  CHECK(hearth_auth_last_result(auth, HEARTH_OP_AUTH_VERIFY_PHONE_NUMBER) == NULL); /* nothing ran yet */
  CHECK(hearth_auth_last_result(NULL, HEARTH_OP_AUTH_VERIFY_PHONE_NUMBER) == NULL);
  hearth_phone_auth_options options = options_for(t_phone_number());
  CHECK(hearth_auth_verify_phone_number(NULL, &options) == NULL);
  CHECK_FAILS_WITH(t_verify_phone(auth, NULL), HEARTH_ERROR_INVALID_ARGUMENT);
  CHECK_CODE(hearth_auth_set_app_verification_disabled_for_testing(NULL, 1), HEARTH_ERROR_INVALID_HANDLE);

  hearth_phone_auth_options bad = options_for("+1555\xc3\x28" "1234567");
  CHECK_FAILS_WITH(t_verify_phone(auth, &bad), HEARTH_ERROR_INVALID_ARGUMENT);
  bad = options_for(options.phone_number);
  bad.force_resending_token = "\xff";
  CHECK_FAILS_WITH(t_verify_phone(auth, &bad), HEARTH_ERROR_INVALID_ARGUMENT);
  bad = options_for(options.phone_number);
  bad.timeout_ms = -1;
  CHECK_FAILS_WITH(t_verify_phone(auth, &bad), HEARTH_ERROR_INVALID_ARGUMENT);
  bad = options_for(options.phone_number);
  bad.struct_size = 0;
  CHECK_FAILS_WITH(t_verify_phone(auth, &bad), HEARTH_ERROR_INVALID_ARGUMENT);

  /* Handles of another kind where a session or a hint belongs. */
  hearth_credential *credential = t_keep_credential(hearth_credential_create_phone("id", "123456"));
  bad = options_for(options.phone_number);
  bad.multi_factor_session = (const hearth_multi_factor_session *)credential;
  CHECK_FAILS_WITH(t_verify_phone(auth, &bad), HEARTH_ERROR_INVALID_HANDLE);
  static int not_a_handle;
  bad = options_for(options.phone_number);
  bad.multi_factor_hint = (const hearth_multi_factor_info *)&not_a_handle;
  CHECK_FAILS_WITH(t_verify_phone(auth, &bad), HEARTH_ERROR_INVALID_HANDLE);
  CHECK_INT(emu_verification_code_count(options.phone_number), 0);

  hearth_phone_listener listener = {sizeof listener, never_called_code_sent, NULL, NULL, NULL, NULL};
  bad = options_for(options.phone_number);
  bad.multi_factor_session = (const hearth_multi_factor_session *)&not_a_handle;
  CHECK_CODE(hearth_auth_verify_phone_number_with_listener(auth, &bad, &listener), HEARTH_ERROR_INVALID_HANDLE);

  /* The last result is the last refused call, as for every operation. */
  hearth_future *last = t_keep_future(hearth_auth_last_result(auth, HEARTH_OP_AUTH_VERIFY_PHONE_NUMBER));
  REQUIRE(last != NULL);
  CHECK_CODE(hearth_future_error(last), HEARTH_ERROR_INVALID_HANDLE);
  t_settle(50);
}

TEST(phone_credentials_need_both_parts_as_valid_utf8, MODE_NONE) {
  CHECK(hearth_credential_create_phone(NULL, "123456") == NULL);
  CHECK(hearth_credential_create_phone("verification-id", NULL) == NULL);
  CHECK(hearth_credential_create_phone(NULL, NULL) == NULL);
  CHECK(hearth_credential_create_phone("verification-\xff", "123456") == NULL);
  CHECK(hearth_credential_create_phone("verification-id", "12\xc3") == NULL);
  hearth_credential *credential = hearth_credential_create_phone("verification-id", "123456");
  REQUIRE(credential != NULL);
  CHECK_INT(hearth_credential_is_valid(credential), 1);
  CHECK_STR(hearth_credential_provider(credential), "phone");
  /* It carries no identity provider's tokens, and never shows the code. */
  CHECK_STR(hearth_credential_id_token(credential), "");
  CHECK_STR(hearth_credential_access_token(credential), "");
  CHECK_STR(hearth_credential_secret(credential), "");
  hearth_credential *copy = hearth_credential_retain(credential);
  hearth_credential_release(credential);
  CHECK_STR(hearth_credential_provider(copy), "phone");
  hearth_credential_release(copy);
  CHECK_INT(hearth_credential_is_valid(copy), 0);
}

TEST(updating_the_phone_number_refuses_null_released_and_other_credentials, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  hearth_user *user = t_create_user(auth, t_email("phone-bad"), T_PASSWORD);
  hearth_credential *released = hearth_credential_create_phone("verification-id", "123456");
  hearth_credential_release(released);
  CHECK_FAILS_WITH(t_keep_future(hearth_user_update_phone_number_credential(user, released)),
                   HEARTH_ERROR_INVALID_HANDLE);
  CHECK_FAILS_WITH(t_keep_future(hearth_user_update_phone_number_credential(user, NULL)),
                   HEARTH_ERROR_INVALID_ARGUMENT);
  hearth_credential *email = t_keep_credential(hearth_credential_create_email(t_email("phone-bad-2"), T_PASSWORD));
  CHECK_FAILS_WITH(t_keep_future(hearth_user_update_phone_number_credential(user, email)),
                   HEARTH_ERROR_INVALID_CREDENTIAL);
  hearth_credential *phone = t_keep_credential(hearth_credential_create_phone("verification-id", "123456"));
  CHECK(hearth_user_update_phone_number_credential(NULL, phone) == NULL);
  hearth_user *gone = hearth_user_retain(user);
  hearth_user_release(gone);
  CHECK(hearth_user_update_phone_number_credential(gone, phone) == NULL);
  CHECK(hearth_auth_last_result(NULL, HEARTH_OP_USER_UPDATE_PHONE_NUMBER_CREDENTIAL) == NULL);
  hearth_future *last = t_keep_future(hearth_auth_last_result(auth, HEARTH_OP_USER_UPDATE_PHONE_NUMBER_CREDENTIAL));
  REQUIRE(last != NULL);
  CHECK_CODE(hearth_future_error(last), HEARTH_ERROR_INVALID_CREDENTIAL);
  CHECK_STR(hearth_user_phone_number(t_current_user(auth)), "");
}

TEST(the_resend_token_belongs_to_a_completed_verification_only, BOTH_LOOPS) {
  hearth_app *app = t_unanswered_app(0);
  hearth_auth *auth = hearth_auth_get(app);
  CHECK(hearth_future_phone_resend_token(NULL) == NULL);
  hearth_phone_auth_options options = options_for(t_phone_number());
  hearth_future *pending = t_verify_phone(auth, &options);
  CHECK_INT(hearth_future_status(pending), HEARTH_FUTURE_PENDING);
  CHECK(hearth_future_phone_resend_token(pending) == NULL);
  CHECK(hearth_future_string(pending) == NULL);
  hearth_phone_auth_options bad = options_for("not a number");
  hearth_future *failed = t_verify_phone(auth, &bad);
  CHECK_CODE(t_await(failed), HEARTH_ERROR_INVALID_PHONE_NUMBER);
  CHECK(hearth_future_phone_resend_token(failed) == NULL);
  CHECK(hearth_future_string(failed) == NULL);

  /* Another kind of future, and a released one. */
  hearth_auth *working = hearth_auth_get(t_app());
  hearth_future *anonymous = t_keep_future(hearth_auth_sign_in_anonymously(working));
  t_await_ok(anonymous);
  CHECK(hearth_future_phone_resend_token(anonymous) == NULL);
  hearth_phone_auth_options good = options_for(t_phone_number());
  hearth_future *verify = t_verify_phone(working, &good);
  t_await_ok(verify);
  hearth_future *copy = hearth_future_retain(verify);
  CHECK_STR(hearth_future_phone_resend_token(copy), hearth_future_phone_resend_token(verify));
  hearth_future_release(copy);
  CHECK(hearth_future_phone_resend_token(copy) == NULL);
  CHECK(hearth_future_phone_resend_token(verify) != NULL);
}
