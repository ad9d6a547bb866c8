/* test_listeners.c — auth-state and ID-token listeners: when they are called, on which thread, and that
 * removal (also from inside a callback) stops them. */
#include "test.h"

typedef struct listener_log {
  hearth_app *app;
  hearth_auth *auth;
  t_seq *seq; /* the signed-in uid at each call, "-" when signed out */
  atomic_int calls;
  atomic_int wrong_arguments;
} listener_log;

static listener_log *new_log(hearth_app *app) {
  listener_log *log = t_alloc(sizeof *log);
  log->app = app;
  log->auth = hearth_auth_get(app);
  log->seq = t_seq_new();
  return log;
}

static void log_uid(hearth_auth *auth, void *user_data) {
  listener_log *log = user_data;
  T_CB_ENTER(log->app);
  if (auth != log->auth) atomic_fetch_add(&log->wrong_arguments, 1);
  hearth_user *user = hearth_auth_current_user(auth);
  t_seq_add(log->seq, user ? hearth_user_uid(user) : "-");
  hearth_user_release(user);
  atomic_fetch_add(&log->calls, 1);
  T_CB_EXIT();
}

/* ------------------------------------------------------------------------------------------------ */
TEST(an_auth_state_listener_hears_sign_in_and_sign_out_but_not_token_refreshes, BOTH_LOOPS) {
  listener_log *log = new_log(t_app());
  uint64_t id = hearth_auth_add_auth_state_listener(log->auth, log_uid, NULL, log);
  CHECK(id > 0);
  if (t_host()) CHECK_INT(atomic_load(&log->calls), 0); /* the first call comes on a later turn */
  REQUIRE_EVENTUALLY(atomic_load(&log->calls) == 1);

  hearth_user *user = t_sign_in_anonymously(log->auth);
  REQUIRE_EVENTUALLY(atomic_load(&log->calls) == 2);
  t_sleep_ms(1100);
  t_token(user, 1);
  t_settle(100);
  CHECK_INT(atomic_load(&log->calls), 2);

  CHECK_CODE(hearth_auth_sign_out(log->auth), 0);
  if (t_host()) CHECK_INT(atomic_load(&log->calls), 2); /* told on the loop thread, not inside sign_out */
  REQUIRE_EVENTUALLY(atomic_load(&log->calls) == 3);
  t_settle(50);
  CHECK_STR(t_seq_text(log->seq), t_printf("-,%s,-", hearth_user_uid(user)));
  CHECK_INT(atomic_load(&log->wrong_arguments), 0);
}

TEST(an_id_token_listener_hears_every_new_token, BOTH_LOOPS) {
  listener_log *log = new_log(t_app());
  CHECK(hearth_auth_add_id_token_listener(log->auth, log_uid, NULL, log) > 0);
  if (t_host()) CHECK_INT(atomic_load(&log->calls), 0);
  REQUIRE_EVENTUALLY(atomic_load(&log->calls) == 1);

  hearth_user *user = t_sign_in_anonymously(log->auth);
  REQUIRE_EVENTUALLY(atomic_load(&log->calls) == 2);
  t_token(user, 0); /* cached: no new token */
  t_settle(50);
  CHECK_INT(atomic_load(&log->calls), 2);
  t_sleep_ms(1100);
  t_token(user, 1);
  REQUIRE_EVENTUALLY(atomic_load(&log->calls) == 3);

  CHECK_CODE(hearth_auth_sign_out(log->auth), 0);
  REQUIRE_EVENTUALLY(atomic_load(&log->calls) == 4);
  t_settle(50);
  const char *uid = hearth_user_uid(user);
  CHECK_STR(t_seq_text(log->seq), t_printf("-,%s,%s,-", uid, uid));
  CHECK_INT(atomic_load(&log->wrong_arguments), 0);
}

TEST(a_listener_added_while_signed_in_first_hears_the_current_user, BOTH_LOOPS) {
  listener_log *state = new_log(t_app());
  listener_log *token = new_log(state->app);
  token->auth = state->auth;
  hearth_user *user = t_sign_in_anonymously(state->auth);
  CHECK(hearth_auth_add_auth_state_listener(state->auth, log_uid, NULL, state) > 0);
  CHECK(hearth_auth_add_id_token_listener(state->auth, log_uid, NULL, token) > 0);
  REQUIRE_EVENTUALLY(atomic_load(&state->calls) == 1 && atomic_load(&token->calls) == 1);
  t_settle(50);
  CHECK_STR(t_seq_text(state->seq), hearth_user_uid(user));
  CHECK_STR(t_seq_text(token->seq), hearth_user_uid(user));
}

