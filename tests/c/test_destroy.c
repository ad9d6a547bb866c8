/* test_destroy.c — hearth_app_destroy: bounded, cancels what is in flight, and no callback of the app runs
 * after it returns — whether it is called from the test thread, from a callback on the loop thread, or
 * from another thread while the loop is running. */
#include "test.h"

#define OPS 4

typedef struct inflight {
  hearth_app *app;
  hearth_future *ops[OPS];
  atomic_int callbacks;
  atomic_int reposts;
  atomic_int destroy_returned;
  double destroy_seconds;
  int status_after[OPS];
  int error_after[OPS];
} inflight;

static void op_done(hearth_future *f, void *user_data) {
  (void)f;
  inflight *r = user_data;
  T_CB_ENTER(r->app);
  atomic_fetch_add(&r->callbacks, 1);
  T_CB_EXIT();
}

/* Four operations to a server that never answers, each with a completion callback. */
static inflight *start_unanswered_operations(void) {
  inflight *r = t_alloc(sizeof *r);
  r->app = t_unanswered_app(0);
  hearth_auth *auth = hearth_auth_get(r->app);
  const char *email = t_email("inflight");
  r->ops[0] = t_keep_future(hearth_auth_sign_in_anonymously(auth));
  r->ops[1] = t_keep_future(hearth_auth_create_user_with_email_and_password(auth, email, T_PASSWORD));
  r->ops[2] = t_keep_future(hearth_auth_fetch_providers_for_email(auth, email));
  r->ops[3] = t_keep_future(hearth_auth_send_password_reset_email(auth, email));
  for (int i = 0; i < OPS; i++) {
    REQUIRE(r->ops[i] != NULL);
    CHECK_CODE(hearth_future_on_completion(r->ops[i], op_done, r), 0);
  }
  t_settle(50); /* the requests reach the server and wait there */
  for (int i = 0; i < OPS; i++) CHECK_INT(hearth_future_status(r->ops[i]), HEARTH_FUTURE_PENDING);
  return r;
}

/* Called right after hearth_app_destroy returned, on whichever thread called it. */
static void record_after_destroy(inflight *r, double started) {
  r->destroy_seconds = t_now() - started;
  t_app_destroyed(r->app);
  for (int i = 0; i < OPS; i++) {
    r->status_after[i] = hearth_future_status(r->ops[i]);
    r->error_after[i] = hearth_future_error(r->ops[i]);
  }
  atomic_store(&r->destroy_returned, 1);
}

static void check_cancelled(inflight *r) {
  CHECK(r->destroy_seconds < T_LIMIT(1.0)); /* never waits on the network */
  for (int i = 0; i < OPS; i++) {
    CHECK_INT(r->status_after[i], HEARTH_FUTURE_COMPLETE);
    CHECK_CODE(r->error_after[i], HEARTH_ERROR_CANCELLED);
    const char *message = hearth_future_error_message(r->ops[i]);
    CHECK(message != NULL && *message);
  }
  t_settle(200);
  CHECK_INT(atomic_load(&r->callbacks), 0); /* cancelled futures never call back */
}

/* ------------------------------------------------------------------------------------------------ */
TEST(destroying_the_app_cancels_operations_in_flight_without_callbacks, BOTH_LOOPS) {
  inflight *r = start_unanswered_operations();
  double started = t_now();
  t_app_destroying(r->app);
  hearth_app_destroy(r->app);
  record_after_destroy(r, started);
  check_cancelled(r);
  for (int i = 0; i < OPS; i++) CHECK_CODE(hearth_future_on_completion(r->ops[i], op_done, r), HEARTH_ERROR_APP_DESTROYED);
  t_settle(50);
  CHECK_INT(atomic_load(&r->callbacks), 0);
}

static void destroy_on_loop_thread(void *user_data) {
  inflight *r = user_data;
  T_CB_ENTER(r->app);
  double started = t_now();
  t_app_destroying(r->app);
  hearth_app_destroy(r->app);
  record_after_destroy(r, started);
  T_CB_EXIT();
}

