/* test_destroy.c — hearth_app_destroy: bounded, cancels what is in flight, and ends every registration
 * of the app with exactly one final call (the header's "Callbacks and user_data"): completion callbacks
 * with HEARTH_ERROR_CANCELLED, posted functions told they were cancelled, listener releases — with
 * Hearth's own loop before destroy returns (or right after the callback that called it), with a host loop
 * during the host's next uv_run — and none after that. Every user_data here is heap memory freed in its
 * final call, counted, so a callback that ran twice or never shows (and ASan / valgrind see the rest). */
#include "test.h"

#define OPS 4

/* Heap user_data: each final call frees its own and counts it. */
typedef struct ledger {
  hearth_app *app;
  atomic_int frees;          /* final calls that freed their user_data */
  atomic_int calls;          /* every call, final or not */
  atomic_int cancelled;      /* completions seen with HEARTH_ERROR_CANCELLED, posts told CANCELLED */
  atomic_int destroy_returned;
  atomic_int finals_when_destroy_returned;
  double destroy_seconds;
  t_seq *order;
} ledger;

typedef struct ticket {
  ledger *ledger;
  const char *name;
} ticket;

static ticket *ticket_new(ledger *l, const char *name) {
  ticket *k = malloc(sizeof *k);
  if (!k) abort();
  k->ledger = l;
  k->name = name;
  return k;
}

static void ticket_free(ticket *k) {
  atomic_fetch_add(&k->ledger->frees, 1);
  free(k);
}

static ledger *ledger_new(hearth_app *app) {
  ledger *l = t_alloc(sizeof *l);
  l->app = app;
  l->order = t_seq_new();
  return l;
}

static void on_op_done(hearth_future *f, void *user_data) {
  ticket *k = user_data;
  ledger *l = k->ledger;
  T_CB_ENTER(l->app);
  atomic_fetch_add(&l->calls, 1);
  if (hearth_future_error(f) == HEARTH_ERROR_CANCELLED) atomic_fetch_add(&l->cancelled, 1);
  t_seq_add(l->order, t_printf("%s:%d", k->name, (int)hearth_future_error(f)));
  ticket_free(k);
  T_CB_EXIT();
}

static void on_post(void *user_data, hearth_error status) {
  ticket *k = user_data;
  ledger *l = k->ledger;
  T_CB_ENTER(l->app);
  atomic_fetch_add(&l->calls, 1);
  if (status == HEARTH_ERROR_CANCELLED) atomic_fetch_add(&l->cancelled, 1);
  t_seq_add(l->order, t_printf("%s:%s", k->name, status == HEARTH_ERROR_NONE ? "ran" : "cancelled"));
  ticket_free(k);
  T_CB_EXIT();
}

static void on_listener(hearth_auth *auth, void *user_data) {
  (void)auth;
  ticket *k = user_data;
  T_CB_ENTER(k->ledger->app);
  atomic_fetch_add(&k->ledger->calls, 1);
  t_seq_add(k->ledger->order, t_printf("%s:called", k->name));
  T_CB_EXIT();
}

static void on_release(void *user_data) {
  ticket *k = user_data;
  ledger *l = k->ledger;
  T_CB_ENTER(l->app);
  t_seq_add(l->order, t_printf("%s:released", k->name));
  ticket_free(k);
  T_CB_EXIT();
}

/* OPS operations to a server that never answers, each with a completion callback owning a ticket. */
static ledger *start_unanswered_operations(hearth_future **ops) {
  ledger *l = ledger_new(t_unanswered_app(0));
  hearth_auth *auth = hearth_auth_get(l->app);
  const char *email = t_email("inflight");
  ops[0] = t_keep_future(hearth_auth_sign_in_anonymously(auth));
  ops[1] = t_keep_future(hearth_auth_create_user_with_email_and_password(auth, email, T_PASSWORD));
  ops[2] = t_keep_future(hearth_auth_fetch_providers_for_email(auth, email));
  ops[3] = t_keep_future(hearth_auth_send_password_reset_email(auth, email, NULL));
  for (int i = 0; i < OPS; i++) {
    REQUIRE(ops[i] != NULL);
    CHECK_CODE(hearth_future_add_callback(ops[i], on_op_done, ticket_new(l, t_printf("op%d", i))), 0);
  }
  t_settle(50); /* the requests reach the server and wait there */
  for (int i = 0; i < OPS; i++) CHECK_INT(hearth_future_status(ops[i]), HEARTH_FUTURE_PENDING);
  return l;
}

