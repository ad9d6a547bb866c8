/* test_persistence.c — where the session is kept between runs: a private file, nowhere, or the host's
 * storage callbacks. */
#include "test.h"

#include <sys/stat.h>

static hearth_app *persisted_app(int persistence, const char *dir, const char *name, const char *api_key) {
  hearth_app_options options;
  t_options(&options);
  options.persistence = persistence;
  options.persistence_dir = dir;
  options.app_name = name;
  options.api_key = api_key;
  return t_app_create(&options);
}

static bool is_json(const char *text, size_t length) {
  json *value = json_parse(text, length);
  bool ok = value != NULL;
  json_free(value);
  return ok;
}

static int count_files(const char *dir) {
  int n = 0;
  for (const char **f = t_files_in(dir); *f; f++) n++;
  return n;
}

/* ------------------------------------------------------------------------------------------------
 * File
 * ---------------------------------------------------------------------------------------------- */
TEST(a_file_session_survives_the_app_and_the_file_is_private, BOTH_LOOPS) {
  const char *dir = t_temp_dir();
  hearth_app *first = persisted_app(HEARTH_PERSISTENCE_FILE, dir, "saved-game", TEST_API_KEY);
  const char *email = t_email("persist");
  hearth_user *user = t_create_user(hearth_auth_get(first), email, T_PASSWORD);
  const char *uid = t_strdup(hearth_user_uid(user));
  REQUIRE_EVENTUALLY(count_files(dir) >= 1);
  for (const char **file = t_files_in(dir); *file; file++) {
    struct stat st;
    REQUIRE(stat(*file, &st) == 0);
    if ((st.st_mode & 0777) != 0600) t_fail(__FILE__, __LINE__, "%s has mode %o, expected 600", *file, st.st_mode & 0777);
    size_t length = 0;
    const char *content = t_read_file(*file, &length);
    REQUIRE(content != NULL);
    CHECK(is_json(content, length)); /* the design's format: a JSON file */
    CHECK(strstr(content, T_PASSWORD) == NULL); /* the password is never stored */
  }
  t_app_destroy(first);

  /* The session is there from the first call: no loop turn needed. */
  hearth_app *second = persisted_app(HEARTH_PERSISTENCE_FILE, dir, "saved-game", TEST_API_KEY);
  hearth_auth *auth = hearth_auth_get(second);
  hearth_user *restored = t_current_user(auth);
  CHECK_STR(hearth_user_uid(restored), uid);
  CHECK_STR(hearth_user_email(restored), email);
  CHECK_INT(hearth_user_provider_data_count(restored), 1);
  t_token(restored, 1); /* the refresh token came back too */

  CHECK_CODE(hearth_auth_sign_out(auth), 0);
  CHECK_INT(count_files(dir), 0); /* erased synchronously */
  t_app_destroy(second);
  hearth_app *third = persisted_app(HEARTH_PERSISTENCE_FILE, dir, "saved-game", TEST_API_KEY);
  CHECK(hearth_auth_current_user(hearth_auth_get(third)) == NULL);
}

TEST(file_sessions_belong_to_one_app_name_and_api_key, BOTH_LOOPS) {
  const char *dir = t_temp_dir();
  hearth_app *alpha = persisted_app(HEARTH_PERSISTENCE_FILE, dir, "alpha", TEST_API_KEY);
  const char *uid = t_strdup(hearth_user_uid(t_sign_in_anonymously(hearth_auth_get(alpha))));
  REQUIRE_EVENTUALLY(count_files(dir) >= 1);
  hearth_app *beta = persisted_app(HEARTH_PERSISTENCE_FILE, dir, "beta", TEST_API_KEY);
  CHECK(hearth_auth_current_user(hearth_auth_get(beta)) == NULL);
  t_app_destroy(alpha);
  hearth_app *other_key = persisted_app(HEARTH_PERSISTENCE_FILE, dir, "alpha", "another-api-key");
  CHECK(hearth_auth_current_user(hearth_auth_get(other_key)) == NULL);
  t_app_destroy(other_key);
  hearth_app *again = persisted_app(HEARTH_PERSISTENCE_FILE, dir, "alpha", TEST_API_KEY);
  CHECK_STR(t_current_uid(hearth_auth_get(again)), uid);
}

