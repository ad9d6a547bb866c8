/* test_futures.c — futures: status, error, message, typed results, the completion callback, wait, release
 * and *_last_result. */
#include "test.h"

typedef struct completion {
  hearth_app *app;
  atomic_int calls_a;
  atomic_int calls_b;
  hearth_future *seen_future;
  void *seen_user_data;
  int seen_status;
  int seen_error;
  t_seq *order; /* on_done_a / on_done_b append "a" / "b" when set */
} completion;

static void on_done_a(hearth_future *f, void *user_data) {
  completion *c = user_data;
  T_CB_ENTER(c->app);
  c->seen_future = f;
  c->seen_user_data = user_data;
  c->seen_status = hearth_future_status(f);
  c->seen_error = hearth_future_error(f);
  atomic_fetch_add(&c->calls_a, 1);
  if (c->order) t_seq_add(c->order, "a");
  T_CB_EXIT();
}

static void on_done_b(hearth_future *f, void *user_data) {
  (void)f;
  completion *c = user_data;
  T_CB_ENTER(c->app);
  atomic_fetch_add(&c->calls_b, 1);
  if (c->order) t_seq_add(c->order, "b");
  T_CB_EXIT();
}

/* ------------------------------------------------------------------------------------------------
 * Status, error, message, typed results
 * ---------------------------------------------------------------------------------------------- */
TEST(a_pending_future_is_pending_with_an_empty_message_and_no_result, BOTH_LOOPS) {
  hearth_app *app = t_unanswered_app(0);
  hearth_future *f = t_keep_future(hearth_auth_sign_in_anonymously(hearth_auth_get(app)));
  REQUIRE(f != NULL);
  t_settle(20);
  CHECK_INT(hearth_future_status(f), HEARTH_FUTURE_PENDING);
  CHECK_STR(hearth_future_error_message(f), "");
  CHECK(hearth_future_auth_result(f) == NULL);
  CHECK(hearth_future_user(f) == NULL);
  CHECK(hearth_future_string(f) == NULL);
  CHECK_INT(hearth_future_string_count(f), 0);
  CHECK(hearth_future_string_at(f, 0) == NULL);
}

TEST(a_sign_in_future_has_an_auth_result_and_its_user_only, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  hearth_future *f = t_keep_future(hearth_auth_sign_in_anonymously(auth));
  t_await_ok(f);
  CHECK_INT(hearth_future_status(f), HEARTH_FUTURE_COMPLETE);
  CHECK_CODE(hearth_future_error(f), 0);
  CHECK_STR(hearth_future_error_message(f), "");
  const hearth_auth_result *result = hearth_future_auth_result(f);
  REQUIRE(result != NULL);
  const hearth_user *user = hearth_future_user(f);
  REQUIRE(user != NULL);
  CHECK_STR(hearth_user_uid(user), hearth_user_uid(hearth_auth_result_user(result)));
  CHECK_STR(hearth_user_uid(user), t_current_uid(auth));
  CHECK(hearth_future_string(f) == NULL);
  CHECK_INT(hearth_future_string_count(f), 0);
  CHECK(hearth_future_string_at(f, 0) == NULL);
}