static void destroy_and_record(ledger *l) {
  double started = t_now();
  t_app_destroying(l->app);
  hearth_app_destroy(l->app);
  l->destroy_seconds = t_now() - started;
  atomic_store(&l->finals_when_destroy_returned, atomic_load(&l->frees));
  t_app_destroyed(l->app);
  atomic_store(&l->destroy_returned, 1);
}

/* Every operation completed as cancelled and its callback freed its ticket, exactly once. */
static void check_cancelled_once(ledger *l, hearth_future **ops) {
  CHECK(l->destroy_seconds < T_LIMIT(1.0)); /* never waits on the network */
  for (int i = 0; i < OPS; i++) {
    CHECK_INT(hearth_future_status(ops[i]), HEARTH_FUTURE_COMPLETE);
    CHECK_CODE(hearth_future_error(ops[i]), HEARTH_ERROR_CANCELLED);
    const char *message = hearth_future_error_message(ops[i]);
    CHECK(message != NULL && *message);
  }
  REQUIRE_EVENTUALLY(atomic_load(&l->frees) == OPS);
  t_settle(100);
  CHECK_INT(atomic_load(&l->frees), OPS);
  CHECK_INT(atomic_load(&l->calls), OPS);
  CHECK_INT(atomic_load(&l->cancelled), OPS);
  CHECK_STR(t_seq_text(l->order), "op0:58,op1:58,op2:58,op3:58");
}

/* ------------------------------------------------------------------------------------------------ */
TEST(destroying_the_app_completes_operations_in_flight_as_cancelled_and_calls_back_once, BOTH_LOOPS) {
  hearth_future *ops[OPS];
  ledger *l = start_unanswered_operations(ops);
  destroy_and_record(l);
  if (t_host()) {
    /* Host loop: the final calls come on the host's next turn, never inside hearth_app_destroy. */
    CHECK_INT(atomic_load(&l->finals_when_destroy_returned), 0);
    CHECK_INT(atomic_load(&l->frees), 0);
    t_turn();
    CHECK_INT(atomic_load(&l->frees), OPS);
  } else {
    /* Hearth's own loop: before hearth_app_destroy returns. */
    CHECK_INT(atomic_load(&l->finals_when_destroy_returned), OPS);
  }
  check_cancelled_once(l, ops);
  /* A callback added after the destroy is refused (and never runs). */
  CHECK_CODE(hearth_future_add_callback(ops[0], on_op_done, NULL), HEARTH_ERROR_APP_DESTROYED);
}

static void destroy_on_loop_thread(void *user_data, hearth_error status) {
  ledger *l = user_data;
  T_CB_ENTER(l->app);
  CHECK_CODE(status, HEARTH_ERROR_NONE);
  destroy_and_record(l);
  /* Never nested in this callback: right after it returns. */
  CHECK_INT(atomic_load(&l->finals_when_destroy_returned), 0);
  CHECK_INT(atomic_load(&l->calls), 0);
  T_CB_EXIT();
}

TEST(destroying_the_app_from_a_callback_runs_the_final_calls_right_after_it, BOTH_LOOPS) {
  hearth_future *ops[OPS];
  ledger *l = start_unanswered_operations(ops);
  CHECK_CODE(hearth_app_post(l->app, destroy_on_loop_thread, l), 0);
  REQUIRE_EVENTUALLY(atomic_load(&l->destroy_returned) == 1);
  check_cancelled_once(l, ops);
}

/* ------------------------------------------------------------------------------------------------ */
typedef struct self_destruct {
  ledger *ledger;
  hearth_future *other;
  atomic_int destroyed;
  int other_status_after;
  int other_error_after;
} self_destruct;