TEST(destroying_the_app_from_a_callback_on_its_loop_thread, BOTH_LOOPS) {
  inflight *r = start_unanswered_operations();
  CHECK_CODE(hearth_app_post(r->app, destroy_on_loop_thread, r), 0);
  REQUIRE_EVENTUALLY(atomic_load(&r->destroy_returned) == 1);
  check_cancelled(r);
}

/* ------------------------------------------------------------------------------------------------ */
typedef struct self_destruct {
  hearth_app *app;
  hearth_future *other;
  atomic_int destroyed;
  atomic_int other_callbacks;
  int other_status_after;
  int other_error_after;
  int other_callbacks_at_destroy;
} self_destruct;

static void other_done(hearth_future *f, void *user_data) {
  (void)f;
  self_destruct *s = user_data;
  T_CB_ENTER(s->app);
  atomic_fetch_add(&s->other_callbacks, 1);
  T_CB_EXIT();
}

static void destroy_in_completion(hearth_future *f, void *user_data) {
  self_destruct *s = user_data;
  T_CB_ENTER(s->app);
  CHECK_CODE(hearth_future_error(f), 0);
  t_app_destroying(s->app);
  hearth_app_destroy(s->app);
  t_app_destroyed(s->app);
  s->other_status_after = hearth_future_status(s->other);
  s->other_error_after = hearth_future_error(s->other);
  s->other_callbacks_at_destroy = atomic_load(&s->other_callbacks);
  atomic_store(&s->destroyed, 1);
  T_CB_EXIT();
}

TEST(destroying_the_app_from_a_completion_callback, BOTH_LOOPS) {
  self_destruct *s = t_alloc(sizeof *s);
  s->app = t_app();
  hearth_auth *auth = hearth_auth_get(s->app);
  hearth_future *first = t_keep_future(hearth_auth_sign_in_anonymously(auth));
  s->other = t_keep_future(hearth_auth_fetch_providers_for_email(auth, t_email("other")));
  CHECK_CODE(hearth_future_on_completion(s->other, other_done, s), 0);
  CHECK_CODE(hearth_future_on_completion(first, destroy_in_completion, s), 0);
  REQUIRE_EVENTUALLY(atomic_load(&s->destroyed) == 1);
  t_settle(200);
  CHECK_INT(s->other_status_after, HEARTH_FUTURE_COMPLETE);
  /* The other operation either finished (and called back) before the destroy, or was cancelled. */
  if (s->other_error_after == HEARTH_ERROR_CANCELLED) CHECK_INT(s->other_callbacks_at_destroy, 0);
  else CHECK_CODE(s->other_error_after, 0);
  CHECK_INT(atomic_load(&s->other_callbacks), s->other_callbacks_at_destroy);
  CHECK_INT(hearth_future_status(first), HEARTH_FUTURE_COMPLETE);
  CHECK_CODE(hearth_future_error(first), 0);
}

/* ------------------------------------------------------------------------------------------------ */
static void repost(void *user_data) {
  inflight *r = user_data;
  T_CB_ENTER(r->app);
  atomic_fetch_add(&r->reposts, 1);
  /* Racing the destroy on another thread: an error code is fine, a crash is not. */
  int rc = hearth_app_post(r->app, repost, r);
  if (rc != 0 && rc != HEARTH_ERROR_INVALID_HANDLE && rc != HEARTH_ERROR_APP_DESTROYED)
    t_fail(__FILE__, __LINE__, "hearth_app_post during destroy returned %s", hearth_error_name(rc));
  T_CB_EXIT();
}

static void destroy_from_thread(void *user_data) {
  inflight *r = user_data;
  t_sleep_ms(50);
  double started = t_now();
  t_app_destroying(r->app);
  hearth_app_destroy(r->app);
  record_after_destroy(r, started);
}

TEST(destroying_the_app_from_another_thread_while_its_loop_runs, BOTH_LOOPS) {
  inflight *r = start_unanswered_operations();
  CHECK_CODE(hearth_app_post(r->app, repost, r), 0); /* keeps callbacks coming until the destroy */
  t_thread *destroyer = t_spawn(destroy_from_thread, r);
  double deadline = t_now() + T_WAIT_SECONDS;
  while (!atomic_load(&r->destroy_returned) && t_now() < deadline) t_turn();
  t_join(destroyer);
  REQUIRE(atomic_load(&r->destroy_returned));
  CHECK(atomic_load(&r->reposts) > 0);
  int reposts_at_destroy = atomic_load(&r->reposts);
  check_cancelled(r);
  CHECK_INT(atomic_load(&r->reposts), reposts_at_destroy);
}

