/* support.c — helpers the tests share: app options, waiting, users, tokens, sockets, files, threads. */
#include "test.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

const char *t_project(void) {
  const char *project = getenv("HEARTH_PROJECT");
  return project && *project ? project : "demo-hearth";
}

/* ------------------------------------------------------------------------------------------------
 * Apps and futures
 * ---------------------------------------------------------------------------------------------- */
static atomic_int app_serial;

void t_options(hearth_app_options *options) {
  hearth_app_options_init(options);
  options->api_key = TEST_API_KEY;
  options->project_id = t_project();
  options->app_name = t_printf("test-app-%d", atomic_fetch_add(&app_serial, 1));
  options->loop = t_host() ? t_loop() : NULL;
  options->persistence = HEARTH_PERSISTENCE_NONE;
}

hearth_app *t_app(void) {
  hearth_app_options options;
  t_options(&options);
  return t_app_create(&options);
}

hearth_app *t_unanswered_app(int64_t timeout_ms) {
  hearth_app_options options;
  t_options(&options);
  options.request_timeout_ms = timeout_ms;
  hearth_app *app = t_app_create(&options);
  REQUIRE_CODE(hearth_auth_use_emulator(hearth_auth_get(app), "127.0.0.1", t_blackhole_port()), 0);
  return app;
}

int t_await(hearth_future *future) {
  REQUIRE(future != NULL);
  if (t_host()) {
    double deadline = t_now() + T_WAIT_SECONDS;
    while (hearth_future_status(future) == HEARTH_FUTURE_PENDING && t_now() < deadline) t_turn();
  } else {
    int rc = hearth_future_wait(future, (int64_t)(T_WAIT_SECONDS * 1000));
    if (rc != 0) t_fail(__FILE__, __LINE__, "hearth_future_wait returned %s", hearth_error_name(rc));
  }
  int status = hearth_future_status(future);
  if (status != HEARTH_FUTURE_COMPLETE) {
    t_fail(__FILE__, __LINE__, "the future did not complete (status %d)", status);
    t_abort_test();
  }
  return hearth_future_error(future);
}

void t_await_ok_at(hearth_future *future, const char *what, const char *file, int line) {
  if (!future) {
    t_fail(file, line, "%s returned NULL", what);
    t_abort_test();
    return;
  }
  int rc = t_await(future);
  if (rc != 0) {
    t_fail(file, line, "%s failed: %s (%d): %s", what, hearth_error_name(rc), rc, hearth_future_error_message(future));
    t_abort_test();
  }
}

/* ------------------------------------------------------------------------------------------------
 * Users
 * ---------------------------------------------------------------------------------------------- */
static atomic_int email_serial;

const char *t_email(const char *tag) {
  return t_printf("%s-%d-%d@example.com", tag, (int)getpid(), atomic_fetch_add(&email_serial, 1));
}

hearth_user *t_current_user(hearth_auth *auth) {
  hearth_user *user = hearth_auth_current_user(auth);
  REQUIRE(user != NULL);
  return t_keep_user(user);
}

const char *t_current_uid(hearth_auth *auth) {
  hearth_user *user = hearth_auth_current_user(auth);
  const char *uid = t_strdup(user ? hearth_user_uid(user) : "");
  hearth_user_release(user);
  return uid;
}

hearth_user *t_sign_in_anonymously(hearth_auth *auth) {
  hearth_future *f = t_keep_future(hearth_auth_sign_in_anonymously(auth));
  t_await_ok(f);
  return t_current_user(auth);
}

hearth_user *t_create_user(hearth_auth *auth, const char *email, const char *password) {
  hearth_future *f = t_keep_future(hearth_auth_create_user_with_email_and_password(auth, email, password));
  t_await_ok(f);
  return t_current_user(auth);
}

const char *t_token(const hearth_user *user, int force_refresh) {
  hearth_future *f = t_keep_future(hearth_user_get_token(user, force_refresh));
  t_await_ok(f);
  const char *token = hearth_future_string(f);
  REQUIRE(token != NULL && *token);
  return t_strdup(token);
}

/* ------------------------------------------------------------------------------------------------
 * Identity providers
 * ---------------------------------------------------------------------------------------------- */
static atomic_int subject_serial;

const char *t_subject(const char *tag) {
  return t_printf("%s-%d-%d", tag, (int)getpid(), atomic_fetch_add(&subject_serial, 1));
}

const char *t_idp_claims(const char *sub, const char *email, bool email_verified, const char *name, const char *more) {
  return t_printf("{\"sub\":\"%s\"%s%s%s,\"email_verified\":%s%s%s%s%s}", sub, email ? ",\"email\":\"" : "",
                  email ? email : "", email ? "\"" : "", email_verified ? "true" : "false", name ? ",\"name\":\"" : "",
                  name ? name : "", name ? "\"" : "", more ? more : "");
}