TEST(each_kind_of_future_has_only_its_own_result, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *email = t_email("kinds");
  hearth_user *user = t_create_user(auth, email, T_PASSWORD);

  hearth_future *token = t_keep_future(hearth_user_get_token(user, 0));
  t_await_ok(token);
  CHECK(hearth_future_string(token) != NULL);
  CHECK(hearth_future_auth_result(token) == NULL);
  CHECK(hearth_future_user(token) == NULL);
  CHECK_INT(hearth_future_string_count(token), 0);

  hearth_future *providers = t_keep_future(hearth_auth_fetch_providers_for_email(auth, email));
  t_await_ok(providers);
  CHECK_INT(hearth_future_string_count(providers), 1);
  CHECK(hearth_future_string(providers) == NULL);
  CHECK(hearth_future_auth_result(providers) == NULL);
  CHECK(hearth_future_user(providers) == NULL);

  hearth_credential *credential = hearth_credential_create_email(email, T_PASSWORD);
  hearth_future *with_credential = t_keep_future(hearth_auth_sign_in_with_credential(auth, credential));
  hearth_credential_release(credential);
  t_await_ok(with_credential);
  CHECK(hearth_future_user(with_credential) != NULL);
  CHECK(hearth_future_auth_result(with_credential) == NULL);
  CHECK(hearth_future_string(with_credential) == NULL);

  hearth_user *current = t_current_user(auth);
  hearth_future *reload = t_keep_future(hearth_user_reload(current));
  t_await_ok(reload);
  CHECK(hearth_future_user(reload) != NULL);
  CHECK(hearth_future_auth_result(reload) == NULL);
  CHECK(hearth_future_string(reload) == NULL);

  hearth_future *verification = t_keep_future(hearth_user_send_email_verification(current, NULL));
  t_await_ok(verification);
  CHECK(hearth_future_user(verification) == NULL);
  CHECK(hearth_future_auth_result(verification) == NULL);
  CHECK(hearth_future_string(verification) == NULL);
  CHECK_INT(hearth_future_string_count(verification), 0);
}

TEST(a_failed_future_has_a_code_and_a_message_and_no_result, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *email = t_email("failed");
  t_create_user(auth, email, T_PASSWORD);
  CHECK_CODE(hearth_auth_sign_out(auth), 0);
  hearth_future *f = t_keep_future(hearth_auth_sign_in_with_email_and_password(auth, email, "not-the-password"));
  CHECK_FAILS_WITH(f, HEARTH_ERROR_WRONG_PASSWORD);
  CHECK_INT(hearth_future_status(f), HEARTH_FUTURE_COMPLETE);
  CHECK(hearth_future_auth_result(f) == NULL);
  CHECK(hearth_future_user(f) == NULL);
  CHECK(hearth_future_string(f) == NULL);
}

TEST(the_error_message_lives_as_long_as_the_future, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  hearth_future *f = t_keep_future(hearth_auth_create_user_with_email_and_password(auth, t_email("msg"), "123"));
  CHECK_FAILS_WITH(f, HEARTH_ERROR_WEAK_PASSWORD);
  const char *first = hearth_future_error_message(f);
  char copy[512];
  snprintf(copy, sizeof copy, "%s", first ? first : "");
  /* More Hearth work must not disturb the borrowed string. */
  t_sign_in_anonymously(auth);
  CHECK(hearth_future_error_message(f) == first);
  CHECK_STR(first, copy);
}

/* ------------------------------------------------------------------------------------------------
 * The completion callback
 * ---------------------------------------------------------------------------------------------- */
TEST(the_completion_callback_runs_once_with_the_future_and_user_data, BOTH_LOOPS) {
  completion *c = t_alloc(sizeof *c);
  c->app = t_app();
  hearth_future *f = t_keep_future(hearth_auth_sign_in_anonymously(hearth_auth_get(c->app)));
  CHECK_CODE(hearth_future_add_callback(f, on_done_a, c), 0);
  t_await_ok(f);
  REQUIRE_EVENTUALLY(atomic_load(&c->calls_a) == 1);
  CHECK(c->seen_future == f);
  CHECK(c->seen_user_data == c);
  CHECK_INT(c->seen_status, HEARTH_FUTURE_COMPLETE);
  CHECK_CODE(c->seen_error, 0);
  t_settle(50);
  CHECK_INT(atomic_load(&c->calls_a), 1);
}

TEST(the_completion_callback_also_runs_for_a_failure, BOTH_LOOPS) {
  completion *c = t_alloc(sizeof *c);
  c->app = t_app();
  hearth_future *f =
      t_keep_future(hearth_auth_sign_in_with_email_and_password(hearth_auth_get(c->app), t_email("nobody"), "whatever1"));
  CHECK_CODE(hearth_future_add_callback(f, on_done_a, c), 0);
  REQUIRE_EVENTUALLY(atomic_load(&c->calls_a) == 1);
  CHECK_CODE(c->seen_error, HEARTH_ERROR_USER_NOT_FOUND);
}

