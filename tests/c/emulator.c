/* emulator.c — talks to hearth-emulator's admin and emulator-only routes over plain HTTP/1.1, so the suite
 * can wipe state between tests and look at the server's side of what the client did. */
#include "test.h"

#include <errno.h>
#include <netdb.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

static char host_text[256];  /* as given, e.g. "127.0.0.1:9099" */
static char host_name[256];  /* without brackets or port */
static uint16_t host_port;

const char *emu_host(void) { return host_text; }
uint16_t emu_port(void) { return host_port; }

int emu_init(void) {
  const char *env = getenv("FIREBASE_AUTH_EMULATOR_HOST");
  if (!env || strlen(env) >= sizeof host_text) return -1;
  snprintf(host_text, sizeof host_text, "%s", env);
  const char *colon = strrchr(env, ':');
  if (!colon) return -1;
  const char *name = env;
  size_t name_length = (size_t)(colon - env);
  if (name_length >= 2 && name[0] == '[' && name[name_length - 1] == ']') {
    name++;
    name_length -= 2;
  }
  if (name_length == 0 || name_length >= sizeof host_name) return -1;
  memcpy(host_name, name, name_length);
  host_name[name_length] = '\0';
  long port = strtol(colon + 1, NULL, 10);
  if (port <= 0 || port > 65535) return -1;
  host_port = (uint16_t)port;
  int status = 0;
  char *body = emu_request("GET", "/", NULL, false, &status);
  free(body);
  return body && status == 200 ? 0 : -1;
}

/* A connected TCP socket (10 s send/receive timeouts), or -1 with errno set (ECONNREFUSED, ...). */
static int connect_to(const char *name, uint16_t port_number) {
  struct addrinfo hints = {0}, *found = NULL;
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  char port[8];
  snprintf(port, sizeof port, "%u", (unsigned)port_number);
  if (getaddrinfo(name, port, &hints, &found) != 0) {
    errno = EHOSTUNREACH;
    return -1;
  }
  int fd = -1, failure = ECONNREFUSED;
  for (struct addrinfo *a = found; a && fd < 0; a = a->ai_next) {
    fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
    if (fd < 0) continue;
    struct timeval timeout = {10, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);
    if (connect(fd, a->ai_addr, a->ai_addrlen) != 0) {
      failure = errno;
      close(fd);
      fd = -1;
    }
  }
  freeaddrinfo(found);
  if (fd < 0) errno = failure;
  return fd;
}

static bool send_all(int fd, const char *data, size_t length) {
  while (length > 0) {
    ssize_t n = send(fd, data, length, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data += n;
    length -= (size_t)n;
  }
  return true;
}

static char *receive_all(int fd, size_t *length) {
  size_t capacity = 8192, n = 0;
  char *data = malloc(capacity + 1);
  if (!data) return NULL;
  for (;;) {
    if (n == capacity) {
      capacity *= 2;
      char *grown = realloc(data, capacity + 1);
      if (!grown) {
        free(data);
        return NULL;
      }
      data = grown;
    }
    ssize_t got = recv(fd, data + n, capacity - n, 0);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      free(data);
      return NULL;
    }
    if (got == 0) break;
    n += (size_t)got;
  }
  data[n] = '\0';
  *length = n;
  return data;
}

/* Decodes a chunked body in place; returns its length, or -1 when malformed. */
static long dechunk(char *body, size_t length) {
  char *read = body, *write = body, *end = body + length;
  for (;;) {
    char *line_end = strstr(read, "\r\n");
    if (!line_end || line_end >= end) return -1;
    long size = strtol(read, NULL, 16);
    if (size < 0) return -1;
    read = line_end + 2;
    if (size == 0) break;
    if (read + size > end) return -1;
    memmove(write, read, (size_t)size);
    write += size;
    read += size;
    if (end - read < 2 || read[0] != '\r' || read[1] != '\n') return -1;
    read += 2;
  }
  *write = '\0';
  return (long)(write - body);
}

static const char *find_header(const char *headers, const char *headers_end, const char *name) {
  size_t name_length = strlen(name);
  for (const char *line = headers; line && line < headers_end;) {
    if (strncasecmp(line, name, name_length) == 0 && line[name_length] == ':') return line + name_length + 1;
    const char *next = strstr(line, "\r\n");
    line = next ? next + 2 : NULL;
  }
  return NULL;
}