static const char *base64url(const char *bytes) {
  static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  size_t length = strlen(bytes);
  char *out = t_alloc(length * 4 / 3 + 4);
  size_t n = 0;
  const unsigned char *b = (const unsigned char *)bytes;
  for (size_t i = 0; i < length; i += 3) {
    uint32_t group = (uint32_t)b[i] << 16;
    if (i + 1 < length) group |= (uint32_t)b[i + 1] << 8;
    if (i + 2 < length) group |= b[i + 2];
    out[n++] = alphabet[(group >> 18) & 63];
    out[n++] = alphabet[(group >> 12) & 63];
    if (i + 1 < length) out[n++] = alphabet[(group >> 6) & 63];
    if (i + 2 < length) out[n++] = alphabet[group & 63];
  }
  out[n] = '\0';
  return out;
}

const char *t_unsigned_jwt(const char *claims_json) {
  return t_printf("%s.%s.", base64url("{\"alg\":\"none\",\"typ\":\"JWT\"}"), base64url(claims_json));
}

const hearth_user_info *t_provider_info(const hearth_user *user, const char *provider_id) {
  for (size_t i = 0; i < hearth_user_provider_data_count(user); i++) {
    const hearth_user_info *info = hearth_user_provider_data_at(user, i);
    if (t_str_eq(hearth_user_info_provider_id(info), provider_id)) return info;
  }
  return NULL;
}

static int compare_strings(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

const char *t_provider_ids(const hearth_user *user) {
  size_t count = hearth_user_provider_data_count(user);
  const char **ids = t_alloc((count + 1) * sizeof *ids);
  for (size_t i = 0; i < count; i++) ids[i] = hearth_user_info_provider_id(hearth_user_provider_data_at(user, i));
  qsort(ids, count, sizeof *ids, compare_strings);
  char *text = t_strdup("");
  for (size_t i = 0; i < count; i++) text = t_printf("%s%s%s", text, i ? "," : "", ids[i] ? ids[i] : "(null)");
  return text;
}

/* ------------------------------------------------------------------------------------------------
 * Tokens
 * ---------------------------------------------------------------------------------------------- */
static int base64url_value(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '-') return 62;
  if (c == '_') return 63;
  return -1;
}

char *t_base64url_decode(const char *text, size_t length, size_t *out_length) {
  while (length > 0 && text[length - 1] == '=') length--;
  if (length % 4 == 1) return NULL;
  char *out = malloc(length * 3 / 4 + 4);
  if (!out) return NULL;
  size_t n = 0;
  uint32_t bits = 0;
  int count = 0;
  for (size_t i = 0; i < length; i++) {
    int v = base64url_value(text[i]);
    if (v < 0) {
      free(out);
      return NULL;
    }
    bits = (bits << 6) | (uint32_t)v;
    if (++count == 4) {
      out[n++] = (char)(bits >> 16);
      out[n++] = (char)(bits >> 8);
      out[n++] = (char)bits;
      bits = 0;
      count = 0;
    }
  }
  if (count == 2) out[n++] = (char)(bits >> 4);
  if (count == 3) {
    out[n++] = (char)(bits >> 10);
    out[n++] = (char)(bits >> 2);
  }
  out[n] = '\0';
  if (out_length) *out_length = n;
  return out;
}

static void free_json(void *value) { json_free(value); }

const json *t_token_claims(const char *jwt) {
  REQUIRE(jwt != NULL);
  const char *first = strchr(jwt, '.');
  REQUIRE(first != NULL);
  const char *second = strchr(first + 1, '.');
  REQUIRE(second != NULL);
  size_t length = 0;
  char *payload = t_own(t_base64url_decode(first + 1, (size_t)(second - first - 1), &length));
  REQUIRE(payload != NULL);
  json *claims = json_parse(payload, length);
  REQUIRE(claims != NULL);
  t_defer(free_json, claims);
  REQUIRE(json_kind(claims) == JSON_OBJECT);
  return claims;
}

const json *t_json(const char *text) {
  REQUIRE(text != NULL);
  json *value = json_parse(text, strlen(text));
  if (!value) {
    t_fail(__FILE__, __LINE__, "not JSON: %.300s", text);
    t_abort_test();
  }
  t_defer(free_json, value);
  return value;
}

/* ------------------------------------------------------------------------------------------------
 * Threads of this process
 * ---------------------------------------------------------------------------------------------- */
int t_thread_count(void) {
  DIR *dir = opendir("/proc/self/task");
  if (!dir) return -1;
  int count = 0;
  struct dirent *entry;
  while ((entry = readdir(dir)) != NULL) {
    if (entry->d_name[0] != '.') count++;
  }
  closedir(dir);
  return count;
}

struct t_thread {
  pthread_t id;
  void (*fn)(void *);
  void *arg;
};

