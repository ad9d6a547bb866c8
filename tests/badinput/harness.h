/* harness.h — what the generated bad-input program (gen.py -> badinput.c) calls: fixtures (live,
 * released and foreign handles of every kind, made on first use) and the checks of one case.
 *
 * Each function's cases run in a forked child; every case prints one line before and one after it runs,
 * so a crash or hang names the case that was running. */
#ifndef HEARTH_BADINPUT_HARNESS_H
#define HEARTH_BADINPUT_HARNESS_H

#define _GNU_SOURCE 1
#include <hearth.h>

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

/* One entry per header function, in header order. */
typedef struct bi_function {
  const char *name;
  void (*cases)(void);
  void (*valid_call)(void); /* the function with valid arguments: run on other threads */
  int in_storage_load;      /* the cases need a live hearth_storage_reply: run them inside a load callback */
} bi_function;
extern const bi_function bi_functions[];
extern const size_t bi_function_count;

/* ------------------------------------------------------------------------------------------------
 * Cases: begin, then exactly one check.
 * ---------------------------------------------------------------------------------------------- */
void bi_begin(const char *label);
/* The same for a function that reports a synchronous failure in hearth_last_error_code/_message (the
 * header's "Errors" rule): the last error is first set to another function's failure, and a call that
 * fails must leave its own code and a message that names it ("hearth_x: ..."). */
void bi_begin_sets_last_error(const char *label, const char *function);
/* The call must report failure: `failed` says whether it did; `got` describes the result. */
void bi_result(int failed, int must_fail, const char *got);

/* must_fail: 0 = the call only has to return; 1 = it must fail; a hearth_error code = it must fail
 * with that code where it reports one (a future's error, a status-returning function). */

/* A future: NULL, or it completes within 10 s (with an error when must_fail). Called on a loop thread
 * it cannot wait: it checks only that the call returned. */
void bi_future(hearth_future *future, int must_fail);
/* fail_is_nonzero: the function returns 0 or an error code; else fail_value is its failure value. */
void bi_int(long long value, int must_fail, long long fail_value, int fail_is_nonzero);
void bi_pointer(const void *value, int must_fail, int fail_is_null);
void bi_void(void);

/* ------------------------------------------------------------------------------------------------
 * Values
 * ---------------------------------------------------------------------------------------------- */
extern const char *const bi_empty;
extern const char *const bi_not_utf8;     /* "\xff\xfe": bytes that never occur in UTF-8 */
extern const char *const bi_overlong;     /* "\xc0\xaf": an overlong '/' */
extern const char *const bi_surrogate;    /* "\xed\xa0\x80": a lone UTF-16 surrogate */
const char *bi_long_string(void);         /* 1 MiB of 'a' */

/* Live handles: app 1 (owned loop) and app 2, an anonymous user of app 1, ... */
hearth_app *fx_app(void);
hearth_app *fx_app2(void);
hearth_auth *fx_auth(void);
hearth_auth *fx_auth2(void);
hearth_user *fx_user(void);
hearth_credential *fx_credential(void);
hearth_future *fx_future(void);           /* a completed sign-in of app 1 */
const hearth_auth_result *fx_auth_result(void);
const hearth_user_info *fx_user_info(void); /* a provider of a password user */
hearth_oauth_provider *fx_provider(void);
const hearth_multi_factor_resolver *fx_resolver(void);
const hearth_multi_factor_info *fx_mf_info(void);
const hearth_multi_factor_session *fx_mf_session(void);
hearth_multi_factor_assertion *fx_assertion(void);
const hearth_totp_secret *fx_totp_secret(void);
const hearth_action_code_info *fx_action_code_info(void); /* a checked email sign-in code (BADIN_OOB_CODE) */
hearth_storage_reply *fx_reply(void);     /* live only inside the load callback */
void *fx_hearth_memory(void);             /* memory Hearth allocated (for hearth_free) */
void *fx_user_data(void);

/* Released (or otherwise dead) handles of each kind. */
hearth_app *fx_released_app(void);
hearth_auth *fx_released_auth(void);      /* the auth of a destroyed app */
hearth_user *fx_released_user(void);
hearth_credential *fx_released_credential(void);
hearth_future *fx_released_future(void);
hearth_oauth_provider *fx_released_provider(void);
hearth_multi_factor_assertion *fx_released_assertion(void);
const hearth_user_info *fx_released_user_info(void);   /* from a user snapshot released since */
const hearth_auth_result *fx_released_auth_result(void); /* from a future whose every reference is gone */
const hearth_action_code_info *fx_released_action_code_info(void); /* likewise */
hearth_storage_reply *fx_stale_reply(void); /* kept after its load callback returned */

/* A live handle of another kind, cast: a foreign handle. */
void *fx_foreign(void);
void *fx_foreign_app(void); /* for parameters that take an app: a live user */

/* Options structs: initialized ones, and ones never initialized (struct_size 0). */
hearth_app_options *fx_app_options(void);
hearth_app_options *fx_zero_app_options(void);
hearth_app_options *fx_bad_enum_app_options(void); /* persistence = 99 */
hearth_provider_flow_options *fx_flow_options(void);
hearth_provider_flow_options *fx_zero_flow_options(void);
hearth_phone_auth_options *fx_phone_options(void);
hearth_phone_auth_options *fx_zero_phone_options(void);
hearth_phone_auth_options *fx_other_app_phone_options(void); /* app 1's second-factor session + hint */
hearth_action_code_settings *fx_action_code_settings(void);      /* a sign-in link's: url, handled in the app */
hearth_action_code_settings *fx_zero_action_code_settings(void); /* url set, struct_size 0 */
hearth_phone_listener *fx_phone_listener(void);
hearth_phone_listener *fx_zero_phone_listener(void);
hearth_app **fx_app_out(void);
char *fx_out_buffer(void);                 /* 128 bytes */

/* Callbacks that do nothing. */
void fx_log_cb(void *user_data, hearth_log_level level, const char *message);
void fx_completion_cb(hearth_future *future, void *user_data);
void fx_auth_cb(hearth_auth *auth, void *user_data);
void fx_post_cb(void *user_data, hearth_error status);
void fx_release_cb(void *user_data);
int fx_load_cb(void *user_data, const char *key, hearth_storage_reply *reply);
int fx_save_cb(void *user_data, const char *key, const char *data, size_t length);
int fx_erase_cb(void *user_data, const char *key);
int fx_open_url_cb(void *user_data, const char *url);

#endif
