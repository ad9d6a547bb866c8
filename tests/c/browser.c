/* browser.c — URLs, and the person at the browser who completes a provider flow: a UI delegate whose
 * user lives on a thread of their own, as a real browser lives in a process of its own. */
#include "test.h"

#include <errno.h>

/* ------------------------------------------------------------------------------------------------
 * URLs
 * ---------------------------------------------------------------------------------------------- */
static int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

static char *decode_component(const char *text, size_t length) {
  char *out = t_alloc(length + 1);
  size_t n = 0;
  for (size_t i = 0; i < length; i++) {
    if (text[i] == '+') {
      out[n++] = ' ';
    } else if (text[i] == '%' && i + 2 < length && hex_value(text[i + 1]) >= 0 && hex_value(text[i + 2]) >= 0) {
      out[n++] = (char)(hex_value(text[i + 1]) * 16 + hex_value(text[i + 2]));
      i += 2;
    } else {
      out[n++] = text[i];
    }
  }
  out[n] = '\0';
  return out;
}

/* The query of a URL: from after '?' up to '#' or the end. */
static const char *query_of(const char *url, size_t *length) {
  const char *question = strchr(url, '?');
  const char *hash = strchr(url, '#');
  if (!question || (hash && hash < question)) {
    *length = 0;
    return NULL;
  }
  const char *query = question + 1;
  *length = hash ? (size_t)(hash - query) : strlen(query);
  return query;
}

const char *t_url_param(const char *url, const char *name) {
  if (!url) return NULL;
  size_t length = 0;
  const char *query = query_of(url, &length);
  size_t name_length = strlen(name);
  for (const char *field = query; field && field < query + length;) {
    const char *field_end = memchr(field, '&', (size_t)(query + length - field));
    if (!field_end) field_end = query + length;
    const char *equals = memchr(field, '=', (size_t)(field_end - field));
    const char *name_end = equals ? equals : field_end;
    const char *decoded_name = decode_component(field, (size_t)(name_end - field));
    if (strlen(decoded_name) == name_length && strcmp(decoded_name, name) == 0)
      return equals ? decode_component(equals + 1, (size_t)(field_end - equals - 1)) : t_strdup("");
    field = field_end + 1;
  }
  return NULL;
}

const char *t_url_base(const char *url) { return t_printf("%.*s", (int)strcspn(url, "?#"), url); }