/* Sends `request` as it is on a fresh connection and reads the answer until the server closes it. Returns
 * the body (malloc'd, NUL-terminated, chunked encoding undone) and stores the status and, when asked, a
 * malloc'd copy of the Location header; NULL on transport failure, with errno set. */
static char *round_trip(const char *name, uint16_t port, const char *request, size_t length, int *status,
                        char **location) {
  *status = 0;
  if (location) *location = NULL;
  int fd = connect_to(name, port);
  if (fd < 0) return NULL;
  errno = 0;
  bool sent = send_all(fd, request, length);
  int failure = errno;
  size_t response_length = 0;
  char *response = sent ? receive_all(fd, &response_length) : NULL;
  if (sent && !response) failure = errno;
  close(fd);
  if (!response) {
    errno = failure ? failure : EIO;
    return NULL;
  }

  int code = 0;
  char *headers_end = strstr(response, "\r\n\r\n");
  if (sscanf(response, "HTTP/%*d.%*d %d", &code) != 1 || !headers_end) {
    free(response);
    errno = EPROTO;
    return NULL;
  }
  char *content = headers_end + 4;
  size_t content_length = response_length - (size_t)(content - response);
  const char *encoding = find_header(response, headers_end, "Transfer-Encoding");
  if (encoding && strstr(encoding, "chunked") && strstr(encoding, "chunked") < headers_end) {
    long decoded = dechunk(content, content_length);
    if (decoded < 0) {
      free(response);
      errno = EPROTO;
      return NULL;
    }
    content_length = (size_t)decoded;
  }
  if (location) {
    const char *value = find_header(response, headers_end, "Location");
    if (value) {
      while (*value == ' ' || *value == '\t') value++;
      const char *line_end = strstr(value, "\r\n");
      *location = strndup(value, (size_t)(line_end - value));
    }
  }
  memmove(response, content, content_length);
  response[content_length] = '\0';
  *status = code;
  return response;
}

/* One HTTP/1.1 request (Connection: close) with `extra_headers` (each ending in CRLF). */
static char *exchange(const char *name, uint16_t port, const char *authority, const char *method, const char *target,
                      const char *extra_headers, const char *body, int *status, char **location) {
  size_t body_length = body ? strlen(body) : 0;
  char *request = NULL;
  int length = asprintf(&request,
                        "%s %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n%sContent-Length: %zu\r\n\r\n%s",
                        method, target, authority, extra_headers, body_length, body ? body : "");
  if (length < 0) {
    *status = 0;
    if (location) *location = NULL;
    errno = ENOMEM;
    return NULL;
  }
  char *answer = round_trip(name, port, request, (size_t)length, status, location);
  int failure = errno;
  free(request);
  errno = failure;
  return answer;
}

char *emu_request(const char *method, const char *path, const char *body, bool admin, int *status) {
  return exchange(host_name, host_port, host_text, method, path,
                  admin ? "Accept: application/json\r\nAuthorization: Bearer owner\r\nContent-Type: application/json\r\n"
                        : "Accept: application/json\r\nContent-Type: application/json\r\n",
                  body, status, NULL);
}

/* ------------------------------------------------------------------------------------------------
 * Any http:// URL, as a browser fetches it (no redirects followed)
 * ---------------------------------------------------------------------------------------------- */
typedef struct http_target {
  const char *host;      /* without brackets */
  uint16_t port;
  const char *authority; /* as in the URL: the Host header */
  const char *path;      /* path and query; the fragment stays with the browser */
} http_target;

static bool parse_http_url(const char *url, http_target *out) {
  const char *prefix = "http://";
  if (!url || strncmp(url, prefix, strlen(prefix)) != 0) return false;
  const char *authority = url + strlen(prefix);
  size_t authority_length = strcspn(authority, "/?#");
  const char *rest = authority + authority_length;
  char *host = t_printf("%.*s", (int)authority_length, authority);
  uint16_t port = 80;
  char *colon = strrchr(host, ':');
  if (colon && !strchr(colon, ']')) {
    port = (uint16_t)strtol(colon + 1, NULL, 10);
    *colon = '\0';
  }
  if (host[0] == '[') {
    host++;
    char *bracket = strchr(host, ']');
    if (bracket) *bracket = '\0';
  }
  out->host = host;
  out->port = port;
  out->authority = t_printf("%.*s", (int)authority_length, authority);
  size_t path_length = strcspn(rest, "#");
  out->path = path_length ? t_printf("%.*s", (int)path_length, rest) : "/";
  return true;
}