TEST(every_callback_added_runs_once_in_the_order_added, BOTH_LOOPS) {
  completion *c = t_alloc(sizeof *c);
  c->app = t_unanswered_app(400);
  c->order = t_seq_new();
  hearth_future *f = t_keep_future(hearth_auth_sign_in_anonymously(hearth_auth_get(c->app)));
  CHECK_CODE(hearth_future_add_callback(f, on_done_a, c), 0);
  CHECK_CODE(hearth_future_add_callback(f, on_done_b, c), 0);
  CHECK_CODE(hearth_future_add_callback(f, on_done_a, c), 0);
  REQUIRE_EVENTUALLY(t_seq_count(c->order) == 3);
  t_settle(50);
  CHECK_STR(t_seq_text(c->order), "a,b,a");
  CHECK_CODE(hearth_future_error(f), HEARTH_ERROR_NETWORK_REQUEST_FAILED);
  /* Added once complete: each still runs once, after the earlier ones. */
  CHECK_CODE(hearth_future_add_callback(f, on_done_b, c), 0);
  CHECK_CODE(hearth_future_add_callback(f, on_done_a, c), 0);
  REQUIRE_EVENTUALLY(t_seq_count(c->order) == 5);
  t_settle(50);
  CHECK_STR(t_seq_text(c->order), "a,b,a,b,a");
}

TEST(a_null_callback_is_refused_and_keeps_nothing, BOTH_LOOPS) {
  completion *c = t_alloc(sizeof *c);
  c->app = t_unanswered_app(300);
  hearth_future *f = t_keep_future(hearth_auth_sign_in_anonymously(hearth_auth_get(c->app)));
  CHECK_CODE(hearth_future_add_callback(f, on_done_a, c), 0);
  CHECK_CODE(hearth_future_add_callback(f, NULL, c), HEARTH_ERROR_INVALID_ARGUMENT);
  t_await(f);
  REQUIRE_EVENTUALLY(atomic_load(&c->calls_a) == 1);
  t_settle(100);
  CHECK_INT(atomic_load(&c->calls_a), 1);
}

TEST(a_callback_set_on_a_complete_future_runs_on_a_later_turn, BOTH_LOOPS) {
  completion *c = t_alloc(sizeof *c);
  c->app = t_app();
  hearth_future *f = t_keep_future(hearth_auth_sign_in_anonymously(hearth_auth_get(c->app)));
  t_await_ok(f);
  CHECK_CODE(hearth_future_add_callback(f, on_done_a, c), 0);
  if (t_host()) CHECK_INT(atomic_load(&c->calls_a), 0); /* not inside the call */
  REQUIRE_EVENTUALLY(atomic_load(&c->calls_a) == 1);
  CHECK(c->seen_future == f);
  t_settle(50);
  CHECK_INT(atomic_load(&c->calls_a), 1);
}

typedef struct chain {
  hearth_app *app;
  hearth_future *future;
  atomic_int first_calls;
  atomic_int second_calls;
  atomic_int second_ran_inside_first;
  atomic_int status_after_release;
} chain;

static void chain_second(hearth_future *f, void *user_data) {
  chain *c = user_data;
  T_CB_ENTER(c->app);
  CHECK(f == c->future);
  atomic_fetch_add(&c->second_calls, 1);
  /* A callback may release its own future; the handle stays valid until the callback returns. */
  hearth_future_release(f);
  atomic_store(&c->status_after_release, hearth_future_status(f));
  T_CB_EXIT();
}

static void chain_first(hearth_future *f, void *user_data) {
  chain *c = user_data;
  T_CB_ENTER(c->app);
  atomic_fetch_add(&c->first_calls, 1);
  /* Registering on the same, complete future from inside its callback: runs later, not nested. */
  CHECK_CODE(hearth_future_add_callback(f, chain_second, c), 0);
  atomic_store(&c->second_ran_inside_first, atomic_load(&c->second_calls));
  T_CB_EXIT();
}