TEST(every_listener_hears_each_change, BOTH_LOOPS) {
  hearth_app *app = t_app();
  listener_log *logs[3];
  for (int i = 0; i < 3; i++) {
    logs[i] = new_log(app);
    CHECK(hearth_auth_add_auth_state_listener(logs[i]->auth, log_uid, NULL, logs[i]) > 0);
  }
  hearth_user *user = t_sign_in_anonymously(logs[0]->auth);
  for (int i = 0; i < 3; i++) REQUIRE_EVENTUALLY(atomic_load(&logs[i]->calls) == 2);
  for (int i = 0; i < 3; i++) CHECK_STR(t_seq_text(logs[i]->seq), t_printf("-,%s", hearth_user_uid(user)));
}

TEST(adding_a_listener_without_a_callback_fails, BOTH_LOOPS) {
  hearth_auth *auth = hearth_auth_get(t_app());
  CHECK_INT(hearth_auth_add_auth_state_listener(auth, NULL, NULL, NULL), 0);
  CHECK_INT(hearth_auth_add_id_token_listener(auth, NULL, NULL, NULL), 0);
}

/* ------------------------------------------------------------------------------------------------
 * Removal
 * ---------------------------------------------------------------------------------------------- */
TEST(a_removed_listener_is_never_called_again, BOTH_LOOPS) {
  listener_log *state = new_log(t_app());
  listener_log *token = new_log(state->app);
  uint64_t state_id = hearth_auth_add_auth_state_listener(state->auth, log_uid, NULL, state);
  uint64_t token_id = hearth_auth_add_id_token_listener(state->auth, log_uid, NULL, token);
  CHECK(state_id > 0 && token_id > 0);
  REQUIRE_EVENTUALLY(atomic_load(&state->calls) == 1 && atomic_load(&token->calls) == 1);
  CHECK_CODE(hearth_auth_remove_auth_state_listener(state->auth, state_id), 0);
  CHECK_CODE(hearth_auth_remove_id_token_listener(state->auth, token_id), 0);
  hearth_user *user = t_sign_in_anonymously(state->auth);
  t_token(user, 1);
  CHECK_CODE(hearth_auth_sign_out(state->auth), 0);
  t_settle(100);
  CHECK_INT(atomic_load(&state->calls), 1);
  CHECK_INT(atomic_load(&token->calls), 1);
  /* Removing again, or an id that never existed, is an error. */
  CHECK_CODE(hearth_auth_remove_auth_state_listener(state->auth, state_id), HEARTH_ERROR_INVALID_ARGUMENT);
  CHECK_CODE(hearth_auth_remove_id_token_listener(state->auth, token_id), HEARTH_ERROR_INVALID_ARGUMENT);
  CHECK_CODE(hearth_auth_remove_auth_state_listener(state->auth, 0), HEARTH_ERROR_INVALID_ARGUMENT);
  CHECK_CODE(hearth_auth_remove_id_token_listener(state->auth, 987654321), HEARTH_ERROR_INVALID_ARGUMENT);
}

TEST(a_listener_removed_before_its_pending_call_runs_is_not_called, BOTH_LOOPS) {
  listener_log *log = new_log(t_app());
  t_sign_in_anonymously(log->auth);
  uint64_t id = hearth_auth_add_auth_state_listener(log->auth, log_uid, NULL, log);
  REQUIRE_EVENTUALLY(atomic_load(&log->calls) == 1);
  CHECK_CODE(hearth_auth_sign_out(log->auth), 0); /* the call for this change is now pending */
  CHECK_CODE(hearth_auth_remove_auth_state_listener(log->auth, id), 0);
  int calls_at_removal = atomic_load(&log->calls);
  if (t_host()) CHECK_INT(calls_at_removal, 1); /* the host loop has not run since the sign-out */
  t_settle(100);
  CHECK_INT(atomic_load(&log->calls), calls_at_removal);
}

TEST(ids_of_one_listener_kind_do_not_remove_the_other_kind, BOTH_LOOPS) {
  listener_log *log = new_log(t_app());
  uint64_t id = hearth_auth_add_auth_state_listener(log->auth, log_uid, NULL, log);
  REQUIRE_EVENTUALLY(atomic_load(&log->calls) == 1);
  CHECK_CODE(hearth_auth_remove_id_token_listener(log->auth, id), HEARTH_ERROR_INVALID_ARGUMENT);
  t_sign_in_anonymously(log->auth);
  REQUIRE_EVENTUALLY(atomic_load(&log->calls) == 2);
}

typedef struct self_removal {
  hearth_app *app;
  uint64_t remover_id;
  uint64_t victim_id;
  atomic_int remover_calls;
  atomic_int victim_calls;
  atomic_int victim_calls_after_removal;
  atomic_int removed;
  atomic_int rc_self;
  atomic_int rc_victim;
} self_removal;