const char *t_url_encode(const char *text) {
  if (!text) text = "";
  static const char unreserved[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~";
  char *out = t_alloc(strlen(text) * 3 + 1);
  size_t n = 0;
  for (const unsigned char *c = (const unsigned char *)text; *c; c++) {
    if (strchr(unreserved, *c)) {
      out[n++] = (char)*c;
    } else {
      n += (size_t)sprintf(out + n, "%%%02X", *c);
    }
  }
  out[n] = '\0';
  return out;
}

const char *t_url_with_param(const char *url, const char *name, const char *value) {
  size_t base_length = strcspn(url, "?#");
  const char *fragment = strchr(url, '#');
  size_t query_length = 0;
  const char *query = query_of(url, &query_length);
  char *kept = t_alloc(query_length + 1);
  size_t n = 0;
  for (const char *field = query; field && field < query + query_length;) {
    const char *field_end = memchr(field, '&', (size_t)(query + query_length - field));
    if (!field_end) field_end = query + query_length;
    const char *equals = memchr(field, '=', (size_t)(field_end - field));
    const char *name_end = equals ? equals : field_end;
    if (strcmp(decode_component(field, (size_t)(name_end - field)), name) != 0) {
      if (n) kept[n++] = '&';
      memcpy(kept + n, field, (size_t)(field_end - field));
      n += (size_t)(field_end - field);
    }
    field = field_end + 1;
  }
  kept[n] = '\0';
  return t_printf("%.*s?%s%s%s=%s%s", (int)base_length, url, kept, n ? "&" : "", t_url_encode(name),
                  t_url_encode(value), fragment ? fragment : "");
}

/* ------------------------------------------------------------------------------------------------
 * The browser
 * ---------------------------------------------------------------------------------------------- */
#define MAX_VISITS 32

typedef struct pending_page {
  const char *url;
  t_plan plan;
} pending_page;

struct t_browser {
  hearth_app *app;
  hearth_auth *auth;
  pthread_t thread;

  pthread_mutex_t lock; /* guards everything below */
  pthread_cond_t wake;
  t_plan plan;
  bool stopping;
  bool exited;
  pending_page queue[MAX_VISITS];
  int queued, taken;
  t_visit visits[MAX_VISITS];
  int opened, finished;
  int releases; /* the UI delegate's final calls (hearth_provider_flow_options.release) */
};

/* The emulator's fake reCAPTCHA page (the handler with authType=verifyApp), which app verification opens
 * before an SMS is sent, rather than an identity provider's page. */
static bool is_recaptcha_page(const char *page) {
  return strstr(page, "/emulator/auth/handler?") && t_str_eq(t_url_param(page, "authType"), "verifyApp");
}

/* What a user does at a provider page: the emulator's own handler page takes the choice on its /choose
 * path (its reCAPTCHA page on /verify-app); a createAuthUri consent page takes it on the page's own URL. */
static const char *choice_url(const char *page, const char *choice) {
  const char *handler = "/emulator/auth/handler?";
  const char *at = strstr(page, handler);
  if (at) {
    const char *action = is_recaptcha_page(page) ? "verify-app" : "choose";
    return t_printf("%.*s/emulator/auth/handler/%s?%s&%s", (int)(at - page), page, action, at + strlen(handler),
                    choice);
  }
  return t_printf("%s&%s", page, choice);
}

/* The form fields the user's action submits on a page. */
static const char *user_choice(const char *page, const t_plan *plan) {
  if (is_recaptcha_page(page)) return plan->action == T_USER_CANCELS ? "cancel=true" : "notARobot=true";
  if (plan->action == T_USER_CANCELS) return "cancel=1";
  return plan->choice ? plan->choice : "generate=1";
}


/* What ties a redirect to its flow: `state`, or for OAuth 1.0a (Twitter) the request token. */
static const char *correlation_param(const char *location) {
  return t_url_param(location, "oauth_token") ? "oauth_token" : "state";
}

static void follow_redirect(t_browser *b, const t_plan *plan, t_visit *visit) {
  const char *location = visit->location;
  if (strncmp(location, "http://", 7) == 0) {
    if (plan->forged_redirect_first) {
      t_http_response forged = t_http_get(t_url_with_param(location, correlation_param(location), "forged-state"));
      visit->forged_status = forged.status;
    }
    const char *query = strchr(location, '?');
    t_http_response answer =
        plan->form_post ? t_http_post_form(t_url_base(location), query ? query + 1 : "") : t_http_get(location);
    visit->redirect_status = answer.status;
    visit->redirect_error = answer.transport_error;
    visit->redirect_body = answer.body;
    return;
  }
  /* A custom scheme: the operating system hands the URL to the app, which offers it to Hearth. */
  if (plan->forged_redirect_first) {
    const char *param = correlation_param(location);
    visit->foreign_handled = hearth_auth_handle_url(
        b->auth, t_printf("com.example.other:/oauth?%s=%s", param, t_url_encode(t_url_param(location, param))));
    visit->forged_handled = hearth_auth_handle_url(b->auth, t_url_with_param(location, param, "forged-state"));
  }
  visit->handled = hearth_auth_handle_url(b->auth, location);
}

static void visit_page(t_browser *b, const pending_page *page, t_visit *visit) {
  visit->opened_url = page->url;
  const t_plan *plan = &page->plan;
  if (plan->action == T_USER_WALKS_AWAY || plan->action == T_USER_REFUSED) return;
  t_http_response answer = t_http_get(choice_url(page->url, user_choice(page->url, plan)));
  visit->page_status = answer.status;
  if (answer.status != 303 || !answer.location) {
    t_fail(__FILE__, __LINE__, "the provider page answered %d (%s) to the user's choice: %.300s", answer.status,
           strerror(answer.transport_error), answer.body ? answer.body : "");
    return;
  }
  visit->location = plan->swapped_id_token ? t_url_with_param(answer.location, "id_token", plan->swapped_id_token)
                                           : answer.location;
  follow_redirect(b, plan, visit);
}

static void *browser_main(void *arg) {
  t_browser *b = arg;
  pthread_mutex_lock(&b->lock);
  for (;;) {
    while (!b->stopping && b->taken == b->queued) pthread_cond_wait(&b->wake, &b->lock);
    if (b->taken == b->queued) break; /* stopping, and nothing left to do */
    pending_page page = b->queue[b->taken];
    int index = b->taken++;
    pthread_mutex_unlock(&b->lock);
    t_visit visit = {.forged_handled = -1, .foreign_handled = -1, .handled = -1};
    visit_page(b, &page, &visit);
    pthread_mutex_lock(&b->lock);
    b->visits[index] = visit;
    b->finished++;
  }
  b->exited = true;
  pthread_mutex_unlock(&b->lock);
  return NULL;
}

static int browser_open_url(void *user_data, const char *url) {
  t_browser *b = user_data;
  T_CB_ENTER(b->app);
  int refused = 0;
  pthread_mutex_lock(&b->lock);
  if (b->queued == MAX_VISITS) {
    t_fail(__FILE__, __LINE__, "more than %d pages opened", MAX_VISITS);
    refused = 1;
  } else {
    /* The URL is only valid during the call. */
    b->queue[b->queued] = (pending_page){t_strdup(url), b->plan};
    refused = b->plan.action == T_USER_REFUSED;
    b->queued++;
    b->opened++;
    pthread_cond_signal(&b->wake);
  }
  pthread_mutex_unlock(&b->lock);
  T_CB_EXIT();
  return refused;
}

static void browser_stop(void *arg) {
  t_browser *b = arg;
  pthread_mutex_lock(&b->lock);
  b->stopping = true;
  pthread_cond_signal(&b->wake);
  pthread_mutex_unlock(&b->lock);
  /* The user may be waiting on the loopback receiver, which a host loop serves only while it runs. */
  for (;;) {
    pthread_mutex_lock(&b->lock);
    bool exited = b->exited;
    pthread_mutex_unlock(&b->lock);
    if (exited) break;
    t_turn();
  }
  pthread_join(b->thread, NULL);
}

t_browser *t_browser_new(hearth_app *app) {
  t_browser *b = t_alloc(sizeof *b);
  b->app = app;
  b->auth = hearth_auth_get(app);
  b->plan = (t_plan){.action = T_USER_SIGNS_IN, .choice = "generate=1"};
  pthread_mutex_init(&b->lock, NULL);
  pthread_cond_init(&b->wake, NULL);
  REQUIRE(pthread_create(&b->thread, NULL, browser_main, b) == 0);
  t_defer(browser_stop, b);
  return b;
}

void t_browser_plan(t_browser *b, t_plan plan) {
  pthread_mutex_lock(&b->lock);
  plan.choice = t_strdup(plan.choice);
  plan.swapped_id_token = t_strdup(plan.swapped_id_token);
  b->plan = plan;
  pthread_mutex_unlock(&b->lock);
}

void t_browser_sign_in_as(t_browser *b, const char *choice) {
  t_browser_plan(b, (t_plan){.action = T_USER_SIGNS_IN, .choice = choice});
}

/* The UI delegate's final call: Hearth no longer uses this browser (replaced and no flow pending, or the
 * app destroyed). Must come exactly once per accepted hearth_auth_set_provider_flow_options. */
static void browser_release(void *user_data) {
  t_browser *b = user_data;
  T_CB_ENTER(b->app);
  pthread_mutex_lock(&b->lock);
  b->releases++;
  pthread_mutex_unlock(&b->lock);
  T_CB_EXIT();
}

void t_browser_options(t_browser *b, hearth_provider_flow_options *options) {
  hearth_provider_flow_options_init(options);
  options->open_url = browser_open_url;
  options->user_data = b;
  options->release = browser_release;
}

int t_browser_releases(t_browser *b) {
  pthread_mutex_lock(&b->lock);
  int n = b->releases;
  pthread_mutex_unlock(&b->lock);
  return n;
}

void t_browser_attach(t_browser *b, int use_create_auth_uri) {
  hearth_provider_flow_options options;
  t_browser_options(b, &options);
  options.use_create_auth_uri = use_create_auth_uri;
  REQUIRE_CODE(hearth_auth_set_provider_flow_options(b->auth, &options), 0);
}

int t_browser_opened(t_browser *b) {
  pthread_mutex_lock(&b->lock);
  int n = b->opened;
  pthread_mutex_unlock(&b->lock);
  return n;
}

int t_browser_finished(t_browser *b) {
  pthread_mutex_lock(&b->lock);
  int n = b->finished;
  pthread_mutex_unlock(&b->lock);
  return n;
}

t_visit t_browser_visit(t_browser *b, int index) {
  t_visit visit = {.forged_handled = -1, .foreign_handled = -1, .handled = -1};
  pthread_mutex_lock(&b->lock);
  if (index >= 0 && index < b->finished) visit = b->visits[index];
  pthread_mutex_unlock(&b->lock);
  return visit;
}

t_visit t_browser_wait(t_browser *b, int count) {
  REQUIRE_EVENTUALLY(t_browser_finished(b) >= count);
  return t_browser_visit(b, count - 1);
}