static t_http_response finish_response(char *body, char *location, int status) {
  t_http_response response = {0};
  if (!body) {
    response.transport_error = errno ? errno : EIO;
    return response;
  }
  response.status = status;
  response.body = t_own(body);
  response.location = t_own(location);
  return response;
}

static t_http_response send_to(const char *method, const char *url, const char *content_type, const char *body) {
  http_target target;
  if (!parse_http_url(url, &target)) return (t_http_response){.transport_error = EINVAL};
  const char *headers = t_printf("Accept: text/html,application/json\r\nUser-Agent: hearth-c-suite\r\n%s%s%s",
                                 content_type ? "Content-Type: " : "", content_type ? content_type : "",
                                 content_type ? "\r\n" : "");
  char *location = NULL;
  int status = 0;
  errno = 0;
  char *answer = exchange(target.host, target.port, target.authority, method, target.path, headers, body, &status,
                          &location);
  return finish_response(answer, location, status);
}

t_http_response t_http_get(const char *url) { return send_to("GET", url, NULL, NULL); }

t_http_response t_http_post_form(const char *url, const char *form) {
  return send_to("POST", url, "application/x-www-form-urlencoded", form);
}

t_http_response t_http_raw(const char *url, const char *request) {
  http_target target;
  if (!parse_http_url(url, &target)) return (t_http_response){.transport_error = EINVAL};
  char *location = NULL;
  int status = 0;
  errno = 0;
  char *answer = round_trip(target.host, target.port, request, strlen(request), &status, &location);
  return finish_response(answer, location, status);
}

/* ------------------------------------------------------------------------------------------------
 * Admin and emulator-only routes
 * ---------------------------------------------------------------------------------------------- */
int emu_reset(void) {
  char path[256];
  snprintf(path, sizeof path, "/emulator/v1/projects/%s/accounts", t_project());
  int status = 0;
  char *body = emu_request("DELETE", path, NULL, false, &status);
  free(body);
  return body && status == 200 ? 0 : -1;
}

/* Test-owned body of a request that must answer 200. */
static const char *request_ok(const char *method, const char *path, const char *body, bool admin) {
  int status = 0;
  char *answer = t_own(emu_request(method, path, body, admin, &status));
  if (!answer || status != 200) {
    t_fail(__FILE__, __LINE__, "%s %s answered %d: %.300s", method, path, status, answer ? answer : "(no answer)");
    t_abort_test();
  }
  return answer;
}

const json *emu_oob_code(const char *email, const char *request_type) {
  const json *codes = json_get(
      t_json(request_ok("GET", t_printf("/emulator/v1/projects/%s/oobCodes", t_project()), NULL, false)), "oobCodes");
  const json *newest = NULL;
  for (size_t i = 0; i < json_count(codes); i++) {
    const json *code = json_at(codes, i);
    if (t_str_eq(json_get_string(code, "email"), email) && t_str_eq(json_get_string(code, "requestType"), request_type))
      newest = code;
  }
  return newest;
}

/* What a user does with the emailed link, done the way client SDKs do it (applyActionCode,
 * confirmPasswordReset): through the public REST API. */
int emu_apply_oob_code(const char *oob_code) {
  int status = 0;
  free(emu_request("POST", "/identitytoolkit.googleapis.com/v1/accounts:update?key=" TEST_API_KEY,
                   t_printf("{\"oobCode\":\"%s\"}", oob_code), false, &status));
  return status;
}

int emu_reset_password(const char *oob_code, const char *new_password) {
  int status = 0;
  free(emu_request("POST", "/identitytoolkit.googleapis.com/v1/accounts:resetPassword?key=" TEST_API_KEY,
                   t_printf("{\"oobCode\":\"%s\",\"newPassword\":\"%s\"}", oob_code, new_password), false,
                   &status));
  return status;
}

const json *emu_lookup(const char *uid) {
  const char *path = t_printf("/identitytoolkit.googleapis.com/v1/projects/%s/accounts:lookup", t_project());
  const json *answer = t_json(request_ok("POST", path, t_printf("{\"localId\":[\"%s\"]}", uid), true));
  return json_at(json_get(answer, "users"), 0);
}

int emu_admin_update(const char *uid, const char *fields_json) {
  const char *path = t_printf("/identitytoolkit.googleapis.com/v1/projects/%s/accounts:update", t_project());
  int status = 0;
  free(emu_request("POST", path, t_printf("{\"localId\":\"%s\",%s}", uid, fields_json), true, &status));
  return status;
}

