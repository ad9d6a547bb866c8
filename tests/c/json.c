/* json.c — a small strict JSON reader for emulator answers and token claims (RFC 8259, UTF-8). */
#include "test.h"

struct json {
  json_type type;
  bool boolean;
  double number;
  char *string;   /* JSON_STRING */
  char **keys;    /* JSON_OBJECT */
  json **items;   /* JSON_ARRAY and JSON_OBJECT values */
  size_t count;
};

typedef struct parser {
  const char *p;
  const char *end;
  int depth;
} parser;

static json *parse_value(parser *ps);

static void skip_space(parser *ps) {
  while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r')) ps->p++;
}

static json *new_value(json_type type) {
  json *v = calloc(1, sizeof *v);
  if (v) v->type = type;
  return v;
}

static bool append(json *container, json *item, char *key) {
  json **items = realloc(container->items, (container->count + 1) * sizeof *items);
  if (!items) return false;
  container->items = items;
  if (container->type == JSON_OBJECT) {
    char **keys = realloc(container->keys, (container->count + 1) * sizeof *keys);
    if (!keys) return false;
    container->keys = keys;
    container->keys[container->count] = key;
  }
  container->items[container->count++] = item;
  return true;
}

static int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

static bool read_hex4(parser *ps, unsigned *out) {
  if (ps->end - ps->p < 4) return false;
  unsigned v = 0;
  for (int i = 0; i < 4; i++) {
    int d = hex_digit(ps->p[i]);
    if (d < 0) return false;
    v = v * 16 + (unsigned)d;
  }
  ps->p += 4;
  *out = v;
  return true;
}

static size_t put_utf8(char *out, unsigned cp) {
  if (cp < 0x80) {
    out[0] = (char)cp;
    return 1;
  }
  if (cp < 0x800) {
    out[0] = (char)(0xC0 | (cp >> 6));
    out[1] = (char)(0x80 | (cp & 0x3F));
    return 2;
  }
  if (cp < 0x10000) {
    out[0] = (char)(0xE0 | (cp >> 12));
    out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[2] = (char)(0x80 | (cp & 0x3F));
    return 3;
  }
  out[0] = (char)(0xF0 | (cp >> 18));
  out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
  out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
  out[3] = (char)(0x80 | (cp & 0x3F));
  return 4;
}

static char *parse_string(parser *ps) {
  if (ps->p >= ps->end || *ps->p != '"') return NULL;
  ps->p++;
  /* Escapes never make a string longer than its source. */
  char *out = malloc((size_t)(ps->end - ps->p) + 1);
  if (!out) return NULL;
  size_t n = 0;
  while (ps->p < ps->end && *ps->p != '"') {
    unsigned char c = (unsigned char)*ps->p++;
    if (c < 0x20) goto fail;
    if (c != '\\') {
      out[n++] = (char)c;
      continue;
    }
    if (ps->p >= ps->end) goto fail;
    char e = *ps->p++;
    switch (e) {
    case '"': out[n++] = '"'; break;
    case '\\': out[n++] = '\\'; break;
    case '/': out[n++] = '/'; break;
    case 'b': out[n++] = '\b'; break;
    case 'f': out[n++] = '\f'; break;
    case 'n': out[n++] = '\n'; break;
    case 'r': out[n++] = '\r'; break;
    case 't': out[n++] = '\t'; break;
    case 'u': {
      unsigned cp;
      if (!read_hex4(ps, &cp)) goto fail;
      if (cp >= 0xD800 && cp <= 0xDBFF) {
        unsigned low;
        if (ps->end - ps->p < 6 || ps->p[0] != '\\' || ps->p[1] != 'u') goto fail;
        ps->p += 2;
        if (!read_hex4(ps, &low) || low < 0xDC00 || low > 0xDFFF) goto fail;
        cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
      } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
        goto fail;
      }
      n += put_utf8(out + n, cp);
      break;
    }
    default: goto fail;
    }
  }
  if (ps->p >= ps->end) goto fail;
  ps->p++; /* closing quote */
  out[n] = '\0';
  return out;
fail:
  free(out);
  return NULL;
}