TEST(a_corrupt_session_file_reads_as_signed_out, BOTH_LOOPS) {
  const char *dir = t_temp_dir();
  hearth_app *app = persisted_app(HEARTH_PERSISTENCE_FILE, dir, "corrupt", TEST_API_KEY);
  t_sign_in_anonymously(hearth_auth_get(app));
  REQUIRE_EVENTUALLY(count_files(dir) >= 1);
  t_app_destroy(app);
  const char **files = t_files_in(dir);

  static const struct {
    const char *data;
    size_t length;
  } garbage[] = {
      {"{not json", 9},
      {"\x00\xff\x13\x37\xfe", 5},
      {"{\"hello\":1}", 11},
      {"[]", 2},
      {"{\"uid\":42,\"refreshToken\":[]}", 28},
      {"", 0},
  };
  for (size_t i = 0; i < sizeof garbage / sizeof garbage[0]; i++) {
    for (const char **file = files; *file; file++) t_write_file(*file, garbage[i].data, garbage[i].length);
    hearth_app *reopened = persisted_app(HEARTH_PERSISTENCE_FILE, dir, "corrupt", TEST_API_KEY);
    if (hearth_auth_current_user(hearth_auth_get(reopened)) != NULL)
      t_fail(__FILE__, __LINE__, "garbage %zu was read as a session", i);
    t_app_destroy(reopened);
  }

  /* Signing in again replaces the bad file with a good, private one. */
  hearth_app *fresh = persisted_app(HEARTH_PERSISTENCE_FILE, dir, "corrupt", TEST_API_KEY);
  const char *uid = t_strdup(hearth_user_uid(t_sign_in_anonymously(hearth_auth_get(fresh))));
  t_app_destroy(fresh);
  hearth_app *restored = persisted_app(HEARTH_PERSISTENCE_FILE, dir, "corrupt", TEST_API_KEY);
  CHECK_STR(t_current_uid(hearth_auth_get(restored)), uid);
  for (const char **file = t_files_in(dir); *file; file++) {
    struct stat st;
    REQUIRE(stat(*file, &st) == 0);
    CHECK_INT(st.st_mode & 0777, 0600);
  }
}

/* ------------------------------------------------------------------------------------------------
 * None
 * ---------------------------------------------------------------------------------------------- */
TEST(no_persistence_writes_nothing_and_forgets_the_session, BOTH_LOOPS) {
  const char *dir = t_temp_dir();
  hearth_app *app = persisted_app(HEARTH_PERSISTENCE_NONE, dir, "ephemeral", TEST_API_KEY);
  t_create_user(hearth_auth_get(app), t_email("ephemeral"), T_PASSWORD);
  t_settle(100);
  t_app_destroy(app);
  CHECK_INT(count_files(dir), 0);
  hearth_app *again = persisted_app(HEARTH_PERSISTENCE_NONE, dir, "ephemeral", TEST_API_KEY);
  CHECK(hearth_auth_current_user(hearth_auth_get(again)) == NULL);
  t_app_destroy(again);
  hearth_app *file = persisted_app(HEARTH_PERSISTENCE_FILE, dir, "ephemeral", TEST_API_KEY);
  CHECK(hearth_auth_current_user(hearth_auth_get(file)) == NULL);
}

/* ------------------------------------------------------------------------------------------------
 * Host callbacks
 * ---------------------------------------------------------------------------------------------- */
typedef struct store {
  hearth_app *app;
  pthread_t creator;
  pthread_mutex_t lock;
  atomic_int loads, saves, erases;
  atomic_int loads_off_creator_thread;
  atomic_int erases_on_caller_thread; /* the test thread: sign-out erases there */
  atomic_int erases_in_uv_run;        /* host mode: erases on the test thread from inside uv_run */
  atomic_int erases_off_loop_thread;  /* host mode: erases on a thread that is not the loop's */
  atomic_int active;                  /* storage calls in progress: they never overlap */
  char load_key[512], save_key[512], erase_key[512];
  char data[32768];
  size_t length;
  /* What load answers. */
  const char *reply;
  size_t reply_length;
  int load_result;
  atomic_int reply_null_rc;
  atomic_int reply_rc;
} store;