/* ------------------------------------------------------------------------------------------------
 * A callback that is running when another thread destroys the app finishes before destroy returns: after
 * destroy returns, no callback of the app runs, so the host may free what its callbacks use.
 * ---------------------------------------------------------------------------------------------- */
typedef struct running_callback {
  hearth_app *app;
  atomic_int started;
  atomic_int finished;
  atomic_int finished_when_destroy_returned;
  atomic_int destroy_returned;
} running_callback;

static void slow_callback(void *user_data) {
  running_callback *r = user_data;
  T_CB_ENTER(r->app);
  atomic_store(&r->started, 1);
  t_sleep_ms(300);
  atomic_store(&r->finished, 1);
  T_CB_EXIT();
}

static void destroy_once_started(void *user_data) {
  running_callback *r = user_data;
  while (!atomic_load(&r->started)) t_sleep_ms(1);
  t_app_destroying(r->app);
  hearth_app_destroy(r->app);
  atomic_store(&r->finished_when_destroy_returned, atomic_load(&r->finished));
  t_app_destroyed(r->app);
  atomic_store(&r->destroy_returned, 1);
}

TEST(destroy_from_another_thread_returns_only_after_a_running_callback_finished, BOTH_LOOPS) {
  running_callback *r = t_alloc(sizeof *r);
  r->app = t_app();
  CHECK_CODE(hearth_app_post(r->app, slow_callback, r), 0);
  t_thread *destroyer = t_spawn(destroy_once_started, r);
  double deadline = t_now() + T_WAIT_SECONDS;
  while (!atomic_load(&r->destroy_returned) && t_now() < deadline) t_turn();
  t_join(destroyer);
  REQUIRE(atomic_load(&r->destroy_returned));
  CHECK_INT(atomic_load(&r->finished_when_destroy_returned), 1);
}

/* ------------------------------------------------------------------------------------------------ */
typedef struct pending_calls {
  hearth_app *app;
  atomic_int calls;
} pending_calls;

static void pending_listener(hearth_auth *auth, void *user_data) {
  (void)auth;
  pending_calls *p = user_data;
  T_CB_ENTER(p->app);
  atomic_fetch_add(&p->calls, 1);
  T_CB_EXIT();
}

static void pending_post(void *user_data) {
  pending_calls *p = user_data;
  T_CB_ENTER(p->app);
  atomic_fetch_add(&p->calls, 1);
  T_CB_EXIT();
}

TEST(destroying_the_app_drops_its_pending_listener_calls_and_posts, BOTH_LOOPS) {
  pending_calls *p = t_alloc(sizeof *p);
  p->app = t_app();
  hearth_auth *auth = hearth_auth_get(p->app);
  CHECK(hearth_auth_add_auth_state_listener(auth, pending_listener, p) > 0);
  CHECK(hearth_auth_add_id_token_listener(auth, pending_listener, p) > 0);
  CHECK_CODE(hearth_app_post(p->app, pending_post, p), 0);
  t_app_destroy(p->app);
  int calls_at_destroy = atomic_load(&p->calls);
  if (t_host()) CHECK_INT(calls_at_destroy, 0);
  t_settle(100);
  CHECK_INT(atomic_load(&p->calls), calls_at_destroy);
}

/* ------------------------------------------------------------------------------------------------ */
static void never_called(hearth_future *f, void *user_data) {
  (void)f;
  (void)user_data;
  t_fail(__FILE__, __LINE__, "a callback registered after destroy ran");
}