static void destroy_in_completion(hearth_future *f, void *user_data) {
  self_destruct *s = user_data;
  T_CB_ENTER(s->ledger->app);
  CHECK_CODE(hearth_future_error(f), 0);
  destroy_and_record(s->ledger);
  s->other_status_after = hearth_future_status(s->other);
  s->other_error_after = hearth_future_error(s->other);
  atomic_store(&s->destroyed, 1);
  T_CB_EXIT();
}

TEST(destroying_the_app_from_a_completion_callback, BOTH_LOOPS) {
  self_destruct *s = t_alloc(sizeof *s);
  s->ledger = ledger_new(t_app());
  hearth_auth *auth = hearth_auth_get(s->ledger->app);
  hearth_future *first = t_keep_future(hearth_auth_sign_in_anonymously(auth));
  s->other = t_keep_future(hearth_auth_fetch_providers_for_email(auth, t_email("other")));
  CHECK_CODE(hearth_future_add_callback(s->other, on_op_done, ticket_new(s->ledger, "other")), 0);
  CHECK_CODE(hearth_future_add_callback(first, destroy_in_completion, s), 0);
  REQUIRE_EVENTUALLY(atomic_load(&s->destroyed) == 1);
  REQUIRE_EVENTUALLY(atomic_load(&s->ledger->frees) == 1);
  t_settle(200);
  /* The other operation either finished (and called back) before the destroy, or was cancelled and
   * called back right after: once either way. */
  CHECK_INT(s->other_status_after, HEARTH_FUTURE_COMPLETE);
  CHECK_INT(atomic_load(&s->ledger->frees), 1);
  CHECK_INT(atomic_load(&s->ledger->calls), 1);
  if (s->other_error_after == HEARTH_ERROR_CANCELLED) CHECK_STR(t_seq_text(s->ledger->order), "other:58");
  else CHECK_STR(t_seq_text(s->ledger->order), "other:0");
  CHECK_INT(hearth_future_status(first), HEARTH_FUTURE_COMPLETE);
  CHECK_CODE(hearth_future_error(first), 0);
}

/* ------------------------------------------------------------------------------------------------ */
typedef struct reposting {
  ledger *ledger;
  atomic_int posts;   /* tickets handed to hearth_app_post that it accepted */
  atomic_int refused; /* reposts refused because the destroy had begun: the chain ended there */
} reposting;

static reposting *the_reposting;

static void repost(void *user_data, hearth_error status) {
  ticket *k = user_data;
  ledger *l = k->ledger;
  T_CB_ENTER(l->app);
  atomic_fetch_add(&l->calls, 1);
  if (status == HEARTH_ERROR_CANCELLED) atomic_fetch_add(&l->cancelled, 1);
  if (status == HEARTH_ERROR_NONE) {
    /* Racing the destroy on another thread: accepted (then it gets its final call) or refused. */
    ticket *next = ticket_new(l, "repost");
    int rc = hearth_app_post(l->app, repost, next);
    if (rc == 0) {
      atomic_fetch_add(&the_reposting->posts, 1);
    } else {
      if (rc != HEARTH_ERROR_INVALID_HANDLE && rc != HEARTH_ERROR_APP_DESTROYED)
        t_fail(__FILE__, __LINE__, "hearth_app_post during destroy returned %s", hearth_error_name(rc));
      atomic_fetch_add(&the_reposting->refused, 1);
      free(next); /* refused: still ours */
    }
  }
  ticket_free(k);
  T_CB_EXIT();
}

static void destroy_from_thread(void *user_data) {
  ledger *l = user_data;
  t_sleep_ms(50);
  destroy_and_record(l);
}