static store *new_store(void) {
  store *s = t_alloc(sizeof *s);
  pthread_mutex_init(&s->lock, NULL);
  s->creator = pthread_self();
  atomic_store(&s->reply_null_rc, -1);
  atomic_store(&s->reply_rc, -1);
  return s;
}

static void store_enter(store *s) {
  if (atomic_fetch_add(&s->active, 1) != 0) t_fail(__FILE__, __LINE__, "storage callbacks overlap");
}

static void store_exit(store *s) { atomic_fetch_sub(&s->active, 1); }

/* Runs inside hearth_app_create, on the creating thread: deliberately not a loop callback. */
static int store_load(void *user_data, const char *key, hearth_storage_reply *reply) {
  store *s = user_data;
  store_enter(s);
  atomic_fetch_add(&s->loads, 1);
  if (!pthread_equal(pthread_self(), s->creator)) atomic_fetch_add(&s->loads_off_creator_thread, 1);
  pthread_mutex_lock(&s->lock);
  snprintf(s->load_key, sizeof s->load_key, "%s", key ? key : "(null)");
  pthread_mutex_unlock(&s->lock);
  if (s->reply) {
    atomic_store(&s->reply_null_rc, hearth_storage_reply_set(reply, NULL, 3));
    atomic_store(&s->reply_rc, hearth_storage_reply_set(reply, s->reply, s->reply_length));
  }
  store_exit(s);
  return s->load_result;
}

static int store_save(void *user_data, const char *key, const char *data, size_t length) {
  store *s = user_data;
  T_CB_ENTER(s->app);
  store_enter(s);
  pthread_mutex_lock(&s->lock);
  snprintf(s->save_key, sizeof s->save_key, "%s", key ? key : "(null)");
  if (length < sizeof s->data) {
    memcpy(s->data, data, length);
    s->data[length] = '\0';
    s->length = length;
  }
  pthread_mutex_unlock(&s->lock);
  atomic_fetch_add(&s->saves, 1);
  store_exit(s);
  T_CB_EXIT();
  return 0;
}

/* Erases run on the loop thread, except the one hearth_auth_sign_out does on its caller's thread. */
static int store_erase(void *user_data, const char *key) {
  store *s = user_data;
  store_enter(s);
  pthread_mutex_lock(&s->lock);
  snprintf(s->erase_key, sizeof s->erase_key, "%s", key ? key : "(null)");
  pthread_mutex_unlock(&s->lock);
  if (pthread_equal(pthread_self(), s->creator)) {
    atomic_fetch_add(&s->erases_on_caller_thread, 1);
    if (t_host() && t_in_uv_run()) atomic_fetch_add(&s->erases_in_uv_run, 1);
  } else if (t_host()) {
    atomic_fetch_add(&s->erases_off_loop_thread, 1);
  }
  atomic_fetch_add(&s->erases, 1);
  store_exit(s);
  return 0;
}

static hearth_app *store_app(store *s, const char *name) {
  hearth_app_options options;
  t_options(&options);
  options.app_name = name;
  options.persistence = HEARTH_PERSISTENCE_CALLBACKS;
  options.storage_load = store_load;
  options.storage_save = store_save;
  options.storage_erase = store_erase;
  options.storage_user_data = s;
  s->app = t_app_create(&options);
  return s->app;
}