static void remover(hearth_auth *auth, void *user_data) {
  self_removal *r = user_data;
  T_CB_ENTER(r->app);
  if (atomic_fetch_add(&r->remover_calls, 1) + 1 == 2) {
    atomic_store(&r->rc_self, hearth_auth_remove_auth_state_listener(auth, r->remover_id));
    atomic_store(&r->rc_victim, hearth_auth_remove_auth_state_listener(auth, r->victim_id));
    atomic_store(&r->removed, 1);
  }
  T_CB_EXIT();
}

static void victim(hearth_auth *auth, void *user_data) {
  (void)auth;
  self_removal *r = user_data;
  T_CB_ENTER(r->app);
  atomic_fetch_add(&r->victim_calls, 1);
  if (atomic_load(&r->removed)) atomic_fetch_add(&r->victim_calls_after_removal, 1);
  T_CB_EXIT();
}

TEST(a_listener_may_remove_itself_and_another_from_inside_a_callback, BOTH_LOOPS) {
  self_removal *r = t_alloc(sizeof *r);
  r->app = t_app();
  hearth_auth *auth = hearth_auth_get(r->app);
  atomic_store(&r->rc_self, -1);
  atomic_store(&r->rc_victim, -1);
  r->remover_id = hearth_auth_add_auth_state_listener(auth, remover, NULL, r);
  r->victim_id = hearth_auth_add_auth_state_listener(auth, victim, NULL, r);
  REQUIRE(r->remover_id > 0 && r->victim_id > 0);
  CHECK(r->remover_id != r->victim_id);
  REQUIRE_EVENTUALLY(atomic_load(&r->remover_calls) == 1 && atomic_load(&r->victim_calls) == 1);
  t_sign_in_anonymously(auth); /* the remover's second call removes both */
  REQUIRE_EVENTUALLY(atomic_load(&r->removed) == 1);
  CHECK_CODE(atomic_load(&r->rc_self), 0);
  CHECK_CODE(atomic_load(&r->rc_victim), 0);
  CHECK_CODE(hearth_auth_sign_out(auth), 0);
  t_sign_in_anonymously(auth);
  t_settle(100);
  CHECK_INT(atomic_load(&r->remover_calls), 2);
  CHECK_INT(atomic_load(&r->victim_calls_after_removal), 0);
  CHECK(atomic_load(&r->victim_calls) <= 2);
}

/* ------------------------------------------------------------------------------------------------
 * Removal from another thread while the listener is running waits for it to return.
 * ---------------------------------------------------------------------------------------------- */
typedef struct slow_listener {
  hearth_app *app;
  hearth_auth *auth;
  uint64_t id;
  atomic_int calls;
  atomic_int started;
  atomic_int finished;
  atomic_int finished_when_remove_returned;
  atomic_int remove_rc;
  atomic_int remove_returned;
} slow_listener;

static void slow_state_listener(hearth_auth *auth, void *user_data) {
  (void)auth;
  slow_listener *s = user_data;
  T_CB_ENTER(s->app);
  if (atomic_fetch_add(&s->calls, 1) == 1) { /* the sign-in call: take a while */
    atomic_store(&s->started, 1);
    t_sleep_ms(300);
    atomic_store(&s->finished, 1);
  }
  T_CB_EXIT();
}

static void remove_once_started(void *user_data) {
  slow_listener *s = user_data;
  while (!atomic_load(&s->started)) t_sleep_ms(1);
  atomic_store(&s->remove_rc, hearth_auth_remove_auth_state_listener(s->auth, s->id));
  atomic_store(&s->finished_when_remove_returned, atomic_load(&s->finished));
  atomic_store(&s->remove_returned, 1);
}

TEST(removing_a_listener_from_another_thread_waits_for_its_running_call, BOTH_LOOPS) {
  slow_listener *s = t_alloc(sizeof *s);
  s->app = t_app();
  s->auth = hearth_auth_get(s->app);
  atomic_store(&s->remove_rc, -1);
  s->id = hearth_auth_add_auth_state_listener(s->auth, slow_state_listener, NULL, s);
  REQUIRE(s->id > 0);
  REQUIRE_EVENTUALLY(atomic_load(&s->calls) == 1);
  t_thread *remover_thread = t_spawn(remove_once_started, s);
  hearth_future *f = t_keep_future(hearth_auth_sign_in_anonymously(s->auth));
  double deadline = t_now() + T_WAIT_SECONDS;
  while (!atomic_load(&s->remove_returned) && t_now() < deadline) t_turn();
  t_join(remover_thread);
  REQUIRE(atomic_load(&s->remove_returned));
  CHECK_CODE(atomic_load(&s->remove_rc), 0);
  CHECK_INT(atomic_load(&s->finished_when_remove_returned), 1);
  t_await_ok(f);
  CHECK_CODE(hearth_auth_sign_out(s->auth), 0);
  t_settle(100);
  CHECK_INT(atomic_load(&s->calls), 2);
}