TEST(a_callback_may_re_register_on_and_release_its_own_future, BOTH_LOOPS) {
  chain *c = t_alloc(sizeof *c);
  c->app = t_app();
  c->future = hearth_auth_sign_in_anonymously(hearth_auth_get(c->app));
  atomic_store(&c->status_after_release, -1);
  CHECK_CODE(hearth_future_add_callback(c->future, chain_first, c), 0);
  REQUIRE_EVENTUALLY(atomic_load(&c->second_calls) == 1);
  t_settle(50);
  CHECK_INT(atomic_load(&c->first_calls), 1);
  CHECK_INT(atomic_load(&c->second_calls), 1);
  CHECK_INT(atomic_load(&c->second_ran_inside_first), 0);
  CHECK_INT(atomic_load(&c->status_after_release), HEARTH_FUTURE_COMPLETE);
  /* Freed once the callback returned. */
  CHECK_INT(hearth_future_status(c->future), HEARTH_FUTURE_INVALID);
}

/* ------------------------------------------------------------------------------------------------
 * Waiting
 * ---------------------------------------------------------------------------------------------- */
typedef struct timed_wait {
  hearth_future *future;
  int64_t timeout_ms;
  atomic_int rc;
  double elapsed;
} timed_wait;

static void timed_wait_fn(void *user_data) {
  timed_wait *w = user_data;
  double start = t_now();
  atomic_store(&w->rc, hearth_future_wait(w->future, w->timeout_ms));
  w->elapsed = t_now() - start;
}

/* Waits from the test thread (owned loop) or from a helper thread (host loop: the test thread is the loop
 * thread there). */
static int wait_off_the_loop(hearth_future *f, int64_t timeout_ms, double *elapsed) {
  timed_wait *w = t_alloc(sizeof *w);
  w->future = f;
  w->timeout_ms = timeout_ms;
  if (t_host()) t_join(t_spawn(timed_wait_fn, w));
  else timed_wait_fn(w);
  *elapsed = w->elapsed;
  return atomic_load(&w->rc);
}

TEST(waiting_past_the_timeout_returns_timed_out, BOTH_LOOPS) {
  hearth_app *app = t_unanswered_app(0);
  hearth_future *f = t_keep_future(hearth_auth_sign_in_anonymously(hearth_auth_get(app)));
  double elapsed = 0;
  CHECK_CODE(wait_off_the_loop(f, 200, &elapsed), HEARTH_ERROR_TIMED_OUT);
  CHECK(elapsed >= 0.15);
  CHECK(elapsed < T_LIMIT(2.0));
  CHECK_CODE(wait_off_the_loop(f, 0, &elapsed), HEARTH_ERROR_TIMED_OUT);
  CHECK(elapsed < T_LIMIT(0.5));
  CHECK_INT(hearth_future_status(f), HEARTH_FUTURE_PENDING);
}

TEST(waiting_on_a_complete_future_returns_at_once, BOTH_LOOPS) {
  hearth_app *app = t_app();
  hearth_future *f = t_keep_future(hearth_auth_sign_in_anonymously(hearth_auth_get(app)));
  t_await_ok(f);
  double elapsed = 0;
  CHECK_CODE(wait_off_the_loop(f, 0, &elapsed), 0);
  CHECK_CODE(wait_off_the_loop(f, -1, &elapsed), 0);
  CHECK(elapsed < T_LIMIT(0.5));
}

TEST(waiting_forever_returns_when_the_future_completes, MODE_OWNED) {
  hearth_app *app = t_app();
  hearth_future *f = t_keep_future(hearth_auth_sign_in_anonymously(hearth_auth_get(app)));
  CHECK_CODE(hearth_future_wait(f, -1), 0);
  CHECK_INT(hearth_future_status(f), HEARTH_FUTURE_COMPLETE);
  CHECK_CODE(hearth_future_error(f), 0);
}

TEST(waiting_on_the_host_loop_thread_would_deadlock, MODE_HOST) {
  hearth_app *app = t_unanswered_app(0);
  hearth_auth *auth = hearth_auth_get(app);
  t_settle(10);
  hearth_future *f = t_keep_future(hearth_auth_sign_in_anonymously(auth));
  t_settle(10);
  double start = t_now();
  CHECK_CODE(hearth_future_wait(f, 5000), HEARTH_ERROR_WOULD_DEADLOCK);
  CHECK_CODE(hearth_future_wait(f, -1), HEARTH_ERROR_WOULD_DEADLOCK);
  CHECK(t_now() - start < T_LIMIT(0.5));
}

