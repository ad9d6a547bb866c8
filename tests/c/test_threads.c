/* test_threads.c — the threading contract: a host loop gets no threads, callbacks run on the loop thread
 * from inside uv_run and never re-entrantly, idle Hearth never keeps a host loop alive. */
#include "test.h"

typedef struct thread_watch {
  int max_seen;
} thread_watch;

/* Pumps the host loop until the future completes, sampling the thread count every turn so that even a
 * short-lived helper thread (e.g. a resolver) is seen. */
static int await_watching(hearth_future *f, thread_watch *watch) {
  REQUIRE(f != NULL);
  double deadline = t_now() + T_WAIT_SECONDS;
  while (hearth_future_status(f) == HEARTH_FUTURE_PENDING && t_now() < deadline) {
    t_uv_run(UV_RUN_NOWAIT);
    int n = t_thread_count();
    if (n > watch->max_seen) watch->max_seen = n;
  }
  REQUIRE_INT(hearth_future_status(f), HEARTH_FUTURE_COMPLETE);
  int rc = hearth_future_error(f);
  if (rc != 0) t_fail(__FILE__, __LINE__, "operation failed: %s: %s", hearth_error_name(rc), hearth_future_error_message(f));
  hearth_future_release(f);
  return rc;
}

static void count_listener_call(hearth_auth *auth, void *user_data) {
  T_CB_ENTER(hearth_auth_app(auth));
  atomic_fetch_add((atomic_int *)user_data, 1);
  T_CB_EXIT();
}

/* Runs first, before any other test could have started a thread in this process. */
TEST_ORDERED(a_host_loop_app_creates_no_threads, MODE_HOST, 0) {
  int before = t_thread_count();
  REQUIRE(before > 0);
  thread_watch watch = {before};

  hearth_app_options options;
  t_options(&options);
  hearth_app *app = t_app_create(&options);
  hearth_auth *auth = hearth_auth_get(app);
  /* An IP literal: curl resolves it without a resolver thread. */
  CHECK_CODE(hearth_auth_use_emulator(auth, "127.0.0.1", emu_port()), 0);
  atomic_int *listener_calls = t_alloc(sizeof *listener_calls);
  CHECK(hearth_auth_add_auth_state_listener(auth, count_listener_call, NULL, listener_calls) > 0);
  CHECK(hearth_auth_add_id_token_listener(auth, count_listener_call, NULL, listener_calls) > 0);

  const char *email = t_email("threads");
  await_watching(hearth_auth_sign_in_anonymously(auth), &watch);
  hearth_user *user = t_current_user(auth);
  await_watching(hearth_user_get_token(user, 1), &watch);
  await_watching(hearth_user_update_user_profile(user, "Thread Counter", NULL), &watch);
  await_watching(hearth_user_reload(user), &watch);
  CHECK_CODE(hearth_auth_sign_out(auth), 0);
  await_watching(hearth_auth_create_user_with_email_and_password(auth, email, T_PASSWORD), &watch);
  CHECK_CODE(hearth_auth_sign_out(auth), 0);
  await_watching(hearth_auth_sign_in_with_email_and_password(auth, email, T_PASSWORD), &watch);
  await_watching(hearth_auth_fetch_providers_for_email(auth, email), &watch);
  await_watching(hearth_auth_send_password_reset_email(auth, email, NULL), &watch);
  hearth_user *email_user = t_current_user(auth);
  await_watching(hearth_user_send_email_verification(email_user, NULL), &watch);
  await_watching(hearth_user_delete(email_user), &watch);
  t_settle(50);
  CHECK(atomic_load(listener_calls) > 0);

  int during = t_thread_count();
  CHECK_INT(watch.max_seen, before);
  CHECK_INT(during, before);
  t_app_destroy(app);
  t_uv_run(UV_RUN_NOWAIT);
  CHECK_INT(t_thread_count(), before);
}

/* ------------------------------------------------------------------------------------------------ */
typedef struct thread_record {
  hearth_app *app;
  pthread_t threads[64];
  int in_uv_run[64];
  atomic_int slots; /* claimed */
  atomic_int count; /* recorded: counted after the slot is written, so a reader of count may read the slot */
  atomic_int max_depth;
  atomic_int depth;
} thread_record;

static void record_thread(thread_record *r) {
  int d = atomic_fetch_add(&r->depth, 1) + 1;
  if (d > atomic_load(&r->max_depth)) atomic_store(&r->max_depth, d);
  int i = atomic_fetch_add(&r->slots, 1);
  if (i < 64) {
    r->threads[i] = pthread_self();
    r->in_uv_run[i] = t_in_uv_run();
  }
  atomic_fetch_add(&r->count, 1);
  atomic_fetch_sub(&r->depth, 1);
}

