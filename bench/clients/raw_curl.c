/*
 * raw_curl.c — the limit: the same HTTP requests Hearth sends, made with libcurl directly and nothing
 * else. Keep-alive (easy handles are reused, the multi's connection cache keeps the connections), the
 * same URLs, headers and bodies; responses are read into a buffer but not interpreted.
 *
 *   --mode easy   sequential, one easy handle, curl_easy_perform (inflight must be 1)
 *   --mode multi  `inflight` operations at once on the multi-socket interface driven by epoll
 *   --mode poll   `inflight` operations at once on curl_multi_poll + curl_multi_perform, curl's own
 *                 event loop. Which of the two is faster depends on the machine and the concurrency
 *                 (multi-socket acts only on the sockets that are ready; curl_multi_poll rebuilds its
 *                 pollfd set and curl_multi_perform walks every transfer on each turn, but with fewer
 *                 calls and no callbacks), so the bench runs both and judges against the faster one
 *   --mode easy-parsed-url
 *                 as easy, but each URL is parsed once (curl_url) and handed to curl as CURLOPT_CURLU, as
 *                 Hearth does, instead of as a string curl parses for every request: a reference figure
 *                 for what the limit would be with that, not the target's peer
 *
 * One operation = the requests one Hearth operation sends: anon = accounts:signUp + accounts:lookup,
 * password = accounts:signInWithPassword + accounts:lookup, token = securetoken /v1/token.
 */
#define _GNU_SOURCE
#include "bench_common.h"
#include "canned_bodies.h"

#include <curl/curl.h>
#include <errno.h>
#include <sys/epoll.h>
#include <unistd.h>

typedef struct request {
  char url[256];
  const char *body;
  struct curl_slist *headers;
  CURLU *parsed; /* --mode easy-parsed-url */
} request;

typedef struct slot {
  CURL *easy;
  int step;
  int64_t start_ns;
  size_t received;
  char buffer[4096];
} slot;

static request plan[2];
static int plan_steps;
static bench_run run;
static CURLM *multi;
static int epfd;
static int64_t timer_deadline_ns = -1;
static long wave_done, wave_errors;
static int parsed_urls;

static size_t on_body(char *data, size_t size, size_t count, void *user) {
  slot *s = user;
  size_t n = size * count;
  size_t room = sizeof s->buffer - (s->received % sizeof s->buffer);
  memcpy(s->buffer + (s->received % sizeof s->buffer), data, n < room ? n : room);
  s->received += n;
  return n;
}

static void build_plan(const bench_config *c) {
  static struct curl_slist *json_headers, *form_headers;
  json_headers = curl_slist_append(NULL, "Content-Type: application/json");
  json_headers = curl_slist_append(json_headers, "X-Client-Version: Hearth/0.1.0");
  json_headers = curl_slist_append(json_headers, "Expect:");
  form_headers = curl_slist_append(NULL, "Content-Type: application/x-www-form-urlencoded");
  form_headers = curl_slist_append(form_headers, "X-Client-Version: Hearth/0.1.0");
  form_headers = curl_slist_append(form_headers, "Expect:");
  const char *idt = "identitytoolkit.googleapis.com/v1/accounts";
  switch (c->op) {
  case BENCH_ANON:
    snprintf(plan[0].url, sizeof plan[0].url, "http://%s:%d/%s:signUp?key=%s", c->host, c->port, idt, BENCH_ANON_KEY);
    plan[0].body = BODY_SIGN_UP;
    snprintf(plan[1].url, sizeof plan[1].url, "http://%s:%d/%s:lookup?key=%s", c->host, c->port, idt, BENCH_ANON_KEY);
    plan[1].body = BODY_LOOKUP_ANON;
    plan[0].headers = plan[1].headers = json_headers;
    plan_steps = 2;
    break;
  case BENCH_PASSWORD:
    snprintf(plan[0].url, sizeof plan[0].url, "http://%s:%d/%s:signInWithPassword?key=%s", c->host, c->port, idt,
             BENCH_PASSWORD_KEY);
    plan[0].body = BODY_SIGN_IN_WITH_PASSWORD;
    snprintf(plan[1].url, sizeof plan[1].url, "http://%s:%d/%s:lookup?key=%s", c->host, c->port, idt,
             BENCH_PASSWORD_KEY);
    plan[1].body = BODY_LOOKUP_PASSWORD;
    plan[0].headers = plan[1].headers = json_headers;
    plan_steps = 2;
    break;
  default:
    snprintf(plan[0].url, sizeof plan[0].url, "http://%s:%d/securetoken.googleapis.com/v1/token?key=%s", c->host,
             c->port, BENCH_PASSWORD_KEY);
    plan[0].body = BODY_TOKEN;
    plan[0].headers = form_headers;
    plan_steps = 1;
  }
  for (int i = 0; parsed_urls && i < plan_steps; i++) {
    plan[i].parsed = curl_url();
    if (!plan[i].parsed || curl_url_set(plan[i].parsed, CURLUPART_URL, plan[i].url, 0) != CURLUE_OK) {
      fprintf(stderr, "raw_curl: cannot parse %s\n", plan[i].url);
      exit(2);
    }
  }
}