typedef struct loop_wait {
  hearth_app *app;
  hearth_future *future;
  atomic_int rc;
  atomic_int done;
  double elapsed;
} loop_wait;

static void wait_on_loop_thread(void *user_data, hearth_error status) {
  (void)status;
  loop_wait *w = user_data;
  T_CB_ENTER(w->app);
  double start = t_now();
  atomic_store(&w->rc, hearth_future_wait(w->future, 5000));
  w->elapsed = t_now() - start;
  atomic_store(&w->done, 1);
  T_CB_EXIT();
}

TEST(waiting_on_the_loop_thread_inside_a_callback_would_deadlock, BOTH_LOOPS) {
  loop_wait *w = t_alloc(sizeof *w);
  w->app = t_unanswered_app(0);
  w->future = t_keep_future(hearth_auth_sign_in_anonymously(hearth_auth_get(w->app)));
  atomic_store(&w->rc, -1);
  CHECK_CODE(hearth_app_post(w->app, wait_on_loop_thread, w), 0);
  REQUIRE_EVENTUALLY(atomic_load(&w->done) == 1);
  CHECK_CODE(atomic_load(&w->rc), HEARTH_ERROR_WOULD_DEADLOCK);
  CHECK(w->elapsed < T_LIMIT(0.5));
}

/* ------------------------------------------------------------------------------------------------
 * Release
 * ---------------------------------------------------------------------------------------------- */
/* Heap user_data, freed where the contract says: in the callback's one call. */
typedef struct owned_data {
  hearth_app *app;
  atomic_int *frees;
  int seen_status;
  int seen_error;
  char payload[32];
} owned_data;

static void free_in_callback(hearth_future *f, void *user_data) {
  owned_data *d = user_data;
  T_CB_ENTER(d->app);
  /* The handle was released before the operation finished, yet it is readable here. */
  d->seen_status = hearth_future_status(f);
  d->seen_error = hearth_future_error(f);
  atomic_fetch_add(d->frees, 1);
  T_CB_EXIT();
  free(d);
}

TEST(a_callback_of_a_released_future_still_runs_once_and_may_free_its_user_data, BOTH_LOOPS) {
  hearth_app *app = t_app();
  hearth_auth *auth = hearth_auth_get(app);
  atomic_int *frees = t_alloc(sizeof *frees);
  hearth_future *f = hearth_auth_sign_in_anonymously(auth);
  owned_data *d = calloc(1, sizeof *d);
  REQUIRE(d != NULL);
  d->app = app;
  d->frees = frees;
  CHECK_CODE(hearth_future_add_callback(f, free_in_callback, d), 0);
  hearth_future_release(f);
  if (t_host()) CHECK_INT(atomic_load(frees), 0);
  /* The operation goes on, and the callback runs when it completes. */
  hearth_future *last = t_keep_future(hearth_auth_last_result(auth, HEARTH_OP_AUTH_SIGN_IN_ANONYMOUSLY));
  REQUIRE(last != NULL);
  t_await_ok(last);
  REQUIRE_EVENTUALLY(atomic_load(frees) == 1);
  t_settle(100);
  CHECK_INT(atomic_load(frees), 1);
  CHECK(t_keep_user(hearth_auth_current_user(auth)) != NULL);
  /* The released handle is gone once its callback returned. */
  CHECK_INT(hearth_future_status(f), HEARTH_FUTURE_INVALID);
}