static void thread_on_completion(hearth_future *f, void *user_data) {
  (void)f;
  thread_record *r = user_data;
  T_CB_ENTER(r->app);
  record_thread(r);
  T_CB_EXIT();
}

static void thread_on_listener(hearth_auth *auth, void *user_data) {
  thread_record *r = user_data;
  T_CB_ENTER(hearth_auth_app(auth));
  record_thread(r);
  T_CB_EXIT();
}

static void thread_on_post(void *user_data, hearth_error status) {
  (void)status;
  thread_record *r = user_data;
  T_CB_ENTER(r->app);
  record_thread(r);
  T_CB_EXIT();
}

TEST(host_loop_callbacks_run_on_the_thread_that_runs_uv_run, MODE_HOST) {
  thread_record *r = t_alloc(sizeof *r);
  r->app = t_app();
  hearth_auth *auth = hearth_auth_get(r->app);
  CHECK(hearth_auth_add_auth_state_listener(auth, thread_on_listener, NULL, r) > 0);
  CHECK(hearth_auth_add_id_token_listener(auth, thread_on_listener, NULL, r) > 0);
  CHECK_CODE(hearth_app_post(r->app, thread_on_post, r), 0);
  hearth_future *f = t_keep_future(hearth_auth_sign_in_anonymously(auth));
  CHECK_CODE(hearth_future_add_callback(f, thread_on_completion, r), 0);
  CHECK_INT(atomic_load(&r->count), 0); /* nothing ran inside the registering calls */
  t_await_ok(f);
  REQUIRE_EVENTUALLY(atomic_load(&r->count) >= 6); /* 2 initial listener calls, post, 2 sign-in calls, completion */
  t_settle(20);
  int n = atomic_load(&r->count);
  for (int i = 0; i < n && i < 64; i++) {
    CHECK(pthread_equal(r->threads[i], pthread_self()));
    CHECK(r->in_uv_run[i]);
  }
}

TEST(owned_loop_callbacks_all_run_on_one_hearth_thread, MODE_OWNED) {
  thread_record *r = t_alloc(sizeof *r);
  r->app = t_app();
  hearth_auth *auth = hearth_auth_get(r->app);
  CHECK(hearth_auth_add_auth_state_listener(auth, thread_on_listener, NULL, r) > 0);
  CHECK(hearth_auth_add_id_token_listener(auth, thread_on_listener, NULL, r) > 0);
  CHECK_CODE(hearth_app_post(r->app, thread_on_post, r), 0);
  hearth_future *f = t_keep_future(hearth_auth_sign_in_anonymously(auth));
  CHECK_CODE(hearth_future_add_callback(f, thread_on_completion, r), 0);
  t_await_ok(f);
  REQUIRE_EVENTUALLY(atomic_load(&r->count) >= 6);
  t_settle(20);
  int n = atomic_load(&r->count);
  for (int i = 0; i < n && i < 64; i++) {
    CHECK(!pthread_equal(r->threads[i], pthread_self()));
    CHECK(pthread_equal(r->threads[i], r->threads[0]));
  }
}

/* ------------------------------------------------------------------------------------------------
 * Re-entrancy: a callback that calls back into Hearth never finds itself called again inside that call.
 * ---------------------------------------------------------------------------------------------- */
typedef struct reentry {
  hearth_app *app;
  hearth_future *done; /* a complete future */
  atomic_int depth;
  atomic_int max_depth;
  atomic_int calls;
  atomic_int rounds;
} reentry;

static void reentry_enter(reentry *r) {
  int d = atomic_fetch_add(&r->depth, 1) + 1;
  if (d > atomic_load(&r->max_depth)) atomic_store(&r->max_depth, d);
  atomic_fetch_add(&r->calls, 1);
}

static void reentry_leaf(hearth_future *f, void *user_data) {
  (void)f;
  reentry *r = user_data;
  T_CB_ENTER(r->app);
  reentry_enter(r);
  atomic_fetch_sub(&r->depth, 1);
  T_CB_EXIT();
}

static void reentry_listener(hearth_auth *auth, void *user_data) {
  reentry *r = user_data;
  T_CB_ENTER(hearth_auth_app(auth));
  reentry_enter(r);
  atomic_fetch_sub(&r->depth, 1);
  T_CB_EXIT();
}

static void reentry_post_leaf(void *user_data, hearth_error status) {
  (void)status;
  reentry *r = user_data;
  T_CB_ENTER(r->app);
  reentry_enter(r);
  atomic_fetch_sub(&r->depth, 1);
  T_CB_EXIT();
}