static void *thread_main(void *arg) {
  t_thread *thread = arg;
  thread->fn(thread->arg);
  return NULL;
}

t_thread *t_spawn(void (*fn)(void *), void *arg) {
  t_thread *thread = t_alloc(sizeof *thread);
  thread->fn = fn;
  thread->arg = arg;
  REQUIRE(pthread_create(&thread->id, NULL, thread_main, thread) == 0);
  return thread;
}

void t_join(t_thread *thread) { pthread_join(thread->id, NULL); }

/* ------------------------------------------------------------------------------------------------
 * Sockets
 * ---------------------------------------------------------------------------------------------- */
static void close_fd(void *fd) { close((int)(intptr_t)fd); }

static int loopback_socket(uint16_t *port) {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  REQUIRE(fd >= 0);
  struct sockaddr_in address = {0};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = 0;
  REQUIRE(bind(fd, (struct sockaddr *)&address, sizeof address) == 0);
  socklen_t length = sizeof address;
  REQUIRE(getsockname(fd, (struct sockaddr *)&address, &length) == 0);
  *port = ntohs(address.sin_port);
  return fd;
}

uint16_t t_blackhole_port(void) {
  uint16_t port = 0;
  int fd = loopback_socket(&port);
  /* The kernel completes handshakes into the backlog; nobody ever reads or answers. */
  REQUIRE(listen(fd, 128) == 0);
  t_defer(close_fd, (void *)(intptr_t)fd);
  return port;
}

uint16_t t_closed_port(void) {
  uint16_t port = 0;
  int fd = loopback_socket(&port);
  close(fd);
  return port;
}

/* ------------------------------------------------------------------------------------------------
 * Files
 * ---------------------------------------------------------------------------------------------- */
static void remove_tree(const char *path) {
  struct stat st;
  if (lstat(path, &st) != 0) return;
  if (S_ISDIR(st.st_mode)) {
    DIR *dir = opendir(path);
    if (dir) {
      struct dirent *entry;
      while ((entry = readdir(dir)) != NULL) {
        if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0) continue;
        char child[4096];
        snprintf(child, sizeof child, "%s/%s", path, entry->d_name);
        remove_tree(child);
      }
      closedir(dir);
    }
    rmdir(path);
  } else {
    unlink(path);
  }
}

static void remove_tree_deferred(void *path) { remove_tree(path); }

const char *t_temp_dir(void) {
  const char *base = getenv("TMPDIR");
  char *dir = t_printf("%s/hearth-c-suite-XXXXXX", base && *base ? base : "/tmp");
  REQUIRE(mkdtemp(dir) != NULL);
  t_defer(remove_tree_deferred, dir);
  return dir;
}

static void collect_files(const char *dir, const char ***list, size_t *count, size_t *capacity) {
  DIR *d = opendir(dir);
  if (!d) return;
  struct dirent *entry;
  while ((entry = readdir(d)) != NULL) {
    if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0) continue;
    char *path = t_printf("%s/%s", dir, entry->d_name);
    struct stat st;
    if (lstat(path, &st) != 0) continue;
    if (S_ISDIR(st.st_mode)) {
      collect_files(path, list, count, capacity);
    } else if (S_ISREG(st.st_mode)) {
      if (*count + 2 > *capacity) {
        *capacity = *capacity ? *capacity * 2 : 8;
        const char **grown = realloc(*list, *capacity * sizeof **list);
        if (!grown) abort();
        *list = grown;
      }
      (*list)[(*count)++] = path;
    }
  }
  closedir(d);
}

const char **t_files_in(const char *dir) {
  const char **list = NULL;
  size_t count = 0, capacity = 0;
  collect_files(dir, &list, &count, &capacity);
  if (!list) list = calloc(1, sizeof *list);
  if (!list) abort();
  list[count] = NULL;
  return t_own(list);
}

char *t_read_file(const char *path, size_t *length) {
  FILE *file = fopen(path, "rb");
  if (!file) return NULL;
  size_t capacity = 4096, n = 0;
  char *data = malloc(capacity + 1);
  if (!data) abort();
  size_t got;
  while ((got = fread(data + n, 1, capacity - n, file)) > 0) {
    n += got;
    if (n == capacity) {
      capacity *= 2;
      char *grown = realloc(data, capacity + 1);
      if (!grown) abort();
      data = grown;
    }
  }
  fclose(file);
  data[n] = '\0';
  if (length) *length = n;
  return t_own(data);
}

void t_write_file(const char *path, const char *data, size_t length) {
  int fd = open(path, O_WRONLY | O_TRUNC | O_CREAT | O_CLOEXEC, 0600);
  REQUIRE(fd >= 0);
  size_t done = 0;
  while (done < length) {
    ssize_t n = write(fd, data + done, length - done);
    if (n < 0 && errno == EINTR) continue;
    REQUIRE(n > 0);
    done += (size_t)n;
  }
  close(fd);
}