TEST(storage_callbacks_load_save_and_erase_the_session, BOTH_LOOPS) {
  store *first = new_store();
  hearth_app *app = store_app(first, "host-storage");
  CHECK_INT(atomic_load(&first->loads), 1); /* synchronously, inside hearth_app_create */
  CHECK_INT(atomic_load(&first->loads_off_creator_thread), 0);
  CHECK(strlen(first->load_key) > 0);
  CHECK(hearth_auth_current_user(hearth_auth_get(app)) == NULL);

  const char *email = t_email("stored");
  const char *uid = t_strdup(hearth_user_uid(t_create_user(hearth_auth_get(app), email, T_PASSWORD)));
  REQUIRE_EVENTUALLY(atomic_load(&first->saves) >= 1);
  t_settle(50);
  pthread_mutex_lock(&first->lock);
  char *saved = t_strdup(first->data);
  size_t saved_length = first->length;
  char *key = t_strdup(first->save_key);
  pthread_mutex_unlock(&first->lock);
  CHECK_STR(key, first->load_key);
  CHECK(saved_length > 0);
  CHECK(strstr(saved, T_PASSWORD) == NULL);
  CHECK_INT(atomic_load(&first->erases), 0);
  t_app_destroy(app);

  /* The next run answers load with what was saved. */
  store *second = new_store();
  second->reply = saved;
  second->reply_length = saved_length;
  hearth_app *restored = store_app(second, "host-storage");
  CHECK_INT(atomic_load(&second->loads), 1);
  CHECK_STR(second->load_key, key); /* stable across runs */
  CHECK_CODE(atomic_load(&second->reply_null_rc), HEARTH_ERROR_INVALID_ARGUMENT);
  CHECK_CODE(atomic_load(&second->reply_rc), 0);
  hearth_auth *auth = hearth_auth_get(restored);
  hearth_user *user = t_current_user(auth);
  CHECK_STR(hearth_user_uid(user), uid);
  CHECK_STR(hearth_user_email(user), email);
  t_token(user, 1);

  CHECK_CODE(hearth_auth_sign_out(auth), 0);
  /* Erased before sign_out returns, on the calling thread, so the sign-out is stored. */
  CHECK_INT(atomic_load(&second->erases), 1);
  CHECK_INT(atomic_load(&second->erases_on_caller_thread), 1);
  CHECK_INT(atomic_load(&second->erases_in_uv_run), 0);
  t_settle(50);
  CHECK_INT(atomic_load(&second->erases), 1);
  pthread_mutex_lock(&second->lock);
  CHECK_STR(second->erase_key, key);
  pthread_mutex_unlock(&second->lock);
}

TEST(storage_keys_differ_per_app_name_and_repeat_for_the_same_name, BOTH_LOOPS) {
  store *one = new_store();
  t_app_destroy(store_app(one, "one"));
  store *two = new_store();
  t_app_destroy(store_app(two, "two"));
  store *one_again = new_store();
  t_app_destroy(store_app(one_again, "one"));
  CHECK(strcmp(one->load_key, two->load_key) != 0);
  CHECK_STR(one_again->load_key, one->load_key);
}

TEST(a_failing_or_garbage_load_reads_as_signed_out, BOTH_LOOPS) {
  store *failing = new_store();
  failing->load_result = 1;
  hearth_app *app = store_app(failing, "failing-load");
  CHECK_INT(atomic_load(&failing->loads), 1);
  CHECK(hearth_auth_current_user(hearth_auth_get(app)) == NULL);
  t_app_destroy(app);

  store *garbage = new_store();
  garbage->reply = "\x01\x02not a session\xff";
  garbage->reply_length = 17;
  app = store_app(garbage, "garbage-load");
  CHECK_CODE(atomic_load(&garbage->reply_rc), 0);
  CHECK(hearth_auth_current_user(hearth_auth_get(app)) == NULL);
  /* And the app works normally afterwards. */
  t_sign_in_anonymously(hearth_auth_get(app));
  REQUIRE_EVENTUALLY(atomic_load(&garbage->saves) >= 1);
}

TEST(deleting_the_user_erases_the_stored_session, BOTH_LOOPS) {
  store *s = new_store();
  hearth_app *app = store_app(s, "delete-erases");
  hearth_user *user = t_sign_in_anonymously(hearth_auth_get(app));
  REQUIRE_EVENTUALLY(atomic_load(&s->saves) >= 1);
  t_await_ok(t_keep_future(hearth_user_delete(user)));
  REQUIRE_EVENTUALLY(atomic_load(&s->erases) == 1);
  /* Not a sign_out call: this erase runs on the loop thread. */
  if (t_host()) {
    CHECK_INT(atomic_load(&s->erases_in_uv_run), 1);
    CHECK_INT(atomic_load(&s->erases_off_loop_thread), 0);
  } else {
    CHECK_INT(atomic_load(&s->erases_on_caller_thread), 0);
  }
}