/* Calls everything that could fire a callback synchronously if Hearth got it wrong. */
static void reentry_provoke(void *user_data, hearth_error status) {
  (void)status;
  reentry *r = user_data;
  T_CB_ENTER(r->app);
  reentry_enter(r);
  hearth_auth *auth = hearth_auth_get(r->app);
  CHECK_CODE(hearth_future_add_callback(r->done, reentry_leaf, r), 0); /* already complete */
  CHECK_CODE(hearth_app_post(r->app, reentry_post_leaf, r), 0);
  uint64_t id = hearth_auth_add_auth_state_listener(auth, reentry_listener, NULL, r);
  CHECK(id > 0);
  CHECK_CODE(hearth_auth_sign_out(auth), 0); /* a signed-in user: listeners are told, later */
  hearth_future *again = hearth_auth_sign_in_anonymously(auth);
  CHECK_CODE(hearth_future_add_callback(again, reentry_leaf, r), 0);
  hearth_future_release(again);
  atomic_fetch_add(&r->rounds, 1);
  atomic_fetch_sub(&r->depth, 1);
  T_CB_EXIT();
}

TEST(callbacks_that_call_into_hearth_are_never_reentered, BOTH_LOOPS) {
  reentry *r = t_alloc(sizeof *r);
  r->app = t_app();
  hearth_auth *auth = hearth_auth_get(r->app);
  r->done = t_keep_future(hearth_auth_sign_in_anonymously(auth));
  t_await_ok(r->done);
  CHECK_CODE(hearth_app_post(r->app, reentry_provoke, r), 0);
  REQUIRE_EVENTUALLY(atomic_load(&r->rounds) == 1);
  /* provoke itself, the completion leaf, the post leaf, the new sign-in's completion, and at least one
   * auth-state call. */
  WAIT_UNTIL(atomic_load(&r->calls) >= 5);
  t_settle(50);
  CHECK(atomic_load(&r->calls) >= 5);
  CHECK_INT(atomic_load(&r->max_depth), 1);
}

/* ------------------------------------------------------------------------------------------------
 * Idle handles and cross-thread work on a host loop
 * ---------------------------------------------------------------------------------------------- */
/* uv_run(UV_RUN_DEFAULT) returns only when nothing keeps the loop alive. A guard thread stops the loop after
 * two seconds (through an unref'd async handle, which itself keeps nothing alive) so a failure cannot hang
 * the suite; returning well before that means Hearth's idle handles are unref'd. */
typedef struct default_run_guard {
  uv_async_t async;
  atomic_int cancelled;
  atomic_int fired;
} default_run_guard;

static void guard_stop_loop(uv_async_t *async) {
  default_run_guard *guard = async->data;
  atomic_store(&guard->fired, 1);
  uv_stop(async->loop);
}

static void guard_thread(void *user_data) {
  default_run_guard *guard = user_data;
  for (int i = 0; i < 200 && !atomic_load(&guard->cancelled); i++) t_sleep_ms(10);
  if (!atomic_load(&guard->cancelled)) uv_async_send(&guard->async);
}

static double seconds_in_default_run(void) {
  default_run_guard *guard = t_alloc(sizeof *guard);
  REQUIRE(uv_async_init(t_loop(), &guard->async, guard_stop_loop) == 0);
  guard->async.data = guard;
  uv_unref((uv_handle_t *)&guard->async);
  t_thread *thread = t_spawn(guard_thread, guard);
  double start = t_now();
  t_uv_run(UV_RUN_DEFAULT);
  double elapsed = t_now() - start;
  atomic_store(&guard->cancelled, 1);
  t_join(thread);
  uv_close((uv_handle_t *)&guard->async, NULL);
  t_uv_run(UV_RUN_NOWAIT);
  if (atomic_load(&guard->fired)) t_fail(__FILE__, __LINE__, "uv_run(UV_RUN_DEFAULT) had to be stopped: Hearth kept the loop alive");
  return elapsed;
}

TEST(an_idle_app_never_keeps_the_host_loop_alive, MODE_HOST) {
  t_bare_host_loop();
  hearth_app *app = t_app();
  CHECK(seconds_in_default_run() < T_LIMIT(1.0));
  hearth_auth *auth = hearth_auth_get(app);
  hearth_user *user = t_sign_in_anonymously(auth); /* a signed-in user: refresh timer, kept-alive connection */
  t_token(user, 1);
  CHECK(seconds_in_default_run() < T_LIMIT(1.0));
  CHECK_INT(uv_loop_alive(t_loop()), 0);
  /* Listeners added and a post already run: still nothing keeps the loop alive. */
  CHECK(hearth_auth_add_auth_state_listener(auth, count_listener_call, NULL, t_alloc(sizeof(atomic_int))) > 0);
  CHECK(seconds_in_default_run() < T_LIMIT(1.0));
}

typedef struct cross_thread {
  hearth_app *app;
  atomic_int ran;
  atomic_int rc;
} cross_thread;