TEST(futures_users_and_credentials_outlive_their_app, BOTH_LOOPS) {
  hearth_app *app = t_app();
  hearth_auth *auth = hearth_auth_get(app);
  const char *email = t_email("outlive");
  hearth_future *created = t_keep_future(hearth_auth_create_user_with_email_and_password(auth, email, T_PASSWORD));
  t_await_ok(created);
  hearth_user *user = t_current_user(auth);
  hearth_credential *credential = hearth_email_credential(email, T_PASSWORD);
  t_app_destroy(app);

  CHECK_INT(hearth_future_status(created), HEARTH_FUTURE_COMPLETE);
  CHECK_CODE(hearth_future_error(created), 0);
  const hearth_auth_result *result = hearth_future_auth_result(created);
  REQUIRE(result != NULL);
  CHECK_STR(hearth_user_email(hearth_auth_result_user(result)), email);
  CHECK_STR(hearth_user_email(user), email);
  CHECK_INT(hearth_user_provider_data_count(user), 1);
  CHECK_INT(hearth_credential_is_valid(credential), 1);
  CHECK_STR(hearth_credential_provider(credential), "password");
  hearth_credential_release(credential);

  /* Operations on a user of a destroyed app fail cleanly. */
  CHECK_FAILS_WITH(t_keep_future(hearth_user_get_token(user, 0)), HEARTH_ERROR_APP_DESTROYED);
  CHECK_FAILS_WITH(t_keep_future(hearth_user_reload(user)), HEARTH_ERROR_APP_DESTROYED);
  CHECK_FAILS_WITH(t_keep_future(hearth_user_update_user_profile(user, "x", NULL)), HEARTH_ERROR_APP_DESTROYED);
  CHECK_FAILS_WITH(t_keep_future(hearth_user_delete(user)), HEARTH_ERROR_APP_DESTROYED);
  CHECK_CODE(hearth_future_on_completion(created, never_called, NULL), HEARTH_ERROR_APP_DESTROYED);
  t_settle(50);
}

static void post_never_runs(void *user_data) {
  (void)user_data;
  t_fail(__FILE__, __LINE__, "work posted to a destroyed app ran");
}

static void listener_never_runs(hearth_auth *auth, void *user_data) {
  (void)auth;
  (void)user_data;
  t_fail(__FILE__, __LINE__, "a listener added to a destroyed app ran");
}

TEST(a_destroyed_apps_handles_are_rejected, BOTH_LOOPS) {
  hearth_app *app = t_app();
  hearth_auth *auth = hearth_auth_get(app);
  t_sign_in_anonymously(auth);
  t_app_destroy(app);
  CHECK(hearth_app_name(app) == NULL);
  CHECK(hearth_app_get_user_data(app) == NULL);
  hearth_app_set_user_data(app, &app);
  CHECK_CODE(hearth_app_post(app, post_never_runs, NULL), HEARTH_ERROR_INVALID_HANDLE);
  CHECK_INT(hearth_app_is_loop_thread(app), 0);
  CHECK(hearth_auth_get(app) == NULL);
  CHECK(hearth_auth_app(auth) == NULL);
  CHECK(hearth_auth_current_user(auth) == NULL);
  CHECK(hearth_auth_sign_in_anonymously(auth) == NULL);
  CHECK(hearth_auth_fetch_providers_for_email(auth, "a@example.com") == NULL);
  CHECK(hearth_auth_sign_in_anonymously_last_result(auth) == NULL);
  CHECK(hearth_user_get_token_last_result(auth) == NULL);
  CHECK_CODE(hearth_auth_sign_out(auth), HEARTH_ERROR_INVALID_HANDLE);
  CHECK_CODE(hearth_auth_use_emulator(auth, "127.0.0.1", 9099), HEARTH_ERROR_INVALID_HANDLE);
  CHECK_CODE(hearth_auth_set_language_code(auth, "en"), HEARTH_ERROR_INVALID_HANDLE);
  CHECK(hearth_auth_language_code(auth) == NULL);
  CHECK_INT(hearth_auth_add_auth_state_listener(auth, listener_never_runs, NULL), 0);
  CHECK_INT(hearth_auth_add_id_token_listener(auth, listener_never_runs, NULL), 0);
  CHECK_CODE(hearth_auth_remove_auth_state_listener(auth, 1), HEARTH_ERROR_INVALID_HANDLE);
  CHECK_CODE(hearth_auth_remove_id_token_listener(auth, 1), HEARTH_ERROR_INVALID_HANDLE);
  hearth_app_destroy(app); /* a second destroy of the same handle is harmless */
  t_settle(50);
}