TEST(a_released_future_is_an_invalid_handle, BOTH_LOOPS) {
  completion *c = t_alloc(sizeof *c);
  c->app = t_app();
  hearth_future *f = hearth_auth_sign_in_anonymously(hearth_auth_get(c->app));
  t_await_ok(f);
  hearth_future_release(f);
  CHECK_INT(hearth_future_status(f), HEARTH_FUTURE_INVALID);
  CHECK_CODE(hearth_future_error(f), HEARTH_ERROR_INVALID_HANDLE);
  CHECK(hearth_future_error_message(f) == NULL);
  CHECK(hearth_future_auth_result(f) == NULL);
  CHECK(hearth_future_user(f) == NULL);
  CHECK(hearth_future_string(f) == NULL);
  CHECK_INT(hearth_future_string_count(f), 0);
  CHECK(hearth_future_string_at(f, 0) == NULL);
  CHECK_CODE(hearth_future_add_callback(f, on_done_a, c), HEARTH_ERROR_INVALID_HANDLE);
  CHECK_CODE(hearth_future_wait(f, 10), HEARTH_ERROR_INVALID_HANDLE);
  CHECK(hearth_future_retain(f) == NULL);
  hearth_future_release(f); /* twice: still no crash */
  t_settle(50);
  CHECK_INT(atomic_load(&c->calls_a), 0);
}

typedef struct slow_completion {
  hearth_app *app;
  hearth_future *future;
  atomic_int started;
  atomic_int finished;
  atomic_int release_returned;
  atomic_int status_after_release;
  atomic_int error_after_release;
} slow_completion;

static void slow_on_completion(hearth_future *f, void *user_data) {
  slow_completion *s = user_data;
  T_CB_ENTER(s->app);
  atomic_store(&s->started, 1);
  while (!atomic_load(&s->release_returned)) t_sleep_ms(1);
  /* Released by another thread while this runs: still this callback's to read. */
  atomic_store(&s->status_after_release, hearth_future_status(f));
  atomic_store(&s->error_after_release, hearth_future_error(f));
  atomic_store(&s->finished, 1);
  T_CB_EXIT();
}

static void release_once_started(void *user_data) {
  slow_completion *s = user_data;
  while (!atomic_load(&s->started)) t_sleep_ms(1);
  hearth_future_release(s->future);
  atomic_store(&s->release_returned, 1);
}

TEST(releasing_a_future_while_its_callback_runs_keeps_the_handle_until_the_callback_returns, BOTH_LOOPS) {
  slow_completion *s = t_alloc(sizeof *s);
  s->app = t_app();
  s->future = hearth_auth_sign_in_anonymously(hearth_auth_get(s->app));
  REQUIRE(s->future != NULL);
  CHECK_CODE(hearth_future_add_callback(s->future, slow_on_completion, s), 0);
  t_thread *releaser = t_spawn(release_once_started, s);
  double deadline = t_now() + T_WAIT_SECONDS;
  while (!atomic_load(&s->finished) && t_now() < deadline) t_turn();
  t_join(releaser);
  REQUIRE(atomic_load(&s->finished));
  CHECK_INT(atomic_load(&s->status_after_release), HEARTH_FUTURE_COMPLETE);
  CHECK_CODE(atomic_load(&s->error_after_release), 0);
  t_settle(20);
  CHECK_INT(hearth_future_status(s->future), HEARTH_FUTURE_INVALID);
}

/* ------------------------------------------------------------------------------------------------
 * Retain
 * ---------------------------------------------------------------------------------------------- */
TEST(a_retained_future_is_another_reference_with_its_own_callback, BOTH_LOOPS) {
  completion *c = t_alloc(sizeof *c);
  c->app = t_app();
  hearth_future *f = hearth_auth_sign_in_anonymously(hearth_auth_get(c->app));
  REQUIRE(f != NULL);
  hearth_future *retained = t_keep_future(hearth_future_retain(f));
  REQUIRE(retained != NULL);
  CHECK(retained != f);
  CHECK_CODE(hearth_future_add_callback(f, on_done_a, c), 0);
  CHECK_CODE(hearth_future_add_callback(retained, on_done_b, c), 0);
  t_await_ok(f);
  REQUIRE_EVENTUALLY(atomic_load(&c->calls_a) == 1 && atomic_load(&c->calls_b) == 1);
  CHECK_INT(hearth_future_status(retained), HEARTH_FUTURE_COMPLETE);
  CHECK_CODE(hearth_future_error(retained), 0);
  char uid[256];
  snprintf(uid, sizeof uid, "%s", hearth_user_uid(hearth_future_user(f)));
  hearth_future_release(f);
  CHECK_STR(hearth_user_uid(hearth_auth_result_user(hearth_future_auth_result(retained))), uid);
  /* Retaining a complete future works too, and the copy has no callback of its own yet. */
  hearth_future *late = t_keep_future(hearth_future_retain(retained));
  REQUIRE(late != NULL);
  CHECK_INT(hearth_future_status(late), HEARTH_FUTURE_COMPLETE);
  t_settle(50);
  CHECK_INT(atomic_load(&c->calls_a), 1);
  CHECK_INT(atomic_load(&c->calls_b), 1);
}