int emu_admin_delete(const char *uid) {
  const char *path = t_printf("/identitytoolkit.googleapis.com/v1/projects/%s/accounts:delete", t_project());
  int status = 0;
  free(emu_request("POST", path, t_printf("{\"localId\":\"%s\"}", uid), true, &status));
  return status;
}

int emu_set_improved_email_privacy(bool on) {
  const char *path = t_printf("/emulator/v1/projects/%s/config", t_project());
  int status = 0;
  free(emu_request("PATCH", path,
                   t_printf("{\"emailPrivacyConfig\":{\"enableImprovedEmailPrivacy\":%s}}", on ? "true" : "false"),
                   false, &status));
  return status;
}

int emu_set_recent_login_max_age(int seconds) {
  const char *path = t_printf("/emulator/v1/projects/%s/config", t_project());
  int status = 0;
  free(emu_request("PATCH", path, t_printf("{\"recentLoginMaxAgeSeconds\":%d}", seconds), false, &status));
  return status;
}

/* ------------------------------------------------------------------------------------------------
 * SMS codes, project configuration and the emulator's log
 * ---------------------------------------------------------------------------------------------- */
static const json *verification_codes(void) {
  const char *path = t_printf("/emulator/v1/projects/%s/verificationCodes", t_project());
  const json *codes = json_get(t_json(request_ok("GET", path, NULL, false)), "verificationCodes");
  REQUIRE(json_kind(codes) == JSON_ARRAY);
  return codes;
}

const json *emu_verification_code(const char *verification_id) {
  const json *codes = verification_codes();
  for (size_t i = 0; i < json_count(codes); i++) {
    const json *entry = json_at(codes, i);
    if (t_str_eq(json_get_string(entry, "sessionInfo"), verification_id)) return entry;
  }
  return NULL;
}

const char *emu_sms_code(const char *verification_id) {
  const json *entry = emu_verification_code(verification_id);
  if (!entry) {
    t_fail(__FILE__, __LINE__, "the emulator lists no SMS code for verification id %.20s...",
           verification_id ? verification_id : "(null)");
    t_abort_test();
  }
  const char *code = json_get_string(entry, "code");
  REQUIRE(code != NULL && strlen(code) == 6);
  return t_strdup(code);
}

int emu_verification_code_count(const char *phone_number) {
  const json *codes = verification_codes();
  int count = 0;
  for (size_t i = 0; i < json_count(codes); i++) {
    if (t_str_eq(json_get_string(json_at(codes, i), "phoneNumber"), phone_number)) count++;
  }
  return count;
}

/* The phone settings every test starts from (the emulator's defaults). */
static void restore_phone_config(void *unused) {
  (void)unused;
  const char *path = t_printf("/emulator/v1/projects/%s/config", t_project());
  int status = 0;
  free(emu_request("PATCH", path,
                   "{\"testPhoneNumbers\":{},\"smsCodeTtlSeconds\":300,"
                   "\"smsRateLimit\":{\"maxSends\":5,\"windowSeconds\":60},\"appVerificationRequired\":false}",
                   false, &status));
  if (status != 200) t_fail(__FILE__, __LINE__, "could not restore the emulator's phone settings (%d)", status);
}

void emu_configure(const char *fields_json) {
  t_defer(restore_phone_config, NULL);
  request_ok("PATCH", t_printf("/emulator/v1/projects/%s/config", t_project()), t_printf("{%s}", fields_json), false);
}

const char *emu_log_until(const char *needle) {
  const char *path = getenv("HEARTH_EMULATOR_LOG");
  if (!path || !*path) {
    t_fail(__FILE__, __LINE__, "HEARTH_EMULATOR_LOG is not set: run the suite through scripts/with-emulator");
    t_abort_test();
  }
  double deadline = t_now() + 5.0;
  for (;;) {
    char *log = NULL;
    size_t size = 0;
    FILE *file = fopen(path, "rb");
    if (file) {
      FILE *text = open_memstream(&log, &size);
      char chunk[8192];
      size_t got;
      while (text && (got = fread(chunk, 1, sizeof chunk, file)) > 0) fwrite(chunk, 1, got, text);
      if (text) fclose(text);
      fclose(file);
    }
    if ((log && strstr(log, needle)) || t_now() > deadline) return log ? t_own(log) : "";
    free(log);
    t_sleep_ms(20);
  }
}