TEST(destroying_the_app_from_another_thread_tells_every_accepted_post_exactly_once, BOTH_LOOPS) {
  hearth_future *ops[OPS];
  ledger *l = start_unanswered_operations(ops);
  the_reposting = t_alloc(sizeof *the_reposting);
  the_reposting->ledger = l;
  atomic_store(&the_reposting->posts, 1);
  CHECK_CODE(hearth_app_post(l->app, repost, ticket_new(l, "repost")), 0); /* keeps callbacks coming */
  t_thread *destroyer = t_spawn(destroy_from_thread, l);
  double deadline = t_now() + T_WAIT_SECONDS;
  while (!atomic_load(&l->destroy_returned) && t_now() < deadline) t_turn();
  t_join(destroyer);
  REQUIRE(atomic_load(&l->destroy_returned));
  CHECK(l->destroy_seconds < T_LIMIT(1.0));
  /* Every accepted post and every operation callback ends with one final call that frees its ticket.
   * The chain of posts ends one of two ways: its post in the queue when the app went away learns it was
   * cancelled, or (the destroy began while a post was running) that post's repost is refused. */
  int expected = atomic_load(&the_reposting->posts) + OPS;
  REQUIRE_EVENTUALLY(atomic_load(&l->frees) == expected);
  t_settle(100);
  CHECK_INT(atomic_load(&l->frees), atomic_load(&the_reposting->posts) + OPS);
  CHECK_INT(atomic_load(&l->calls), atomic_load(&the_reposting->posts) + OPS);
  CHECK(atomic_load(&the_reposting->posts) > 1);
  CHECK(atomic_load(&the_reposting->refused) <= 1);
  CHECK_INT(atomic_load(&l->cancelled), OPS + 1 - atomic_load(&the_reposting->refused));
}

/* ------------------------------------------------------------------------------------------------
 * A callback that is running when another thread destroys the app finishes before destroy returns.
 * ---------------------------------------------------------------------------------------------- */
typedef struct running_callback {
  hearth_app *app;
  atomic_int started;
  atomic_int finished;
  atomic_int finished_when_destroy_returned;
  atomic_int destroy_returned;
} running_callback;