/* ------------------------------------------------------------------------------------------------
 * Last results
 * ---------------------------------------------------------------------------------------------- */
TEST(last_result_is_a_separate_reference_to_the_same_operation, BOTH_LOOPS) {
  completion *c = t_alloc(sizeof *c);
  c->app = t_app();
  hearth_auth *auth = hearth_auth_get(c->app);
  hearth_future *f = hearth_auth_sign_in_anonymously(auth);
  hearth_future *last = t_keep_future(hearth_auth_last_result(auth, HEARTH_OP_AUTH_SIGN_IN_ANONYMOUSLY));
  REQUIRE(last != NULL);
  CHECK(last != f);
  /* Each reference has its own callback slot. */
  CHECK_CODE(hearth_future_add_callback(f, on_done_a, c), 0);
  CHECK_CODE(hearth_future_add_callback(last, on_done_b, c), 0);
  t_await_ok(f);
  REQUIRE_EVENTUALLY(atomic_load(&c->calls_a) == 1 && atomic_load(&c->calls_b) == 1);
  CHECK_INT(hearth_future_status(last), HEARTH_FUTURE_COMPLETE);
  CHECK_CODE(hearth_future_error(last), 0);
  char uid[256];
  snprintf(uid, sizeof uid, "%s", hearth_user_uid(hearth_future_user(f)));
  hearth_future_release(f);
  /* The other reference stays valid. */
  CHECK_INT(hearth_future_status(last), HEARTH_FUTURE_COMPLETE);
  CHECK_STR(hearth_user_uid(hearth_future_user(last)), uid);
}

TEST(last_result_follows_the_newest_call, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const char *email = t_email("newest");
  t_create_user(auth, email, T_PASSWORD);
  hearth_future *known = t_keep_future(hearth_auth_fetch_providers_for_email(auth, email));
  t_await_ok(known);
  hearth_future *unknown = t_keep_future(hearth_auth_fetch_providers_for_email(auth, t_email("unknown")));
  t_await_ok(unknown);
  hearth_future *last = t_keep_future(hearth_auth_last_result(auth, HEARTH_OP_AUTH_FETCH_PROVIDERS_FOR_EMAIL));
  REQUIRE(last != NULL);
  CHECK_INT(hearth_future_string_count(known), 1);
  CHECK_INT(hearth_future_string_count(unknown), 0);
  CHECK_INT(hearth_future_string_count(last), 0);
}