static void prepare(slot *s) {
  const request *r = &plan[s->step];
  if (r->parsed)
    curl_easy_setopt(s->easy, CURLOPT_CURLU, r->parsed);
  else
    curl_easy_setopt(s->easy, CURLOPT_URL, r->url);
  curl_easy_setopt(s->easy, CURLOPT_HTTPHEADER, r->headers);
  curl_easy_setopt(s->easy, CURLOPT_POSTFIELDS, r->body);
  curl_easy_setopt(s->easy, CURLOPT_POSTFIELDSIZE, (long)strlen(r->body));
}

static slot *new_slot(void) {
  slot *s = calloc(1, sizeof *s);
  s->easy = curl_easy_init();
  curl_easy_setopt(s->easy, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(s->easy, CURLOPT_WRITEFUNCTION, on_body);
  curl_easy_setopt(s->easy, CURLOPT_WRITEDATA, s);
  curl_easy_setopt(s->easy, CURLOPT_PRIVATE, s);
  curl_easy_setopt(s->easy, CURLOPT_TIMEOUT_MS, 30000L);
  /* Hearth asks for gzip answers (Accept-Encoding: gzip); so does the limit, to send the same request. */
  curl_easy_setopt(s->easy, CURLOPT_ACCEPT_ENCODING, "gzip");
  return s;
}

static int response_ok(slot *s, CURLcode code) {
  long status = 0;
  curl_easy_getinfo(s->easy, CURLINFO_RESPONSE_CODE, &status);
  return code == CURLE_OK && status == 200;
}

/* ------------------------------------------------------------------------------------------------
 * easy: sequential
 * ---------------------------------------------------------------------------------------------- */
static int easy_operation(slot *s) {
  int ok = 1;
  for (s->step = 0; s->step < plan_steps; s->step++) {
    prepare(s);
    CURLcode code = curl_easy_perform(s->easy);
    ok = ok && response_ok(s, code);
  }
  return ok ? 0 : 1;
}

static void run_easy(void) {
  slot *s = new_slot();
  for (;;) {
    int64_t start = bench_now_ns();
    bench_started(&run);
    int error = easy_operation(s);
    if (!bench_complete(&run, start, error)) break;
  }
}

/* ------------------------------------------------------------------------------------------------
 * multi: the multi-socket interface on epoll
 * ---------------------------------------------------------------------------------------------- */
static int on_socket(CURL *easy, curl_socket_t fd, int what, void *user, void *socket_data) {
  (void)easy;
  (void)user;
  if (what == CURL_POLL_REMOVE) {
    epoll_ctl(epfd, EPOLL_CTL_DEL, fd, NULL);
    return 0;
  }
  struct epoll_event ev = {0};
  ev.events = (what & CURL_POLL_IN ? EPOLLIN : 0) | (what & CURL_POLL_OUT ? EPOLLOUT : 0);
  ev.data.fd = fd;
  if (!socket_data) {
    if (epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev) != 0 && errno == EEXIST) epoll_ctl(epfd, EPOLL_CTL_MOD, fd, &ev);
    curl_multi_assign(multi, fd, (void *)1);
  } else {
    epoll_ctl(epfd, EPOLL_CTL_MOD, fd, &ev);
  }
  return 0;
}

static int on_timer(CURLM *m, long timeout_ms, void *user) {
  (void)m;
  (void)user;
  timer_deadline_ns = timeout_ms < 0 ? -1 : bench_now_ns() + (int64_t)timeout_ms * 1000000;
  return 0;
}

static void start_operation(slot *s) {
  s->step = 0;
  s->start_ns = bench_now_ns();
  prepare(s);
  bench_started(&run);
  curl_multi_add_handle(multi, s->easy);
}

static void drain_finished(int wave) {
  CURLMsg *msg;
  int left;
  while ((msg = curl_multi_info_read(multi, &left)) != NULL) {
    if (msg->msg != CURLMSG_DONE) continue;
    CURL *easy = msg->easy_handle;
    CURLcode code = msg->data.result;
    slot *s;
    curl_easy_getinfo(easy, CURLINFO_PRIVATE, (char **)&s);
    int ok = response_ok(s, code);
    curl_multi_remove_handle(multi, easy);
    if (ok && s->step + 1 < plan_steps) {
      s->step++;
      prepare(s);
      curl_multi_add_handle(multi, easy);
      continue;
    }
    if (wave) {
      wave_done++;
      if (!ok) wave_errors++;
      run.inflight_now--;
      continue;
    }
    if (bench_complete(&run, s->start_ns, ok ? 0 : 1)) start_operation(s);
  }
}