static void cross_thread_fn(void *user_data, hearth_error status) {
  (void)status;
  cross_thread *c = user_data;
  T_CB_ENTER(c->app);
  atomic_fetch_add(&c->ran, 1);
  T_CB_EXIT();
}

static void cross_thread_post(void *user_data) {
  cross_thread *c = user_data;
  atomic_store(&c->rc, hearth_app_post(c->app, cross_thread_fn, c));
}

TEST(work_posted_from_another_thread_runs_when_the_host_next_runs_its_loop, MODE_HOST) {
  cross_thread *c = t_alloc(sizeof *c);
  c->app = t_app();
  t_settle(20); /* whatever Hearth did at creation is done: Hearth is idle */
  atomic_store(&c->rc, -1);
  t_join(t_spawn(cross_thread_post, c));
  CHECK_CODE(atomic_load(&c->rc), 0);
  t_sleep_ms(50);
  CHECK_INT(atomic_load(&c->ran), 0); /* nothing runs until the host runs its loop */
  t_uv_run(UV_RUN_NOWAIT);
  CHECK_INT(atomic_load(&c->ran), 1);
}

/* The header promises the same for a loop that holds nothing but an idle Hearth. libuv's uv_run returns
 * without polling when no ref'd handle is active, so this needs Hearth's cooperation. */
static void ref_timer_fired(uv_timer_t *timer) { (void)timer; }

/* libuv's uv_run does nothing on a loop with no ref'd handle, and uv_ref is not thread-safe, so work
 * posted from another thread waits until the host's loop is alive again (hearth.h, threading). */
TEST(on_a_bare_host_loop_work_posted_from_another_thread_runs_once_the_loop_is_alive, MODE_HOST) {
  t_bare_host_loop();
  cross_thread *c = t_alloc(sizeof *c);
  c->app = t_app();
  t_settle(20);
  atomic_store(&c->rc, -1);
  t_join(t_spawn(cross_thread_post, c));
  CHECK_CODE(atomic_load(&c->rc), 0);
  t_uv_run(UV_RUN_NOWAIT);
  CHECK_INT(atomic_load(&c->ran), 0);
  uv_timer_t timer;
  uv_timer_init(t_loop(), &timer);
  uv_timer_start(&timer, ref_timer_fired, 1, 0);
  t_uv_run(UV_RUN_DEFAULT);
  CHECK_INT(atomic_load(&c->ran), 1);
  uv_close((uv_handle_t *)&timer, NULL);
  t_uv_run(UV_RUN_NOWAIT);
}

static void destroy_app_from_thread(void *user_data) {
  cross_thread *c = user_data;
  t_app_destroying(c->app);
  hearth_app_destroy(c->app);
  t_app_destroyed(c->app);
}

static void count_handle(uv_handle_t *handle, void *count) {
  (void)handle;
  (*(int *)count)++;
}

TEST(on_a_bare_host_loop_a_destroy_from_another_thread_completes_once_the_loop_is_alive, MODE_HOST) {
  t_bare_host_loop();
  cross_thread *c = t_alloc(sizeof *c);
  c->app = t_app();
  t_sign_in_anonymously(hearth_auth_get(c->app));
  t_settle(20);
  t_join(t_spawn(destroy_app_from_thread, c));
  uv_timer_t timer;
  uv_timer_init(t_loop(), &timer);
  uv_timer_start(&timer, ref_timer_fired, 1, 0);
  t_uv_run(UV_RUN_DEFAULT);
  uv_close((uv_handle_t *)&timer, NULL);
  t_uv_run(UV_RUN_NOWAIT);
  int handles = 0;
  uv_walk(t_loop(), count_handle, &handles);
  CHECK_INT(handles, 0);
}

typedef struct waiter {
  hearth_future *future;
  atomic_int rc;
  atomic_int done;
} waiter;

static void wait_from_thread(void *user_data) {
  waiter *w = user_data;
  atomic_store(&w->rc, hearth_future_wait(w->future, 20000));
  atomic_store(&w->done, 1);
}

TEST(another_thread_can_wait_while_the_host_runs_its_loop, MODE_HOST) {
  hearth_app *app = t_app();
  waiter *w = t_alloc(sizeof *w);
  atomic_store(&w->rc, -1);
  w->future = t_keep_future(hearth_auth_sign_in_anonymously(hearth_auth_get(app)));
  t_thread *thread = t_spawn(wait_from_thread, w);
  WAIT_UNTIL(atomic_load(&w->done) == 1);
  t_join(thread);
  CHECK_CODE(atomic_load(&w->rc), 0);
  CHECK_INT(hearth_future_status(w->future), HEARTH_FUTURE_COMPLETE);
  CHECK_CODE(hearth_future_error(w->future), 0);
}
