/* phone.c — what the phone and multi-factor tests share: numbers, codes sent through Hearth, credentials
 * made from the codes the emulator "texted". */
#include "test.h"

#include <unistd.h>

static atomic_int phone_serial;

const char *t_phone_number(void) {
  /* +1 555 then seven digits: unique within this run, so the emulator's listing of earlier tests' codes
   * (kept across wipes) never mixes in. */
  return t_printf("+1555%03d%04d", (int)(getpid() % 1000), atomic_fetch_add(&phone_serial, 1) % 10000);
}

static void release_credential(void *credential) { hearth_credential_release(credential); }

hearth_credential *t_keep_credential(hearth_credential *credential) {
  if (credential) t_defer(release_credential, credential);
  return credential;
}

static void release_assertion(void *assertion) { hearth_multi_factor_assertion_release(assertion); }

hearth_multi_factor_assertion *t_keep_assertion(hearth_multi_factor_assertion *assertion) {
  if (assertion) t_defer(release_assertion, assertion);
  return assertion;
}

hearth_future *t_verify_phone(hearth_auth *auth, const hearth_phone_auth_options *options) {
  hearth_future *f = t_keep_future(hearth_auth_verify_phone_number(auth, options));
  REQUIRE(f != NULL);
  return f;
}

const char *t_send_code(hearth_auth *auth, const char *phone_number) {
  hearth_phone_auth_options options;
  hearth_phone_auth_options_init(&options);
  options.phone_number = phone_number;
  hearth_future *f = t_verify_phone(auth, &options);
  t_await_ok(f);
  const char *verification_id = hearth_future_string(f);
  REQUIRE(verification_id != NULL && *verification_id);
  return t_strdup(verification_id);
}

hearth_credential *t_sms_credential(const char *verification_id) {
  const char *code = emu_sms_code(verification_id);
  hearth_credential *credential = t_keep_credential(hearth_credential_create_phone(verification_id, code));
  REQUIRE(credential != NULL);
  return credential;
}

hearth_user *t_sign_in_with_phone(hearth_auth *auth, const char *phone_number) {
  hearth_future *f = t_keep_future(
      hearth_auth_sign_in_and_retrieve_data_with_credential(auth, t_sms_credential(t_send_code(auth, phone_number))));
  t_await_ok(f);
  return t_current_user(auth);
}