static void pump(int wave) {
  struct epoll_event events[256];
  int running = 0;
  while (run.inflight_now > 0) {
    int wait_ms = 1000;
    if (timer_deadline_ns >= 0) {
      int64_t left = timer_deadline_ns - bench_now_ns();
      wait_ms = left <= 0 ? 0 : (int)((left + 999999) / 1000000);
    }
    int n = epoll_wait(epfd, events, 256, wait_ms);
    for (int i = 0; i < n; i++) {
      int flags = (events[i].events & EPOLLIN ? CURL_CSELECT_IN : 0) |
                  (events[i].events & EPOLLOUT ? CURL_CSELECT_OUT : 0) |
                  (events[i].events & (EPOLLERR | EPOLLHUP) ? CURL_CSELECT_ERR : 0);
      curl_multi_socket_action(multi, events[i].data.fd, flags, &running);
    }
    if (timer_deadline_ns >= 0 && bench_now_ns() >= timer_deadline_ns) {
      timer_deadline_ns = -1;
      curl_multi_socket_action(multi, CURL_SOCKET_TIMEOUT, 0, &running);
    }
    drain_finished(wave);
  }
}

static void setup_multi(void) {
  multi = curl_multi_init();
  epfd = epoll_create1(EPOLL_CLOEXEC);
  curl_multi_setopt(multi, CURLMOPT_SOCKETFUNCTION, on_socket);
  curl_multi_setopt(multi, CURLMOPT_TIMERFUNCTION, on_timer);
}

static void run_multi(void) {
  setup_multi();
  for (int i = 0; i < run.cfg.inflight; i++) start_operation(new_slot());
  pump(0);
}

/* ------------------------------------------------------------------------------------------------
 * poll: curl_multi_poll + curl_multi_perform (no socket or timer callbacks: curl waits on every
 * transfer's sockets itself and honours its own timeouts)
 * ---------------------------------------------------------------------------------------------- */
static void pump_poll(int wave) {
  int running = 0;
  while (run.inflight_now > 0) {
    curl_multi_perform(multi, &running);
    drain_finished(wave);
    if (run.inflight_now == 0) break;
    /* Handles drain_finished added start in the next perform; curl_multi_poll returns at once for
     * them (curl's own timer for a newly added transfer is due now). */
    int numfds = 0;
    curl_multi_poll(multi, NULL, 0, 1000, &numfds);
  }
}

static void run_poll(void) {
  multi = curl_multi_init();
  for (int i = 0; i < run.cfg.inflight; i++) start_operation(new_slot());
  pump_poll(0);
}

static void run_wave(void) {
  setup_multi();
  /* Warm-up on one connection, so the wave measures the operations, not the first-use setup. */
  run.cfg.inflight = 1;
  start_operation(new_slot());
  run.cfg.ops = 0;
  pump(0);
  long before = bench_status_kib("VmRSS:");
  bench_reset_peak_rss();
  int64_t t0 = bench_now_ns();
  for (long i = 0; i < run.cfg.wave; i++) start_operation(new_slot());
  pump(1);
  double seconds = (double)(bench_now_ns() - t0) / 1e9;
  bench_report_wave(&run.cfg, "raw-curl", wave_done, wave_errors, before, bench_status_kib("VmHWM:"),
                    bench_status_kib("VmRSS:"), bench_thread_count(), seconds);
}

int main(int argc, char **argv) {
  int64_t main_ns = bench_now_ns();
  bench_config cfg = bench_parse(argc, argv, "easy");
  curl_global_init(CURL_GLOBAL_DEFAULT);
  parsed_urls = !strcmp(cfg.mode, "easy-parsed-url");
  build_plan(&cfg);
  bench_run_init(&run, cfg);
  if (cfg.first) {
    slot *s = new_slot();
    int64_t issue = bench_now_ns();
    int error = easy_operation(s);
    int64_t done = bench_now_ns();
    bench_report_first(&cfg, "raw-curl", main_ns, issue, done, error, bench_status_kib("VmRSS:"),
                       bench_thread_count());
    return 0;
  }
  if (cfg.wave > 0) {
    run_wave();
    return 0;
  }
  if (!strcmp(cfg.mode, "easy") || parsed_urls) {
    if (cfg.inflight != 1) {
      fprintf(stderr, "raw_curl: --mode easy is sequential (--inflight 1)\n");
      return 2;
    }
    run_easy();
  } else if (!strcmp(cfg.mode, "multi")) {
    run_multi();
  } else if (!strcmp(cfg.mode, "poll")) {
    run_poll();
  } else {
    bench_usage(argv[0]);
  }
  bench_report(&run, "raw-curl", plan_steps, 0, NULL);
  return 0;
}