TEST(every_operation_records_its_last_result, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  const hearth_operation auth_lasts[] = {
      HEARTH_OP_AUTH_SIGN_IN_ANONYMOUSLY,
      HEARTH_OP_AUTH_CREATE_USER_WITH_EMAIL_AND_PASSWORD,
      HEARTH_OP_AUTH_SIGN_IN_WITH_EMAIL_AND_PASSWORD,
      HEARTH_OP_AUTH_SIGN_IN_WITH_CUSTOM_TOKEN,
      HEARTH_OP_AUTH_SIGN_IN_WITH_CREDENTIAL,
      HEARTH_OP_AUTH_SIGN_IN_AND_RETRIEVE_DATA_WITH_CREDENTIAL,
      HEARTH_OP_AUTH_SEND_PASSWORD_RESET_EMAIL,
      HEARTH_OP_AUTH_FETCH_PROVIDERS_FOR_EMAIL,
      HEARTH_OP_USER_GET_TOKEN,
      HEARTH_OP_USER_RELOAD,
      HEARTH_OP_USER_UPDATE_USER_PROFILE,
      HEARTH_OP_USER_UPDATE_PASSWORD,
      HEARTH_OP_USER_UPDATE_EMAIL,
      HEARTH_OP_USER_SEND_EMAIL_VERIFICATION,
      HEARTH_OP_USER_SEND_EMAIL_VERIFICATION_BEFORE_UPDATING_EMAIL,
      HEARTH_OP_USER_DELETE,
  };
  const size_t count = sizeof auth_lasts / sizeof auth_lasts[0];
  for (size_t i = 0; i < count; i++) {
    if (hearth_auth_last_result(auth, auth_lasts[i]) != NULL) t_fail(__FILE__, __LINE__, "last result %zu is not NULL before its operation ran", i);
  }

  const char *email = t_email("last");
  hearth_credential *credential = hearth_credential_create_email(email, T_PASSWORD);
  hearth_future *ops[16];
  ops[0] = hearth_auth_sign_in_anonymously(auth);
  t_await(ops[0]);
  ops[1] = hearth_auth_create_user_with_email_and_password(auth, email, T_PASSWORD);
  t_await(ops[1]);
  ops[2] = hearth_auth_sign_in_with_email_and_password(auth, email, T_PASSWORD);
  t_await(ops[2]);
  ops[3] = hearth_auth_sign_in_with_custom_token(auth, "{\"uid\":\"last-result-user\"}");
  t_await(ops[3]);
  ops[4] = hearth_auth_sign_in_with_credential(auth, credential);
  t_await(ops[4]);
  ops[5] = hearth_auth_sign_in_and_retrieve_data_with_credential(auth, credential);
  t_await(ops[5]);
  hearth_credential_release(credential);
  ops[6] = hearth_auth_send_password_reset_email(auth, email, NULL);
  t_await(ops[6]);
  ops[7] = hearth_auth_fetch_providers_for_email(auth, email);
  t_await(ops[7]);
  hearth_user *user = t_current_user(auth);
  ops[8] = hearth_user_get_token(user, 0);
  t_await(ops[8]);
  ops[9] = hearth_user_reload(user);
  t_await(ops[9]);
  ops[10] = hearth_user_update_user_profile(user, "Last Result", NULL);
  t_await(ops[10]);
  ops[11] = hearth_user_update_password(user, T_PASSWORD "-2");
  t_await(ops[11]);
  ops[12] = hearth_user_update_email(user, t_email("last-changed"));
  t_await(ops[12]);
  user = t_current_user(auth);
  ops[13] = hearth_user_send_email_verification(user, NULL);
  t_await(ops[13]);
  ops[14] = hearth_user_send_email_verification_before_updating_email(user, t_email("last-new"), NULL);
  t_await(ops[14]);
  ops[15] = hearth_user_delete(user);
  t_await(ops[15]);

  for (size_t i = 0; i < count; i++) {
    hearth_future *op = t_keep_future(ops[i]);
    if (hearth_future_error(op) != 0)
      t_fail(__FILE__, __LINE__, "operation %zu failed: %s: %s", i, hearth_error_name(hearth_future_error(op)),
             hearth_future_error_message(op));
    hearth_future *last = t_keep_future(hearth_auth_last_result(auth, auth_lasts[i]));
    if (!last) {
      t_fail(__FILE__, __LINE__, "last result %zu is NULL after its operation ran", i);
      continue;
    }
    CHECK_INT(hearth_future_status(last), HEARTH_FUTURE_COMPLETE);
    CHECK_CODE(hearth_future_error(last), hearth_future_error(op));
    CHECK((hearth_future_auth_result(last) != NULL) == (hearth_future_auth_result(op) != NULL));
    CHECK((hearth_future_user(last) != NULL) == (hearth_future_user(op) != NULL));
    CHECK_STR(hearth_future_string(last), hearth_future_string(op));
  }
  /* Last results belong to their Auth. */
  hearth_auth *other = hearth_auth_get(t_app());
  for (size_t i = 0; i < count; i++) {
    if (hearth_auth_last_result(other, auth_lasts[i]) != NULL) t_fail(__FILE__, __LINE__, "last result %zu shows up on another app's auth", i);
  }
}