static json *parse_number(parser *ps) {
  const char *start = ps->p;
  if (ps->p < ps->end && *ps->p == '-') ps->p++;
  if (ps->p >= ps->end || *ps->p < '0' || *ps->p > '9') return NULL;
  while (ps->p < ps->end && ((*ps->p >= '0' && *ps->p <= '9') || *ps->p == '.' || *ps->p == 'e' || *ps->p == 'E' ||
                             *ps->p == '+' || *ps->p == '-'))
    ps->p++;
  char buffer[64];
  size_t length = (size_t)(ps->p - start);
  if (length >= sizeof buffer) return NULL;
  memcpy(buffer, start, length);
  buffer[length] = '\0';
  char *end = NULL;
  double number = strtod(buffer, &end);
  if (!end || *end != '\0') return NULL;
  json *v = new_value(JSON_NUMBER);
  if (v) v->number = number;
  return v;
}

static bool literal(parser *ps, const char *word) {
  size_t length = strlen(word);
  if ((size_t)(ps->end - ps->p) < length || memcmp(ps->p, word, length) != 0) return false;
  ps->p += length;
  return true;
}

static json *parse_container(parser *ps, json_type type) {
  char close = type == JSON_OBJECT ? '}' : ']';
  json *v = new_value(type);
  if (!v) return NULL;
  ps->p++;
  skip_space(ps);
  if (ps->p < ps->end && *ps->p == close) {
    ps->p++;
    return v;
  }
  for (;;) {
    char *key = NULL;
    skip_space(ps);
    if (type == JSON_OBJECT) {
      key = parse_string(ps);
      if (!key) goto fail;
      skip_space(ps);
      if (ps->p >= ps->end || *ps->p != ':') {
        free(key);
        goto fail;
      }
      ps->p++;
    }
    json *item = parse_value(ps);
    if (!item || !append(v, item, key)) {
      json_free(item);
      free(key);
      goto fail;
    }
    skip_space(ps);
    if (ps->p < ps->end && *ps->p == ',') {
      ps->p++;
      continue;
    }
    if (ps->p < ps->end && *ps->p == close) {
      ps->p++;
      return v;
    }
    goto fail;
  }
fail:
  json_free(v);
  return NULL;
}

static json *parse_value(parser *ps) {
  skip_space(ps);
  if (ps->p >= ps->end || ++ps->depth > 64) return NULL;
  json *v = NULL;
  char c = *ps->p;
  if (c == '{') v = parse_container(ps, JSON_OBJECT);
  else if (c == '[') v = parse_container(ps, JSON_ARRAY);
  else if (c == '"') {
    char *s = parse_string(ps);
    if (s && (v = new_value(JSON_STRING)) != NULL) v->string = s;
    else free(s);
  } else if (literal(ps, "true")) {
    if ((v = new_value(JSON_BOOL)) != NULL) v->boolean = true;
  } else if (literal(ps, "false")) {
    v = new_value(JSON_BOOL);
  } else if (literal(ps, "null")) {
    v = new_value(JSON_NULL);
  } else {
    v = parse_number(ps);
  }
  ps->depth--;
  return v;
}

json *json_parse(const char *text, size_t length) {
  if (!text) return NULL;
  parser ps = {text, text + length, 0};
  json *v = parse_value(&ps);
  skip_space(&ps);
  if (v && ps.p != ps.end) {
    json_free(v);
    return NULL;
  }
  return v;
}

void json_free(json *v) {
  if (!v) return;
  for (size_t i = 0; i < v->count; i++) {
    json_free(v->items[i]);
    if (v->keys) free(v->keys[i]);
  }
  free(v->items);
  free(v->keys);
  free(v->string);
  free(v);
}

json_type json_kind(const json *v) { return v ? v->type : JSON_NULL; }

const json *json_get(const json *object, const char *key) {
  if (!object || object->type != JSON_OBJECT) return NULL;
  for (size_t i = 0; i < object->count; i++) {
    if (strcmp(object->keys[i], key) == 0) return object->items[i];
  }
  return NULL;
}

const json *json_at(const json *array, size_t index) {
  if (!array || array->type != JSON_ARRAY || index >= array->count) return NULL;
  return array->items[index];
}

size_t json_count(const json *v) {
  return v && (v->type == JSON_ARRAY || v->type == JSON_OBJECT) ? v->count : 0;
}

const char *json_string(const json *v) { return v && v->type == JSON_STRING ? v->string : NULL; }
double json_number(const json *v) { return v && v->type == JSON_NUMBER ? v->number : 0; }
bool json_bool(const json *v) { return v && v->type == JSON_BOOL && v->boolean; }
const char *json_get_string(const json *object, const char *key) { return json_string(json_get(object, key)); }