static void slow_callback(void *user_data, hearth_error status) {
  (void)status;
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

/* ------------------------------------------------------------------------------------------------
 * Listeners and posts: the documented order of the final calls
 * ---------------------------------------------------------------------------------------------- */
typedef struct ordered {
  ledger *ledger;
  hearth_future *op;
  uint64_t removed_listener;
} ordered;

/* Runs on the loop thread, so nothing of what it queues can run before the destroy at its end. */
static void queue_everything_then_destroy(void *user_data, hearth_error status) {
  ordered *o = user_data;
  ledger *l = o->ledger;
  T_CB_ENTER(l->app);
  CHECK_CODE(status, HEARTH_ERROR_NONE);
  hearth_auth *auth = hearth_auth_get(l->app);
  /* Their first calls are queued, then dropped by the destroy: only their releases come. */
  CHECK(hearth_auth_add_auth_state_listener(auth, on_listener, on_release, ticket_new(l, "state")) > 0);
  CHECK(hearth_auth_add_id_token_listener(auth, on_listener, on_release, ticket_new(l, "token")) > 0);
  CHECK_CODE(hearth_app_post(l->app, on_post, ticket_new(l, "post1")), 0);
  CHECK_CODE(hearth_auth_remove_auth_state_listener(auth, o->removed_listener), 0);
  o->op = t_keep_future(hearth_auth_fetch_providers_for_email(auth, t_email("order")));
  CHECK_CODE(hearth_future_add_callback(o->op, on_op_done, ticket_new(l, "op")), 0);
  CHECK_CODE(hearth_app_post(l->app, on_post, ticket_new(l, "post2")), 0);
  destroy_and_record(l);
  T_CB_EXIT();
}

TEST(destroy_makes_the_final_calls_in_the_documented_order, BOTH_LOOPS) {
  ordered *o = t_alloc(sizeof *o);
  o->ledger = ledger_new(t_unanswered_app(0));
  ledger *l = o->ledger;
  hearth_auth *auth = hearth_auth_get(l->app);
  /* A listener that has had its first call and is removed right before the destroy. */
  o->removed_listener = hearth_auth_add_auth_state_listener(auth, on_listener, on_release, ticket_new(l, "gone"));
  REQUIRE(o->removed_listener > 0);
  REQUIRE_EVENTUALLY(t_seq_count(l->order) == 1);
  CHECK_CODE(hearth_app_post(l->app, queue_everything_then_destroy, o), 0);
  REQUIRE_EVENTUALLY(atomic_load(&l->frees) == 6);
  t_settle(100);
  /* 1. the pending operation completed as cancelled; 2. the final calls due, in the order they became
   * due (the dropped first calls of the new listeners leave nothing); 3. the releases of the listeners
   * still added, in the order they were added. */
  CHECK_STR(t_seq_text(l->order),
            "gone:called,post1:cancelled,gone:released,post2:cancelled,op:58,state:released,token:released");
  CHECK_INT(atomic_load(&l->frees), 6);
  CHECK_CODE(hearth_future_error(o->op), HEARTH_ERROR_CANCELLED);
}

TEST(a_listener_removed_before_the_destroy_is_released_once, BOTH_LOOPS) {
  ledger *l = ledger_new(t_app());
  hearth_auth *auth = hearth_auth_get(l->app);
  uint64_t id = hearth_auth_add_id_token_listener(auth, on_listener, on_release, ticket_new(l, "listener"));
  REQUIRE(id > 0);
  REQUIRE_EVENTUALLY(t_seq_count(l->order) == 1);
  CHECK_CODE(hearth_auth_remove_id_token_listener(auth, id), 0);
  if (t_host()) CHECK_INT(atomic_load(&l->frees), 0); /* on a later turn, not inside remove */
  REQUIRE_EVENTUALLY(atomic_load(&l->frees) == 1);
  CHECK_STR(t_seq_text(l->order), "listener:called,listener:released");
  /* Removing again fails and releases nothing more. */
  CHECK_CODE(hearth_auth_remove_id_token_listener(auth, id), HEARTH_ERROR_INVALID_ARGUMENT);
  t_app_destroy(l->app);
  t_settle(100);
  CHECK_INT(atomic_load(&l->frees), 1);
  CHECK_STR(t_seq_text(l->order), "listener:called,listener:released");
}

TEST(listeners_still_added_at_destroy_are_released_after_their_last_call, BOTH_LOOPS) {
  ledger *l = ledger_new(t_app());
  hearth_auth *auth = hearth_auth_get(l->app);
  CHECK(hearth_auth_add_auth_state_listener(auth, on_listener, on_release, ticket_new(l, "state")) > 0);
  /* No release wanted: its user_data is the test's own memory. */
  ticket *kept = t_alloc(sizeof *kept);
  kept->ledger = l;
  kept->name = "token";
  CHECK(hearth_auth_add_id_token_listener(auth, on_listener, NULL, kept) > 0);
  t_sign_in_anonymously(auth);
  REQUIRE_EVENTUALLY(t_seq_count(l->order) >= 2);
  t_settle(50);
  int calls = atomic_load(&l->calls);
  t_app_destroy(l->app);
  REQUIRE_EVENTUALLY(atomic_load(&l->frees) == 1);
  t_settle(100);
  CHECK_INT(atomic_load(&l->frees), 1);
  CHECK_INT(atomic_load(&l->calls), calls); /* no call after the release */
  const char *order = t_seq_text(l->order);
  CHECK(strstr(order, "state:released") != NULL && strcmp(strstr(order, "state:released"), "state:released") == 0);
}

TEST(a_posted_function_runs_once_with_status_none_in_its_turn, BOTH_LOOPS) {
  ledger *l = ledger_new(t_app());
  for (int i = 0; i < 3; i++) CHECK_CODE(hearth_app_post(l->app, on_post, ticket_new(l, t_printf("p%d", i))), 0);
  if (t_host()) CHECK_INT(atomic_load(&l->calls), 0);
  REQUIRE_EVENTUALLY(atomic_load(&l->frees) == 3);
  t_app_destroy(l->app);
  t_settle(100);
  CHECK_STR(t_seq_text(l->order), "p0:ran,p1:ran,p2:ran");
  CHECK_INT(atomic_load(&l->frees), 3);
  CHECK_INT(atomic_load(&l->cancelled), 0);
}

/* ------------------------------------------------------------------------------------------------
 * Registrations racing the destroy on other threads: refused (nothing runs) or accepted (exactly one
 * final call), never lost, never twice.
 * ---------------------------------------------------------------------------------------------- */
typedef struct racer {
  ledger *ledger;
  hearth_future *done_future; /* completed before the race */
  hearth_auth *auth;
  atomic_int accepted;
  atomic_int stop;
} racer;

static void race_registrations(void *user_data) {
  racer *r = user_data;
  while (!atomic_load(&r->stop)) {
    ticket *a = ticket_new(r->ledger, "cb");
    if (hearth_future_add_callback(r->done_future, on_op_done, a) == 0) atomic_fetch_add(&r->accepted, 1);
    else free(a);
    ticket *b = ticket_new(r->ledger, "post");
    if (hearth_app_post(r->ledger->app, on_post, b) == 0) atomic_fetch_add(&r->accepted, 1);
    else free(b);
    ticket *c = ticket_new(r->ledger, "listener");
    if (hearth_auth_add_id_token_listener(r->auth, on_listener, on_release, c) != 0) atomic_fetch_add(&r->accepted, 1);
    else free(c);
  }
}

TEST(registrations_racing_the_destroy_are_refused_or_finish_exactly_once, BOTH_LOOPS) {
  racer *r = t_alloc(sizeof *r);
  r->ledger = ledger_new(t_app());
  r->auth = hearth_auth_get(r->ledger->app);
  r->done_future = t_keep_future(hearth_auth_sign_in_anonymously(r->auth));
  t_await_ok(r->done_future);
  t_thread *threads[3];
  for (int i = 0; i < 3; i++) threads[i] = t_spawn(race_registrations, r);
  t_settle(30);
  destroy_and_record(r->ledger);
  t_settle(30);
  atomic_store(&r->stop, 1);
  for (int i = 0; i < 3; i++) t_join(threads[i]);
  REQUIRE_EVENTUALLY(atomic_load(&r->ledger->frees) == atomic_load(&r->accepted));
  t_settle(100);
  CHECK(atomic_load(&r->accepted) > 0);
  CHECK_INT(atomic_load(&r->ledger->frees), atomic_load(&r->accepted));
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
  hearth_credential *credential = hearth_credential_create_email(email, T_PASSWORD);
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
  CHECK_CODE(hearth_future_add_callback(created, never_called, NULL), HEARTH_ERROR_APP_DESTROYED);
  t_settle(50);
}

static void post_never_runs(void *user_data, hearth_error status) {
  (void)status;
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
  CHECK(hearth_auth_last_result(auth, HEARTH_OP_AUTH_SIGN_IN_ANONYMOUSLY) == NULL);
  CHECK(hearth_auth_last_result(auth, HEARTH_OP_USER_GET_TOKEN) == NULL);
  CHECK_CODE(hearth_auth_sign_out(auth), HEARTH_ERROR_INVALID_HANDLE);
  CHECK_CODE(hearth_auth_use_emulator(auth, "127.0.0.1", 9099), HEARTH_ERROR_INVALID_HANDLE);
  CHECK_CODE(hearth_auth_set_language_code(auth, "en"), HEARTH_ERROR_INVALID_HANDLE);
  CHECK(hearth_auth_language_code(auth) == NULL);
  CHECK_INT(hearth_auth_add_auth_state_listener(auth, listener_never_runs, NULL, NULL), 0);
  CHECK_INT(hearth_auth_add_id_token_listener(auth, listener_never_runs, NULL, NULL), 0);
  CHECK_CODE(hearth_auth_remove_auth_state_listener(auth, 1), HEARTH_ERROR_INVALID_HANDLE);
  CHECK_CODE(hearth_auth_remove_id_token_listener(auth, 1), HEARTH_ERROR_INVALID_HANDLE);
  hearth_app_destroy(app); /* a second destroy of the same handle is harmless */
  t_settle(50);
}
